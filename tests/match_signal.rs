//! `kibitz match` stopped by a signal: it starts no more games, prints the report of the
//! games that finished and says it was interrupted, leaves whole JSON lines in the record
//! file and exits with 128 + the signal's number (130 for SIGINT, 143 for SIGTERM).
//!
//! The record file is a named pipe the test reads: the child blocks writing records once the
//! pipe is full, so the match cannot end by itself before the signal comes, and the signal is
//! sent once the first record has been read (waiting on output, not on time). Every wait is
//! bounded; a child that does not answer is killed and the test fails.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long any one step may take before the test gives up (a hang guard, not a speed check).
const BOUND: Duration = Duration::from_secs(120);

/// Reads `stream` to its end on a thread of its own; the text arrives on the receiver.
fn drain(mut stream: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stream.read_to_string(&mut s);
        let _ = tx.send(s);
    });
    rx
}

/// Kills `child` and panics with `why`.
fn fail(child: &mut Child, why: &str) -> ! {
    let _ = child.kill();
    let _ = child.wait();
    panic!("{why}");
}

/// What an interrupted match left: its exit code, stdout, stderr and the record lines.
struct Stopped {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    records: Vec<String>,
}

/// Runs a long Connect Four match of random players with `extra` flags, its record file a
/// named pipe in `dir`; after the first record line, sends `signal` (a `kill` name: `INT`,
/// `TERM`) and reads everything to the child's end.
fn interrupt_a_match(dir: &Path, signal: &str, extra: &[&str]) -> Stopped {
    let fifo = dir.join("connect4-5.jsonl");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", fifo.display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(["match", "connect4", "--a", "random", "--b", "random"])
        .args(["--games", "100000", "--seed", "5", "--concurrency", "1"])
        .arg("--records")
        .arg(dir)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kibitz runs");
    let stdout = drain(child.stdout.take().expect("piped"));
    let stderr = drain(child.stderr.take().expect("piped"));
    // The pipe is read on a thread: opening it waits for the child to open it too.
    let (first_tx, first) = mpsc::channel();
    let (rest_tx, rest) = mpsc::channel();
    let (go_tx, go) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        let Ok(file) = std::fs::File::open(&fifo) else {
            return;
        };
        let mut lines = BufReader::new(file);
        let mut line = String::new();
        if lines.read_line(&mut line).is_err() || line.is_empty() {
            return;
        }
        let _ = first_tx.send(line.clone());
        // Read no further until the signal is sent: the child blocks on the full pipe.
        let _ = go.recv();
        let mut records = vec![line];
        loop {
            let mut line = String::new();
            match lines.read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => records.push(line),
            }
        }
        let _ = rest_tx.send(records);
    });
    if first.recv_timeout(BOUND).is_err() {
        fail(&mut child, "no record line from the match");
    }
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{signal}");
    let _ = go_tx.send(());
    let Ok(records) = rest.recv_timeout(BOUND) else {
        fail(
            &mut child,
            "the match did not close its record file after the signal",
        );
    };
    let Ok(stdout) = stdout.recv_timeout(BOUND) else {
        fail(&mut child, "the match did not end after the signal");
    };
    let stderr = stderr.recv_timeout(BOUND).unwrap_or_default();
    let code = child.wait().expect("the child ends").code();
    Stopped {
        code,
        stdout,
        stderr,
        records,
    }
}

/// Every record is one whole JSON object on its own line; returns their game indices.
fn record_indices(records: &[String]) -> Vec<u64> {
    records
        .iter()
        .map(|l| {
            assert!(l.ends_with('\n'), "a cut record line: {l:?}");
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}"));
            v["index"]
                .as_u64()
                .unwrap_or_else(|| panic!("no index: {l:?}"))
        })
        .collect()
}

#[test]
fn sigint_prints_the_table_of_the_finished_games_and_exits_130() {
    let dir = kibitz_testkit::fresh_dir("match-sigint");
    let s = interrupt_a_match(&dir, "INT", &[]);
    let text = format!("{}{}", s.stdout, s.stderr);
    assert_eq!(s.code, Some(130), "{text}");
    // The table: a row per colour and the total.
    assert!(
        s.stdout.contains("A as") && s.stdout.contains("│ all"),
        "{text}"
    );
    let games = record_indices(&s.records).len();
    assert!((1..100_000).contains(&games), "{games} records");
    // Said on stdout after the table, with the games the records hold.
    let line = format!("interrupted by SIGINT: {games} of 100000 games finished and counted");
    let at = s
        .stdout
        .find(&line)
        .unwrap_or_else(|| panic!("{line:?} in {text}"));
    assert!(at > s.stdout.find("│ all").unwrap_or(usize::MAX), "{text}");
    assert!(s.stdout.contains(&format!("{games} games in ")), "{text}");
    // The records are the games counted, in game order.
    let indices = record_indices(&s.records);
    assert!(indices.windows(2).all(|w| w[0] < w[1]), "{indices:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_with_json_prints_one_json_line_and_exits_143() {
    let dir = kibitz_testkit::fresh_dir("match-sigterm");
    let s = interrupt_a_match(&dir, "TERM", &["--json"]);
    let text = format!("{}{}", s.stdout, s.stderr);
    assert_eq!(s.code, Some(143), "{text}");
    let games = record_indices(&s.records).len() as u64;
    let lines: Vec<&str> = s.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one JSON line on stdout: {text}");
    let v: serde_json::Value = serde_json::from_str(lines[0]).expect("JSON");
    assert_eq!(v["games"], games, "{v}");
    assert_eq!(v["interrupted"]["signal"], "SIGTERM", "{v}");
    assert_eq!(v["interrupted"]["planned"], 100_000, "{v}");
    let w = v["wins"].as_u64().unwrap_or(0);
    let d = v["draws"].as_u64().unwrap_or(0);
    let l = v["losses"].as_u64().unwrap_or(0);
    assert_eq!(w + d + l, games, "{v}");
    // The interruption is said on stderr, where the JSON line's reader does not look.
    let line = format!("interrupted by SIGTERM: {games} of 100000 games finished and counted");
    assert!(s.stderr.contains(&line), "{line:?} in {text}");
    let _ = std::fs::remove_dir_all(&dir);
}
