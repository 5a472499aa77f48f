//! The engine's absolute-seat messages ([`Event`], [`Question`], [`Answer`]) ↔ wire messages.
//!
//! Market side: [`event_msg`] / [`question_msg`] rotate every seat to the recipient's letters and
//! [`reply_answer`] reads a reply. Bot side: the bot plays as seat 0 (`S`=0, `W`=1, `N`=2, `E`=3);
//! [`BotDecoder`] turns wire messages back into events and questions (keeping the little context
//! the wire leaves implicit) and [`answer_reply`] writes the answer.

use super::{
    AuctionMsg, Cards, Goods, Info, Kind, Letters, Money, Note, Rel, ServerMsg, TradeMsg, Transfer,
};
use kibitz_koehandel::event::{Answer, Event, Question, TradeError, TradeStart};
use kibitz_koehandel::types::{Animal, Cards as ECards, MoneyCard, Seat};

/// Engine cards → wire cards.
pub fn to_wire(c: &ECards) -> Cards {
    Cards {
        counts: c.0.map(u16::from),
    }
}

/// Wire cards → engine cards (`None` when a count exceeds 255; such hands do not exist).
pub fn from_wire(c: &Cards) -> Option<ECards> {
    let mut out = ECards::EMPTY;
    for (o, &n) in out.0.iter_mut().zip(c.counts.iter()) {
        *o = u8::try_from(n).ok()?;
    }
    Some(out)
}

fn kind(a: Animal) -> Kind {
    Kind(a.0)
}

fn animal(k: Kind) -> Animal {
    Animal(k.0)
}

fn goods(a: Animal, count: u8) -> Goods {
    Goods {
        kind: kind(a),
        count,
    }
}

fn rel(s: Seat, viewer: Seat) -> Rel {
    Rel::of(s.idx(), viewer.idx())
}

fn seat(r: Rel) -> Seat {
    Seat(r.offset() as u8)
}

fn hidden(neg: bool, count: u32, price: Option<u32>) -> Money {
    Money::Hidden { neg, count, price }
}

/// Real cards as a money field (`0` when there are none).
fn real(neg: bool, c: &ECards) -> Money {
    if c.is_empty() {
        hidden(neg, 0, None)
    } else {
        Money::Real {
            neg,
            letters: to_wire(c).letters(),
        }
    }
}

fn note(e: TradeError) -> Note {
    Note::parse(e.message())
}

/// The wire form of a notice to `viewer`.
pub fn event_msg(viewer: Seat, e: &Event) -> ServerMsg {
    let r = |s: Seat| rel(s, viewer);
    let info = |opponent: Option<Seat>,
                g: Option<(bool, Goods)>,
                money: Option<Money>,
                n: Option<Note>| {
        ServerMsg::Information(Info {
            opponent: opponent.map(r),
            goods: g,
            money,
            note: n,
        })
    };
    match e {
        Event::Begin => info(None, None, None, Some(Note::Begin)),
        Event::ReceiveGoods {
            animal,
            count,
            from,
        } => ServerMsg::Receive {
            from: from.map(r),
            what: Transfer::Goods(goods(*animal, *count)),
        },
        Event::CollectGoods { animal, count, to } => ServerMsg::Collect {
            to: r(*to),
            what: Transfer::Goods(goods(*animal, *count)),
        },
        Event::ReceiveMoney { cards, from } => ServerMsg::Receive {
            from: from.map(r),
            what: Transfer::Money(to_wire(cards).letters()),
        },
        Event::CollectMoney { cards, to } => ServerMsg::Collect {
            to: r(*to),
            what: Transfer::Money(to_wire(cards).letters()),
        },
        Event::Bought {
            animal,
            buyer,
            cards,
            price,
        } => {
            let price = (*cards > 0 || *price > 0).then_some(*price);
            info(
                Some(*buyer),
                Some((false, goods(*animal, 1))),
                Some(hidden(true, *cards, price)),
                None,
            )
        }
        Event::Sold {
            seller,
            cards,
            price,
        } => info(
            Some(*seller),
            None,
            Some(hidden(false, *cards, Some(*price))),
            None,
        ),
        Event::Bluffed {
            animal,
            bluffer,
            cards,
        } => info(
            Some(*bluffer),
            Some((false, goods(*animal, 1))),
            Some(real(false, cards)),
            Some(Note::Bluffed),
        ),
        Event::SecondBluffNotAllowed { animal } => info(
            None,
            Some((false, goods(*animal, 1))),
            None,
            Some(Note::SecondBluffNotAllowed),
        ),
        Event::ServerPaid { animal, to, cards } => info(
            Some(*to),
            Some((false, goods(*animal, 1))),
            Some(real(true, cards)),
            Some(Note::ServerPaid),
        ),
        Event::TradeError(e) => info(None, None, None, Some(note(*e))),
        Event::TradeWon {
            animal,
            count,
            winner,
            cards,
        } => info(
            Some(*winner),
            Some((false, goods(*animal, *count))),
            Some(hidden(true, *cards, None)),
            None,
        ),
        Event::TradeLost {
            animal,
            count,
            loser,
            cards,
        } => info(
            Some(*loser),
            Some((true, goods(*animal, *count))),
            Some(hidden(false, *cards, None)),
            None,
        ),
        Event::OfferPaid { payer, cards } => {
            info(Some(*payer), None, Some(hidden(true, *cards, None)), None)
        }
        Event::OfferReceived { payee, cards } => {
            info(Some(*payee), None, Some(hidden(false, *cards, None)), None)
        }
        Event::DonkeyPaid { seat, card } => info(
            Some(*seat),
            None,
            Some(real(false, &ECards::single(*card))),
            None,
        ),
        Event::End { scores } => ServerMsg::End {
            scores: (0..4)
                .map(|i| {
                    let s = viewer.plus(i);
                    (r(s), scores[s.idx()])
                })
                .collect(),
        },
    }
}

/// The verbatim bid string when it names exactly these cards, else the canonical letters.
fn bid_letters(cards: &ECards, verbatim: Option<&Letters>) -> Letters {
    let w = to_wire(cards);
    match verbatim {
        Some(v) if v.cards() == w => v.clone(),
        _ => w.letters(),
    }
}

/// The wire form of a question to `viewer`; `verbatim` is the high bid as its bidder wrote it
/// (bids are echoed verbatim, the engine keeps them as a multiset).
pub fn question_msg(viewer: Seat, q: &Question, verbatim: Option<&Letters>) -> ServerMsg {
    let r = |s: Seat| rel(s, viewer);
    let hist = |h: &[(Seat, u32)]| h.iter().map(|&(s, v)| (r(s), v)).collect();
    match q {
        Question::Start => ServerMsg::Start,
        Question::Bid {
            animal,
            auctioneer,
            high_bidder,
            high_bid,
            history,
        } => ServerMsg::Auction(AuctionMsg {
            high_bidder: r(high_bidder.unwrap_or(*auctioneer)),
            auctioneer: r(*auctioneer),
            goods: kind(*animal),
            high_bid: (high_bidder.is_some() && !high_bid.is_empty())
                .then(|| bid_letters(high_bid, verbatim)),
            history: hist(history),
        }),
        Question::BuyBack {
            animal,
            high_bidder,
            high_bid,
            history,
        } => ServerMsg::Auction(AuctionMsg {
            high_bidder: r(*high_bidder),
            auctioneer: Rel::S,
            goods: kind(*animal),
            high_bid: Some(bid_letters(high_bid, verbatim)),
            history: hist(history),
        }),
        Question::Pay { to, price, .. } => ServerMsg::Collect {
            to: r(*to),
            what: Transfer::Money(bid_letters(price, verbatim)),
        },
        Question::Challenged {
            challenger,
            animal,
            count,
            offer_cards,
            tie,
        } => ServerMsg::Trade(TradeMsg {
            opponent: r(*challenger),
            goods: goods(*animal, *count),
            offer: Some(hidden(false, *offer_cards, None)),
            equal_bid: *tie,
        }),
        Question::Reoffer {
            opponent,
            animal,
            count,
        } => ServerMsg::Trade(TradeMsg {
            opponent: r(*opponent),
            goods: goods(*animal, *count),
            offer: None,
            equal_bid: true,
        }),
    }
}

/// Reads a reply (`None` = no answer at all) to `q` from `viewer` as the engine's answer.
pub fn reply_answer(viewer: Seat, q: &Question, reply: Option<&super::Reply>) -> Answer {
    let Some(reply) = reply else {
        return Answer::None;
    };
    match q {
        Question::Start => {
            if reply.wants_trade() {
                Answer::Trade(TradeStart {
                    opponent: reply
                        .opponent_rel()
                        .map(|r| Seat(r.seat(viewer.idx()) as u8)),
                    animal: reply.goods_parsed().map(|g| animal(g.kind)),
                    offer: reply.money_cards().as_ref().and_then(from_wire),
                })
            } else if reply.typ.as_deref() == Some("auction") {
                Answer::Auction
            } else {
                Answer::None
            }
        }
        _ => match reply.money.as_deref() {
            None | Some("") => Answer::Money(ECards::EMPTY),
            Some(_) => match reply.money_cards().as_ref().and_then(from_wire) {
                Some(c) => Answer::Money(c),
                None => Answer::InvalidMoney,
            },
        },
    }
}

/// The reply body for an answer of a bot playing as seat 0.
pub fn answer_reply(a: &Answer) -> super::Reply {
    match a {
        Answer::None | Answer::InvalidMoney => super::Reply::empty(),
        Answer::Auction => super::Reply::auction(),
        Answer::Trade(t) => super::Reply {
            typ: Some("trade".into()),
            opponent: t.opponent.map(|s| Rel::of(s.idx(), 0).to_string()),
            goods: t.animal.map(|a| a.letter().to_string()),
            money: t
                .offer
                .filter(|c| !c.is_empty())
                .map(|c| to_wire(&c).to_string()),
        },
        Answer::Money(c) => super::Reply::cards(&to_wire(c)),
    }
}

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
