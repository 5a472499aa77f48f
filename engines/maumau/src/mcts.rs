//! The ISMCTS player: [`kibitz_search::ismcts`] over [`FastSim`] determinizations sampled by
//! a [`Determinizer`] from the card tracker (weighted by what draws, wishes and Jacks
//! revealed), with playouts on bit masks that sample a softmax fitted to a full-information
//! player's choices, and progressive bias.

use crate::endgame::{pimc, EndgameParams};
use crate::game::{Action, Game};
use crate::knowledge::Knowledge;
use crate::model::ModelWeights;
pub use crate::rollout::{GreedyRollout, SeatedRollout};
use crate::sim::{suit_mask, Determinizer, EvidenceWeights, FastSim, SimRng, JACKS};
use kibitz_search::ismcts::{merge_root_stats, Ismcts, IsmctsConfig, IsmctsGame, SearchStats};
use kibitz_search::time::TimeControl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

impl IsmctsGame for FastSim {
    type Action = Action;

    fn player_to_move(&self) -> usize {
        self.mover()
    }

    fn is_terminal(&self) -> bool {
        self.winner().is_some()
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.winner().is_none() {
            self.candidate_actions(out);
        }
    }

    fn apply<R: Rng + ?Sized>(&mut self, action: Action, rng: &mut R) {
        self.apply_action(action, rng);
    }

    fn reward(&self, player: usize) -> f64 {
        match self.winner() {
            Some(w) => (w == player) as u8 as f64,
            None => self.estimate(player),
        }
    }

    fn action_bias(&self, action: Action) -> f64 {
        let legal = self.legal();
        let hand = self.hand(self.mover()).0;
        match action {
            Action::Draw => {
                if legal & !JACKS != 0 {
                    -1.0
                } else if legal != 0 {
                    -0.3
                } else {
                    0.0
                }
            }
            Action::Play { card, .. } => {
                let c = card.index() as u32;
                let rest = hand & !(1 << c);
                if rest == 0 {
                    return 1.0;
                }
                let mut b = 0.08 * (rest & suit_mask(c & 3)).count_ones() as f64;
                if c >> 2 == 4 && legal & !JACKS != 0 {
                    b -= 0.6;
                }
                if c >> 2 <= 1 {
                    b += 0.3;
                }
                b
            }
        }
    }
}

/// Settings of the ISMCTS player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsParams {
    /// Search settings (exploration, iteration cap, rollout cut-off, progressive bias, early
    /// stop).
    pub search: IsmctsConfig,
    /// The playout policy (its weights are the `r…` and `eps` parameters).
    pub playout: GreedyRollout,
    /// Likelihood factors for sampling opponents' hands from the tracker's evidence.
    pub evidence: EvidenceWeights,
    /// Opponent model weighing sampled hands by the opponents' actions so far.
    pub model: ModelWeights,
    /// Root-parallel searches (1 = single-threaded; more run on scoped threads).
    pub threads: usize,
    /// The endgame search: PIMC with an exact solver per world once every hand is small
    /// (two seats; `hand = 0` leaves every move to ISMCTS).
    pub endgame: EndgameParams,
    /// Exploiting a greedy opponent (0 = off): once the particle filter's posterior that the
    /// opponent plays like the greedy bot reaches `exploit_belief`, its playout moves are the
    /// greedy bot's ([`SeatedRollout`]) and its moves inside the tree are too with this
    /// probability (the search's `opponent_policy`), instead of UCB replies that see our hand.
    /// Off by default because it did not help: at 8,000 iterations per move (5.4k used with
    /// early stop), 1,000 games on the same deals (`examples/mm_match.rs`, seed 404), `1`
    /// scored 72.7 % against greedy (off: 73.0 %) and 87.6 % against random (87.5 %), and
    /// 126 / 250 head to head against it off. Knowing how the greedy bot plays is not what the
    /// search lacks; its hidden cards are (`examples/mm_greedy_losses.rs`).
    pub exploit: f64,
    /// The filter's posterior from which [`IsmctsParams::exploit`] models the opponent as
    /// the greedy bot (default [`GREEDY_BELIEF`]).
    pub exploit_belief: f64,
}

/// The default filter posterior (greedy against uniform play) from which
/// [`IsmctsParams::exploit`] models the opponent as the greedy bot. The hypotheses part fast: a greedy bot's history
/// keeps the posterior near 1, a single clearly non-greedy choice drops it by ~8 nats.
pub const GREEDY_BELIEF: f64 = 0.9;

impl Default for IsmctsParams {
    fn default() -> Self {
        IsmctsParams {
            search: IsmctsConfig {
                exploration: 0.7,
                max_iterations: u64::MAX,
                max_rollout_steps: 300,
                check_every: 16,
                progressive_bias: 1.0,
                early_stop: true,
                opponent_policy: 0.0,
            },
            playout: GreedyRollout::fitted(),
            // Measured with `kibitz maumau prior` (45k decisions of a random / greedy /
            // heuristic / ISMCTS field; tuning/results/maumau_prior_field.log).
            evidence: EvidenceWeights {
                per_draw: 1.0,
                void: 0.49,
                decay: 0.55,
                wish: 1.42,
                jack: 0.65,
            },
            // The opponent model: a nearly deterministic greedy player (8 nats per card of a
            // suit; a 7 or 8 worth 6.25 cards and a Jack costing 12.5, more than any real
            // suit-length gap, so the order is the greedy player's; 1 % noise) beside the
            // uniform hypothesis, followed forward from the deal by the particle filter (two
            // seats). The true-card share of sampled hands rose from 0.322 / 0.308 to 0.364 /
            // 0.333 against greedy / heuristic opponents (1,024 particles: 0.369 / 0.334, so
            // 256 are converged); at 50 ms on the same deals +1.0 / +2.4 / +0.4 points against
            // greedy / heuristic / random; head to head with the old model +7 ± 22 Elo (50 ms)
            // and -10 ± 25 over the real protocol (200 ms): neutral
            // (tuning/results/maumau_inference_probe.log, maumau_matches.log).
            model: ModelWeights {
                play: 8.0,
                wish: 8.0,
                void: 0.01,
                noise: 0.01,
                particles: 256,
                filter: true,
                special: 6.25,
                jack: 12.5,
            },
            threads: 1,
            endgame: EndgameParams::OFF,
            exploit: 0.0,
            exploit_belief: GREEDY_BELIEF,
        }
    }
}

impl IsmctsParams {
    /// The settings of the ISMCTS player before issue 16 (draw evidence 0.2, wish evidence 3,
    /// no Jack evidence, greedy playouts with 10 % noise, no progressive bias, no early stop):
    /// the reference for measuring what each change gives.
    pub fn legacy() -> IsmctsParams {
        IsmctsParams {
            search: IsmctsConfig {
                exploration: 0.7,
                max_iterations: u64::MAX,
                max_rollout_steps: 300,
                check_every: 16,
                progressive_bias: 0.0,
                early_stop: false,
                opponent_policy: 0.0,
            },
            playout: GreedyRollout::default(),
            evidence: EvidenceWeights {
                per_draw: 0.2,
                void: 1.0,
                decay: 1.0,
                wish: 3.0,
                jack: 1.0,
            },
            model: ModelWeights::OFF,
            threads: 1,
            endgame: EndgameParams::OFF,
            exploit: 0.0,
            exploit_belief: GREEDY_BELIEF,
        }
    }

    /// The playout policy these settings describe.
    pub fn rollout(&self) -> GreedyRollout {
        self.playout
    }
}

/// The ISMCTS search of one seat (its randomness and reusable tree); the agent that plays with
/// it is [`crate::agents::MauMauAgent::ismcts`].
pub struct IsmctsPlayer {
    /// Settings.
    pub params: IsmctsParams,
    rng: ChaCha8Rng,
    searcher: Option<Ismcts<FastSim>>,
}

impl IsmctsPlayer {
    /// A player with `params`, seeded.
    pub fn new(params: IsmctsParams, seed: u64) -> Self {
        IsmctsPlayer {
            params,
            rng: ChaCha8Rng::seed_from_u64(seed),
            searcher: None,
        }
    }

    /// The endgame search's action when it takes this decision: two seats, every hand at
    /// most `params.endgame.hand` cards (see [`crate::endgame`]); `None` leaves it to ISMCTS.
    pub fn endgame(&mut self, know: &Knowledge) -> Option<Action> {
        let p = self.params;
        let small = |s: usize| know.hand_size(s) as u32 <= p.endgame.hand;
        if p.endgame.hand == 0 || know.players() != 2 || !(small(0) && small(1)) {
            return None;
        }
        if know.hand().len() as u32 > p.endgame.hand {
            return None;
        }
        let mut model_rng = SimRng::new(self.rng.random());
        let det = Determinizer::new(know, &p.evidence, &p.model, &mut model_rng);
        let mut rng = SimRng::new(self.rng.random());
        pimc(&det, &p.endgame, &mut rng).best
    }

    /// Searches from `know` and returns the merged root statistics.
    pub fn search(&mut self, know: &Knowledge, tc: &TimeControl) -> SearchStats<Action> {
        let p = self.params;
        let mut model_rng = SimRng::new(self.rng.random());
        let det = Determinizer::new(know, &p.evidence, &p.model, &mut model_rng);
        let greedy_opponent = p.exploit > 0.0 && det.opponent_greedy() >= p.exploit_belief;
        let mut config = p.search;
        if greedy_opponent {
            config.opponent_policy = p.exploit;
        }
        let policy = SeatedRollout {
            seat: know.me(),
            ours: p.rollout(),
            greedy_opponent,
        };
        let run = |searcher: &mut Ismcts<FastSim>, seed: u64| {
            let mut rng = SimRng::new(seed);
            let mut policy = policy;
            searcher.search(|r: &mut SimRng| det.sample(r), &mut policy, tc, &mut rng)
        };
        if p.threads <= 1 {
            let seed = self.rng.random();
            let searcher = self.searcher.get_or_insert_with(|| Ismcts::new(config));
            searcher.config = config;
            return run(searcher, seed);
        }
        let seeds: Vec<u64> = (0..p.threads).map(|_| self.rng.random()).collect();
        // Scoped OS threads, not the current rayon pool: the arena plays each game inside a
        // pool of `--concurrency` threads, so at concurrency 1 `par_iter` ran the searches
        // one after another (the later ones with the soft time already spent).
        let run = &run;
        let results: Vec<_> = std::thread::scope(|s| {
            let helpers: Vec<_> = seeds[1..]
                .iter()
                .map(|&seed| s.spawn(move || run(&mut Ismcts::new(config), seed)))
                .collect();
            let mut all = vec![run(&mut Ismcts::new(config), seeds[0])];
            // A helper that panicked only loses its own statistics.
            all.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
            all
        });
        merge_root_stats(&results)
    }
}

/// Deterministic bench workload: ISMCTS searches of a fixed iteration count from the first
/// decision of fixed deals. Returns the number of simulated actions (tree walks + rollouts).
pub fn bench() -> u64 {
    bench_with(8, 4000)
}

/// [`bench()`] with `positions` deals and `iterations` per search.
pub fn bench_with(positions: u64, iterations: u64) -> u64 {
    let mut params = IsmctsParams::default();
    params.search.max_iterations = iterations;
    params.search.early_stop = false;
    bench_params(positions, &params)
}

/// [`bench_with`] for any settings (iterations from `params.search.max_iterations`).
pub fn bench_params(positions: u64, params: &IsmctsParams) -> u64 {
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
        let mut player = IsmctsPlayer::new(*params, seed);
        steps += player.search(&know, &TimeControl::infinite()).steps;
    }
    steps
}
