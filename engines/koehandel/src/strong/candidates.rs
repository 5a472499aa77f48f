//! The strong player's own turn, buy-back and counter offer: which candidate answers each
//! decision compares, and how a candidate is scored in a sampled world (the play-out after
//! it). The Monte-Carlo loop that plays them is in [`super::search`]; auctions (the other
//! searched decision) are in [`super::bidding`].

use std::sync::Arc;

use super::search::{first_share, Valuer};
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
            // The best of many noisy trade estimates is biased upwards against the one
            // auction estimate: pick the trade on half the worlds, then compare it with the
            // auction on the other half.
            let mut pick = self.worlds(None, self.params.worlds);
            let test = pick.split_off(pick.len().div_ceil(2));
            let n = cands.len() - 1;
            // Both halves keep the decision's deadline: the pick gets the share of its soft
            // time that its play-outs need for as many worlds as the test (n against 2 per
            // world), the test the rest.
            let clock = self.time_control();
            let pick_clock = clock
                .as_ref()
                .map(|c| first_share(c, n as f64 / (n + 2) as f64));
            let trade = Arc::clone(&at);
            let trades: Valuer<World> = Arc::new(move |w: &World, c: usize| trade(w, c + 1));
            let t = 1 + self.best_of(&self.play(pick, n, trades, pick_clock.as_ref()), n);
            if test.is_empty() {
                return cands[t];
            }
            let versus: Valuer<World> =
                Arc::new(move |w: &World, c: usize| at(w, if c == 0 { 0 } else { t }));
            let p = self.play(test, 2, versus, clock.as_ref());
            let i = self.best_of(&p, 2);
            return if i == 0 { cands[0] } else { cands[t] };
        }
        let n = cands.len();
        let p = self.run_worlds(Arc::new(|pl, count| pl.worlds(None, count)), n, at);
        cands[self.best_of(&p, n)]
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

    pub(super) fn challenged(
        &mut self,
        challenger: Seat,
        animal: Animal,
        count: u8,
        offer_cards: u32,
        tie: bool,
    ) -> Answer {
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
            let (worlds, offers) =
                pl.challenge_worlds(challenger, animal, count, offer_cards, tie, m);
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
