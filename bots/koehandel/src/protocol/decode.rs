//! Bot side of the codec: wire messages back into the engine's events and questions, for a
//! bot playing as seat 0 (`S`=0, `W`=1, `N`=2, `E`=3).

use super::convert::{animal, from_wire, seat};
use super::{AuctionMsg, Cards, Info, Money, Note, Rel, ServerMsg, Transfer};
use kibitz_koehandel::event::{Event, Question, TradeError};
use kibitz_koehandel::types::{Animal, Cards as ECards, MoneyCard, Seat};

/// A wire message as the bot's engine sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A notice: observe it, reply nothing.
    Event(Event),
    /// A question: decide and reply.
    Question(Question),
    /// A message the bot cannot interpret (logged, answered with the empty reply).
    Unknown,
}

/// Bot-side decoder: the wire leaves two things implicit that it reconstructs from context.
/// A `collect money` right after an auction `receive goods` is a payment question (else a trade
/// offer handed over), and `goods=K money=-0` is a free auction when this player was just asked
/// to bid on K (else a trade won with an empty offer).
#[derive(Clone, Debug, Default)]
pub struct BotDecoder {
    bidding_on: Option<Animal>,
    bought: Option<Animal>,
}

impl BotDecoder {
    /// Interprets one message for the bot at seat 0.
    pub fn decode(&mut self, msg: &ServerMsg) -> Incoming {
        let bought = self.bought.take();
        let ev = Incoming::Event;
        match msg {
            ServerMsg::Start => {
                self.bidding_on = None;
                Incoming::Question(Question::Start)
            }
            ServerMsg::Auction(a) => {
                let Some(high_bid) = a.high_bid.as_ref().map(|l| from_wire(&l.cards())) else {
                    return self.bid(a, None, ECards::EMPTY);
                };
                let Some(high_bid) = high_bid else {
                    return Incoming::Unknown;
                };
                self.bid(a, Some(seat(a.high_bidder)), high_bid)
            }
            ServerMsg::Trade(t) if t.offer.is_none() => Incoming::Question(Question::Reoffer {
                opponent: seat(t.opponent),
                animal: animal(t.goods.kind),
                count: t.goods.count,
            }),
            ServerMsg::Trade(t) => Incoming::Question(Question::Challenged {
                challenger: seat(t.opponent),
                animal: animal(t.goods.kind),
                count: t.goods.count,
                offer_cards: t.offer.as_ref().map_or(0, Money::card_count),
                tie: t.equal_bid,
            }),
            ServerMsg::Collect {
                to,
                what: Transfer::Goods(g),
            } => ev(Event::CollectGoods {
                animal: animal(g.kind),
                count: g.count,
                to: seat(*to),
            }),
            ServerMsg::Collect {
                to,
                what: Transfer::Money(m),
            } => {
                let Some(cards) = from_wire(&m.cards()) else {
                    return Incoming::Unknown;
                };
                match bought {
                    Some(a) => Incoming::Question(Question::Pay {
                        animal: a,
                        to: seat(*to),
                        price: cards,
                    }),
                    None => ev(Event::CollectMoney {
                        cards,
                        to: seat(*to),
                    }),
                }
            }
            ServerMsg::Receive {
                from,
                what: Transfer::Goods(g),
            } => {
                if from.is_none() {
                    self.bought = Some(animal(g.kind));
                    self.bidding_on = None;
                }
                ev(Event::ReceiveGoods {
                    animal: animal(g.kind),
                    count: g.count,
                    from: from.map(seat),
                })
            }
            ServerMsg::Receive {
                from,
                what: Transfer::Money(m),
            } => match from_wire(&m.cards()) {
                Some(cards) => ev(Event::ReceiveMoney {
                    cards,
                    from: from.map(seat),
                }),
                None => Incoming::Unknown,
            },
            ServerMsg::Information(i) => self.info(i),
            ServerMsg::End { scores } => {
                let mut s = [0; 4];
                for &(r, v) in scores {
                    s[r.offset()] = v;
                }
                ev(Event::End { scores: s })
            }
        }
    }

    fn bid(&mut self, a: &AuctionMsg, high_bidder: Option<Seat>, high_bid: ECards) -> Incoming {
        let history = a.history.iter().map(|&(r, v)| (seat(r), v)).collect();
        let animal = animal(a.goods);
        if a.auctioneer == Rel::S {
            return Incoming::Question(Question::BuyBack {
                animal,
                high_bidder: high_bidder.unwrap_or(Seat(0)),
                high_bid,
                history,
            });
        }
        self.bidding_on = Some(animal);
        Incoming::Question(Question::Bid {
            animal,
            auctioneer: seat(a.auctioneer),
            high_bidder,
            high_bid,
            history,
        })
    }

    fn info(&mut self, i: &Info) -> Incoming {
        let ev = Incoming::Event;
        let cards_of = |m: &Money| match m {
            Money::Real { letters, .. } => from_wire(&letters.cards()),
            Money::Hidden { count: 0, .. } => Some(ECards::EMPTY),
            Money::Hidden { .. } => None,
        };
        if let Some(n) = &i.note {
            let g = i.goods.map(|(_, g)| animal(g.kind));
            return match (n, g, i.opponent, &i.money) {
                (Note::Begin, ..) => {
                    *self = BotDecoder::default();
                    ev(Event::Begin)
                }
                (Note::Bluffed, Some(animal), Some(b), Some(m)) => match cards_of(m) {
                    Some(cards) => ev(Event::Bluffed {
                        animal,
                        bluffer: seat(b),
                        cards,
                    }),
                    None => Incoming::Unknown,
                },
                (Note::SecondBluffNotAllowed, Some(animal), ..) => {
                    ev(Event::SecondBluffNotAllowed { animal })
                }
                (Note::ServerPaid, Some(animal), Some(to), Some(m)) => match cards_of(m) {
                    Some(cards) => ev(Event::ServerPaid {
                        animal,
                        to: seat(to),
                        cards,
                    }),
                    None => Incoming::Unknown,
                },
                (Note::NoOpponementSpecified, ..) => ev(Event::TradeError(TradeError::NoOpponent)),
                (Note::GoodsNotOwnedByPlayer, ..) => {
                    ev(Event::TradeError(TradeError::GoodsNotOwned))
                }
                (Note::OpponentGoodsDoNotMatch, ..) => {
                    ev(Event::TradeError(TradeError::OpponentGoodsMismatch))
                }
                (Note::InvalidBid, ..) => ev(Event::TradeError(TradeError::InvalidBid)),
                _ => Incoming::Unknown,
            };
        }
        let (Some(who), Some(money)) = (i.opponent.map(seat), &i.money) else {
            return Incoming::Unknown;
        };
        match (i.goods, money) {
            (
                Some((false, g)),
                Money::Hidden {
                    neg: true,
                    count,
                    price,
                },
            ) => {
                let a = animal(g.kind);
                let auction =
                    price.is_some() || (*count == 0 && self.bidding_on == Some(a) && g.count == 1);
                if auction {
                    self.bidding_on = None;
                    ev(Event::Bought {
                        animal: a,
                        buyer: who,
                        cards: *count,
                        price: price.unwrap_or(0),
                    })
                } else {
                    ev(Event::TradeWon {
                        animal: a,
                        count: g.count,
                        winner: who,
                        cards: *count,
                    })
                }
            }
            (
                Some((true, g)),
                Money::Hidden {
                    neg: false, count, ..
                },
            ) => ev(Event::TradeLost {
                animal: animal(g.kind),
                count: g.count,
                loser: who,
                cards: *count,
            }),
            (
                None,
                Money::Hidden {
                    neg: false,
                    count,
                    price: Some(p),
                },
            ) => ev(Event::Sold {
                seller: who,
                cards: *count,
                price: *p,
            }),
            (
                None,
                Money::Hidden {
                    neg: true,
                    count,
                    price: None,
                },
            ) => ev(Event::OfferPaid {
                payer: who,
                cards: *count,
            }),
            (
                None,
                Money::Hidden {
                    neg: false,
                    count,
                    price: None,
                },
            ) => ev(Event::OfferReceived {
                payee: who,
                cards: *count,
            }),
            (
                None,
                Money::Real {
                    neg: false,
                    letters,
                },
            ) => {
                let c = letters.cards();
                match Card::single(&c) {
                    Some(card) => ev(Event::DonkeyPaid { seat: who, card }),
                    None => Incoming::Unknown,
                }
            }
            _ => Incoming::Unknown,
        }
    }
}

struct Card;

impl Card {
    /// The money card when `c` is exactly one card.
    fn single(c: &Cards) -> Option<MoneyCard> {
        (c.len() == 1).then(|| MoneyCard::ALL[c.counts.iter().position(|&n| n == 1).unwrap_or(0)])
    }
}
