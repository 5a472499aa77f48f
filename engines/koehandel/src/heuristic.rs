//! The value-based baseline: bids up to a fraction of an animal's marginal value to its own
//! collection, counters trades with a fraction of what it would lose, never bluffs.

use crate::agents::{choose_known, legal_trades, observe_known, KnowingPolicy};
use crate::auction::server_payment;
use crate::eval::{auction_value, gain, herd_worth, EvalParams};
use crate::event::{Answer, Event, Question, TradeStart};
use crate::game_impl::{KhAction, Koehandel};
use crate::knowledge::Knowledge;
use crate::types::{Animal, Cards, Seat, PLAYERS};
use kibitz_search::agent::{Agent, Decision, View};
use kibitz_search::time::TimeControl;

/// Parameters of [`HeuristicPlayer`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeuristicParams {
    /// Money per point of marginal value (the bid ceiling is `rate × value`).
    pub rate: f64,
    /// Share of an opponent's gain counted as denial value.
    pub denial: f64,
    /// Minimum gain (in money) before a trade is started while the deck is not empty.
    pub trade_threshold: f64,
    /// Valuation weights.
    pub eval: EvalParams,
}

impl Default for HeuristicParams {
    fn default() -> Self {
        HeuristicParams {
            rate: 0.35,
            denial: 0.3,
            trade_threshold: 250.0,
            eval: EvalParams::default(),
        }
    }
}

/// The value-based heuristic player.
#[derive(Clone, Debug)]
pub struct HeuristicPlayer {
    /// Its parameters.
    pub params: HeuristicParams,
    k: Knowledge,
}

impl HeuristicPlayer {
    /// A heuristic player with the given parameters.
    pub fn new(params: HeuristicParams) -> HeuristicPlayer {
        HeuristicPlayer {
            params,
            k: Knowledge::new(Seat(0)),
        }
    }

    /// Cards worth at least `target` with the least overpayment (all but `n` if short).
    pub fn cards_for(hand: &Cards, target: u32) -> Cards {
        if target == 0 {
            return Cards::EMPTY;
        }
        server_payment(hand, target.min(hand.value()))
    }

    /// The best trade start by money-valued gain, if any: (opponent, animal, offer value, gain).
    pub fn best_trade(&self) -> Option<(Seat, Animal, u32, f64)> {
        let p = &self.params;
        let k = &self.k;
        let me = k.me;
        legal_trades(k)
            .into_iter()
            .map(|(o, a)| {
                let n = if k.herds[me.idx()].count(a) == 2 && k.herds[o.idx()].count(a) == 2 {
                    2
                } else {
                    1
                };
                let g = gain(&p.eval, &k.herds, me, a, n, Some(o))
                    + p.denial * gain(&p.eval, &k.herds, o, a, n, Some(me)).abs();
                let money = g * p.rate;
                (o, a, money)
            })
            .max_by(|x, y| x.2.total_cmp(&y.2))
            .map(|(o, a, m)| {
                let offer = ((m * 0.8) as u32 / 10 * 10).min(k.hand.value());
                (o, a, offer, m)
            })
    }

    /// The answer of a heuristic player with knowledge `k` (used by simulations, where `k`
    /// is built from the simulated state).
    pub fn answer_for(params: &HeuristicParams, k: Knowledge, q: &Question) -> Answer {
        HeuristicPlayer { params: *params, k }.policy(q)
    }

    /// The heuristic's bid answer given the animal's value to him (`auction_value` with his
    /// denial), his hand and the high bid: raise by 10 up to `rate × value`.
    pub fn bid_from_value(
        params: &HeuristicParams,
        value: f64,
        hand: &Cards,
        high: &Cards,
    ) -> Answer {
        let ceiling = ((value * params.rate).max(0.0) as u32).min(hand.value());
        let next = high.value() + 10;
        if next <= hand.value() && next <= ceiling {
            Answer::bid(next)
        } else {
            Answer::Money(Cards::EMPTY)
        }
    }

    fn policy(&self, q: &Question) -> Answer {
        match q {
            Question::Start => self.start(),
            Question::Bid {
                animal, high_bid, ..
            } => {
                let next = high_bid.value() + 10;
                if next <= self.k.hand.value() && next <= self.ceiling(*animal) {
                    Answer::bid(next)
                } else {
                    Answer::Money(Cards::EMPTY)
                }
            }
            Question::BuyBack {
                animal, high_bid, ..
            } => Answer::buy_back(high_bid.value() <= self.ceiling(*animal), high_bid),
            Question::Pay { price, .. } => {
                Answer::Money(server_payment(&self.k.hand, price.value()))
            }
            Question::Challenged {
                challenger,
                animal,
                count,
                offer_cards,
                ..
            } => self.challenged(*challenger, *animal, *count, *offer_cards),
            Question::Reoffer {
                opponent, animal, ..
            } => {
                let offer = self
                    .best_trade()
                    .filter(|t| t.0 == *opponent && t.1 == *animal)
                    .map(|t| t.2)
                    .unwrap_or(0);
                Answer::Money(Self::cards_for(&self.k.hand, offer + 10))
            }
        }
    }

    fn start(&self) -> Answer {
        let k = &self.k;
        match self.best_trade() {
            Some((o, a, offer, m)) if k.deck_left() == 0 || m >= self.params.trade_threshold => {
                Answer::Trade(TradeStart {
                    opponent: Some(o),
                    animal: Some(a),
                    offer: Some(Self::cards_for(&k.hand, offer)),
                })
            }
            _ => Answer::Auction,
        }
    }

    fn ceiling(&self, animal: Animal) -> u32 {
        let p = &self.params;
        let v = auction_value(&p.eval, &self.k, self.k.me, animal, p.denial) * p.rate;
        (v.max(0.0) as u32).min(self.k.hand.value())
    }

    fn challenged(&self, challenger: Seat, animal: Animal, count: u8, offer_cards: u32) -> Answer {
        let p = &self.params;
        let k = &self.k;
        let mut h = k.herds;
        let c = count.min(h[k.me.idx()].count(animal));
        h[k.me.idx()].remove(animal, c);
        h[challenger.idx()].add(animal, c);
        let loss = herd_worth(&p.eval, &k.herds, k.me) - herd_worth(&p.eval, &h, k.me)
            + p.denial
                * (herd_worth(&p.eval, &h, challenger) - herd_worth(&p.eval, &k.herds, challenger));
        let target = ((loss * p.rate) as u32).min(k.hand.value());
        if offer_cards == 0 && k.hand.value() >= 10 {
            return Answer::Money(Self::cards_for(&k.hand, 10));
        }
        if target < 10 {
            return Answer::Money(Cards::EMPTY);
        }
        Answer::Money(Self::cards_for(&k.hand, target))
    }
}

impl Agent<Koehandel> for HeuristicPlayer {
    fn name(&self) -> String {
        "heuristic".into()
    }

    fn new_game(&mut self, seat: usize, _seed: u64) {
        self.k = Knowledge::new(Seat((seat % PLAYERS) as u8));
    }

    fn observe(&mut self, event: &Event) {
        observe_known(&mut self.k, event);
    }

    /// The heuristic's answer to the pending question (no search: a plain decision).
    fn choose(&mut self, view: &View<'_, Koehandel>, clock: &TimeControl) -> Decision<KhAction> {
        choose_known(self, view, clock)
    }
}

impl KnowingPolicy for HeuristicPlayer {
    fn knowledge(&mut self) -> &mut Knowledge {
        &mut self.k
    }
    fn answer(&mut self, q: &Question) -> Answer {
        self.policy(q)
    }
}
