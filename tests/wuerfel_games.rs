//! `kibitz wuerfel --games` through the binary (kibitz issue 37 item 5): zero games per pairing
//! is refused with one clear line instead of an all-zero ranking and exit 0.

use std::process::Command;

fn wuerfel(games: &str) -> std::process::Output {
    // One folder per call: the tests run in parallel.
    let p = kibitz_testkit::fresh_dir(&format!("wuerfel-games-{games}")).join("dice.txt");
    std::fs::write(&p, "2\n6 1 2 3 4 5 6\n2 6 1\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(["wuerfel", p.to_str().unwrap(), "--threads", "1"])
        .args(["--games", games])
        .env("RUST_LOG", "error")
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .expect("kibitz runs");
    let _ = std::fs::remove_file(&p);
    out
}

#[test]
fn wuerfel_refuses_zero_games() {
    let out = wuerfel("0");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains("--games must be at least 1"), "{err}");
    assert!(out.stdout.is_empty(), "no ranking printed");
}

#[test]
fn wuerfel_plays_one_game_rounded_up_to_two() {
    let out = wuerfel("1");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(" 2 games per pairing "), "{text}");
}
