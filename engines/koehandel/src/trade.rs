//! Cow trades (spec D6): validation, hidden offers, counter offers, ties and transfers.

use crate::event::{Answer, Event, TradeError, TradeStart};
use crate::game::{Game, Phase, Trade};
use crate::types::{Cards, Seat, PLAYERS};

impl Game {
    /// Checks a trade start in the spec's order (D6.1) and sizes the stake (D6.2).
    pub(crate) fn validate_trade(&self, me: Seat, t: &TradeStart) -> Result<Trade, TradeError> {
        let opponent = t
            .opponent
            .filter(|&o| o != me && o.idx() < PLAYERS)
            .ok_or(TradeError::NoOpponent)?;
        let animal = t
            .animal
            .filter(|&a| self.herds[me.idx()].count(a) >= 1)
            .ok_or(TradeError::GoodsNotOwned)?;
        let theirs = self.herds[opponent.idx()].count(animal);
        if theirs == 0 {
            return Err(TradeError::OpponentGoodsMismatch);
        }
        let offer = t
            .offer
            .filter(|o| self.money[me.idx()].contains(o))
            .ok_or(TradeError::InvalidBid)?;
        let mine = self.herds[me.idx()].count(animal);
        let count = if mine == 2 && theirs == 2 { 2 } else { 1 };
        Ok(Trade {
            challenger: me,
            opponent,
            animal,
            count,
            offer,
            tie: false,
        })
    }

    pub(crate) fn begin_trade(&mut self, trade: Trade) {
        self.phase = Phase::Challenged(trade);
    }

    pub(crate) fn on_challenged(&mut self, mut t: Trade, answer: Answer) {
        let hand = self.money[t.opponent.idx()];
        let counter = match answer {
            Answer::Money(c) if c.is_empty() => None,
            Answer::Money(c) if hand.contains(&c) => Some(c),
            Answer::Money(_) | Answer::InvalidMoney => {
                self.count_default(t.opponent);
                self.tell(t.opponent, Event::TradeError(TradeError::InvalidBid));
                None
            }
            _ => {
                self.count_default(t.opponent);
                None
            }
        };
        let Some(counter) = counter else {
            // Accepted: the challenger wins and only his offer moves (D6.4).
            return self.settle(&t, t.challenger, Some(t.offer), None);
        };
        let (mine, theirs) = (t.offer.value(), counter.value());
        if mine > theirs {
            self.settle(&t, t.challenger, Some(t.offer), Some(counter))
        } else if theirs > mine {
            self.settle(&t, t.opponent, Some(counter), Some(t.offer))
        } else if !t.tie {
            t.tie = true;
            self.phase = Phase::Reoffer(t);
        } else {
            // Second tie: the challenger gets the animals for free (D6.6).
            self.settle(&t, t.challenger, None, None)
        }
    }

    pub(crate) fn on_reoffer(&mut self, mut t: Trade, answer: Answer) {
        t.offer = match answer {
            Answer::Money(c) if self.money[t.challenger.idx()].contains(&c) => c,
            _ => {
                self.count_default(t.challenger);
                Cards::EMPTY
            }
        };
        self.phase = Phase::Challenged(t);
    }

    /// Moves animals and offers (D6.7) and informs third parties (D11). `winner_offer` is
    /// `None` for a free transfer; `loser_offer` is `Some` only after a counter offer.
    fn settle(
        &mut self,
        t: &Trade,
        winner: Seat,
        winner_offer: Option<Cards>,
        loser_offer: Option<Cards>,
    ) {
        let loser = if winner == t.challenger {
            t.opponent
        } else {
            t.challenger
        };
        let (animal, count) = (t.animal, t.count);
        self.herds[loser.idx()].remove(animal, count);
        self.herds[winner.idx()].add(animal, count);
        self.tell(
            loser,
            Event::CollectGoods {
                animal,
                count,
                to: winner,
            },
        );
        self.tell(
            winner,
            Event::ReceiveGoods {
                animal,
                count,
                from: Some(loser),
            },
        );
        let free = winner_offer.is_none();
        let w = winner_offer.unwrap_or_default();
        let l = loser_offer.unwrap_or_default();
        self.pay_offer(winner, loser, &w);
        self.pay_offer(loser, winner, &l);
        let third: Vec<Seat> = (1..PLAYERS)
            .map(|i| t.challenger.plus(i))
            .filter(|&p| p != winner && p != loser)
            .collect();
        for &p in &third {
            self.tell(
                p,
                Event::TradeWon {
                    animal,
                    count,
                    winner,
                    cards: w.len(),
                },
            );
        }
        for &p in &third {
            self.tell(
                p,
                Event::TradeLost {
                    animal,
                    count,
                    loser,
                    cards: w.len(),
                },
            );
        }
        if loser_offer.is_some() || free {
            for &p in &third {
                self.tell(
                    p,
                    Event::OfferPaid {
                        payer: loser,
                        cards: l.len(),
                    },
                );
            }
            for &p in &third {
                self.tell(
                    p,
                    Event::OfferReceived {
                        payee: winner,
                        cards: l.len(),
                    },
                );
            }
        }
        self.end_turn();
    }

    fn pay_offer(&mut self, payer: Seat, payee: Seat, cards: &Cards) {
        if cards.is_empty() {
            return;
        }
        self.money[payer.idx()].remove(cards);
        self.money[payee.idx()].add(cards);
        self.tell(
            payer,
            Event::CollectMoney {
                cards: *cards,
                to: payee,
            },
        );
        self.tell(
            payee,
            Event::ReceiveMoney {
                cards: *cards,
                from: Some(payer),
            },
        );
    }
}
