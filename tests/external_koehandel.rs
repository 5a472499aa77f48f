//! `cmd:` players in Koehandel (`src/arena/external/koehandel.rs`): a Python endpoint plays
//! both A seats through our market over HTTP GET, and every way it can fail loses its game
//! with the reason recorded, without hanging the match, and leaves no process behind.

use kibitz_testkit::{fresh_dir, json_lines, need_python, run_bin};
use serde_json::Value;
use std::path::Path;

const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");
const BOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots");

/// The koehandel bot spec with `--mode MODE`.
fn koehandel_bot(mode: &str) -> String {
    format!("cmd:python3 '{BOTS}/koehandel_bot.py' --host {{host}} --port {{port}} --mode {mode}")
}

/// Runs one unit (the four seatings) of `a` against `b` with records and the per-request
/// deadline `tc_ms`; returns the `--json` line and the records.
fn play(a: &str, b: &str, tc_ms: Option<u64>, tag: &str) -> (Value, Vec<Value>) {
    need_python();
    let dir = fresh_dir(tag);
    let mut args = vec![
        "match".to_string(),
        "koehandel".into(),
        "--a".into(),
        a.into(),
        "--b".into(),
        b.into(),
        "--games".into(),
        "4".into(),
        "--seed".into(),
        "4".into(),
        "--concurrency".into(),
        "2".into(),
        "--json".into(),
        "--records".into(),
        dir.to_str().unwrap().into(),
    ];
    if let Some(ms) = tc_ms {
        args.extend(["--tc".into(), ms.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_bin(KIBITZ, &args);
    assert!(out.ok, "{}", out.stderr);
    let v: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let recs = json_lines(&dir.join("koehandel-4.jsonl"));
    assert_eq!(recs.len(), 4);
    (v, recs)
}

/// The seats A holds in a record (the seat pattern under `side`).
fn a_seats(rec: &Value) -> Vec<usize> {
    rec["side"]
        .as_str()
        .unwrap()
        .chars()
        .enumerate()
        .filter(|(_, c)| *c == 'A')
        .map(|(i, _)| i)
        .collect()
}

/// The stderr log of seat `seat` and the pid the Python bot printed first in it.
fn bot_log(rec: &Value, seat: usize) -> (String, Option<u32>) {
    let log = rec["stderr"][seat.to_string()]
        .as_str()
        .expect("the record names the stderr log");
    let text = std::fs::read_to_string(Path::new(log)).unwrap();
    let pid = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("pid "))
        .and_then(|l| l.split(' ').next())
        .and_then(|p| p.parse().ok());
    (text, pid)
}

fn assert_gone(pid: u32, what: &str) {
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "{what}: bot process {pid} is still there (not killed or not reaped)"
    );
}

/// Every game lost by A, with `needle` in the reason, and no bot process left alive.
fn all_lost(mode: &str, tc_ms: Option<u64>, needle: &str) {
    let (v, recs) = play(
        &koehandel_bot(mode),
        "random",
        tc_ms,
        &format!("extk-{mode}"),
    );
    assert_eq!(
        (v["wins"].as_u64(), v["losses"].as_u64()),
        (Some(0), Some(4)),
        "{v}"
    );
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(reason.starts_with("A loses: "), "{mode}: {reason}");
        assert!(reason.contains(needle), "{mode}: {reason}");
        assert_eq!(r["result"]["forfeit"]["side"], "a", "{r}");
        let seat = r["result"]["forfeit"]["seat"].as_u64().unwrap() as usize;
        assert!(a_seats(r).contains(&seat), "{r}");
        if let (_, Some(pid)) = bot_log(r, a_seats(r)[0]) {
            assert_gone(pid, mode);
        }
    }
}

#[test]
fn python_bot_plays_koehandel_through_the_market() {
    let (v, recs) = play(&koehandel_bot("play"), "random", None, "extk-play");
    let sum: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 4, "{v}");
    assert_eq!(v["games"], 4);
    let cmd = koehandel_bot("play");
    for (i, r) in recs.iter().enumerate() {
        let a = a_seats(r);
        assert_eq!(a.len(), 2, "{r}");
        for s in 0..4 {
            let want = if a.contains(&s) {
                cmd.as_str()
            } else {
                "random"
            };
            assert_eq!(r["players"][s], want, "{r}");
        }
        assert!(r["moves"].as_array().unwrap().len() > 20, "{r}");
        assert!(r["result"]["forfeit"].is_null(), "{r}");
        let scores: Vec<u64> = r["result"]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        let a_sum: u64 = a.iter().map(|&s| scores[s]).sum();
        assert_eq!(r["result"]["a_sum"], a_sum, "{r}");
        assert_eq!(
            r["result"]["b_sum"].as_u64().unwrap(),
            scores.iter().sum::<u64>() - a_sum
        );
        // One program served both A seats: one log, named for the game and side.
        let stderr = r["stderr"].as_object().unwrap();
        assert_eq!(stderr.len(), 2, "{r}");
        assert_eq!(stderr[&a[0].to_string()], stderr[&a[1].to_string()]);
        let index = r["index"].as_u64().unwrap();
        assert!(
            stderr[&a[0].to_string()]
                .as_str()
                .unwrap()
                .ends_with(&format!("stderr/koehandel-4-{index}-a.log")),
            "{r}"
        );
        let (text, pid) = bot_log(r, a[0]);
        assert!(text.contains("start as id"), "game {i}: {text}");
        // Both seats played and heard the end.
        assert_eq!(text.matches("\nend ").count(), 2, "game {i}: {text}");
        assert_gone(pid.unwrap(), "play");
    }
}

#[test]
fn a_crashing_bot_loses() {
    // The market sees the refused connection or the exit first, whichever comes first.
    need_python();
    let (v, recs) = play(&koehandel_bot("crash"), "random", None, "extk-crash");
    assert_eq!(v["losses"], 4, "{v}");
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(
            reason.contains("exit status: 3") || reason.contains("connection error"),
            "{reason}"
        );
        assert!(r["moves"].as_array().unwrap().is_empty(), "{r}");
        let (text, pid) = bot_log(r, a_seats(r)[0]);
        assert!(text.contains("start as id"), "{text}");
        assert_gone(pid.unwrap(), "crash");
    }
}

#[test]
fn an_unusable_answer_loses() {
    all_lost("illegal", None, "unusable answer");
}

#[test]
fn a_late_answer_loses_at_the_request_deadline() {
    all_lost("late", Some(1000), "failed a request: no answer: timeout");
}

#[test]
fn a_hanging_bot_loses_and_is_killed() {
    all_lost("hang", Some(1000), "failed a request: no answer: timeout");
}

#[test]
fn a_bot_that_never_opens_its_port_loses_at_the_connect_deadline() {
    all_lost("noconnect", None, "did not open port");
}

#[test]
fn a_missing_program_loses_with_the_reason() {
    let (v, recs) = play(
        "cmd:/nonexistent/kibitz-bot --port {port}",
        "random",
        None,
        "extk-missing",
    );
    assert_eq!(v["losses"], 4, "{v}");
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(reason.contains("cannot start"), "{reason}");
    }
}

#[test]
fn a_cmd_b_side_losing_is_a_win_for_a() {
    let (v, recs) = play("random", &koehandel_bot("illegal"), None, "extk-bside");
    assert_eq!(v["wins"], 4, "{v}");
    for r in &recs {
        assert_eq!(r["result"]["forfeit"]["side"], "b", "{r}");
        assert!(r["stderr"].as_object().unwrap().len() == 2, "{r}");
    }
}

#[test]
fn an_unknown_placeholder_fails_before_any_game() {
    let out = run_bin(
        KIBITZ,
        &[
            "match",
            "koehandel",
            "--a",
            "cmd:bot --port {reservation}",
            "--b",
            "random",
            "--games",
            "4",
        ],
    );
    assert!(!out.ok);
    assert!(
        out.stderr.contains("unknown placeholder {reservation}"),
        "{}",
        out.stderr
    );
}
