//! Move choosers behind the client: the engine's search and two baselines.
//!
//! The client owns the clock: it builds the [`TimeControl`] when the MoveRequest arrives and
//! hands it to [`Player::choose`]; a player must return by the hard deadline.

use kibitz_piranhas::search::greedy_move;
use kibitz_piranhas::{Engine, EngineConfig, EvalParams, Move, State};
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

/// One-ply greedy with the engine's evaluation (an immediate win first).
pub struct GreedyPlayer {
    params: EvalParams,
}

impl GreedyPlayer {
    /// A greedy player with the engine's default evaluation weights.
    pub fn new() -> Self {
        Self {
            params: EvalParams::default(),
        }
    }
}

impl Default for GreedyPlayer {
    fn default() -> Self {
        Self::new()
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, state: &State, _tc: &TimeControl) -> Decision {
        Decision {
            mv: greedy_move(state, &self.params),
            depth: 1,
            ..Decision::default()
        }
    }
}

/// The engine's alpha-beta search (iterative deepening within the client's time control).
pub struct SearchPlayer {
    engine: Engine,
    label: String,
}

impl SearchPlayer {
    /// A search player with the given engine settings and a display label.
    pub fn new(config: EngineConfig, label: &str) -> Self {
        Self {
            engine: Engine::new(config),
            label: label.to_string(),
        }
    }
}

impl Player for SearchPlayer {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&mut self, state: &State, tc: &TimeControl) -> Decision {
        let c = self.engine.choose_with(state, tc, |it| {
            tracing::debug!(
                "depth {} score {} nodes {} time {} ms",
                it.depth,
                it.score,
                it.nodes,
                tc.elapsed().as_millis()
            );
        });
        Decision {
            mv: c.mv,
            score: c.score,
            depth: c.depth,
            nodes: c.nodes,
            pv: c.pv,
        }
    }
}
