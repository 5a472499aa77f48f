//! Koehandel in the arena: four seats, two copies of A and two of B, over the same deck in the
//! four rotations of the seat pattern `AABB` (slot k shifts it by k seats: `AABB`, `BAAB`,
//! `BBAA`, `ABBA`), so every seat holds A twice and B twice per deck.
//!
//! **Pairwise result** (what W/D/L mean here): A wins a game when the two A seats together
//! scored more than the two B seats, draws when the sums are equal, loses otherwise. Swapping
//! the names A and B turns a win into a loss, so for equal players the expected score is
//! exactly 0.5, as the Elo and SPRT formulas assume.
//!
//! Specs are the engine's ([`kibitz_koehandel::make_player`]): `pass`, `random`,
//! `heuristic[:k=v...]`, `strong[:worlds=N,...]`; options may be separated by `,` or `:` and
//! written `param.NAME=V`; `time=MS` sets the strong player's per-decision budget
//! (`soft_ms`). Without a time the strong player is deterministic.

use super::{split_spec, Arena, Job, Outcome, Played};
use anyhow::Context;
use kibitz_koehandel::{make_player, Animal, Answer, Cards, Event, Game, Player, Question, Seat};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// Seats per game.
const SEATS: usize = 4;

/// The Koehandel adapter.
pub struct Koehandel;

/// Turns an arena spec into the engine's colon-separated form.
pub fn engine_spec(spec: &str, tc_ms: Option<u64>) -> anyhow::Result<String> {
    let (kind, opts) = split_spec(spec);
    let mut parts = vec![kind.to_string()];
    let mut timed = false;
    for (k, v) in opts {
        let k = k.strip_prefix("param.").unwrap_or(k);
        let k = if k == "time" { "soft_ms" } else { k };
        timed |= k == "soft_ms" || k == "hard_ms";
        parts.push(format!("{k}={v}"));
    }
    if let (Some(ms), false, "strong") = (tc_ms, timed, kind) {
        parts.push(format!("soft_ms={ms}"));
    }
    let s = parts.join(":");
    if make_player(&s, 0).is_none() {
        anyhow::bail!(
            "koehandel spec {spec:?}: unknown player or option (players: {})",
            kibitz_koehandel::PLAYER_NAMES.join(", ")
        );
    }
    Ok(s)
}

/// Whether seat `s` holds A in slot `slot`.
fn is_a(slot: u64, s: usize) -> bool {
    (s + SEATS - slot as usize % SEATS) % SEATS < 2
}

type Log = Arc<Mutex<Vec<(usize, String, Value)>>>;

/// A player that logs every question and answer.
struct Logged {
    inner: Box<dyn Player>,
    seat: usize,
    log: Log,
}

impl Player for Logged {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn new_game(&mut self, me: Seat) {
        self.inner.new_game(me)
    }
    fn observe(&mut self, event: &Event) {
        self.inner.observe(event)
    }
    fn decide(&mut self, question: &Question) -> Answer {
        let a = self.inner.decide(question);
        self.log.lock().unwrap_or_else(|e| e.into_inner()).push((
            self.seat,
            format!("{question:?}"),
            answer_json(&a),
        ));
        a
    }
}

fn answer_json(a: &Answer) -> Value {
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

fn answer_from_json(v: &Value) -> anyhow::Result<Answer> {
    Ok(match v {
        Value::String(s) if s == "none" => Answer::None,
        Value::String(s) if s == "auction" => Answer::Auction,
        Value::String(s) if s == "invalid" => Answer::InvalidMoney,
        Value::Object(o) if o.contains_key("money") => {
            Answer::Money(Cards::parse(o["money"].as_str().unwrap_or(""))?)
        }
        Value::Object(o) if o.contains_key("trade") => {
            let t = &o["trade"];
            Answer::Trade(kibitz_koehandel::TradeStart {
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

/// The table drawn as text: every seat's herd and money, the deck left.
fn draw(g: &Game) -> String {
    let mut s = format!("deck left {}, {} to act\n", g.deck_left(), g.active());
    for i in 0..SEATS as u8 {
        let seat = Seat(i);
        s += &format!(
            "  seat {i}: herd {:<16} money {}\n",
            g.herd(seat).to_string(),
            g.money(seat)
        );
    }
    s
}

impl Arena for Koehandel {
    fn name(&self) -> &'static str {
        "koehandel"
    }

    fn unit(&self) -> u64 {
        SEATS as u64
    }

    fn side_label(&self, slot: u64) -> String {
        (0..SEATS)
            .map(|s| if is_a(slot, s) { 'A' } else { 'B' })
            .collect()
    }

    fn check_spec(&self, spec: &str) -> anyhow::Result<()> {
        engine_spec(spec, None).map(|_| ())
    }

    fn play(&self, job: &Job) -> anyhow::Result<Played> {
        let (sa, sb) = (
            engine_spec(job.a, job.tc_ms)?,
            engine_spec(job.b, job.tc_ms)?,
        );
        let log: Log = Arc::default();
        let mut players: Vec<Box<dyn Player>> = Vec::new();
        let mut specs = Vec::new();
        for s in 0..SEATS {
            let (spec, text) = if is_a(job.slot, s) {
                (&sa, job.a)
            } else {
                (&sb, job.b)
            };
            let inner = make_player(spec, job.seed_for(1 + s as u64))
                .with_context(|| format!("koehandel spec {text:?}"))?;
            players.push(Box::new(Logged {
                inner,
                seat: s,
                log: log.clone(),
            }));
            specs.push(text);
        }
        let deck_seed = job.unit_seed();
        let r = kibitz_koehandel::runner::play_game(Game::new(deck_seed), &mut players);
        let (mut sum_a, mut sum_b) = (0u64, 0u64);
        for (s, &score) in r.scores.iter().enumerate() {
            if is_a(job.slot, s) {
                sum_a += score as u64;
            } else {
                sum_b += score as u64;
            }
        }
        let outcome = match sum_a.cmp(&sum_b) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Equal => Outcome::Draw,
            std::cmp::Ordering::Less => Outcome::Loss,
        };
        let best = r.scores.iter().copied().max().unwrap_or(0);
        let winners: Vec<usize> = (0..SEATS).filter(|&s| r.scores[s] == best).collect();
        let moves: Vec<Value> = log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(s, q, a)| json!({"seat": s, "question": q, "answer": a}))
            .collect();
        let deck: Vec<String> = Game::shuffled_deck(deck_seed)
            .iter()
            .map(|a| a.to_string())
            .collect();
        Ok(Played {
            outcome,
            plies: moves.len() as u32,
            record: json!({
                "players": specs,
                "setup": {"deck_seed": deck_seed, "deck": deck},
                "moves": moves,
                "result": {
                    "winner": if winners.len() == 1 { json!(winners[0]) } else { Value::Null },
                    "scores": r.scores, "a_sum": sum_a, "b_sum": sum_b, "turns": r.turns,
                },
            }),
        })
    }

    fn replay(&self, record: &Value) -> anyhow::Result<Vec<(String, String)>> {
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
            let answer =
                answer_from_json(&m["answer"]).with_context(|| format!("move {}", i + 1))?;
            let q = m["question"].as_str().unwrap_or("?");
            let short: String = q.chars().take(60).collect();
            g.answer(answer);
            out.push((
                format!(
                    "{}. {} asked {short}… answers {}",
                    i + 1,
                    ask.seat,
                    m["answer"]
                ),
                draw(&g),
            ));
        }
        if let Some(last) = out.last_mut() {
            last.0 += &format!("  — scores {:?}", g.scores());
        }
        Ok(out)
    }
}
