//! The engine's absolute-seat messages ([`Event`], [`Question`], [`Answer`]) ↔ wire messages.
//!
//! Market side: [`event_msg`] / [`question_msg`] rotate every seat to the recipient's letters and
//! [`reply_answer`] reads a reply. Bot side: the bot plays as seat 0 (`S`=0, `W`=1, `N`=2, `E`=3);
//! [`super::BotDecoder`] turns wire messages back into events and questions (keeping the little context
//! the wire leaves implicit) and [`answer_reply`] writes the answer.

use super::{
    AuctionMsg, Cards, Goods, Info, Kind, Letters, Money, Note, Rel, ServerMsg, TradeMsg, Transfer,
};
use kibitz_koehandel::event::{Answer, Event, Question, TradeError, TradeStart};
use kibitz_koehandel::types::{Animal, Cards as ECards, Seat};

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

pub(super) fn animal(k: Kind) -> Animal {
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

pub(super) fn seat(r: Rel) -> Seat {
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
