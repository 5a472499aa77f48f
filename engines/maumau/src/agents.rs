//! Every Mau-Mau player as one [`Agent<MauMau>`]: random, first-fit, greedy, heuristic and
//! ISMCTS (also in its pre-issue-16 settings), built from a spec by [`make_agent`].
//!
//! A [`MauMauAgent`] owns the card tracker of its seat ([`Knowledge`]): [`Agent::new_game`]
//! starts a fresh one for the seat, [`Agent::observe`] feeds it every [`Notice`] the seat
//! receives (the in-process loop of [`crate::arena`] and the bot client produce the very same
//! notices), and [`Agent::choose`] answers from it. The [`View`] is used only for its seat; a
//! bot client builds it with [`View::seen`] from [`seen`].
//!
//! Answers are the legal actions of [`crate::game_impl`]'s form: a card that sets no wish (any
//! card but a Jack laid on a non-Jack) carries the wish `Pik`, which the server ignores.
//!
//! ```
//! use kibitz_maumau::agents::{make_agent, AgentOptions};
//! use kibitz_maumau::arena::play_game;
//! use kibitz_search::agent::Agent;
//!
//! let opts = AgentOptions::default();
//! let mut agents = vec![make_agent("heuristic", &opts).unwrap(), make_agent("random", &opts).unwrap()];
//! for (seat, agent) in agents.iter_mut().enumerate() {
//!     agent.new_game(seat, 7);
//! }
//! let record = play_game(opts.table, 1, &mut agents, None);
//! assert!(record.end.winner() < 2);
//! assert_eq!(record.penalties, [0; 4]);
//! ```

use crate::cards::{Card, CardSet, Suit};
use crate::game::Config;
use crate::game_impl::{legal_answers, MauMau, MauMauView};
use crate::knowledge::{Knowledge, Notice};
use crate::mcts::{IsmctsParams, IsmctsPlayer};
use crate::turn::{Action, Phase};
use kibitz_search::agent::{Agent, Decision, Seen, View};
use kibitz_search::game::Turn;
use kibitz_search::params::ParamError;
use kibitz_search::time::TimeControl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "agents_heuristic.rs"]
mod heuristic;
pub use heuristic::{most_held_suit, HeuristicParams};

/// Names accepted by [`make_agent`].
pub const AGENT_NAMES: [&str; 6] = [
    "random",
    "first",
    "greedy",
    "heuristic",
    "ismcts",
    "ismcts-legacy",
];

/// A spec [`make_agent`] cannot build.
#[derive(Debug, thiserror::Error)]
pub enum AgentSpecError {
    /// Unknown player name.
    #[error("unknown player {0:?} (known: {known})", known = AGENT_NAMES.join(", "))]
    UnknownPlayer(String),
    /// Unknown or malformed `name=value` parameter.
    #[error("bad parameter {0:?} for this player")]
    BadParam(String),
    /// A known tunable refused its value (out of its range, or not 0/1 for a switch).
    #[error("parameter {0:?}: {1}")]
    Param(String, String),
}

/// What [`make_agent`] needs besides the spec.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentOptions {
    /// The table the agent will sit at (its card tracker needs the number of seats).
    pub table: Config,
    /// Caps the ISMCTS search per move (otherwise only the time control stops it); `iters=`
    /// in the spec overrides it.
    pub iterations: Option<u64>,
    /// Root-parallel ISMCTS searches (1 = single-threaded; more run on scoped threads);
    /// `threads=` in the spec overrides it.
    pub threads: usize,
}

impl Default for AgentOptions {
    /// The contest's table, no iteration cap, one thread.
    fn default() -> Self {
        AgentOptions {
            table: Config::default(),
            iterations: None,
            threads: 1,
        }
    }
}

/// How a [`MauMauAgent`] decides (private: callers see only the agent).
enum Kind {
    /// A random legal card with a random wish; draws only when no card fits.
    Random(Box<ChaCha8Rng>),
    /// The first card that fits (lowest card number).
    First,
    /// Keeps Jacks, plays 7s and 8s first, else its longest suit.
    Greedy,
    /// Scores every card by what it leaves us and the opponent.
    Heuristic(HeuristicParams),
    /// ISMCTS over the tracker's determinizations.
    Ismcts(Box<IsmctsPlayer>),
}

/// One Mau-Mau player of any kind (see the [module docs](self)): its seat's card tracker and
/// how it decides.
pub struct MauMauAgent {
    kind: Kind,
    know: Knowledge,
    /// Cards of other hands shown for the next decision only (the arena's `peek`).
    shown: Option<Vec<CardSet>>,
}

impl MauMauAgent {
    fn of(kind: Kind) -> MauMauAgent {
        MauMauAgent {
            kind,
            know: Knowledge::new(Config::default(), 0),
            shown: None,
        }
    }

    /// The uniformly random player: a random legal card (with a random wish, kept only where
    /// it counts) if one fits, otherwise a draw. Not [`kibitz_search::agent::RandomAgent`]:
    /// that one picks among [`MauMau`]'s legal actions, so it would draw while a card fits and
    /// favour Jacks (one action per wish), a different and weaker baseline.
    pub fn random() -> MauMauAgent {
        MauMauAgent::of(Kind::Random(Box::new(ChaCha8Rng::seed_from_u64(0))))
    }

    /// The plainest greedy bot: plays the first card that fits (the lowest card number, so 7s
    /// and 8s before 9s and Aces), wishing the suit it holds most; draws only when nothing
    /// fits. A stand-in for "a greedy bot" of unknown make.
    pub fn first() -> MauMauAgent {
        MauMauAgent::of(Kind::First)
    }

    /// Greedy heuristic: keeps Jacks for when nothing else fits, plays 7s and 8s first,
    /// otherwise the card of its longest suit, and wishes the suit it holds most.
    pub fn greedy() -> MauMauAgent {
        MauMauAgent::of(Kind::Greedy)
    }

    /// The strongest hand-written player: scores each legal card by what it leaves in our hand
    /// and what it leaves the opponent (the tracker's void evidence), chains 8s, times 7s,
    /// saves Jacks, and wishes a suit we hold that the opponent is likely void in.
    pub fn heuristic(params: HeuristicParams) -> MauMauAgent {
        MauMauAgent::of(Kind::Heuristic(params))
    }

    /// The ISMCTS player with `params` ([`crate::mcts`]).
    pub fn ismcts(params: IsmctsParams) -> MauMauAgent {
        MauMauAgent::of(Kind::Ismcts(Box::new(IsmctsPlayer::new(params, 0))))
    }

    /// The same agent at a table of `table` (the default is the contest's two seats).
    pub fn at_table(mut self, table: Config) -> MauMauAgent {
        self.know = Knowledge::new(table, self.know.me());
        self
    }

    /// The same agent seated: [`Agent::new_game`] for a builder chain.
    pub fn seated(mut self, seat: usize, seed: u64) -> MauMauAgent {
        self.new_game(seat, seed);
        self
    }

    /// What the agent knows of its game so far.
    pub fn knowledge(&self) -> &Knowledge {
        &self.know
    }

    /// Shows the agent these cards of the other seats' hands (`hands[s]` for seat `s`) for its
    /// next decision only: the arena's research key `peek`, what card inference would be
    /// worth. The agent's own tracker is left as the notices made it.
    pub fn peek(&mut self, hands: Vec<CardSet>) {
        self.shown = Some(hands);
    }

    /// The answer this agent's policy gives for `know` (any seat's tracker, not its own):
    /// for research that looks at decisions from chosen knowledge (a tracker shown every hand,
    /// say). Advances the agent's randomness like [`Agent::choose`].
    pub fn decide(&mut self, know: &Knowledge, clock: &TimeControl) -> Decision<Action> {
        decide(&mut self.kind, know, clock)
    }
}

/// `kind`'s answer for `know`, in the legal actions' form.
fn decide(kind: &mut Kind, know: &Knowledge, clock: &TimeControl) -> Decision<Action> {
    let mut d = match kind {
        Kind::Random(rng) => Decision::action(random_choice(rng, know)),
        Kind::First => Decision::action(heuristic::first_fit(know)),
        Kind::Greedy => Decision::action(heuristic::greedy(know)),
        Kind::Heuristic(p) => Decision::action(heuristic::heuristic(p, know)),
        Kind::Ismcts(p) => ismcts_decision(p, know, clock),
    };
    d.action = canonical(d.action, know.top());
    d.elapsed = clock.elapsed();
    d
}

/// The form of `action` that [`MauMau`]'s legal actions use: the wish of a card that sets
/// none (anything but a Jack on a non-Jack) is `Pik`.
fn canonical(action: Action, top: Option<Card>) -> Action {
    match action {
        Action::Play { card, .. } if !card.is_jack() || top.is_none_or(|t| t.is_jack()) => {
            Action::Play {
                card,
                wish: Suit::Pik,
            }
        }
        a => a,
    }
}

fn random_choice(rng: &mut ChaCha8Rng, know: &Knowledge) -> Action {
    let legal = know.legal_plays();
    match legal.nth(rng.random_range(0..legal.len().max(1))) {
        Some(card) => Action::Play {
            card,
            wish: Suit::ALL[rng.random_range(0..4)],
        },
        None => Action::Draw,
    }
}

/// The ISMCTS decision: nodes = iterations, score = the chosen action's win rate (0 to 1),
/// `stats` = its root visits. Forced moves and the endgame solver report no search.
fn ismcts_decision(p: &mut IsmctsPlayer, know: &Knowledge, tc: &TimeControl) -> Decision<Action> {
    let legal = know.legal_plays();
    if legal.is_empty() {
        return Decision::action(Action::Draw);
    }
    if know.hand().len() == 1 {
        // The last card fits: play it and win.
        let card = legal.first().unwrap_or_default();
        return Decision::action(Action::Play {
            card,
            wish: Suit::Pik,
        });
    }
    if let Some(a) = p.endgame(know) {
        return Decision::action(a);
    }
    let stats = p.search(know, tc);
    let Some(best) = stats.best else {
        // No time for even one iteration: fall back to the greedy choice.
        return Decision::action(heuristic::greedy(know));
    };
    let mut d = Decision::action(best);
    if let Some(c) = stats.children.iter().find(|c| c.action == best) {
        d.nodes = stats.iterations;
        d.score = Some(c.mean_reward);
        d.stats = vec![("visits", c.visits as f64)];
    }
    d
}

impl Agent<MauMau> for MauMauAgent {
    fn name(&self) -> String {
        match self.kind {
            Kind::Random(_) => "random",
            Kind::First => "first",
            Kind::Greedy => "greedy",
            Kind::Heuristic(_) => "heuristic",
            Kind::Ismcts(_) => "ismcts",
        }
        .into()
    }

    /// A fresh tracker for `seat`; the randomness restarts from `seed` (the random player's
    /// and the search's streams are exactly those of a player built with `seed`).
    fn new_game(&mut self, seat: usize, seed: u64) {
        self.know = Knowledge::new(self.know.config(), seat);
        self.shown = None;
        match &mut self.kind {
            Kind::Random(rng) => **rng = ChaCha8Rng::seed_from_u64(seed),
            Kind::Ismcts(p) => **p = IsmctsPlayer::new(p.params, seed),
            _ => {}
        }
    }

    fn observe(&mut self, notice: &Notice) {
        self.know.observe(notice);
    }

    /// Answers from the agent's tracker (with any [`MauMauAgent::peek`]ed cards revealed).
    fn choose(&mut self, _view: &View<'_, MauMau>, clock: &TimeControl) -> Decision<Action> {
        match self.shown.take() {
            None => decide(&mut self.kind, &self.know, clock),
            Some(hands) => {
                let mut seeing = self.know.clone();
                for (s, &cards) in hands.iter().enumerate().take(seeing.players()) {
                    seeing.reveal(s, cards);
                }
                self.decide(&seeing, clock)
            }
        }
    }
}

/// Builds an agent from a spec `name[:param=value,...]`: `random`, `first`, `greedy`,
/// `heuristic[:suit_length=,eight_follow=,seven=,jack_cost=,opponent_void=,keep_jack_above=]`,
/// `ismcts[:iters=N,threads=T,param.NAME=V,...]` (`threads`: 1–64 root-parallel searches; any name of [`crate::param_specs`]; the old short keys
/// `c=,eps=,rollout=,r78=` still work) or `ismcts-legacy[:...]` (the same search with the
/// settings before issue 16). The agent sits at `opts.table`; seat it with
/// [`Agent::new_game`].
pub fn parse_agent(spec: &str, opts: &AgentOptions) -> Result<MauMauAgent, AgentSpecError> {
    let (name, params) = spec.split_once(':').unwrap_or((spec, ""));
    let mut kv = Vec::new();
    for item in params.split(',').filter(|s| !s.is_empty()) {
        let bad = || AgentSpecError::BadParam(item.to_string());
        let (k, v) = item.split_once('=').ok_or_else(bad)?;
        let v = v.trim().parse::<f64>().ok().filter(|v| v.is_finite());
        kv.push((k.trim(), v.ok_or_else(bad)?, item));
    }
    let bad = |item: &str| AgentSpecError::BadParam(item.to_string());
    let agent = match name {
        "random" | "first" | "greedy" if !kv.is_empty() => return Err(bad(kv[0].2)),
        "random" => MauMauAgent::random(),
        "first" => MauMauAgent::first(),
        "greedy" => MauMauAgent::greedy(),
        "heuristic" => {
            let mut h = HeuristicParams::default();
            for (k, v, item) in kv {
                *h.slot(k).ok_or_else(|| bad(item))? = v as f32;
            }
            MauMauAgent::heuristic(h)
        }
        "ismcts" | "ismcts-legacy" => {
            use kibitz_search::params::Tunable;
            let mut p = if name == "ismcts" {
                IsmctsParams::default()
            } else {
                IsmctsParams::legacy()
            };
            p.threads = opts.threads.max(1);
            if let Some(k) = opts.iterations {
                p.search.max_iterations = k;
            }
            for (k, v, item) in kv {
                let k = match k {
                    "iters" => {
                        p.search.max_iterations = v.max(1.0) as u64;
                        continue;
                    }
                    "threads" if (1.0..=64.0).contains(&v) && v.fract() == 0.0 => {
                        p.threads = v as usize;
                        continue;
                    }
                    "c" | "eps" | "rollout" | "r78" => k,
                    _ => k.strip_prefix("param.").ok_or_else(|| bad(item))?,
                };
                p.set_param(k, v).map_err(|e| match e {
                    ParamError::Unknown(_) => bad(item),
                    e => AgentSpecError::Param(item.to_string(), e.to_string()),
                })?;
            }
            MauMauAgent::ismcts(p)
        }
        other => return Err(AgentSpecError::UnknownPlayer(other.to_string())),
    };
    Ok(agent.at_table(opts.table))
}

/// [`parse_agent`] as the trait object every caller holds.
pub fn make_agent(
    spec: &str,
    opts: &AgentOptions,
) -> Result<Box<dyn Agent<MauMau> + Send>, AgentSpecError> {
    Ok(Box::new(parse_agent(spec, opts)?))
}

/// What a seat knows from the wire alone, as [`View::seen`] takes it: the observation rebuilt
/// from the tracker and the legal actions from its legal plays (the same set the referee's
/// view lists). `turns` is the number of broadcasts received (turns begun). The tracker keeps
/// the pile as a set, so the observation's pile lists it in card order with the top card last;
/// every seat counts as online (the wire does not say who left).
pub fn seen(know: &Knowledge, turns: u32) -> Seen<MauMau> {
    let me = know.me();
    let n = know.players();
    let top = know.top();
    let mut pile: Vec<Card> = know.pile().iter().filter(|&c| Some(c) != top).collect();
    pile.extend(top);
    let legal = match top {
        Some(t) => legal_answers(know.legal_plays(), t),
        None => vec![Action::Draw],
    };
    Seen {
        seats: n,
        turn: Turn::Seat(me),
        observation: MauMauView {
            seat: me,
            hand: know.hand(),
            hand_sizes: (0..n).map(|s| know.hand_size(s)).collect(),
            pile,
            talon_len: know.talon_len(),
            wish: know.wish(),
            pending: (0..n)
                .map(|s| (know.pending_skip(s), know.pending_draw_two(s), true))
                .collect(),
            played: (0..n).map(|s| know.valid_moves(s)).collect(),
            phase: Phase::Answer(me),
            turns,
        },
        legal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_parser_builds_every_kind() {
        let opts = AgentOptions::default();
        for (spec, name) in [
            ("random", "random"),
            ("first", "first"),
            ("greedy", "greedy"),
            ("heuristic:seven=3", "heuristic"),
            ("ismcts:iters=10", "ismcts"),
            ("ismcts-legacy", "ismcts"),
        ] {
            assert_eq!(make_agent(spec, &opts).unwrap().name(), name, "{spec}");
        }
        let three = AgentOptions {
            table: Config {
                players: 3,
                ..Config::default()
            },
            ..opts
        };
        assert_eq!(
            parse_agent("greedy", &three).unwrap().knowledge().players(),
            3
        );
        assert!(matches!(
            parse_agent("alphazero", &opts),
            Err(AgentSpecError::UnknownPlayer(_))
        ));
        assert!(matches!(
            parse_agent("random:x=1", &opts),
            Err(AgentSpecError::BadParam(_))
        ));
    }

    #[test]
    fn a_wish_that_sets_nothing_reads_pik() {
        let (seven, jack) = (Card::from_index(0).unwrap(), Card::from_index(17).unwrap());
        let play = |card, wish| Action::Play { card, wish };
        assert_eq!(
            canonical(play(seven, Suit::Herz), Some(seven)),
            play(seven, Suit::Pik)
        );
        assert_eq!(
            canonical(play(jack, Suit::Herz), Some(seven)),
            play(jack, Suit::Herz)
        );
        assert_eq!(
            canonical(play(jack, Suit::Herz), Some(jack)),
            play(jack, Suit::Pik)
        );
        assert_eq!(canonical(Action::Draw, None), Action::Draw);
    }
}
