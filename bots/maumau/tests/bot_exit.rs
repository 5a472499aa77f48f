//! `maumau-bot` exit codes (issue 14 item 4): exit 0 only after the server announced a winner;
//! a server that closes mid-game makes the bot exit non-zero with one clear line.

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
