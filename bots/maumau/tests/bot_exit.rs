//! `maumau-bot` exit codes (issue 14 item 4): exit 0 only after the server announced a winner;
//! a server that closes mid-game makes the bot exit non-zero with one clear line, and one
//! that never speaks gets a warning at half the inactivity timeout and a clear non-zero exit
//! at its end (issue 37).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::{Command, Output};

/// A fake server: handshake, game start, then `rest` (raw lines), then close. Returns the
/// bot's output.
fn run_against(rest: &str) -> Output {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let rest = rest.to_string();
    let server = std::thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        let mut w = s.try_clone().unwrap();
        let mut r = BufReader::new(s);
        w.write_all(b"{\"sendName\":true,\"status\":\"okay\"}\n")
            .unwrap();
        let mut name = String::new();
        r.read_line(&mut name).unwrap();
        w.write_all(b"{\"setName\":true,\"name\":\"B\",\"status\":\"okay\"}\n")
            .unwrap();
        w.write_all(b"{\"gameStart\":true,\"status\":\"okay\"}\n")
            .unwrap();
        w.write_all(rest.as_bytes()).unwrap();
        // Dropping both halves closes the connection.
    });
    let out = Command::new(env!("CARGO_BIN_EXE_maumau-bot"))
        .args(["--port", &port.to_string(), "--name", "B", "--exact-name"])
        .args(["--strategy", "random", "--seed", "1"])
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    server.join().unwrap();
    out
}

#[test]
fn server_closing_mid_game_is_a_nonzero_exit_with_one_line() {
    let out = run_against(
        "{\"topCard\":5,\"cardsLeft\":20,\"turnOf\":\"A\",\"status\":\"okay\",\"skipped\":false}\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "exit {:?}, stderr {err}", out.status);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.contains("closed the connection mid-game"),
        "clear message: {err}"
    );
}

#[test]
fn a_normal_end_exits_zero_without_debug_formatting() {
    let out = run_against("{\"won\":true,\"nameOfWinner\":\"B\",\"status\":\"okay\"}\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}, stderr {err}", out.status);
    assert!(err.contains("winner B,"), "{err}");
    assert!(!err.contains("Some("), "no debug formatting: {err}");
}

#[test]
fn a_server_that_never_speaks_gets_a_warning_then_a_clear_exit() {
    // Accepts and holds the connection without a byte, until the bot hangs up.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .unwrap();
        let mut sink = Vec::new();
        let _ = std::io::Read::read_to_end(&mut &s, &mut sink);
        sink
    });
    let mut child = Command::new(env!("CARGO_BIN_EXE_maumau-bot"))
        .args(["--port", &port.to_string(), "--name", "B", "--exact-name"])
        .args(["--strategy", "random", "--idle-timeout-s", "1"])
        .args(["--log-level", "warn"])
        .env_remove("RUST_LOG")
        .env("NO_COLOR", "1")
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Hang guard: the bot must end by itself; it is killed (by its own id) only if it does not.
    let guard = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() && std::time::Instant::now() < guard {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    if child.try_wait().unwrap().is_none() {
        let _ = child.kill();
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "exit {:?}, stderr {err}", out.status);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "a warning, then the exit message: {err}");
    assert!(
        lines[0].contains("WARN") && lines[0].contains("nothing from the server"),
        "warning first: {err}"
    );
    assert!(
        lines[1].starts_with("maumau-bot: error: B: the server sent nothing for")
            && lines[1].contains("giving up"),
        "clear exit message: {err}"
    );
    assert_eq!(server.join().unwrap(), b"", "the bot sent nothing either");
}
