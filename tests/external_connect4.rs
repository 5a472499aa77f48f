//! `cmd:` players in Connect Four (`src/arena/external/connect4.rs`): a Python bot plays
//! through our reference server over UDP, and every way it can fail loses its game with the
//! reason recorded, without hanging the match, and leaves no process behind.

use kibitz_testkit::{fresh_dir, need_python, run_bin, two_game_match};
use serde_json::{json, Value};
use std::path::Path;

const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");
const BOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots");

/// The Connect Four bot spec with `--mode MODE`.
fn c4_bot(mode: &str) -> String {
    format!(
        "cmd:python3 '{BOTS}/connect4_bot.py' -h {{host}} -p {{port}} -n {{name}} --mode {mode}"
    )
}

/// Runs a two-game match of `a` against `b` with records, returns the
/// `--json` line and the records.
fn play(a: &str, b: &str, tag: &str) -> (Value, Vec<Value>) {
    play_with(a, b, tag, &[])
}

/// [`play`] with `extra` flags.
fn play_with(a: &str, b: &str, tag: &str, extra: &[&str]) -> (Value, Vec<Value>) {
    need_python();
    two_game_match(KIBITZ, "connect4", (a, b), 4, &fresh_dir(tag), extra)
}

/// A's seat in a record (`side`: `first` in slot 0, else `second`), which is also the name
/// its bot registered with and the key of its stderr log.
fn a_seat(rec: &Value) -> &str {
    rec["side"].as_str().expect("the record has a side")
}

/// The stderr log the record names for `seat`.
fn log_of(rec: &Value, seat: &str) -> String {
    let log = rec["stderr"][seat]
        .as_str()
        .expect("the record names the stderr log");
    std::fs::read_to_string(Path::new(log)).unwrap()
}

/// The pid the Python bot printed first on its stderr log.
fn bot_pid(rec: &Value, seat: &str) -> Option<u32> {
    log_of(rec, seat)
        .lines()
        .next()?
        .strip_prefix("pid ")?
        .split(' ')
        .next()?
        .parse()
        .ok()
}

/// Every game lost by A, with `needle` in the reason, and no bot process left alive.
fn all_lost(mode: &str, needle: &str) -> Vec<Value> {
    let (v, recs) = play(&c4_bot(mode), "random", &format!("c4ext-{mode}"));
    assert_eq!(
        (
            v["wins"].as_u64(),
            v["draws"].as_u64(),
            v["losses"].as_u64()
        ),
        (Some(0), Some(0), Some(2)),
        "{v}"
    );
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(reason.contains(needle), "{mode}: {reason}");
        let seat = a_seat(r);
        let loser = if seat == "first" { 0 } else { 1 };
        assert_eq!(r["result"]["winner"], json!(1 - loser), "{r}");
        let pid = bot_pid(r, seat).expect("the bot logged its pid");
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "{mode}: bot process {pid} is still there (not killed or not reaped)"
        );
    }
    recs
}

#[test]
fn python_bot_plays_connect4_through_the_server() {
    // `--tc 2000`: the bot's answer time, so a test machine under load cannot make the
    // Python bot lose on the contest's 250 ms (the failure tests keep the contest clock).
    let (v, recs) = play_with(&c4_bot("play"), "random", "c4ext-play", &["--tc", "2000"]);
    let sum: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 2, "{v}");
    assert_eq!(v["games"], 2);
    let spec = c4_bot("play");
    for (i, r) in recs.iter().enumerate() {
        let seat = a_seat(r);
        assert_eq!(seat, ["first", "second"][i], "A moves first in game 0");
        let players = if i == 0 {
            json!([spec, "random"])
        } else {
            json!(["random", spec])
        };
        assert_eq!(r["players"], players);
        // From the empty board (the protocol has no openings), played to a regular end.
        assert!(r["setup"].get("opening").is_none(), "{r}");
        let moves = r["moves"].as_array().unwrap();
        assert!(moves.len() >= 7, "{r}");
        assert_eq!(r["native"].as_str().unwrap().len(), moves.len());
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(
            ["CONNECTED_LINE", "BOARD_FULL"].contains(&reason),
            "{reason}"
        );
        let server = r["server_result"].as_str().unwrap();
        assert!(server.starts_with("RESULT;"), "{server}");
        // Only the cmd: seat has a log, named after the game and the seat.
        assert_eq!(r["stderr"].as_object().unwrap().len(), 1, "{r}");
        let path = r["stderr"][seat].as_str().unwrap();
        assert!(
            path.ends_with(&format!("stderr/connect4-4-{i}-{seat}.log")),
            "{path}"
        );
        let log = log_of(r, seat);
        assert!(log.contains(&format!("registered as {seat}")), "{log}");
        // The bot was asked for each of its moves (the last one may end the game).
        let asked = log.matches("move request after").count();
        let own = moves.len().div_ceil(2) - usize::from(seat == "second" && moves.len() % 2 == 1);
        assert_eq!(asked, own, "{log}\n{r}");
        let pid = bot_pid(r, seat).unwrap();
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "bot {pid} left running"
        );
    }
}

#[test]
fn a_crashing_bot_loses_on_time_and_the_record_says_it_exited() {
    let recs = all_lost("crash", "Timeout while waiting for response for UUID");
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(
            reason.ends_with("(its program exited (exit status: 1))"),
            "{reason}"
        );
        assert!(log_of(r, a_seat(r)).contains("crashing on purpose"));
    }
}

#[test]
fn an_illegal_column_loses_by_rule() {
    let recs = all_lost("illegal", "ILLEGAL_COLUMN_ANNOUNCED");
    for r in &recs {
        assert_eq!(r["result"]["illegal"], 7, "{r}");
    }
}

#[test]
fn a_late_answer_loses_on_the_contest_clock() {
    let recs = all_lost("late", "Timeout while waiting for response for UUID");
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(!reason.contains("its program"), "still running: {reason}");
    }
}

#[test]
fn a_hanging_bot_loses_on_the_contest_clock_and_is_killed() {
    all_lost("hang", "Timeout while waiting for response for UUID");
}

#[test]
fn a_bot_that_never_registers_loses_at_the_connect_deadline() {
    all_lost("noconnect", "did not register within 10 s");
}

#[test]
fn a_bot_that_registers_but_does_not_join_loses() {
    let recs = all_lost("nojoin", "did not answer NEW SEASON with JOIN in time");
    for r in &recs {
        assert_eq!(r["moves"], json!([]));
        assert!(log_of(r, a_seat(r)).contains("not joining the season"));
    }
}

#[test]
fn a_missing_program_loses_with_the_reason() {
    let (v, recs) = play(
        "cmd:/nonexistent/kibitz-bot -p {port}",
        "search:depth=2",
        "c4ext-missing",
    );
    assert_eq!(v["losses"], 2, "{v}");
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(
            reason.contains("did not register: its program cannot start"),
            "{reason}"
        );
        assert_eq!(r["moves"], json!([]));
    }
}

#[test]
fn cmd_games_refuse_openings_adjudication_and_bad_placeholders() {
    need_python();
    let dir = fresh_dir("c4ext-openings");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "44\n").unwrap();
    let out = run_bin(
        KIBITZ,
        &[
            "match",
            "connect4",
            "--a",
            &c4_bot("play"),
            "--b",
            "random",
            "--games",
            "2",
            "--openings",
            openings.to_str().unwrap(),
        ],
    );
    assert!(!out.ok);
    assert!(
        out.stderr.contains("cannot tell a bot an opening"),
        "{}",
        out.stderr
    );
    let out = run_bin(
        KIBITZ,
        &[
            "match",
            "connect4",
            "--a",
            &c4_bot("play"),
            "--b",
            "random",
            "--games",
            "2",
            "--adjudicate",
        ],
    );
    assert!(!out.ok);
    assert!(
        out.stderr.contains("--adjudicate is for built-in players"),
        "{}",
        out.stderr
    );
    let out = run_bin(
        KIBITZ,
        &[
            "match",
            "connect4",
            "--a",
            "cmd:bot -p {port} -r {reservation}",
            "--b",
            "random",
            "--games",
            "2",
        ],
    );
    assert!(!out.ok);
    assert!(
        out.stderr
            .contains("unknown placeholder {reservation} (connect4 has {host} {port} {name})"),
        "{}",
        out.stderr
    );
}
