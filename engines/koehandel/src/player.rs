//! The [`Player`] trait shared by the in-process runner and the HTTP bot, plus the two
//! simplest baselines and the registry of player names.

use kibitz_search::clock::MoveBudget;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

use crate::auction::server_payment;
use crate::event::{Answer, Event, Question, TradeStart};
use crate::knowledge::Knowledge;
use crate::types::{Animal, Cards, MoneyCard, Seat, MONEY_KINDS};

/// A player: told every notice addressed to him, asked every question.
///
/// Both the in-process runner and the network bot call exactly these three methods in the
/// market's message order, so a player cannot tell them apart. Seats are absolute; a bot that
/// only knows relative letters plays as seat 0 (`S`=0, `W`=1, `N`=2, `E`=3).
pub trait Player: Send {
    /// Display name (the registry name plus parameters).
    fn name(&self) -> String;
    /// A new game begins; `me` is this player's seat.
    fn new_game(&mut self, me: Seat);
    /// A notice (no reply).
    fn observe(&mut self, event: &Event);
    /// A question; the answer is validated by the market (invalid = default).
    fn decide(&mut self, question: &Question) -> Answer;
    /// What the player's search knew about its last [`Player::decide`], for game records
    /// (`think`); `None` for players without a search (the default) and for decisions made
    /// without one.
    fn last_think(&self) -> Option<Think> {
        None
    }
}

/// What a sampling player knew about one decision (see [`Player::last_think`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Think {
    /// Sampled worlds every candidate answer was played out in.
    pub worlds: u32,
    /// Candidate answers compared.
    pub candidates: u32,
    /// The chosen answer's mean utility over those worlds (the player's own units).
    pub estimate: f64,
}

/// The names [`make_player`] knows.
pub const PLAYER_NAMES: [&str; 4] = ["pass", "random", "heuristic", "strong"];

/// Creates a player by name (`pass`, `random`, `heuristic`, `strong`), seeded for determinism.
/// Parameters follow the name, colon-separated: `heuristic:rate=0.5:denial=0.2`,
/// `strong:worlds=32` or `strong:param.worlds=32` (any name of
/// [`crate::params::strong_specs`]), `strong:time_ms=5000:overhead_ms=500` (a per-decision
/// time budget for network play by the one clock rule, [`MoveBudget::for_move`]: soft =
/// min(time / 2, hard), hard = time − 2·overhead; overhead defaults to 0), or the two times
/// themselves, `strong:soft_ms=1500:hard_ms=3000` (`soft_ms` alone: budget 2 × soft, so hard
/// = 2 × soft; `hard_ms` alone: budget = hard, so soft = hard / 2). Without any the strong
/// player is deterministic. Unknown names, keys or bad values give `None`.
pub fn make_player(spec: &str, seed: u64) -> Option<Box<dyn Player>> {
    let mut parts = spec.split(':');
    let name = parts.next()?;
    let mut kv = Vec::new();
    for p in parts {
        let (k, v) = p.split_once('=')?;
        kv.push((k, v.parse::<f64>().ok()?));
    }
    Some(match name {
        "pass" if kv.is_empty() => Box::new(PassPlayer),
        "random" if kv.is_empty() => Box::new(RandomPlayer::new(seed)),
        "heuristic" => {
            let mut p = crate::heuristic::HeuristicParams::default();
            for (k, v) in kv {
                set_heuristic(&mut p, k, v)?;
            }
            Box::new(crate::heuristic::HeuristicPlayer::new(p))
        }
        "strong" => {
            use kibitz_search::params::Tunable;
            let mut p = crate::strong::StrongParams::default();
            let ms = |v: f64| Duration::from_millis(v.max(0.0) as u64);
            let (mut soft, mut hard, mut time, mut overhead) = (None, None, None, Duration::ZERO);
            for (k, v) in kv {
                match k {
                    "soft_ms" => soft = Some(ms(v)),
                    "hard_ms" => hard = Some(ms(v)),
                    "time_ms" => time = Some(ms(v)),
                    "overhead_ms" => overhead = ms(v),
                    _ => {
                        let name = k.strip_prefix("param.").unwrap_or(k);
                        p.set_param(name, v).ok()?;
                    }
                }
            }
            let mut player = crate::strong::StrongPlayer::with_params(p, seed);
            if let Some((soft, hard)) = strong_clock(soft, hard, time, overhead) {
                player.set_budget(soft, hard);
            }
            Box::new(player)
        }
        _ => return None,
    })
}

/// The strong player's `(soft, hard)` from its spec's `soft_ms`, `hard_ms`, `time_ms` and
/// `overhead_ms` (see [`make_player`]); `None` without any time. The budget is `time_ms`, or
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

fn set_heuristic(p: &mut crate::heuristic::HeuristicParams, k: &str, v: f64) -> Option<()> {
    match k {
        "rate" => p.rate = v,
        "denial" => p.denial = v,
        "trade" => p.trade_threshold = v,
        "contested" => p.eval.contested = v,
        _ => return None,
    }
    Some(())
}

/// Never answers anything: every default of the spec applies (like a silent network seat).
#[derive(Clone, Copy, Debug, Default)]
pub struct PassPlayer;

impl Player for PassPlayer {
    fn name(&self) -> String {
        "pass".into()
    }
    fn new_game(&mut self, _me: Seat) {}
    fn observe(&mut self, _event: &Event) {}
    fn decide(&mut self, _question: &Question) -> Answer {
        Answer::None
    }
}

/// Uniformly random among legal answers (never bluffs, never sends invalid cards).
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
    k: Knowledge,
}

impl RandomPlayer {
    /// A random player with its own seeded generator.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x005e_ed0f_7a4d),
            k: Knowledge::new(Seat(0)),
        }
    }

    fn random_subset(&mut self, hand: &Cards) -> Cards {
        let mut c = Cards::EMPTY;
        for k in 0..MONEY_KINDS {
            c.0[k] = self.rng.random_range(0..=hand.0[k]);
        }
        c
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

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }
    fn new_game(&mut self, me: Seat) {
        self.k = Knowledge::new(me);
    }
    fn observe(&mut self, event: &Event) {
        self.k.observe(event);
        self.k.facts.clear();
    }
    fn decide(&mut self, q: &Question) -> Answer {
        self.k.on_question(q);
        let hand = self.k.hand;
        let a = match q {
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
        };
        self.k.on_answer(q, &a);
        a
    }
}

#[cfg(test)]
mod clock_tests {
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
        assert!(make_player("strong:time_ms=5000:overhead_ms=500", 1).is_some());
    }
}
