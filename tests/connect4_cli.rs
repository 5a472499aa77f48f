//! `kibitz connect4 solve / bench / play / show`: exit codes and error reports of the built
//! binary (issue 11 item 5).

use kibitz_testkit::{fresh_dir, run_bin_input, Ran};

const GOOD: &str = "2252576253462244111563365343671351441 -1\n\
                    7422341735647741166133573473242566 1\n";

fn kibitz(args: &[&str], stdin: &str) -> Ran {
    run_bin_input(env!("CARGO_BIN_EXE_kibitz"), args, stdin)
}

#[test]
fn solve_good_lines_exit_zero() {
    let out = kibitz(&["connect4", "solve", "--hash", "16"], GOOD);
    assert!(out.ok, "{}", out.stderr);
    let stdout = &out.stdout;
    assert!(stdout.contains("2252576253462244111563365343671351441 -1"));
    assert!(stdout.contains("7422341735647741166133573473242566 1"));
}

#[test]
fn solve_malformed_line_exits_non_zero_and_names_it() {
    let input = format!("{GOOD}44x4\n4444444 0\n");
    let out = kibitz(&["connect4", "solve", "--hash", "16"], &input);
    assert!(!out.ok);
    let err = &out.stderr;
    assert!(err.contains("line 3"), "{err}");
    assert!(err.contains("line 4"), "{err}");
    // The good lines are still answered.
    assert!(out.stdout.contains("7422341735647741166133573473242566 1"));
}

#[test]
fn solve_finished_positions_are_game_over_errors() {
    for p in ["1212121", "1122334"] {
        let out = kibitz(&["connect4", "solve", "--hash", "16"], &format!("{p}\n"));
        assert!(!out.ok, "{p}");
        assert!(out.stderr.contains("game over"), "{p}");
        assert!(!out.stdout.contains(p), "{p} must not get a score");
    }
}

#[test]
fn solve_wrong_score_exits_non_zero() {
    let out = kibitz(
        &["connect4", "solve", "--hash", "16"],
        "7422341735647741166133573473242566 3\n",
    );
    assert!(!out.ok);
    assert!(out.stderr.contains("line 1"));
    assert!(out.stdout.contains("MISMATCH"));
}

fn bench_file(name: &str, content: &str) -> std::path::PathBuf {
    let p = fresh_dir(&format!("c4-cli-{name}")).join(name);
    std::fs::write(&p, content).unwrap();
    p
}

#[test]
fn bench_exit_codes() {
    let good = bench_file("good", GOOD);
    let out = kibitz(
        &["connect4", "bench", "--hash", "16", good.to_str().unwrap()],
        "",
    );
    assert!(out.ok, "{}", out.stderr);
    assert!(out.stdout.contains("mean CPU"));

    let bad = bench_file("bad", &format!("{GOOD}1212121 0\nnot-a-line\n"));
    let out = kibitz(
        &["connect4", "bench", "--hash", "16", bad.to_str().unwrap()],
        "",
    );
    assert!(!out.ok);
    let err = &out.stderr;
    assert!(err.contains("line 3") && err.contains("game over"), "{err}");
    assert!(err.contains("line 4"), "{err}");

    let wrong = bench_file("wrong", "7422341735647741166133573473242566 2\n");
    let out = kibitz(
        &["connect4", "bench", "--hash", "16", wrong.to_str().unwrap()],
        "",
    );
    assert!(!out.ok);
    assert!(out.stderr.contains("WRONG"));
}

#[test]
fn play_on_a_finished_game_is_an_error() {
    let out = kibitz(&["connect4", "play", "1212121", "--ms", "20"], "");
    assert!(!out.ok);
    assert!(out.stderr.contains("game over"));
    let out = kibitz(&["connect4", "play", "4444", "--ms", "20"], "");
    assert!(out.ok, "{}", out.stderr);
}

#[test]
fn show_of_the_empty_board_uses_the_book_and_has_a_legend() {
    let out = kibitz(&["connect4", "show", "", "--hash", "16", "--secs", "5"], "");
    assert!(out.ok, "{}", out.stderr);
    let s = &out.stdout;
    assert!(s.contains("book: play column 4"), "{s}");
    assert!(
        s.contains("first player") && s.contains("side to move"),
        "{s}"
    );
    // The only '?' is the legend's.
    assert_eq!(
        s.matches('?').count(),
        1,
        "every column known from the book: {s}"
    );
}

#[test]
fn timing_runs_on_the_bots_clock_and_refuses_a_budget_without_room() {
    // The contest's clock by default (250 ms, 50 ms overhead), as `connect4-bot` has it.
    let out = kibitz(
        &[
            "connect4",
            "timing",
            "--columns",
            "7",
            "--rows",
            "6",
            "--moves",
            "4",
        ],
        "",
    );
    assert!(out.ok, "{}", out.stderr);
    assert!(
        out.stdout.contains("--time-ms 250 --overhead-ms 50")
            && out
                .stdout
                .contains("soft 125.00 ms, hard 150.00 ms, send by 200.00 ms")
            && out.stdout.contains("4 moves"),
        "{}",
        out.stdout
    );
    // The bot's thread count reaches the engine (issue 39 item 3).
    let out = kibitz(
        &[
            "connect4",
            "timing",
            "--columns",
            "9",
            "--rows",
            "7",
            "--moves",
            "3",
            "--threads",
            "2",
        ],
        "",
    );
    assert!(out.ok, "{}", out.stderr);
    assert!(
        out.stdout.contains("--overhead-ms 50 --threads 2 (") && out.stdout.contains("3 moves"),
        "{}",
        out.stdout
    );
    let out = kibitz(&["connect4", "timing", "--time-ms", "50"], "");
    assert!(!out.ok);
    assert!(
        out.stderr.contains("at least 2 × overhead + 10 ms"),
        "{}",
        out.stderr
    );
    let out = kibitz(&["connect4", "timing", "--moves", "0"], "");
    assert!(!out.ok);
    assert!(out.stderr.contains("--moves"), "{}", out.stderr);
}
