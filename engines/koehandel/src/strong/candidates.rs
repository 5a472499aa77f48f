//! The strong player's own turn, buy-back and counter offer: which candidate answers each
//! decision compares, and how a candidate is scored in a sampled world (the play-out after
//! it). The Monte-Carlo loop that plays them is in [`super::search`]; auctions (the other
//! searched decision) are in [`super::bidding`].

use std::sync::Arc;

use super::search::{first_share, Sampler, Valuer};
use super::worlds::Challenge;
use super::StrongPlayer;
use crate::agents::legal_trades;
use crate::auction::server_payment;
use crate::event::{Answer, Question, TradeStart};
use crate::heuristic::HeuristicPlayer;
use crate::model::{counter_money, TradeCase};
use crate::sim::{rollout_seats, World};
use crate::types::{Animal, Cards, MoneyCard, Seat};

impl StrongPlayer {
    fn offer_of(&self, value: u32) -> Cards {
        let mut c = HeuristicPlayer::cards_for(&self.k.hand, value);
        if c.is_empty() && self.k.hand.count(MoneyCard::Zero) > 0 {
            c.push(MoneyCard::Zero);
        }
        c
    }

    pub(super) fn start(&mut self) -> Answer {
        let k = &self.k;
        let me = k.me;
        let p = &self.params.rollout;
        let mut cands: Vec<Answer> = Vec::new();
        if k.deck_left() > 0 {
            cands.push(Answer::Auction);
        }
        let mut trades: Vec<(Seat, Animal, f64)> = legal_trades(k)
            .into_iter()
            .map(|(o, a)| {
                let g = crate::eval::gain(&p.eval, &k.herds, me, a, 1, Some(o));
                (o, a, g)
            })
            .collect();
        trades.sort_by(|x, y| y.2.total_cmp(&x.2));
        trades.truncate(self.params.trade_candidates);
        let hand = k.hand.value();
        for &(o, a, g) in &trades {
            let base = ((g * p.rate) as u32 / 10 * 10).min(hand);
            let mut values = vec![0, base / 2, base, (base * 3 / 2).min(hand)];
            if self.params.counter_cands {
                // Just above the counter offer his model predicts.
                let n = if k.herds[me.idx()].count(a) == 2 && k.herds[o.idx()].count(a) == 2 {
                    2
                } else {
                    1
                };
                let t = TradeCase {
                    challenger: me,
                    opponent: o,
                    animal: a,
                    count: n,
                };
                let loss = counter_money(&p.eval, &k.herds, t, p.denial, p.rate);
                let c = (self.model.predicted_counter(o, loss) as u32 / 10 + 1) * 10;
                if c <= hand {
                    values.push(c);
                }
            }
            for v in values {
                let t = Answer::Trade(TradeStart {
                    opponent: Some(o),
                    animal: Some(a),
                    offer: Some(self.offer_of(v / 10 * 10)),
                });
                if !cands.contains(&t) {
                    cands.push(t);
                }
            }
        }
        if cands.len() <= 1 {
            return cands.pop().unwrap_or(Answer::Auction);
        }
        let sc = self.scorer();
        let owned = cands.clone();
        let at: Valuer<World> = Arc::new(move |w: &World, c: usize| {
            let mut g = w.at_turn(&sc.k, me);
            g.answer(owned[c]);
            sc.utility(rollout_seats(g, &sc.policy))
        });
        if self.params.start_split && cands[0] == Answer::Auction && cands.len() > 2 {
            return self.split_start(&cands, at);
        }
        let n = cands.len();
        let p = self.run_worlds(Arc::new(|pl, count| pl.worlds(None, count)), n, at);
        cands[self.best_of(&p, n)]
    }

    /// The split turn (`start_split`) among `cands` (the auction first, then at least two
    /// trades) valued by `at`: the best of many noisy trade estimates is biased upwards
    /// against the one auction estimate, so the trade is picked on half the worlds and then
    /// compared with the auction on the other half. Both halves are Monte-Carlo loops
    /// ([`Self::run_worlds_on`]) on shares of the decision's worlds and clock: under a budget
    /// `worlds` is a cap ("as many as the time allows") and each half samples in batches
    /// while its time lasts; the pick gets the share of the soft time its play-outs need for
    /// as many worlds as the test (n against 2 per world) and ends by the soft time, the test
    /// has the rest. Without a budget the halves are the first and second half of the worlds
    /// one sampling of them all would draw (deterministic).
    fn split_start(&mut self, cands: &[Answer], at: Valuer<World>) -> Answer {
        let n = cands.len() - 1;
        let trade = Arc::clone(&at);
        let trades: Valuer<World> = Arc::new(move |w: &World, c: usize| trade(w, c + 1));
        let sample: Sampler<World> = Arc::new(|pl: &mut StrongPlayer, m| pl.worlds(None, m));
        let pick_cap = self.params.worlds.div_ceil(2);
        let test_cap = self.params.worlds - pick_cap;
        let clock = self.time_control();
        let pick_clock = clock
            .as_ref()
            .map(|c| first_share(c, n as f64 / (n + 2) as f64));
        let picked = self.run_worlds_on(Arc::clone(&sample), n, trades, pick_clock, pick_cap);
        let t = 1 + self.best_of(&picked, n);
        if test_cap == 0 {
            return cands[t];
        }
        let versus: Valuer<World> =
            Arc::new(move |w: &World, c: usize| at(w, if c == 0 { 0 } else { t }));
        let tested = self.run_worlds_on(sample, 2, versus, clock, test_cap);
        if self.best_of(&tested, 2) == 0 {
            cands[0]
        } else {
            cands[t]
        }
    }

    pub(super) fn buy_back(
        &mut self,
        animal: Animal,
        high_bidder: Seat,
        high_bid: &Cards,
    ) -> Answer {
        let me = self.k.me;
        let price = high_bid.value();
        if self.k.hand.value() < price {
            return Answer::buy_back(false, high_bid);
        }
        // A bidder who probably cannot pay is left to be caught.
        if self.belief.can_pay(high_bidder, price) < 0.5 {
            return Answer::buy_back(false, high_bid);
        }
        let next = me.next();
        let sc = self.scorer();
        let value = move |w: &World, c: usize| {
            let g = if c == 0 {
                w.after_sale(&sc.k, animal, high_bidder, me, price, next)
            } else {
                w.after_sale(&sc.k, animal, me, high_bidder, price, next)
            };
            sc.utility(rollout_seats(g, &sc.policy))
        };
        let sample = move |pl: &mut StrongPlayer, count| pl.worlds(Some(animal), count);
        let p = self.run_worlds(Arc::new(sample), 2, Arc::new(value));
        Answer::buy_back(self.best_of(&p, 2) == 1, high_bid)
    }

    pub(super) fn challenged(&mut self, challenge: Challenge) -> Answer {
        let Challenge {
            challenger,
            animal,
            count,
            offer_cards,
            tie,
        } = challenge;
        let hand = self.k.hand.value();
        let mut values = vec![0u32];
        let base = match self.heuristic(&Question::Challenged {
            challenger,
            animal,
            count,
            offer_cards,
            tie,
        }) {
            Answer::Money(c) => c.value(),
            _ => 0,
        };
        for v in [10, base / 2, base, base * 3 / 2, base * 2] {
            let v = (v / 10 * 10).min(hand);
            if v > 0 && !values.contains(&v) {
                values.push(v);
            }
        }
        let cands: Vec<Cards> = values
            .iter()
            .map(|&v| {
                if v == 0 {
                    Cards::EMPTY
                } else {
                    server_payment(&self.k.hand, v)
                }
            })
            .collect();
        if cands.len() == 1 {
            return Answer::Money(Cards::EMPTY);
        }
        let sample = move |pl: &mut StrongPlayer, m: usize| -> Vec<(World, Cards)> {
            let (worlds, offers) = pl.challenge_worlds(challenge, m);
            worlds
                .into_iter()
                .zip(offers)
                .map(|(mut w, o)| {
                    let have = w.money[challenger.idx()];
                    if !have.contains(&o) {
                        w.money[challenger.idx()] = have.plus(&o);
                    }
                    (w, o)
                })
                .collect()
        };
        let sc = self.scorer();
        let owned = cands.clone();
        let value = move |(w, offer): &(World, Cards), c: usize| {
            let mut g = w.at_challenge(&sc.k, challenger, animal, count, *offer, tie);
            g.answer(Answer::Money(owned[c]));
            sc.utility(rollout_seats(g, &sc.policy))
        };
        let n = cands.len();
        let p = self.run_worlds(Arc::new(sample), n, Arc::new(value));
        let i = self.best_of(&p, n);
        Answer::Money(cands[i])
    }
}
