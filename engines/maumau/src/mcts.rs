//! The ISMCTS player: [`kibitz_search::ismcts`] over determinizations sampled from the card
//! tracker, with greedy-with-noise rollouts.

use crate::cards::{CardSet, Suit};
use crate::game::{Action, Game, Phase};
use crate::knowledge::Knowledge;
use crate::player::{most_held_suit, Player};
use kibitz_search::ismcts::{
    merge_root_stats, Ismcts, IsmctsConfig, IsmctsGame, RolloutPolicy, SearchStats,
};
use kibitz_search::time::TimeControl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// A determinized game as the search sees it: always at a decision or over.
#[derive(Clone, Debug)]
pub struct Sim(pub Game);

impl Sim {
    /// Wraps a game, running turn starts (skips, draw-twos) up to the next decision.
    pub fn new<R: Rng + ?Sized>(mut game: Game, rng: &mut R) -> Sim {
        while game.phase() == Phase::BeginTurn {
            let _ = game.begin_turn(rng);
        }
        Sim(game)
    }
}

/// Appends the actions the search considers: every legal card (a wishing Jack once per suit we
/// could follow, or per suit if we could follow none) and drawing.
pub fn candidate_actions(game: &Game, seat: usize, out: &mut Vec<Action>) {
    let hand = game.hand(seat);
    let top_jack = game.top().is_jack();
    for card in game.legal_plays(seat) {
        if card.is_jack() && !top_jack {
            let rest = hand.minus(CardSet::single(card)).minus(CardSet::JACKS);
            let mut any = false;
            for s in Suit::ALL {
                if rest.count_suit(s) > 0 {
                    out.push(Action::Play { card, wish: s });
                    any = true;
                }
            }
            if !any {
                out.extend(Suit::ALL.map(|wish| Action::Play { card, wish }));
            }
        } else {
            out.push(Action::Play {
                card,
                wish: Suit::Pik,
            });
        }
    }
    out.push(Action::Draw);
}

impl IsmctsGame for Sim {
    type Action = Action;

    fn player_to_move(&self) -> usize {
        match self.0.phase() {
            Phase::Answer(s) => s,
            _ => self.0.turn(),
        }
    }

    fn is_terminal(&self) -> bool {
        matches!(self.0.phase(), Phase::Over(_))
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if let Phase::Answer(s) = self.0.phase() {
            candidate_actions(&self.0, s, out);
        }
    }

    fn apply<R: Rng + ?Sized>(&mut self, action: Action, rng: &mut R) {
        let _ = self.0.act(action, rng);
        while self.0.phase() == Phase::BeginTurn {
            let _ = self.0.begin_turn(rng);
        }
    }

    fn reward(&self, player: usize) -> f64 {
        match self.0.outcome() {
            Some(end) => (end.winner() == player) as u8 as f64,
            None => {
                // Cut-off: fewer cards than the others is better.
                let mine = self.0.hand_size(player) as f64;
                let n = self.0.players();
                let others = (0..n)
                    .filter(|&s| s != player)
                    .map(|s| self.0.hand_size(s) as f64)
                    .fold(f64::INFINITY, f64::min);
                1.0 / (1.0 + (0.4 * (mine - others)).exp())
            }
        }
    }
}

/// Rollout policy: the greedy heuristic (keep Jacks, 7s and 8s first, longest suit, wish the
/// most held suit) with an `epsilon` chance of a uniformly random action instead.
#[derive(Clone, Copy, Debug)]
pub struct GreedyRollout {
    /// Probability of a random candidate action.
    pub epsilon: f64,
    /// Score bonus for 7s and 8s (the greedy player uses 50: always first).
    pub special_bonus: i32,
}

impl RolloutPolicy<Sim> for GreedyRollout {
    fn choose<R: Rng + ?Sized>(&mut self, sim: &Sim, actions: &[Action], rng: &mut R) -> Action {
        if rng.random::<f64>() < self.epsilon {
            return actions[rng.random_range(0..actions.len())];
        }
        let game = &sim.0;
        let Phase::Answer(seat) = game.phase() else {
            return Action::Draw;
        };
        let hand = game.hand(seat);
        let mut best = (i32::MIN, Action::Draw);
        for card in game.legal_plays(seat) {
            let mut s = 4 * hand.count_suit(card.suit()) as i32 + rng.random_range(0..3);
            if card.is_jack() {
                s -= 100;
            }
            if card.is_seven() || card.is_eight() {
                s += self.special_bonus;
            }
            if s > best.0 {
                let wish = most_held_suit(hand.minus(CardSet::single(card)));
                best = (s, Action::Play { card, wish });
            }
        }
        best.1
    }
}

/// Settings of the ISMCTS player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsParams {
    /// Search settings (exploration, iteration cap, rollout cut-off).
    pub search: IsmctsConfig,
    /// Rollout randomness.
    pub rollout_epsilon: f64,
    /// Rollout bonus for 7s and 8s.
    pub rollout_special: i32,
    /// Root-parallel searches (1 = single-threaded; more use the current rayon pool).
    pub threads: usize,
}

impl Default for IsmctsParams {
    fn default() -> Self {
        IsmctsParams {
            search: IsmctsConfig {
                exploration: 0.7,
                max_iterations: u64::MAX,
                max_rollout_steps: 300,
                check_every: 16,
            },
            rollout_epsilon: 0.1,
            rollout_special: 50,
            threads: 1,
        }
    }
}

/// The ISMCTS player.
pub struct IsmctsPlayer {
    /// Settings.
    pub params: IsmctsParams,
    rng: ChaCha8Rng,
    last: Option<SearchStats<Action>>,
}

impl IsmctsPlayer {
    /// A player with `params`, seeded.
    pub fn new(params: IsmctsParams, seed: u64) -> Self {
        IsmctsPlayer {
            params,
            rng: ChaCha8Rng::seed_from_u64(seed),
            last: None,
        }
    }

    /// Statistics of the last search (none if the move was forced).
    pub fn last_search(&self) -> Option<&SearchStats<Action>> {
        self.last.as_ref()
    }

    /// Searches from `know` and returns the merged root statistics.
    pub fn search(&mut self, know: &Knowledge, tc: &TimeControl) -> SearchStats<Action> {
        let p = self.params;
        let seeds: Vec<u64> = (0..p.threads.max(1)).map(|_| self.rng.random()).collect();
        let run = |seed: u64| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut searcher = Ismcts::<Sim>::new(p.search);
            let mut policy = GreedyRollout {
                epsilon: p.rollout_epsilon,
                special_bonus: p.rollout_special,
            };
            searcher.search(
                |r: &mut ChaCha8Rng| {
                    let g = know.sample(r);
                    Sim(g)
                },
                &mut policy,
                tc,
                &mut rng,
            )
        };
        if seeds.len() == 1 {
            run(seeds[0])
        } else {
            let results: Vec<_> = seeds.par_iter().map(|&s| run(s)).collect();
            merge_root_stats(&results)
        }
    }
}

impl Player for IsmctsPlayer {
    fn name(&self) -> String {
        "ismcts".into()
    }

    fn choose(&mut self, know: &Knowledge, tc: &TimeControl) -> Action {
        self.last = None;
        let legal = know.legal_plays();
        if legal.is_empty() {
            return Action::Draw;
        }
        if know.hand().len() == 1 {
            // The last card fits: play it and win.
            let card = legal.first().unwrap_or_default();
            return Action::Play {
                card,
                wish: Suit::Pik,
            };
        }
        let stats = self.search(know, tc);
        let best = stats.best;
        self.last = Some(stats);
        match best {
            Some(a) => a,
            // No time for even one iteration: fall back to the greedy choice.
            None => crate::player::GreedyPlayer.choose(know, tc),
        }
    }
}

/// Deterministic bench workload: ISMCTS searches of a fixed iteration count from the first
/// decision of fixed deals. Returns the number of simulated actions (tree walks + rollouts).
pub fn bench() -> u64 {
    bench_with(8, 4000)
}

/// [`bench`] with `positions` deals and `iterations` per search.
pub fn bench_with(positions: u64, iterations: u64) -> u64 {
    use crate::game::Config;
    let mut steps = 0;
    for seed in 0..positions {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::deal(Config::default(), &mut rng);
        let start = game.begin_turn(&mut rng).expect("fresh game");
        let mut know = Knowledge::new(Config::default(), 0);
        know.observe(&crate::knowledge::Notice::Broadcast {
            seat: 0,
            top: start.top,
            cards_left: start.cards_left,
            skipped: false,
        });
        know.observe(&crate::knowledge::Notice::Private {
            top: start.top,
            wish: None,
            cards_left: game.hand_size(0),
            draw_two: start.draw_two,
            hand: Some(game.hand(0)),
        });
        let mut params = IsmctsParams::default();
        params.search.max_iterations = iterations;
        let mut player = IsmctsPlayer::new(params, seed);
        steps += player.search(&know, &TimeControl::infinite()).steps;
    }
    steps
}
