//! `kibitz play`: a person's moves piped into the binary; bad input is explained, the board is
//! drawn, and the game runs to its end (or ends cleanly when the input does).

use std::io::Write;
use std::process::{Command, Stdio};

fn play(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kibitz runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write moves");
    let out = child.wait_with_output().expect("kibitz ends");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn connect4_game_to_the_end_with_bad_input_explained() {
    // Column 4 again and again, then every column: the game ends long before the input does.
    let mut moves = String::from("x\n9\n");
    for _ in 0..6 {
        moves += "4\n";
    }
    for _ in 0..6 {
        moves += "1\n2\n3\n5\n6\n7\n";
    }
    let (ok, out, err) = play(&["connect4", "--bot", "search:depth=2"], &moves);
    assert!(ok, "{err}");
    assert!(out.contains("\"x\" is not a column"), "{out}");
    assert!(out.contains("\"9\" is not a column"), "{out}");
    assert!(out.contains("column 4 is full"), "{out}");
    assert!(out.contains('●') && out.contains('○'), "board drawn");
    assert!(
        out.contains("you win") || out.contains("the bot wins") || out.contains("draw"),
        "{out}"
    );
}

#[test]
fn every_game_lists_moves_and_explains_bad_input() {
    let cases = [
        (
            "piranhas",
            "greedy",
            "foo\n",
            "cannot read \"foo\"",
            "legal moves:",
        ),
        (
            "maumau",
            "heuristic",
            "zz\nd\n",
            "\"zz\" is not a legal card",
            "legal:",
        ),
        (
            "koehandel",
            "heuristic",
            "x\na\n",
            "cannot read \"x\"",
            "your money",
        ),
    ];
    for (game, bot, input, explained, listed) in cases {
        let (ok, out, err) = play(&[game, "--bot", bot], input);
        // The input ends mid-game: a clean error exit with one line.
        assert!(!ok, "{game}");
        assert_eq!(err.trim_end().lines().count(), 1, "{game}: {err}");
        assert!(out.contains(explained), "{game}: {out}");
        assert!(out.contains(listed), "{game}: {out}");
    }
}
