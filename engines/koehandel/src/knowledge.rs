//! What one player can know, reconstructed from the messages he receives (spec F).
//!
//! [`Knowledge`] tracks exactly: every herd, every player's number of money cards, his own
//! hand, the money in play (start hands + donkey payouts), the cards left in the deck, who was
//! caught bluffing. Money movements are also emitted as [`Fact`]s: exact where the player sees
//! the cards (his own payments and receipts, donkey payouts, a caught bluffer's hand), hidden
//! (count and a lower bound on the value) where he does not. A [`crate::belief::Belief`]
//! consumes the facts to keep a distribution over the opponents' hands.
//!
//! Only messages are used, never the referee's state, so a network bot knows exactly as much.

use crate::event::{Answer, Event, Question};
use crate::types::{Animal, Cards, Herd, Seat, DECK_SIZE, PLAYERS};

/// A money movement as this player sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    /// Known cards moved (`from == None`: donkey payout from the bank).
    Exact {
        /// Payer, or the bank.
        from: Option<Seat>,
        /// Receiver.
        to: Seat,
        /// The cards.
        cards: Cards,
    },
    /// `count` unseen cards worth at least `min_value` moved between two other players.
    Hidden {
        /// Payer.
        from: Seat,
        /// Receiver.
        to: Seat,
        /// Number of cards.
        count: u32,
        /// Lower bound on their value (the price of an auction, 0 for trade offers).
        min_value: u32,
    },
    /// A player's whole hand was shown (caught bluff).
    Reveal {
        /// Whose hand.
        seat: Seat,
        /// His cards.
        cards: Cards,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    Idle,
    /// An auction I take part in (bidder, auctioneer) for this animal.
    Auction(Animal),
    /// A trade I take part in, with this partner.
    Trade(Seat),
}

/// Exact public and private knowledge of one seat.
#[derive(Clone, Debug)]
pub struct Knowledge {
    /// Who I am.
    pub me: Seat,
    /// My money, exactly.
    pub hand: Cards,
    /// Everybody's animals (public).
    pub herds: [Herd; PLAYERS],
    /// Everybody's number of money cards (public).
    pub counts: [u32; PLAYERS],
    /// All money held by the players together (start hands plus donkey payouts).
    pub total: Cards,
    /// Auctions finished so far (= cards drawn from the deck of 40).
    pub auctions: u32,
    /// Donkeys revealed so far.
    pub donkeys: u8,
    /// Caught bluffing (and so unable to bid beyond their money).
    pub caught: [bool; PLAYERS],
    /// The last hand each player showed when caught (exact at that moment).
    pub revealed: [Option<Cards>; PLAYERS],
    /// Animal currently auctioned, with its auctioneer, while known.
    pub auction: Option<(Animal, Seat)>,
    /// Final scores once the game is over.
    pub final_scores: Option<[u32; PLAYERS]>,
    /// Money movements not yet consumed by a belief.
    pub facts: Vec<Fact>,
    ctx: Ctx,
    pending_pay: Option<(Seat, u32)>,
    pending_bought: Option<(Seat, u32, u32)>,
    pending_won: Option<(Seat, u32)>,
    pending_offer: Option<(Seat, u32)>,
}

impl Knowledge {
    /// The knowledge at the start of a game, seen from `me`.
    pub fn new(me: Seat) -> Knowledge {
        let mut total = Cards::EMPTY;
        for _ in 0..PLAYERS {
            total.add(&Cards::START);
        }
        Knowledge {
            me,
            hand: Cards::START,
            herds: [Herd::default(); PLAYERS],
            counts: [Cards::START.len(); PLAYERS],
            total,
            auctions: 0,
            donkeys: 0,
            caught: [false; PLAYERS],
            revealed: [None; PLAYERS],
            auction: None,
            final_scores: None,
            facts: Vec::new(),
            ctx: Ctx::Idle,
            pending_pay: None,
            pending_bought: None,
            pending_won: None,
            pending_offer: None,
        }
    }

    /// Animals left in the deck (40 minus finished auctions).
    pub fn deck_left(&self) -> u32 {
        (DECK_SIZE as u32).saturating_sub(self.auctions)
    }

    /// How many animals of `kind` are still in the deck.
    pub fn in_deck(&self, kind: Animal) -> u8 {
        let held: u8 = self.herds.iter().map(|h| h.count(kind)).sum();
        4u8.saturating_sub(held)
    }

    /// The other three seats, clockwise after me.
    pub fn opponents(&self) -> [Seat; 3] {
        [self.me.plus(1), self.me.plus(2), self.me.plus(3)]
    }

    /// Money held by the opponents together (exact).
    pub fn opponents_money(&self) -> Cards {
        let mut c = self.total;
        c.remove(&self.hand);
        c
    }

    fn finish_auction(&mut self, animal: Animal, buyer: Seat) {
        self.herds[buyer.idx()].add(animal, 1);
        self.auctions += 1;
        self.auction = None;
        self.ctx = Ctx::Idle;
    }

    fn flush_payment(&mut self) {
        if let Some((to, amount)) = self.pending_pay.take() {
            // My own answer was not valid and no `server_paid` came: cannot happen with the
            // market's rules; keep the books consistent by assuming the market's choice.
            let cards = crate::auction::server_payment(&self.hand, amount);
            self.pay(to, cards);
        }
    }

    fn pay(&mut self, to: Seat, cards: Cards) {
        self.hand.remove(&cards);
        self.counts[self.me.idx()] = self.hand.len();
        self.counts[to.idx()] += cards.len();
        self.facts.push(Fact::Exact {
            from: Some(self.me),
            to,
            cards,
        });
    }

    /// Updates the books from a question (it carries the auction's animal and bids).
    pub fn on_question(&mut self, q: &Question) {
        self.flush_payment();
        match q {
            Question::Bid {
                animal, auctioneer, ..
            } => {
                self.ctx = Ctx::Auction(*animal);
                self.auction = Some((*animal, *auctioneer));
            }
            Question::BuyBack { animal, .. } => {
                self.ctx = Ctx::Auction(*animal);
                self.auction = Some((*animal, self.me));
            }
            Question::Challenged { challenger, .. } => self.ctx = Ctx::Trade(*challenger),
            Question::Reoffer { opponent, .. } => self.ctx = Ctx::Trade(*opponent),
            Question::Start => self.ctx = Ctx::Idle,
            Question::Pay { .. } => {}
        }
    }

    /// Updates the books from my own reply (my payment, my trade partner).
    pub fn on_answer(&mut self, q: &Question, a: &Answer) {
        match (q, a) {
            (Question::Pay { to, price, .. }, Answer::Money(c))
                if self.hand.contains(c) && c.value() >= price.value() =>
            {
                self.pay(*to, *c);
            }
            (Question::Pay { to, price, .. }, _) => self.pending_pay = Some((*to, price.value())),
            (Question::Start, Answer::Trade(t)) => {
                if let Some(o) = t.opponent {
                    self.ctx = Ctx::Trade(o);
                }
            }
            _ => {}
        }
    }

    /// Updates the books from a notice.
    pub fn observe(&mut self, e: &Event) {
        let me = self.me;
        if !matches!(e, Event::ServerPaid { .. }) {
            self.flush_payment();
        }
        match *e {
            Event::Begin => *self = Knowledge::new(me),
            Event::ReceiveGoods {
                animal,
                count,
                from,
            } => match from {
                None => self.finish_auction(animal, me),
                Some(l) => {
                    self.herds[l.idx()]
                        .remove(animal, count.min(self.herds[l.idx()].count(animal)));
                    self.herds[me.idx()].add(animal, count);
                }
            },
            Event::CollectGoods { animal, count, to } => {
                let c = count.min(self.herds[me.idx()].count(animal));
                self.herds[me.idx()].remove(animal, c);
                self.herds[to.idx()].add(animal, count);
            }
            Event::ReceiveMoney { cards, from } => {
                self.hand.add(&cards);
                self.counts[me.idx()] = self.hand.len();
                match from {
                    None => {
                        self.donkeys += 1;
                        for _ in 0..PLAYERS {
                            self.total.add(&cards);
                        }
                        self.facts.push(Fact::Exact {
                            from: None,
                            to: me,
                            cards,
                        });
                    }
                    Some(p) => {
                        self.counts[p.idx()] = self.counts[p.idx()].saturating_sub(cards.len());
                        self.facts.push(Fact::Exact {
                            from: Some(p),
                            to: me,
                            cards,
                        });
                        if let Ctx::Auction(animal) = self.ctx {
                            self.finish_auction(animal, p);
                        }
                    }
                }
            }
            Event::CollectMoney { cards, to } => self.pay(to, cards),
            Event::ServerPaid { to, cards, .. } => {
                self.pending_pay = None;
                self.pay(to, cards);
            }
            Event::Bought {
                animal,
                buyer,
                cards,
                price,
            } => {
                self.counts[buyer.idx()] = self.counts[buyer.idx()].saturating_sub(cards);
                if cards > 0 {
                    self.pending_bought = Some((buyer, cards, price));
                }
                self.finish_auction(animal, buyer);
            }
            Event::Sold { seller, cards, .. } => {
                self.counts[seller.idx()] += cards;
                if let Some((buyer, n, price)) = self.pending_bought.take() {
                    self.facts.push(Fact::Hidden {
                        from: buyer,
                        to: seller,
                        count: n,
                        min_value: price,
                    });
                }
            }
            Event::Bluffed { bluffer, cards, .. } => {
                self.caught[bluffer.idx()] = true;
                self.revealed[bluffer.idx()] = Some(cards);
                if bluffer != me {
                    self.facts.push(Fact::Reveal {
                        seat: bluffer,
                        cards,
                    });
                }
            }
            Event::TradeWon {
                animal,
                count,
                winner,
                cards,
            } => {
                self.herds[winner.idx()].add(animal, count);
                self.counts[winner.idx()] = self.counts[winner.idx()].saturating_sub(cards);
                self.pending_won = Some((winner, cards));
            }
            Event::TradeLost {
                animal,
                count,
                loser,
                cards,
            } => {
                let c = count.min(self.herds[loser.idx()].count(animal));
                self.herds[loser.idx()].remove(animal, c);
                self.counts[loser.idx()] += cards;
                if let Some((w, n)) = self.pending_won.take() {
                    if n > 0 {
                        self.facts.push(Fact::Hidden {
                            from: w,
                            to: loser,
                            count: n,
                            min_value: 0,
                        });
                    }
                }
            }
            Event::OfferPaid { payer, cards } => {
                self.counts[payer.idx()] = self.counts[payer.idx()].saturating_sub(cards);
                self.pending_offer = Some((payer, cards));
            }
            Event::OfferReceived { payee, cards } => {
                self.counts[payee.idx()] += cards;
                if let Some((p, n)) = self.pending_offer.take() {
                    if n > 0 {
                        self.facts.push(Fact::Hidden {
                            from: p,
                            to: payee,
                            count: n,
                            min_value: 0,
                        });
                    }
                }
            }
            Event::DonkeyPaid { seat, card } => {
                self.counts[seat.idx()] += 1;
                self.facts.push(Fact::Exact {
                    from: None,
                    to: seat,
                    cards: Cards::single(card),
                });
            }
            Event::End { scores } => self.final_scores = Some(scores),
            Event::SecondBluffNotAllowed { .. } | Event::TradeError(_) => {}
        }
    }
}
