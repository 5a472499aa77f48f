//! Bounds of the `kibitz` CLI (issue 14 item 5), through the binary: inputs whose work or memory
//! would be unbounded are refused up front with one clear line and a non-zero exit.

use std::path::PathBuf;
use std::process::{Command, Output};

fn kibitz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(args)
        .env("RUST_LOG", "error")
        // A backtrace asked for by the caller's environment would add lines to the error.
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .expect("kibitz runs")
}

/// Writes `text` to a fresh temporary file.
fn dice_file(name: &str, text: &str) -> PathBuf {
    let p = kibitz_testkit::fresh_dir(&format!("bounds-{name}")).join("dice.txt");
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs `kibitz wuerfel` on `text`; asserts a refusal and returns its single stderr line.
fn refused(name: &str, text: &str) -> String {
    let p = dice_file(name, text);
    let out = kibitz(&[
        "wuerfel",
        p.to_str().unwrap(),
        "--games",
        "2",
        "--threads",
        "1",
    ]);
    let _ = std::fs::remove_file(&p);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{name}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{name}: one line: {err}");
    err
}

/// A file declaring `n` one-faced dice (all present).
fn many_dice(n: usize) -> String {
    let mut s = format!("{n}\n");
    for _ in 0..n {
        s.push_str("1 1\n");
    }
    s
}

#[test]
fn wuerfel_refuses_ten_thousand_dice() {
    let err = refused("10k", &many_dice(10_000));
    assert!(err.contains("too large"), "{err}");
    assert!(err.contains("at most 1000"), "{err}");
}

#[test]
fn wuerfel_refuses_a_million_dice() {
    let err = refused("1m", "1000000\n1 1\n1 2\n");
    assert!(err.contains("too large"), "{err}");
}

#[test]
fn wuerfel_says_too_large_for_numbers_beyond_u32() {
    let err = refused("huge", "99999999999999999999\n1 1\n1 2\n");
    assert!(err.contains("too large"), "{err}");
    assert!(!err.contains("not a non-negative integer"), "{err}");
    let err = refused("hugeface", "2\n6 1 2 3 4 5 6\n1 4294967296\n");
    assert!(err.contains("too large (die 2)"), "{err}");
}

#[test]
fn wuerfel_refuses_a_die_that_never_ends_a_turn() {
    let err = refused("sixes", "2\n6 1 2 3 4 5 6\n1 6\n");
    assert!(err.contains("die 2 can never end a turn"), "{err}");
}

#[test]
fn wuerfel_refuses_svg_for_huge_matrices_before_playing() {
    let p = dice_file("svg", &many_dice(65));
    let out = kibitz(&[
        "wuerfel",
        p.to_str().unwrap(),
        "--games",
        "2",
        "--svg",
        "/dev/null",
    ]);
    let _ = std::fs::remove_file(&p);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--svg draws at most 64 dice"), "{err}");
}

#[test]
fn wuerfel_still_runs_a_valid_file() {
    let p = dice_file("ok", "2\n6 1 2 3 4 5 6\n2 6 1\n");
    let out = kibitz(&[
        "wuerfel",
        p.to_str().unwrap(),
        "--games",
        "2",
        "--threads",
        "1",
    ]);
    let _ = std::fs::remove_file(&p);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn piranhas_perft_refuses_depths_past_the_last_move() {
    for depth in ["61", "200"] {
        let out = kibitz(&["piranhas", "perft", depth]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "depth {depth}: {err}");
        assert!(err.contains("past the game's last move"), "{err}");
        assert!(out.stdout.is_empty(), "nothing searched for depth {depth}");
    }
}
