//! Move choosers behind the client: the engine's search and two baselines.
//!
//! The client owns the clock: it builds the [`TimeControl`] when the MoveRequest arrives and
//! hands it to [`Player::choose`]; a player must return by the hard deadline.

use kibitz_piranhas::{Move, State};
use kibitz_search::time::TimeControl;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// What a player decided, with what it thought (logged by the client).
#[derive(Debug, Clone, Default)]
pub struct Decision {
    /// The move to send (`None` only when there is no legal move).
    pub mv: Option<Move>,
    /// Score from the mover's view (engine units), if searched.
    pub score: i32,
    /// Completed search depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Something that picks moves for the client.
pub trait Player: Send {
    /// A short name for logs and tables.
    fn name(&self) -> String;
    /// Picks a move in `state` (side to move = us) within `tc`.
    fn choose(&mut self, state: &State, tc: &TimeControl) -> Decision;
}

/// Uniformly random legal moves (seeded).
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random player with a fixed seed.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &State, _tc: &TimeControl) -> Decision {
        let moves = state.legal_moves();
        Decision {
            mv: moves.choose(&mut self.rng).copied(),
            ..Decision::default()
        }
    }
}

/// One-ply greedy: the move after which our biggest swarm minus the opponent's is largest
/// (an immediate win first), ties broken at random.
pub struct GreedyPlayer {
    rng: ChaCha8Rng,
}

impl GreedyPlayer {
    /// A greedy player with a fixed seed for tie-breaks.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, state: &State, _tc: &TimeControl) -> Decision {
        let me = state.current();
        let mut best: Vec<Move> = Vec::new();
        let mut best_score = i32::MIN;
        for mv in state.legal_moves() {
            let Ok(next) = state.apply(mv) else { continue };
            let score = match next.result() {
                Some(r) if r.winner == Some(me) => 10_000,
                Some(r) if r.winner.is_none() => 0,
                Some(_) => -10_000,
                None => {
                    next.biggest_swarm(me) as i32 * 10
                        - next.biggest_swarm(me.other()) as i32 * 5
                        - next.fish_count(me) as i32
                }
            };
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(mv);
            }
        }
        Decision {
            mv: best.choose(&mut self.rng).copied(),
            score: best_score,
            depth: 1,
            ..Decision::default()
        }
    }
}
