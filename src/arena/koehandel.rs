//! Koehandel in the arena: four seats, two copies of A and two of B, over the same deck in the
//! four rotations of the seat pattern `AABB` (slot k shifts it by k seats: `AABB`, `BAAB`,
//! `BBAA`, `ABBA`), so every seat holds A twice and B twice per deck.
//!
//! **Pairwise result** (what W/D/L mean here): A wins a game when the two A seats together
//! scored more than the two B seats, draws when the sums are equal, loses otherwise. Swapping
//! the names A and B turns a win into a loss, so for equal players the expected score is
//! exactly 0.5, as the Elo and SPRT formulas assume.
//!
//! Specs are the engine's ([`kibitz_koehandel::make_agent`]): `pass`, `random`,
//! `heuristic[:k=v...]`, `strong[:worlds=N,...]`; options may be separated by `,` or `:` and
//! written `param.NAME=V`; `time=MS` sets the strong player's per-decision budget, turned into
//! its `soft_ms` and `hard_ms` by `kibitz_search::clock` (half of it soft, all of it hard);
//! `soft_ms` / `hard_ms` set them directly. The match's `--tc` is the [`TimeControl`] every
//! decision of a seat whose spec sets no time of its own is given (by the same rule). Without
//! a time the strong player is deterministic.

use super::{split_spec, Arena, Job, Outcome, Played, Position, Seating};
use anyhow::Context;
use kibitz_bots_koehandel::record as kh_record;
use kibitz_koehandel::agents::pending_question;
use kibitz_koehandel::game_impl::{KhAction, Koehandel as KhGame};
use kibitz_koehandel::{make_agent, Event, Game, KhAgent, Seat};
use kibitz_search::agent::{Agent, Decision, View};
use kibitz_search::clock::MoveBudget;
use kibitz_search::time::TimeControl;
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
    // A move budget in ms as the strong player's soft and hard times (the one clock rule).
    let budget = |ms: u64| {
        let b = MoveBudget::in_process_ms(ms);
        format!(
            "soft_ms={}:hard_ms={}",
            b.soft.as_millis(),
            b.hard.as_millis()
        )
    };
    for (k, v) in opts {
        let k = k.strip_prefix("param.").unwrap_or(k);
        timed |= matches!(k, "time" | "soft_ms" | "hard_ms");
        match (k, v.parse::<u64>()) {
            ("time", Ok(ms)) => parts.push(budget(ms)),
            // Not a whole number of ms: left for the engine's parser to refuse.
            ("time", Err(_)) => parts.push(format!("soft_ms={v}")),
            _ => parts.push(format!("{k}={v}")),
        }
    }
    if let (Some(ms), false, "strong") = (tc_ms, timed, kind) {
        parts.push(budget(ms));
    }
    let s = parts.join(":");
    if let Err(e) = make_agent(&s, 0) {
        anyhow::bail!("koehandel spec {spec:?}: {e}");
    }
    Ok(s)
}

/// The move budget a seat playing engine spec `engine` is given under the match's `--tc`:
/// `None` without `--tc` or when the spec sets a time of its own (`soft_ms`, `hard_ms`,
/// `time_ms`, which the spec's own budget keeps).
pub fn seat_budget(engine: &str, tc_ms: Option<u64>) -> Option<MoveBudget> {
    let timed = engine.split(':').skip(1).any(|p| {
        let key = p.split('=').next().unwrap_or_default();
        matches!(key, "soft_ms" | "hard_ms" | "time_ms")
    });
    tc_ms.filter(|_| !timed).map(MoveBudget::in_process_ms)
}

/// Whether seat `s` holds A in slot `slot`.
fn is_a(slot: u64, s: usize) -> bool {
    (s + SEATS - slot as usize % SEATS) % SEATS < 2
}

type Log = Arc<Mutex<Vec<Value>>>;

/// An agent that logs every question and answer.
struct Logged {
    inner: KhAgent,
    seat: usize,
    log: Log,
    /// What it thought per answer, `null` where it says nothing (`think` of `arena::record`).
    think: Log,
}

/// A decision's search numbers as a record's `think` entry (`null` without a search): the
/// seat, every stat (whole numbers as integers), the score as `estimate` and the time in `ms`.
fn think_json(seat: usize, d: &Decision<KhAction>) -> Value {
    if d.stats.is_empty() {
        return Value::Null;
    }
    let mut t = serde_json::Map::new();
    t.insert("seat".into(), seat.into());
    for &(name, v) in &d.stats {
        let n = if v.fract() == 0.0 && (0.0..9e15).contains(&v) {
            (v as u64).into()
        } else {
            v.into()
        };
        t.insert(name.into(), n);
    }
    if let Some(score) = d.score {
        t.insert("estimate".into(), score.into());
    }
    t.insert("ms".into(), (d.elapsed.as_millis() as u64).into());
    Value::Object(t)
}

impl Agent<KhGame> for Logged {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn new_game(&mut self, seat: usize, seed: u64) {
        self.inner.new_game(seat, seed)
    }
    fn observe(&mut self, event: &Event) {
        self.inner.observe(event)
    }
    fn choose(&mut self, view: &View<'_, KhGame>, clock: &TimeControl) -> Decision<KhAction> {
        let question = pending_question(view);
        let d = self.inner.choose(view, clock);
        let t = think_json(self.seat, &d);
        self.think.lock().unwrap_or_else(|e| e.into_inner()).push(t);
        if let Some(q) = question {
            self.log
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(kh_record::move_json(Seat(self.seat as u8), &q, &d.action.0));
        }
        d
    }
}

impl Arena for Koehandel {
    fn takes_deals(&self) -> bool {
        true
    }
    fn name(&self) -> &'static str {
        "koehandel"
    }

    fn seats(&self) -> usize {
        SEATS
    }

    /// The four rotations of `AABB`, one game each.
    fn unit(&self) -> u64 {
        SEATS as u64
    }

    fn seating(&self, slot: u64) -> Seating {
        let mask = (0..SEATS)
            .filter(|&s| is_a(slot, s))
            .fold(0u8, |m, s| m | 1 << s);
        Seating::new(SEATS, mask)
    }

    fn side_label(&self, slot: u64) -> String {
        self.seating(slot).pattern()
    }

    fn check_spec(&self, spec: &str) -> anyhow::Result<()> {
        if super::external::is_cmd(spec) {
            return super::external::CmdSpec::parse("koehandel", spec).map(|_| ());
        }
        engine_spec(spec, None).map(|_| ())
    }

    fn play(&self, job: &Job) -> anyhow::Result<Played> {
        if super::external::is_cmd(job.a) || super::external::is_cmd(job.b) {
            return super::external::koehandel::play(job, &|s| engine_spec(s, job.tc_ms));
        }
        let (sa, sb) = (engine_spec(job.a, None)?, engine_spec(job.b, None)?);
        let log: Log = Arc::default();
        let think: Log = Arc::default();
        let mut players: Vec<KhAgent> = Vec::new();
        let mut specs = Vec::new();
        let mut seeds = Vec::new();
        let mut budgets = Vec::new();
        for s in 0..SEATS {
            let (spec, text) = if job.seating.is_a(s) {
                (&sa, job.a)
            } else {
                (&sb, job.b)
            };
            let seed = job.seed_for(1 + s as u64);
            let inner =
                make_agent(spec, seed).with_context(|| format!("koehandel spec {text:?}"))?;
            seeds.push(seed);
            budgets.push(seat_budget(spec, job.tc_ms));
            players.push(Box::new(Logged {
                inner,
                seat: s,
                log: log.clone(),
                think: think.clone(),
            }));
            specs.push(text);
        }
        let deck_seed = super::deals::seed(job)?;
        let mut clock = |seat: usize| {
            budgets
                .get(seat)
                .copied()
                .flatten()
                .map_or_else(TimeControl::infinite, |b| b.time_control())
        };
        let r = kibitz_koehandel::runner::play_game_with(
            Game::new(deck_seed),
            &mut players,
            &seeds,
            &mut clock,
        );
        let (mut sum_a, mut sum_b) = (0u64, 0u64);
        for (s, &score) in r.scores.iter().enumerate() {
            if job.seating.is_a(s) {
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
        let moves = std::mem::take(&mut *log.lock().unwrap_or_else(|e| e.into_inner()));
        let plies = moves.len() as u32;
        let specs: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
        let mut record = kh_record::game_json(deck_seed, &specs, moves, r.scores, r.turns);
        record["result"]["a_sum"] = sum_a.into();
        record["result"]["b_sum"] = sum_b.into();
        let thinks = std::mem::take(&mut *think.lock().unwrap_or_else(|e| e.into_inner()));
        if thinks.iter().any(|t| !t.is_null()) {
            record["think"] = Value::Array(thinks);
        }
        Ok(Played {
            outcome,
            plies,
            record,
        })
    }

    fn replay(&self, record: &Value) -> anyhow::Result<Vec<(String, String)>> {
        kh_record::replay(record)
    }

    /// Koehandel positions, one per answer as in [`kh_record::replay`] (whose lines they
    /// carry): `state` is `{"deck_left", "active": seat, "herds": [[[letter, count] per kind
    /// held] per seat], "money": [{"cards", "value"} per seat], "scores": [..], "asked": seat |
    /// null, "deal": null | {"kind": "turn" | "auction" | "buy back" | "pay" | "cow trade",
    /// "animal": letter | null, "seats": [seats involved], "text": the question as a person
    /// reads it}}` (`deal`: what is in progress, the next question asked).
    fn positions(&self, record: &Value) -> anyhow::Result<Vec<Position>> {
        let texts = kh_record::replay(record)?;
        let seed = record["setup"]["deck_seed"]
            .as_u64()
            .context("record has no setup.deck_seed")?;
        let mut g = Game::new(seed);
        g.set_quiet(true);
        let mut states = vec![koehandel_state(&g)];
        for m in record["moves"].as_array().into_iter().flatten() {
            if g.ask().is_none() {
                break;
            }
            g.answer(kh_record::answer_from_json(&m["answer"])?);
            states.push(koehandel_state(&g));
        }
        anyhow::ensure!(states.len() == texts.len(), "replay and positions disagree");
        Ok(texts
            .into_iter()
            .zip(states)
            .map(|((what, _), state)| Position { what, state })
            .collect())
    }
}

/// The structured table of `g` (see [`Koehandel::positions`]).
fn koehandel_state(g: &Game) -> Value {
    let seats = (0..SEATS as u8).map(Seat);
    let herds: Vec<Vec<(String, u8)>> = seats
        .clone()
        .map(|s| {
            let h = g.herd(s);
            kibitz_koehandel::Animal::all()
                .filter(|&a| h.count(a) > 0)
                .map(|a| (a.letter().to_string(), h.count(a)))
                .collect()
        })
        .collect();
    let money: Vec<Value> = seats
        .map(|s| {
            let m = g.money(s);
            json!({"cards": m.len(), "value": m.value()})
        })
        .collect();
    let ask = g.ask();
    let deal = ask.as_ref().map(|a| {
        let (kind, animal, involved) = kibitz_bots_koehandel::market_view::deal_in_progress(a);
        json!({
            "kind": kind,
            "animal": animal.map(|x| x.letter().to_string()),
            "seats": involved.iter().map(|s| s.idx()).collect::<Vec<_>>(),
            "text": kh_record::question_text(&a.question),
        })
    });
    json!({
        "deck_left": g.deck_left(),
        "active": g.active().idx(),
        "herds": herds,
        "money": money,
        "scores": g.scores(),
        "asked": ask.as_ref().map(|a| a.seat.idx()),
        "deal": deal,
    })
}

#[cfg(test)]
mod tests {
    use super::{engine_spec, seat_budget, think_json};
    use kibitz_search::agent::Decision;
    use kibitz_search::clock::MoveBudget;

    #[test]
    fn time_is_the_move_budget_under_the_clock_rule() {
        // Before the one clock rule: `soft_ms=200`, and the engine made hard twice that.
        let s = engine_spec("strong:time=200", None).unwrap();
        assert_eq!(s, "strong:soft_ms=100:hard_ms=200");
        let s = engine_spec("strong:worlds=4", Some(300)).unwrap();
        assert_eq!(s, "strong:worlds=4:soft_ms=150:hard_ms=300");
        let s = engine_spec("strong:soft_ms=70", Some(300)).unwrap();
        assert_eq!(s, "strong:soft_ms=70");
        assert_eq!(engine_spec("heuristic", Some(300)).unwrap(), "heuristic");
        assert!(engine_spec("strong:time=x", None).is_err());
    }

    #[test]
    fn tc_is_the_clock_of_seats_without_their_own_time() {
        let b = |ms| Some(MoveBudget::in_process_ms(ms));
        assert_eq!(seat_budget("strong:worlds=4", Some(300)), b(300));
        assert_eq!(seat_budget("heuristic", Some(300)), b(300));
        assert_eq!(seat_budget("strong:worlds=4", None), None);
        for own in [
            "strong:soft_ms=70",
            "strong:hard_ms=70",
            "strong:time_ms=70",
        ] {
            assert_eq!(seat_budget(own, Some(300)), None, "{own}");
        }
    }

    #[test]
    fn think_keeps_the_search_numbers_of_the_decision() {
        use kibitz_koehandel::game_impl::KhAction;
        use kibitz_koehandel::Answer;
        let mut d = Decision::action(KhAction(Answer::Auction));
        assert!(think_json(2, &d).is_null(), "no search, no think");
        d.score = Some(0.25);
        d.stats = vec![("worlds", 8.0), ("candidates", 3.0)];
        d.elapsed = std::time::Duration::from_millis(12);
        assert_eq!(
            think_json(2, &d),
            serde_json::json!({"seat": 2, "worlds": 8, "candidates": 3, "estimate": 0.25, "ms": 12})
        );
    }
}
