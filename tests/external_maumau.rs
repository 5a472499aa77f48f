//! `cmd:` players in Mau-Mau (`src/arena/external/maumau.rs`): a Python bot plays through our
//! reference server over the contest's JSON lines, on the arena's duplicate deal, and every
//! way it can fail loses its game with the reason recorded, without hanging the match, and
//! leaves no process behind.

use kibitz_testkit::{fresh_dir, need_python, run_bin, two_game_match};
use serde_json::Value;
use std::path::Path;

const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");
const BOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots");

/// The Mau-Mau bot spec with `--mode MODE`.
fn maumau_bot(mode: &str) -> String {
    format!("cmd:python3 '{BOTS}/maumau_bot.py' -h {{host}} -p {{port}} -n {{name}} --mode {mode}")
}

/// Runs a two-game match (one deal, seats swapped) of `a` against `b` with records; returns
/// the `--json` line and the records.
fn play(a: &str, b: &str, tag: &str) -> (Value, Vec<Value>) {
    need_python();
    two_game_match(KIBITZ, "maumau", (a, b), 4, &fresh_dir(tag), &[])
}

/// A's seat in a record (`side` is `seat0` or `seat1`).
fn a_seat(rec: &Value) -> usize {
    if rec["side"] == "seat0" {
        0
    } else {
        1
    }
}

/// The pid the Python bot printed first on its stderr log, which the record names.
fn bot_pid(rec: &Value, seat: usize) -> Option<u32> {
    let log = rec["stderr"][format!("seat{seat}")]
        .as_str()
        .expect("the record names the stderr log");
    let text = std::fs::read_to_string(Path::new(log)).unwrap();
    text.lines()
        .next()?
        .strip_prefix("pid ")?
        .split(' ')
        .next()?
        .parse()
        .ok()
}

/// Every game lost by A, with `needle` in the reason, and no bot process left alive.
fn all_lost(mode: &str, needle: &str) {
    let (v, recs) = play(&maumau_bot(mode), "random", &format!("extmm-{mode}"));
    assert_eq!(
        (v["wins"].as_u64(), v["losses"].as_u64()),
        (Some(0), Some(2)),
        "{v}"
    );
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(reason.contains(needle), "{mode}: {reason}");
        assert_ne!(r["result"]["winner"].as_u64(), Some(a_seat(r) as u64));
        if let Some(pid) = bot_pid(r, a_seat(r)) {
            assert!(
                !Path::new(&format!("/proc/{pid}")).exists(),
                "{mode}: bot process {pid} is still there (not killed or not reaped)"
            );
        }
    }
}

#[test]
fn python_bot_plays_maumau_through_the_server_on_the_arena_deal() {
    let (v, recs) = play(&maumau_bot("play"), "random", "extmm-play");
    let sum: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 2, "{v}");
    assert_eq!(v["games"], 2);
    // The same deal as the in-process path: one deck per pairing unit.
    let (_, local) = play("greedy", "random", "extmm-local");
    for (r, l) in recs.iter().zip(&local) {
        assert_eq!(
            r["setup"], l["setup"],
            "the cmd: game is not the arena's deal"
        );
        let seat = a_seat(r);
        assert_eq!(r["players"][seat].as_str().unwrap(), maumau_bot("play"));
        assert_eq!(r["players"][1 - seat], "random");
        let moves = r["moves"].as_array().unwrap();
        assert!(moves.len() >= 2, "{r}");
        assert!(moves.iter().any(|m| m["seat"] == seat as u64), "{r}");
        // Our test bot plays only legal cards: no penalty, no fault.
        assert_eq!(r["result"]["penalties"], serde_json::json!([0, 0]), "{r}");
        assert_eq!(r["result"]["faults"][seat]["dropped"], false, "{r}");
        assert!(r["result"]["winner"].as_u64().unwrap() < 2);
        let log =
            std::fs::read_to_string(r["stderr"][format!("seat{seat}")].as_str().unwrap()).unwrap();
        assert!(log.contains("request, top"), "{log}");
        assert!(log.contains("game over"), "{log}");
        let pid = bot_pid(r, seat).unwrap();
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "bot {pid} left running"
        );
    }
    // The server's moves replay on the deal to the recorded end (`kibitz replay`).
    let file = fresh_dir("extmm-replay").join("maumau.jsonl");
    let text: String = recs.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&file, text).unwrap();
    let out = run_bin(KIBITZ, &["replay", "--all", file.to_str().unwrap()]);
    assert!(out.ok, "{}", out.stderr);
    assert_eq!(
        out.stdout.matches("└ over: seat").count(),
        2,
        "{}",
        out.stdout
    );
    assert!(recs[0]["stderr"]["seat0"]
        .as_str()
        .unwrap()
        .ends_with("stderr/maumau-4-0-seat0.log"));
    assert!(recs[1]["stderr"]["seat1"]
        .as_str()
        .unwrap()
        .ends_with("stderr/maumau-4-1-seat1.log"));
}

#[test]
fn a_crashing_bot_is_dropped_and_loses() {
    all_lost("crash", "its program exited (exit status: 1)");
}

#[test]
fn a_hanging_bot_is_dropped_after_the_turn_timeouts_and_killed() {
    all_lost("hang", "4 turn timeout(s), dropped");
}

/// The contest has no disqualification (specs/maumau.md §7 item 6): an illegal answer costs one
/// penalty card and the turn. A bot that answers only illegally never plays a card, so it
/// never empties its hand: it loses, except on talon exhaustion from the second seat (the
/// contest's exhaustion rule), which is what happens on this deal.
#[test]
fn illegal_answers_cost_penalty_cards_by_the_contest_rules() {
    let (v, recs) = play(&maumau_bot("illegal"), "random", "extmm-illegal");
    assert_eq!(v["games"], 2, "{v}");
    for r in &recs {
        let seat = a_seat(r);
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(
            reason.contains("penalty card(s) for illegal answers"),
            "{reason}"
        );
        assert!(r["result"]["penalties"][seat].as_u64().unwrap() > 0, "{r}");
        assert_eq!(r["result"]["faults"][seat]["dropped"], false, "{r}");
        // Every answer of the bot (a line that is not JSON) was a penalty.
        let answers: Vec<&Value> = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["seat"] == seat as u64)
            .collect();
        assert!(answers.iter().all(|m| m["action"] == "invalid"), "{r}");
        let answers = answers.len() as u64;
        assert_eq!(
            r["result"]["penalties"][seat].as_u64(),
            Some(answers),
            "{r}"
        );
        if r["result"]["winner"] == seat as u64 {
            assert!(reason.starts_with("talon exhausted") && seat == 1, "{r}");
        }
        let pid = bot_pid(r, seat).unwrap();
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "bot {pid} left running"
        );
    }
}

#[test]
fn a_bot_that_never_connects_loses_at_the_connect_deadline() {
    all_lost("noconnect", "did not join the game within 10 s");
}

#[test]
fn a_missing_program_loses_with_the_reason() {
    let (v, recs) = play(
        "cmd:/nonexistent/kibitz-bot -p {port} -n {name}",
        "greedy",
        "extmm-missing",
    );
    assert_eq!(v["losses"], 2, "{v}");
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(reason.contains("cannot start"), "{reason}");
    }
}

#[test]
fn cmd_specs_are_checked_before_any_game() {
    for (args, needle) in [
        (
            vec!["--a", "cmd:bot -p {reservation}"],
            "unknown placeholder {reservation}",
        ),
        (
            vec!["--a", "cmd:bot -p {port}", "--seats", "3"],
            "two seats only",
        ),
    ] {
        let mut all = vec!["match", "maumau", "--b", "random", "--games", "3"];
        all.extend(args);
        let out = run_bin(KIBITZ, &all);
        assert!(!out.ok);
        assert!(out.stderr.contains(needle), "{}", out.stderr);
    }
}

#[test]
fn a_builtin_too_slow_for_the_servers_turn_timeout_is_refused() {
    let out = run_bin(
        KIBITZ,
        &[
            "match",
            "maumau",
            "--a",
            "cmd:/nonexistent/kibitz-bot -p {port}",
            "--b",
            "ismcts:time=6000",
            "--games",
            "2",
        ],
    );
    assert!(!out.ok);
    assert!(out.stderr.contains("at most 4000 ms"), "{}", out.stderr);
}
