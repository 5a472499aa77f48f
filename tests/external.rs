//! `cmd:` players (external bots over the contest's protocol, `src/arena/external/`): a Python
//! bot plays through our reference server, and every way it can fail loses its game with the
//! reason recorded, without hanging the match, and leaves no process behind.

use kibitz_testkit::{fresh_dir, need_python, run_bin, two_game_match};
use serde_json::Value;
use std::path::Path;

const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");
const BOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots");

/// The piranhas bot spec with `--mode MODE`.
fn piranhas_bot(mode: &str) -> String {
    format!(
        "cmd:python3 '{BOTS}/piranhas_bot.py' -h {{host}} -p {{port}} -r {{reservation}} --mode {mode}"
    )
}

/// Runs a two-game match of `a` against `b` with records, returns the `--json` line and the
/// records.
fn play(game: &str, a: &str, b: &str, tag: &str) -> (Value, Vec<Value>) {
    need_python();
    two_game_match(KIBITZ, game, (a, b), 4, &fresh_dir(tag), &[])
}

/// The pid the Python bot printed first on its stderr log, which the record names.
fn bot_pid(rec: &Value, seat: &str) -> Option<u32> {
    let log = rec["stderr"][seat]
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

/// A's seat in a record: slot 0 is RED.
fn a_seat(rec: &Value) -> &'static str {
    if rec["side"] == "red" {
        "red"
    } else {
        "blue"
    }
}

/// Every game lost by A, with `needle` in the reason, and no bot process left alive.
fn all_lost(mode: &str, needle: &str) {
    let (v, recs) = play(
        "piranhas",
        &piranhas_bot(mode),
        "random",
        &format!("ext-{mode}"),
    );
    assert_eq!(
        (v["wins"].as_u64(), v["losses"].as_u64()),
        (Some(0), Some(2)),
        "{v}"
    );
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        let server = r["result"]["server_reason"].as_str().unwrap_or("");
        assert!(
            reason.contains(needle) || server.contains(needle),
            "{mode}: {reason} / {server}"
        );
        if let Some(pid) = bot_pid(r, a_seat(r)) {
            assert!(
                !Path::new(&format!("/proc/{pid}")).exists(),
                "{mode}: bot process {pid} is still there (not killed or not reaped)"
            );
        }
    }
}

#[test]
fn python_bot_plays_piranhas_through_the_server() {
    let (v, recs) = play("piranhas", &piranhas_bot("play"), "random", "ext-play");
    let sum: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 2, "{v}");
    assert_eq!(v["games"], 2);
    for r in &recs {
        assert!(r["moves"].as_array().unwrap().len() >= 2, "{r}");
        assert_eq!(
            r["result"]["cause"],
            serde_json::json!(["REGULAR", "REGULAR"]),
            "{r}"
        );
        let seat = a_seat(r);
        let log = std::fs::read_to_string(r["stderr"][seat].as_str().unwrap()).unwrap();
        assert!(log.contains("move request as"), "{log}");
        let pid = bot_pid(r, seat).unwrap();
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "bot {pid} left running"
        );
    }
    assert!(recs[0]["stderr"]["red"]
        .as_str()
        .unwrap()
        .ends_with("stderr/piranhas-4-0-red.log"));
    assert!(recs[1]["stderr"]["blue"]
        .as_str()
        .unwrap()
        .ends_with("stderr/piranhas-4-1-blue.log"));
}

#[test]
fn a_crashing_bot_loses_by_leaving() {
    all_lost(
        "crash",
        "lost by LEFT (its program exited (exit status: 1))",
    );
}

#[test]
fn an_illegal_move_loses_by_rule_violation() {
    all_lost("illegal", "RULE_VIOLATION");
}

#[test]
fn a_late_answer_loses_on_the_soft_clock() {
    all_lost("late", "SOFT_TIMEOUT");
}

#[test]
fn a_hanging_bot_loses_on_the_hard_clock_and_is_killed() {
    all_lost("hang", "HARD_TIMEOUT");
}

#[test]
fn a_bot_that_never_connects_loses_at_the_connect_deadline() {
    all_lost("noconnect", "did not join the game within");
}

#[test]
fn a_missing_program_loses_with_the_reason() {
    let (v, recs) = play(
        "piranhas",
        "cmd:/nonexistent/kibitz-bot -p {port}",
        "greedy",
        "ext-missing",
    );
    assert_eq!(v["losses"], 2, "{v}");
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(reason.contains("cannot start"), "{reason}");
    }
}

#[test]
fn a_bad_cmd_spec_fails_before_any_game() {
    need_python();
    let out = run_bin(
        KIBITZ,
        &[
            "match",
            "piranhas",
            "--a",
            "cmd:bot -p {prot}",
            "--b",
            "random",
            "--games",
            "2",
        ],
    );
    assert!(!out.ok);
    assert!(
        out.stderr.contains("unknown placeholder {prot}"),
        "{}",
        out.stderr
    );
}
