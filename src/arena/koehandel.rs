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
//! written `param.NAME=V`; `time=MS` sets the strong player's per-decision budget, turned into
//! its `soft_ms` and `hard_ms` by `kibitz_search::clock` (half of it soft, all of it hard);
//! `soft_ms` / `hard_ms` set them directly. Without a time the strong player is deterministic.

use super::{split_spec, Arena, Job, Outcome, Played};
use anyhow::Context;
use kibitz_bots_koehandel::record as kh_record;
use kibitz_koehandel::{make_player, Answer, Event, Game, Player, Question, Seat};
use kibitz_search::clock::MoveBudget;
use serde_json::Value;
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

type Log = Arc<Mutex<Vec<Value>>>;

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
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(kh_record::move_json(Seat(self.seat as u8), question, &a));
        a
    }
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
        let moves = std::mem::take(&mut *log.lock().unwrap_or_else(|e| e.into_inner()));
        let plies = moves.len() as u32;
        let specs: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
        let mut record = kh_record::game_json(deck_seed, &specs, moves, r.scores, r.turns);
        record["result"]["a_sum"] = sum_a.into();
        record["result"]["b_sum"] = sum_b.into();
        Ok(Played {
            outcome,
            plies,
            record,
        })
    }

    fn replay(&self, record: &Value) -> anyhow::Result<Vec<(String, String)>> {
        kh_record::replay(record)
    }
}

#[cfg(test)]
mod tests {
    use super::engine_spec;

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
}
