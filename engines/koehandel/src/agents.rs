//! Every Koehandel player as one [`Agent<Koehandel>`]: [`PassAgent`], [`KhRandomAgent`],
//! [`HeuristicPlayer`] and [`StrongPlayer`], and the one spec parser [`make_agent`] that the
//! arena, `kibitz play`, the HTTP bot and the tournament all use.
//!
//! An agent is told every notice addressed to its seat ([`Agent::observe`], in the market's
//! order) and asked to [`Agent::choose`] when the market's pending question is its own: the
//! question is in the view's observation ([`crate::game_impl::KhView::ask`]) and the answer is a [`KhAction`].
//! Money answers beyond the menu of `legal_actions` are allowed, since the market takes every
//! answer the rules take ([`kibitz_search::game::Game::apply`]).
//!
//! What a search knew comes back in the [`Decision`]: `score` is the chosen answer's mean
//! utility over the sampled worlds, `nodes` the play-outs, and `stats` the `worlds` and
//! `candidates` compared (empty for answers taken without a search).
//!
//! # Example: four agents play one game
//! ```
//! use kibitz_koehandel::agents::{make_agent, KhAgent};
//! use kibitz_koehandel::game_impl::Koehandel;
//! use kibitz_koehandel::Game;
//! use kibitz_search::agent::View;
//! use kibitz_search::time::TimeControl;
//!
//! let specs = ["heuristic", "random", "pass", "heuristic:rate=0.5"];
//! let mut agents: Vec<KhAgent> = specs.iter().map(|s| make_agent(s, 7).unwrap()).collect();
//! for (seat, a) in agents.iter_mut().enumerate() {
//!     a.new_game(seat, 7 + seat as u64);
//! }
//! let mut game = Koehandel(Game::new(3));
//! loop {
//!     for n in game.0.drain_notices() {
//!         agents[n.seat.idx()].observe(&n.event);
//!     }
//!     let Some(seat) = View::mover(&game) else { break };
//!     let d = agents[seat].choose(&View::new(&game, seat), &TimeControl::infinite());
//!     game.0.answer(d.action.0);
//! }
//! assert!(game.0.is_over());
//! ```

use kibitz_search::agent::{Agent, Decision, View};
use kibitz_search::clock::MoveBudget;
use kibitz_search::params::ParamError;
use kibitz_search::time::TimeControl;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

use crate::auction::server_payment;
use crate::event::{Answer, Event, Question, TradeStart};
use crate::game_impl::{KhAction, Koehandel};
use crate::heuristic::{HeuristicParams, HeuristicPlayer};
use crate::knowledge::Knowledge;
use crate::strong::{StrongParams, StrongPlayer};
use crate::types::{Animal, Cards, MoneyCard, Seat, MONEY_KINDS};

/// The most threads a strong player's spec may ask for (`strong:threads=N`).
pub const MAX_THREADS: usize = 64;

/// How callers hold a Koehandel player.
pub type KhAgent = Box<dyn Agent<Koehandel> + Send>;

/// The names [`make_agent`] knows.
pub const PLAYER_NAMES: [&str; 4] = ["pass", "random", "heuristic", "strong"];

/// Why [`make_agent`] refused a spec.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// The name before the first `:` is no player.
    #[error("unknown player {0:?} (players: pass, random, heuristic, strong)")]
    UnknownPlayer(String),
    /// An option is not `key=number`.
    #[error("option {0:?} is not key=number")]
    BadOption(String),
    /// The player takes no option of this name (or not this value).
    #[error("player {player:?} takes no option {key:?} = {value}")]
    UnknownOption {
        /// The player's name.
        player: String,
        /// The option's name.
        key: String,
        /// Its value.
        value: f64,
    },
    /// A known tunable refused its value (out of its range).
    #[error("option {0:?}: {1}")]
    Param(String, String),
}

/// Creates an agent from its spec, seeded for determinism (a later [`Agent::new_game`]
/// reseeds it). Parameters follow the name, colon-separated: `heuristic:rate=0.5:denial=0.2`
/// (`rate`, `denial`, `trade`, `contested`), `strong:worlds=32` or `strong:param.worlds=32`
/// (any name of [`crate::params::strong_specs`]), `strong:time_ms=5000:overhead_ms=500` (a
/// per-decision budget by the one clock rule, [`MoveBudget::for_move`]: soft = min(time / 2,
/// hard), hard = time − 2·overhead; overhead defaults to 0), `strong:threads=2` (worlds played
/// out on 2 threads, 1 to [`MAX_THREADS`]; the same decisions at a fixed `worlds`, more worlds
/// under a time budget: [`StrongPlayer::set_budget`]), or the two times themselves,
/// `strong:soft_ms=1500:hard_ms=3000` (`soft_ms` alone: budget 2 × soft, so hard = 2 × soft;
/// `hard_ms` alone: budget = hard, so soft = hard / 2). A bounded [`TimeControl`] given to
/// [`Agent::choose`] takes the place of that budget. Without either the strong player is
/// deterministic. `pass` and `random` take no options.
pub fn make_agent(spec: &str, seed: u64) -> Result<KhAgent, SpecError> {
    let mut parts = spec.split(':');
    let name = parts.next().unwrap_or_default();
    let mut kv = Vec::new();
    for p in parts {
        let bad = || SpecError::BadOption(p.to_string());
        let (k, v) = p.split_once('=').ok_or_else(bad)?;
        kv.push((k, v.parse::<f64>().map_err(|_| bad())?));
    }
    let unknown = |k: &str, v: f64| SpecError::UnknownOption {
        player: name.to_string(),
        key: k.to_string(),
        value: v,
    };
    Ok(match name {
        "pass" | "random" => {
            if let Some(&(k, v)) = kv.first() {
                return Err(unknown(k, v));
            }
            if name == "pass" {
                Box::new(PassAgent)
            } else {
                Box::new(KhRandomAgent::new(seed))
            }
        }
        "heuristic" => {
            let mut p = HeuristicParams::default();
            for (k, v) in kv {
                set_heuristic(&mut p, k, v).ok_or_else(|| unknown(k, v))?;
            }
            Box::new(HeuristicPlayer::new(p))
        }
        "strong" => {
            use kibitz_search::params::Tunable;
            let mut p = StrongParams::default();
            let ms = |v: f64| Duration::from_millis(v.max(0.0) as u64);
            let (mut soft, mut hard, mut time, mut overhead) = (None, None, None, Duration::ZERO);
            for (k, v) in kv {
                match k {
                    "soft_ms" => soft = Some(ms(v)),
                    "hard_ms" => hard = Some(ms(v)),
                    "time_ms" => time = Some(ms(v)),
                    "overhead_ms" => overhead = ms(v),
                    // Threads for the worlds: a resource, not a tunable.
                    "threads" if v >= 1.0 && v <= MAX_THREADS as f64 && v.fract() == 0.0 => {
                        p.threads = v as usize
                    }
                    _ => {
                        let key = k.strip_prefix("param.").unwrap_or(k);
                        p.set_param(key, v).map_err(|e| match e {
                            ParamError::Unknown(_) => unknown(k, v),
                            e => SpecError::Param(k.to_string(), e.to_string()),
                        })?;
                    }
                }
            }
            let mut player = StrongPlayer::with_params(p, seed);
            if let Some((soft, hard)) = strong_clock(soft, hard, time, overhead) {
                player.set_budget(soft, hard);
            }
            Box::new(player)
        }
        _ => return Err(SpecError::UnknownPlayer(name.to_string())),
    })
}

/// The strong player's `(soft, hard)` from its spec's `soft_ms`, `hard_ms`, `time_ms` and
/// `overhead_ms` (see [`make_agent`]); `None` without any time. The budget is `time_ms`, or
/// implied by the times alone (`hard_ms`, else `2 × soft_ms`), and the one clock rule gives
/// what was not set; soft never exceeds hard.
fn strong_clock(
    soft: Option<Duration>,
    hard: Option<Duration>,
    time: Option<Duration>,
    overhead: Duration,
) -> Option<(Duration, Duration)> {
    let budget = time.or(hard).or(soft.map(|s| s * 2))?;
    let rule = MoveBudget::for_move(budget, overhead);
    let hard = hard.unwrap_or(rule.hard);
    Some((soft.unwrap_or(rule.soft).min(hard), hard))
}

fn set_heuristic(p: &mut HeuristicParams, k: &str, v: f64) -> Option<()> {
    match k {
        "rate" => p.rate = v,
        "denial" => p.denial = v,
        "trade" => p.trade_threshold = v,
        "contested" => p.eval.contested = v,
        _ => return None,
    }
    Some(())
}

/// The market's question to `view`'s seat, if it is that seat's turn to answer.
pub fn pending_question(view: &View<'_, Koehandel>) -> Option<Question> {
    match view.observation().ask {
        Some((seat, Some(q))) if seat.idx() == view.seat() => Some(q),
        _ => None,
    }
}

/// A plain policy that keeps its own [`Knowledge`]: the random and heuristic players share
/// how it is told notices ([`observe_known`]) and asked ([`choose_known`]), so the knowledge
/// sees every question and answer in the same order for both.
pub(crate) trait KnowingPolicy {
    /// The policy's knowledge of the market.
    fn knowledge(&mut self) -> &mut Knowledge;
    /// The answer to `q` (the knowledge has already seen the question).
    fn answer(&mut self, q: &Question) -> Answer;
}

/// Tells `k` a notice; facts are per decision, so they are dropped.
pub(crate) fn observe_known(k: &mut Knowledge, event: &Event) {
    k.observe(event);
    k.facts.clear();
}

/// The pending question answered by `p` without a search, its knowledge told the question
/// and the answer; [`Answer::None`] when the view's seat is not asked.
pub(crate) fn choose_known<P: KnowingPolicy>(
    p: &mut P,
    view: &View<'_, Koehandel>,
    clock: &TimeControl,
) -> Decision<KhAction> {
    let Some(q) = pending_question(view) else {
        return plain(Answer::None, clock);
    };
    p.knowledge().on_question(&q);
    let a = p.answer(&q);
    p.knowledge().on_answer(&q, &a);
    plain(a, clock)
}

/// The [`Decision`] of an answer taken without a search (time from `clock`).
pub(crate) fn plain(answer: Answer, clock: &TimeControl) -> Decision<KhAction> {
    Decision {
        elapsed: clock.elapsed(),
        ..Decision::action(KhAction(answer))
    }
}

/// Never answers anything: every default of the spec applies (like a silent network seat).
#[derive(Clone, Copy, Debug, Default)]
pub struct PassAgent;

impl Agent<Koehandel> for PassAgent {
    fn name(&self) -> String {
        "pass".into()
    }

    fn choose(&mut self, _view: &View<'_, Koehandel>, clock: &TimeControl) -> Decision<KhAction> {
        plain(Answer::None, clock)
    }
}

/// Uniformly random among legal answers (never bluffs, never sends invalid cards).
///
/// Koehandel keeps its own random player rather than [`kibitz_search::agent::RandomAgent`]:
/// it draws bids, offers and trade starts from the whole answer space (not the menu of
/// `legal_actions`) with its own stream, which the bench signature and the tests pin.
#[derive(Clone, Debug)]
pub struct KhRandomAgent {
    rng: ChaCha8Rng,
    k: Knowledge,
}

impl KhRandomAgent {
    /// A random player with its own seeded generator.
    pub fn new(seed: u64) -> KhRandomAgent {
        KhRandomAgent {
            rng: Self::rng(seed),
            k: Knowledge::new(Seat(0)),
        }
    }

    fn rng(seed: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(seed ^ 0x005e_ed0f_7a4d)
    }

    fn random_subset(&mut self, hand: &Cards) -> Cards {
        let mut c = Cards::EMPTY;
        for k in 0..MONEY_KINDS {
            c.0[k] = self.rng.random_range(0..=hand.0[k]);
        }
        c
    }

    fn decide(&mut self, q: &Question) -> Answer {
        let hand = self.k.hand;
        match q {
            Question::Start => {
                let trades = legal_trades(&self.k);
                let trade = self.k.deck_left() == 0 || self.rng.random_bool(0.3);
                match trades.choose(&mut self.rng) {
                    Some(&(o, animal)) if trade => Answer::Trade(TradeStart {
                        opponent: Some(o),
                        animal: Some(animal),
                        offer: Some(self.random_subset(&hand)),
                    }),
                    _ => Answer::Auction,
                }
            }
            Question::Bid { high_bid, .. } => {
                let (high, mine) = (high_bid.value(), hand.value());
                if mine > high && self.rng.random_bool(0.5) {
                    let steps = (mine - high) / 10;
                    Answer::bid(high + 10 * self.rng.random_range(1..=steps.clamp(1, 10)))
                } else {
                    Answer::Money(Cards::EMPTY)
                }
            }
            Question::BuyBack { high_bid, .. } => {
                Answer::buy_back(self.rng.random_bool(0.5), high_bid)
            }
            Question::Pay { price, .. } => Answer::Money(server_payment(&hand, price.value())),
            Question::Challenged { .. } => {
                if self.rng.random_bool(0.5) {
                    Answer::Money(Cards::EMPTY)
                } else {
                    let mut c = self.random_subset(&hand);
                    if c.is_empty() && hand.count(MoneyCard::Zero) > 0 {
                        c.push(MoneyCard::Zero);
                    }
                    Answer::Money(c)
                }
            }
            Question::Reoffer { .. } => Answer::Money(self.random_subset(&hand)),
        }
    }
}

impl Agent<Koehandel> for KhRandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn new_game(&mut self, seat: usize, seed: u64) {
        self.rng = Self::rng(seed);
        self.k = Knowledge::new(Seat((seat % crate::types::PLAYERS) as u8));
    }

    fn observe(&mut self, event: &Event) {
        observe_known(&mut self.k, event);
    }

    fn choose(&mut self, view: &View<'_, Koehandel>, clock: &TimeControl) -> Decision<KhAction> {
        choose_known(self, view, clock)
    }
}

impl KnowingPolicy for KhRandomAgent {
    fn knowledge(&mut self) -> &mut Knowledge {
        &mut self.k
    }
    fn answer(&mut self, q: &Question) -> Answer {
        self.decide(q)
    }
}

/// Every legal trade start `(opponent, animal)` for `k.me` (spec D6.1).
pub fn legal_trades(k: &Knowledge) -> Vec<(Seat, Animal)> {
    let mut v = Vec::new();
    for a in Animal::all() {
        if k.herds[k.me.idx()].count(a) == 0 {
            continue;
        }
        for o in k.opponents() {
            if k.herds[o.idx()].count(a) > 0 {
                v.push((o, a));
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Option<Duration> {
        Some(Duration::from_millis(v))
    }

    #[test]
    fn strong_clock_follows_the_rule() {
        let z = Duration::ZERO;
        assert_eq!(strong_clock(None, None, None, z), None);
        // soft alone: as before, hard = 2 × soft.
        assert_eq!(strong_clock(ms(700), None, None, z), ms(700).zip(ms(1400)));
        // hard alone: old soft = hard (3000); now half of it.
        assert_eq!(
            strong_clock(None, ms(3000), None, z),
            ms(1500).zip(ms(3000))
        );
        // both: taken as given.
        assert_eq!(
            strong_clock(ms(1500), ms(3000), None, z),
            ms(1500).zip(ms(3000))
        );
        // the contest clock: 5 s with 500 ms overhead.
        let o = Duration::from_millis(500);
        assert_eq!(
            strong_clock(None, None, ms(5000), o),
            ms(2500).zip(ms(4000))
        );
        assert!(make_agent("strong:time_ms=5000:overhead_ms=500", 1).is_ok());
    }

    #[test]
    fn the_parser_returns_each_kind_and_names_what_it_refuses() {
        for name in PLAYER_NAMES {
            assert_eq!(make_agent(name, 1).map(|a| a.name()), Ok(name.to_string()));
        }
        assert_eq!(
            make_agent("heuristic:rate=0.5:contested=1", 1).map(|a| a.name()),
            Ok("heuristic".into())
        );
        assert_eq!(
            make_agent("nobody", 1).err(),
            Some(SpecError::UnknownPlayer("nobody".into()))
        );
        assert_eq!(
            make_agent("strong:worlds", 1).err(),
            Some(SpecError::BadOption("worlds".into()))
        );
        assert_eq!(
            make_agent("strong:worlds=x", 1).err(),
            Some(SpecError::BadOption("worlds=x".into()))
        );
        let e = make_agent("random:rate=1", 1).err().unwrap();
        assert!(matches!(&e, SpecError::UnknownOption { key, .. } if key == "rate"));
        assert!(e.to_string().contains("rate"), "{e}");
        assert!(make_agent("heuristic:nonsense=1", 1).is_err());
        assert!(make_agent("strong:param.nonsense=1", 1).is_err());
    }
}
