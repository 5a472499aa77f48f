//! `kibitz play`: a person's moves piped into the binary; bad input is explained, the board is
//! drawn, and the game runs to its end (or ends cleanly when the input does).

fn play(args: &[&str], input: &str) -> (bool, String, String) {
    let args: Vec<&str> = std::iter::once("play")
        .chain(args.iter().copied())
        .collect();
    let out = kibitz_testkit::run_bin_input(env!("CARGO_BIN_EXE_kibitz"), &args, input);
    (out.ok, out.stdout, out.stderr)
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

#[test]
fn quitting_ends_quietly_with_success_in_every_game() {
    for game in ["connect4", "piranhas", "maumau", "koehandel"] {
        let (ok, out, err) = play(&[game, "--bot", "random"], "q\n");
        assert!(ok, "{game}: quitting is not an error: {err}");
        assert!(
            out.contains("you quit; the game ends without a result"),
            "{game}: {out}"
        );
        assert!(!err.contains("error"), "{game}: {err}");
    }
}
