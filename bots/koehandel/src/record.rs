//! Koehandel game records and the readable text of the market's questions, in one place for
//! the market (`koehandel-server --records`, `kibitz tournament --records`), the arena
//! (`kibitz match koehandel --records`), `kibitz replay` and `kibitz play koehandel`.
//!
//! A record is one `kibitz-record/1` line (format described in the root crate's
//! `arena::record`): `players`, `setup: {"deck_seed", "deck": [letters]}`, `moves: [{"seat",
//! "question", "answer"}]` (the question as a person reads it, the answer as the engine applied
//! it: `"none"`, `"auction"`, `"invalid"`, `{"money": letters}`, `{"trade": {...}}`) and
//! `result: {"winner", "scores", "turns"}`. Replaying the answers on `Game::new(deck_seed)`
//! reaches the recorded end.

use anyhow::Context;
use kibitz_koehandel::{Animal, Answer, Cards, Game, Question, Seat, TradeStart};
use serde_json::{json, Value};

/// Seats per game.
const SEATS: usize = 4;

/// The animals' names by letter `A`..`J` (spec A).
pub const ANIMAL_NAMES: [&str; 10] = [
    "rooster", "goose", "cat", "dog", "sheep", "goat", "donkey", "pig", "cow", "horse",
];

/// `cow (I)`: the animal's name and its wire letter.
pub fn animal_text(a: Animal) -> String {
    let name = ANIMAL_NAMES.get(a.idx()).copied().unwrap_or("animal");
    format!("{name} ({})", a.letter())
}

/// Money cards as values: `60 (50+10)`, `0 (0)` for a zero card, `no cards` for none.
pub fn money_text(c: &Cards) -> String {
    if c.is_empty() {
        return "no cards".into();
    }
    let parts: Vec<String> = c.iter_desc().map(|m| m.value().to_string()).collect();
    format!("{} ({})", c.value(), parts.join("+"))
}

fn seat(s: Seat) -> String {
    format!("seat {}", s.0)
}

/// The question as a person reads it, addressed to the seat that is asked (`you`).
pub fn question_text(q: &Question) -> String {
    match q {
        Question::Start => {
            "your turn: auction the next animal, or challenge a player to a cow trade".into()
        }
        Question::Bid {
            animal,
            auctioneer,
            high_bidder,
            high_bid,
            history,
        } => {
            let high = match high_bidder {
                Some(b) if !high_bid.is_empty() => {
                    format!("high bid {} by {}", high_bid.value(), seat(*b))
                }
                _ => "no bid yet".into(),
            };
            let mut s = format!(
                "{} auctions the {}: {high}",
                seat(*auctioneer),
                animal_text(*animal)
            );
            if !history.is_empty() {
                let h: Vec<String> = history
                    .iter()
                    .map(|(b, v)| match v {
                        0 => format!("{} passed", seat(*b)),
                        v => format!("{} {v}", seat(*b)),
                    })
                    .collect();
                s += &format!("; bids since your last answer: {}", h.join(", "));
            }
            s + " — raise (money cards) or pass (empty)"
        }
        Question::BuyBack {
            animal,
            high_bidder,
            high_bid,
            ..
        } => format!(
            "bidding on your {} is over: {} bid {} — buy it back (money worth at least {}) or sell (empty)",
            animal_text(*animal),
            seat(*high_bidder),
            high_bid.value(),
            high_bid.value()
        ),
        Question::Pay { animal, to, price } => format!(
            "you bought the {} from {} for {}: choose the money cards to pay",
            animal_text(*animal),
            seat(*to),
            price.value()
        ),
        Question::Challenged {
            challenger,
            animal,
            count,
            offer_cards,
            tie,
        } => format!(
            "{} challenges you for {count} × {} with a hidden offer of {offer_cards} money card(s){} — counter-offer (money cards) or accept (empty)",
            seat(*challenger),
            animal_text(*animal),
            if *tie { ", again after a tie" } else { "" }
        ),
        Question::Reoffer {
            opponent,
            animal,
            count,
        } => format!(
            "your trade with {} for {count} × {} ended in a tie: offer again (money cards)",
            seat(*opponent),
            animal_text(*animal)
        ),
    }
}

/// The answer as a person reads it.
pub fn answer_text(a: &Answer) -> String {
    match a {
        Answer::None => "no answer (default)".into(),
        Answer::Auction => "auction".into(),
        Answer::InvalidMoney => "invalid money letters".into(),
        Answer::Money(c) if c.is_empty() => "pass / accept (no cards)".into(),
        Answer::Money(c) => format!("money {}", money_text(c)),
        Answer::Trade(t) => format!(
            "trade: challenge {} for the {} offering {}",
            t.opponent.map_or("?".into(), seat),
            t.animal.map_or("?".into(), animal_text),
            t.offer.as_ref().map_or("invalid money".into(), money_text)
        ),
    }
}

/// An answer in the record's notation.
pub fn answer_json(a: &Answer) -> Value {
    match a {
        Answer::None => json!("none"),
        Answer::Auction => json!("auction"),
        Answer::InvalidMoney => json!("invalid"),
        Answer::Money(c) => json!({"money": c.to_string()}),
        Answer::Trade(t) => json!({"trade": {
            "opponent": t.opponent.map(|s| s.0),
            "animal": t.animal.map(|a| a.letter().to_string()),
            "offer": t.offer.map(|c| c.to_string()),
        }}),
    }
}

/// Reads an answer written by [`answer_json`].
pub fn answer_from_json(v: &Value) -> anyhow::Result<Answer> {
    Ok(match v {
        Value::String(s) if s == "none" => Answer::None,
        Value::String(s) if s == "auction" => Answer::Auction,
        Value::String(s) if s == "invalid" => Answer::InvalidMoney,
        Value::Object(o) if o.contains_key("money") => {
            Answer::Money(Cards::parse(o["money"].as_str().unwrap_or(""))?)
        }
        Value::Object(o) if o.contains_key("trade") => {
            let t = &o["trade"];
            Answer::Trade(TradeStart {
                opponent: t["opponent"].as_u64().map(|s| Seat(s as u8 % 4)),
                animal: t["animal"]
                    .as_str()
                    .and_then(|s| s.chars().next())
                    .and_then(Animal::from_letter),
                offer: match t["offer"].as_str() {
                    Some(s) => Some(Cards::parse(s)?),
                    None => None,
                },
            })
        }
        other => anyhow::bail!("unreadable answer {other}"),
    })
}

/// One move of the record: who was asked what and what was applied.
pub fn move_json(asked: Seat, q: &Question, a: &Answer) -> Value {
    json!({"seat": asked.0, "question": question_text(q), "answer": answer_json(a)})
}

/// The game-specific part of a record (`players`, `setup`, `moves`, `result`); the caller adds
/// `game`, `seed`, `index` and whatever else it knows.
pub fn game_json(
    deck_seed: u64,
    players: &[String],
    moves: Vec<Value>,
    scores: [u32; SEATS],
    turns: u32,
) -> Value {
    let best = scores.iter().copied().max().unwrap_or(0);
    let winners: Vec<usize> = (0..SEATS).filter(|&s| scores[s] == best).collect();
    let deck: Vec<String> = Game::shuffled_deck(deck_seed)
        .iter()
        .map(|a| a.to_string())
        .collect();
    json!({
        "game": "koehandel",
        "players": players,
        "setup": {"deck_seed": deck_seed, "deck": deck},
        "moves": moves,
        "result": {
            "winner": if winners.len() == 1 { json!(winners[0]) } else { Value::Null },
            "scores": scores,
            "turns": turns,
        },
    })
}

/// The table drawn as text: every seat's herd and money (as values), the deck left.
pub fn draw(g: &Game) -> String {
    let mut s = format!("deck left {}, {} to act\n", g.deck_left(), seat(g.active()));
    for i in 0..SEATS as u8 {
        let st = Seat(i);
        s += &format!(
            "  seat {i}: herd {:<16} money {}\n",
            g.herd(st).to_string(),
            money_text(&g.money(st))
        );
    }
    s
}

/// Positions of a record for `kibitz replay`: the start, then one per move (what was asked and
/// answered, the table after it); the last names the final scores. Fails when a move does not
/// fit the game or the replay ends elsewhere than the recorded scores.
pub fn replay(record: &Value) -> anyhow::Result<Vec<(String, String)>> {
    let seed = record["setup"]["deck_seed"]
        .as_u64()
        .context("record has no setup.deck_seed")?;
    let mut g = Game::new(seed);
    g.set_quiet(true);
    let mut out = vec![("start".to_string(), draw(&g))];
    for (i, m) in record["moves"]
        .as_array()
        .context("record has no moves")?
        .iter()
        .enumerate()
    {
        let Some(ask) = g.ask() else {
            anyhow::bail!("move {}: the game is already over", i + 1);
        };
        let answer = answer_from_json(&m["answer"]).with_context(|| format!("move {}", i + 1))?;
        let what = format!(
            "{}. {} is asked: {} → {}",
            i + 1,
            seat(ask.seat),
            question_text(&ask.question),
            answer_text(&answer)
        );
        g.answer(answer);
        out.push((what, draw(&g)));
    }
    if g.ask().is_some() {
        anyhow::bail!("the record ends before the game does");
    }
    let scores = g.scores();
    if let Some(rec) = record["result"]["scores"].as_array() {
        let rec: Vec<u64> = rec.iter().filter_map(Value::as_u64).collect();
        let got: Vec<u64> = scores.iter().map(|&s| u64::from(s)).collect();
        anyhow::ensure!(
            rec == got,
            "replay ends with scores {got:?}, the record says {rec:?}"
        );
    }
    if let Some(last) = out.last_mut() {
        last.0 += &format!("  — game over, scores {scores:?}");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz_koehandel::MoneyCard;

    #[test]
    fn questions_read_as_text_not_debug() {
        let q = Question::Bid {
            animal: Animal(8),
            auctioneer: Seat(2),
            high_bidder: Some(Seat(1)),
            high_bid: Cards::parse("ttt").unwrap(),
            history: vec![(Seat(1), 30)],
        };
        let t = question_text(&q);
        assert!(t.starts_with("seat 2 auctions the cow (I): high bid 30 by seat 1"));
        assert!(!t.contains('{'), "{t}");
        let mut c = Cards::EMPTY;
        c.push(MoneyCard::from_letter('f').unwrap());
        c.push(MoneyCard::from_letter('t').unwrap());
        assert_eq!(money_text(&c), "60 (50+10)");
        assert_eq!(money_text(&Cards::EMPTY), "no cards");
    }

    #[test]
    fn answers_round_trip() {
        for a in [
            Answer::None,
            Answer::Auction,
            Answer::InvalidMoney,
            Answer::Money(Cards::parse("ntf").unwrap()),
            Answer::Trade(TradeStart {
                opponent: Some(Seat(3)),
                animal: Some(Animal(1)),
                offer: Some(Cards::parse("tt").unwrap()),
            }),
        ] {
            assert_eq!(answer_from_json(&answer_json(&a)).unwrap(), a);
        }
    }
}
