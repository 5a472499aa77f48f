//! Test helpers: render questions and notices as the spec's GET queries (relative letters),
//! parse the spec's reply strings, and run a game against a script of replies.
#![allow(dead_code)]

use kibitz_koehandel::{Animal, Answer, Cards, Event, Game, Question, Seat, TradeStart};

fn l(s: Seat, viewer: Seat) -> char {
    s.letter_for(viewer)
}

fn q(n: u32) -> String {
    "Q".repeat(n as usize)
}

fn goods(a: Animal, n: u8) -> String {
    std::iter::repeat_n(a.letter(), n as usize).collect()
}

fn history(h: &[(Seat, u32)], me: Seat) -> String {
    h.iter()
        .map(|(s, v)| format!("{}{}", l(*s, me), v))
        .collect()
}

/// A question as the spec's request (without the market/id prefix).
pub fn render_question(me: Seat, qn: &Question) -> String {
    match qn {
        Question::Start => "type=start".into(),
        Question::Bid {
            animal,
            auctioneer,
            high_bidder,
            high_bid,
            history: h,
        } => {
            let mut s = format!(
                "type=auction&opponent={}&auctioneer={}&goods={}",
                l(high_bidder.unwrap_or(*auctioneer), me),
                l(*auctioneer, me),
                animal
            );
            if !high_bid.is_empty() {
                s += &format!("&money={high_bid}");
            }
            if !h.is_empty() {
                s += &format!("&message={}", history(h, me));
            }
            s
        }
        Question::BuyBack {
            animal,
            high_bidder,
            high_bid,
            history: h,
        } => format!(
            "type=auction&opponent={}&auctioneer=S&goods={}&money={}&message={}",
            l(*high_bidder, me),
            animal,
            high_bid,
            history(h, me)
        ),
        Question::Pay { to, price, .. } => {
            format!("type=collect&opponent={}&money={}", l(*to, me), price)
        }
        Question::Challenged {
            challenger,
            animal,
            count,
            offer_cards,
            tie,
        } => {
            let m = if *offer_cards == 0 {
                "0".to_string()
            } else {
                q(*offer_cards)
            };
            let mut s = format!(
                "type=trade&opponent={}&goods={}&money={}",
                l(*challenger, me),
                goods(*animal, *count),
                m
            );
            if *tie {
                s += "&message=equal_bid";
            }
            s
        }
        Question::Reoffer {
            opponent,
            animal,
            count,
        } => {
            format!(
                "type=trade&opponent={}&goods={}&message=equal_bid",
                l(*opponent, me),
                goods(*animal, *count)
            )
        }
    }
}

/// A notice as the spec's request.
pub fn render_event(me: Seat, e: &Event) -> String {
    match e {
        Event::Begin => "type=information&message=begin".into(),
        Event::ReceiveGoods {
            animal,
            count,
            from,
        } => match from {
            Some(f) => format!(
                "type=receive&opponent={}&goods={}",
                l(*f, me),
                goods(*animal, *count)
            ),
            None => format!("type=receive&goods={}", goods(*animal, *count)),
        },
        Event::CollectGoods { animal, count, to } => {
            format!(
                "type=collect&opponent={}&goods={}",
                l(*to, me),
                goods(*animal, *count)
            )
        }
        Event::ReceiveMoney { cards, from } => match from {
            Some(f) => format!("type=receive&opponent={}&money={}", l(*f, me), cards),
            None => format!("type=receive&money={cards}"),
        },
        Event::CollectMoney { cards, to } => {
            format!("type=collect&opponent={}&money={}", l(*to, me), cards)
        }
        Event::Bought {
            animal,
            buyer,
            cards,
            price,
        } => {
            let m = if *cards == 0 && *price == 0 {
                "-0".to_string()
            } else {
                format!("-{}{}", q(*cards), price)
            };
            format!(
                "type=information&opponent={}&goods={}&money={}",
                l(*buyer, me),
                animal,
                m
            )
        }
        Event::Sold {
            seller,
            cards,
            price,
        } => {
            format!(
                "type=information&opponent={}&money={}{}",
                l(*seller, me),
                q(*cards),
                price
            )
        }
        Event::Bluffed {
            animal,
            bluffer,
            cards,
        } => format!(
            "type=information&opponent={}&goods={}&money={}&message=bluffed",
            l(*bluffer, me),
            animal,
            cards
        ),
        Event::SecondBluffNotAllowed { animal } => {
            format!("type=information&goods={animal}&message=second_bluff_not_allowed")
        }
        Event::ServerPaid { animal, to, cards } => format!(
            "type=information&opponent={}&goods={}&money=-{}&message=server_paid",
            l(*to, me),
            animal,
            cards
        ),
        Event::TradeError(t) => format!("type=information&message={}", t.message()),
        Event::TradeWon {
            animal,
            count,
            winner,
            cards,
        } => {
            let m = if *cards == 0 {
                "-0".to_string()
            } else {
                format!("-{}", q(*cards))
            };
            format!(
                "type=information&opponent={}&goods={}&money={}",
                l(*winner, me),
                goods(*animal, *count),
                m
            )
        }
        Event::TradeLost {
            animal,
            count,
            loser,
            cards,
        } => {
            let m = if *cards == 0 {
                "0".to_string()
            } else {
                q(*cards)
            };
            format!(
                "type=information&opponent={}&goods=-{}&money={}",
                l(*loser, me),
                goods(*animal, *count),
                m
            )
        }
        Event::OfferPaid { payer, cards } => {
            let m = if *cards == 0 {
                "-0".to_string()
            } else {
                format!("-{}", q(*cards))
            };
            format!("type=information&opponent={}&money={}", l(*payer, me), m)
        }
        Event::OfferReceived { payee, cards } => {
            let m = if *cards == 0 {
                "0".to_string()
            } else {
                q(*cards)
            };
            format!("type=information&opponent={}&money={}", l(*payee, me), m)
        }
        Event::DonkeyPaid { seat, card } => {
            format!(
                "type=information&opponent={}&money={}",
                l(*seat, me),
                card.letter()
            )
        }
        Event::End { scores } => {
            let mut s = "type=end&message=".to_string();
            for i in 0..4 {
                let p = me.plus(i);
                s += &format!("{}{}", l(p, me), scores[p.idx()]);
            }
            s
        }
    }
}

fn field<'a>(body: &'a str, key: &str) -> Option<&'a str> {
    body.trim_start_matches('?').split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        (k == key).then_some(v)
    })
}

/// A spec reply string (`?money=tt`, `?type=trade&...`, `(none)`) as an [`Answer`] of `me`.
pub fn parse_reply(me: Seat, body: &str) -> Answer {
    if body == "(none)" {
        return Answer::None;
    }
    let money = field(body, "money").map(Cards::parse);
    match field(body, "type") {
        Some("auction") => Answer::Auction,
        Some("trade") => Answer::Trade(TradeStart {
            opponent: field(body, "opponent")
                .and_then(|o| o.chars().next())
                .and_then(|c| Seat::from_letter(c, me)),
            animal: field(body, "goods")
                .and_then(|g| g.chars().next())
                .and_then(Animal::from_letter),
            offer: match money {
                None => Some(Cards::EMPTY),
                Some(Ok(c)) => Some(c),
                Some(Err(_)) => None,
            },
        }),
        _ => match money {
            None => Answer::None,
            Some(Ok(c)) => Answer::Money(c),
            Some(Err(_)) => Answer::InvalidMoney,
        },
    }
}

/// Runs `game`, answering questions from `replies` in order; returns the transcript lines
/// `P<seat> <request> -> <reply>` (notices have no reply). Stops at the first question after
/// the script is exhausted (that question is included, without reply).
pub fn run_script(game: &mut Game, replies: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut next = 0;
    loop {
        for n in game.drain_notices() {
            out.push(format!("P{} {}", n.seat.0, render_event(n.seat, &n.event)));
        }
        let Some(ask) = game.ask() else { break };
        let req = format!(
            "P{} {}",
            ask.seat.0,
            render_question(ask.seat, &ask.question)
        );
        if next == replies.len() {
            out.push(req);
            break;
        }
        out.push(format!("{req} -> {}", replies[next]));
        let a = parse_reply(ask.seat, replies[next]);
        next += 1;
        game.answer(a);
    }
    out
}
