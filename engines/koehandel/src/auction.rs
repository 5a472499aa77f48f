//! Auctions (spec D2–D5): sequential bidding, buy-back, bluffs and payment.

use crate::event::{Answer, Event};
use crate::game::{Auction, Game, Phase};
use crate::types::{Animal, Cards, MoneyCard, Seat, MONEY_KINDS, PLAYERS};

impl Game {
    /// Starts a bidding run for `animal` (a rerun after a bluff keeps `excluded`).
    pub(crate) fn start_bidding(
        &mut self,
        animal: Animal,
        auctioneer: Seat,
        excluded: [bool; PLAYERS],
    ) {
        let active: [bool; PLAYERS] =
            std::array::from_fn(|i| Seat(i as u8) != auctioneer && !excluded[i]);
        let a = Auction {
            animal,
            auctioneer,
            active,
            excluded,
            high_bidder: None,
            high_bid: Cards::EMPTY,
            next: auctioneer,
            history: Vec::new(),
            seen: [0; PLAYERS],
        };
        self.continue_bidding(a, auctioneer);
    }

    /// Asks the next active bidder after `after`, or ends the bidding (spec D2.2–D2.4).
    fn continue_bidding(&mut self, mut a: Auction, after: Seat) {
        let next = (1..PLAYERS)
            .map(|i| after.plus(i))
            .find(|&p| a.active[p.idx()] && Some(p) != a.high_bidder);
        match (next, a.high_bidder) {
            (Some(p), _) => {
                a.next = p;
                self.phase = Phase::Bidding(a);
            }
            (None, None) => self.sell_free(a.animal, a.auctioneer),
            (None, Some(_)) => self.phase = Phase::BuyBack(a),
        }
    }

    pub(crate) fn on_bid(&mut self, mut a: Auction, answer: Answer) {
        let s = a.next;
        let (bid, value) = match answer {
            Answer::Money(c) => (Some(c), c.value()),
            _ => {
                self.count_default(s);
                (None, 0)
            }
        };
        a.history.push((s, value));
        a.seen[s.idx()] = a.history.len();
        let mut raise = bid.is_some() && value > a.high_bid.value();
        if raise && self.caught[s.idx()] && value > self.money[s.idx()].value() {
            self.tell(s, Event::SecondBluffNotAllowed { animal: a.animal });
            raise = false;
        }
        if raise {
            a.high_bidder = Some(s);
            a.high_bid = bid.unwrap_or_default();
        } else {
            a.active[s.idx()] = false;
        }
        self.continue_bidding(a, s);
    }

    /// Nobody bid: the auctioneer takes the card for free.
    fn sell_free(&mut self, animal: Animal, auctioneer: Seat) {
        self.herds[auctioneer.idx()].add(animal, 1);
        self.tell(
            auctioneer,
            Event::ReceiveGoods {
                animal,
                count: 1,
                from: None,
            },
        );
        for i in 1..PLAYERS {
            self.tell(
                auctioneer.plus(i),
                Event::Bought {
                    animal,
                    buyer: auctioneer,
                    cards: 0,
                    price: 0,
                },
            );
        }
        self.end_turn();
    }

    pub(crate) fn on_buy_back(&mut self, a: Auction, answer: Answer) {
        let auctioneer = a.auctioneer;
        let Some(high) = a.high_bidder else {
            return self.sell_free(a.animal, auctioneer);
        };
        let price = a.high_bid.value();
        let wants = match answer {
            Answer::Money(c) => c.value() >= price,
            _ => {
                self.count_default(auctioneer);
                false
            }
        };
        if wants && self.money[auctioneer.idx()].value() >= price {
            return self.deliver(a.animal, auctioneer, high, a.high_bid);
        }
        if self.money[high.idx()].value() < price {
            // Caught bluffing (spec D4): everybody sees his hand; rerun without him.
            self.caught[high.idx()] = true;
            self.stats[high.idx()].bluffs += 1;
            let cards = self.money[high.idx()];
            for i in 0..PLAYERS {
                self.tell(
                    auctioneer.plus(i),
                    Event::Bluffed {
                        animal: a.animal,
                        bluffer: high,
                        cards,
                    },
                );
            }
            let mut excluded = a.excluded;
            excluded[high.idx()] = true;
            return self.start_bidding(a.animal, auctioneer, excluded);
        }
        self.deliver(a.animal, high, auctioneer, a.high_bid);
    }

    /// The buyer gets the animal, then is asked for his payment (spec D5).
    fn deliver(&mut self, animal: Animal, buyer: Seat, seller: Seat, price: Cards) {
        self.herds[buyer.idx()].add(animal, 1);
        self.tell(
            buyer,
            Event::ReceiveGoods {
                animal,
                count: 1,
                from: None,
            },
        );
        self.phase = Phase::Payment {
            animal,
            buyer,
            seller,
            price,
        };
    }

    pub(crate) fn on_payment(
        &mut self,
        animal: Animal,
        buyer: Seat,
        seller: Seat,
        price: Cards,
        answer: Answer,
    ) {
        let amount = price.value();
        let hand = self.money[buyer.idx()];
        let cards = match answer {
            Answer::Money(c) if hand.contains(&c) && c.value() >= amount => c,
            _ => {
                self.count_default(buyer);
                let c = server_payment(&hand, amount);
                self.tell(
                    buyer,
                    Event::ServerPaid {
                        animal,
                        to: seller,
                        cards: c,
                    },
                );
                c
            }
        };
        self.money[buyer.idx()].remove(&cards);
        self.money[seller.idx()].add(&cards);
        self.tell(
            seller,
            Event::ReceiveMoney {
                cards,
                from: Some(buyer),
            },
        );
        let third: Vec<Seat> = (1..PLAYERS)
            .map(|i| self.active.plus(i))
            .filter(|&p| p != buyer && p != seller)
            .collect();
        for &p in &third {
            self.tell(
                p,
                Event::Bought {
                    animal,
                    buyer,
                    cards: cards.len(),
                    price: amount,
                },
            );
        }
        for &p in &third {
            self.tell(
                p,
                Event::Sold {
                    seller,
                    cards: cards.len(),
                    price: amount,
                },
            );
        }
        self.end_turn();
    }
}

/// The market's choice of payment (spec D5): smallest overpayment, then fewest cards, then the
/// lowest highest cards; `n` cards are never used. Pays everything but `n` if `hand` is short.
///
/// For every choice of the `f h T F` counts the fewest `t` that reach the amount is the only
/// candidate worth looking at (more `t` only adds overpayment and cards).
pub fn server_payment(hand: &Cards, amount: u32) -> Cards {
    let mut best: Option<(u32, u32, Cards)> = None;
    let h = &hand.0;
    let tens = h[1] as u32;
    for nf5 in 0..=h[5] {
        let v5 = nf5 as u32 * 500;
        for nf4 in 0..=h[4] {
            let v4 = v5 + nf4 as u32 * 200;
            for nf3 in 0..=h[3] {
                let v3 = v4 + nf3 as u32 * 100;
                for nf2 in 0..=h[2] {
                    let v = v3 + nf2 as u32 * 50;
                    let t = amount.saturating_sub(v).div_ceil(10);
                    if t <= tens {
                        let c = Cards([0, t as u8, nf2, nf3, nf4, nf5]);
                        let key = (v + 10 * t - amount, c.len());
                        let better = match &best {
                            None => true,
                            Some((o, l, b)) => {
                                key < (*o, *l) || (key == (*o, *l) && lower_top_cards(&c, b))
                            }
                        };
                        if better {
                            best = Some((key.0, key.1, c));
                        }
                    }
                    if v >= amount {
                        break;
                    }
                }
                if v3 >= amount {
                    break;
                }
            }
            if v4 >= amount {
                break;
            }
        }
        if v5 >= amount {
            break;
        }
    }
    best.map(|b| b.2).unwrap_or_else(|| {
        let mut all = *hand;
        all.0[MoneyCard::Zero as usize] = 0;
        all
    })
}

/// True when `a`'s descending card list is lexicographically lower than `b`'s (equal lengths).
fn lower_top_cards(a: &Cards, b: &Cards) -> bool {
    for k in (0..MONEY_KINDS).rev() {
        if a.0[k] != b.0[k] {
            return a.0[k] < b.0[k];
        }
    }
    false
}
