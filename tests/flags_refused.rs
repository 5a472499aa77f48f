//! A flag that would do nothing, or nothing sensible, is refused with a message naming it,
//! instead of being silently accepted (issue "Bring your own bot", item 4), and Elo is never
//! printed as a finite number where the score leaves it unbounded.

use std::process::{Command, Output};

fn kibitz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(args)
        .output()
        .expect("run kibitz")
}

/// Runs kibitz, expects failure, returns stderr.
fn refused(args: &[&str]) -> String {
    let out = kibitz(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{args:?} was accepted: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed before refusing");
    err
}

const MM: [&str; 6] = ["match", "maumau", "--a", "random", "--b", "random"];

#[test]
fn match_refuses_zero_games_and_zero_concurrency() {
    let err = refused(&[&MM[..], &["--games", "0"]].concat());
    assert!(err.contains("--games"), "{err}");
    let err = refused(&[&MM[..], &["--concurrency", "0"]].concat());
    assert!(err.contains("--concurrency 0"), "{err}");
}

#[test]
fn match_refuses_sprt_stop_without_sprt() {
    let err = refused(&[&MM[..], &["--sprt-stop"]].concat());
    assert!(err.contains("--sprt"), "{err}");
}

#[test]
fn match_refuses_openings_where_the_game_has_none() {
    let dir = kibitz_testkit::fresh_dir("flags-openings");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "4\n").unwrap();
    let err = refused(&[&MM[..], &["--openings", file.to_str().unwrap()]].concat());
    assert!(err.contains("maumau has no openings"), "{err}");
}

#[test]
fn match_refuses_a_mau_mau_rule_for_another_game() {
    let err = refused(&[
        "match",
        "connect4",
        "--a",
        "random",
        "--b",
        "random",
        "--exhaustion-winner",
        "most-valid-moves",
    ]);
    assert!(err.contains("Mau-Mau rule"), "{err}");
}

#[test]
fn tournament_refuses_unknown_contests_and_zero_games() {
    let err = refused(&["tournament", "--only", "connect-four"]);
    assert!(
        err.contains("connect-four") && err.contains("connect4"),
        "{err}"
    );
    let err = refused(&["tournament", "--games", "0"]);
    assert!(err.contains("--games"), "{err}");
}

#[test]
fn bench_refuses_unknown_engines() {
    let err = refused(&["bench", "--only", "wuerfel"]);
    assert!(err.contains("madn"), "{err}");
}

#[test]
fn perfect_scores_have_no_finite_elo() {
    // Depth-6 search against random, untimed: the same games every run.
    let args = [
        "match",
        "connect4",
        "--a",
        "search:depth=6",
        "--b",
        "random",
        "--games",
        "4",
        "--seed",
        "1",
    ];
    let out = kibitz(&[&args[..], &["--json"]].concat());
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert_eq!(v["score"], 1.0, "the fixture expects a clean sweep: {v}");
    assert!(v["elo"].is_null() && v["elo_ci95"].is_null(), "{v}");
    let text = String::from_utf8_lossy(&kibitz(&args).stdout).into_owned();
    assert!(
        text.contains("+∞ (all won)") && !text.contains("1200"),
        "{text}"
    );
}

#[test]
fn piranhas_search_param_takes_every_tunable_and_names_an_unknown_one() {
    // A search switch and a knob are tunables too, not only evaluation weights.
    for good in ["end_plies=0", "null_r=3", "fish=90"] {
        let out = kibitz(&["piranhas", "search", "--depth", "1", "--param", good]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{good}: {text}");
        assert!(text.contains("best "), "{good}: {text}");
    }
    let err = refused(&["piranhas", "search", "--depth", "1", "--param", "bogus=1"]);
    assert!(
        err.contains("unknown parameter `bogus`") && err.contains("kibitz piranhas params"),
        "{err}"
    );
    let err = refused(&["piranhas", "search", "--depth", "1", "--param", "fish=x"]);
    assert!(err.contains("`x` is not a number"), "{err}");
}

/// A tunable given a value it cannot mean (a switch other than 0/1, a probability above 1) is
/// refused with the reason, in every game whose specs take `param.NAME=V`, not clamped.
#[test]
fn match_refuses_a_tunable_out_of_its_range_with_the_reason() {
    for (game, spec, name) in [
        ("piranhas", "search:nodes=1000,param.end_qs=7", "end_qs"),
        ("maumau", "ismcts:param.eps=2", "eps"),
        ("koehandel", "strong:param.bluff_prior=3", "bluff_prior"),
        ("connect4", "engine:param.solver_share=1.5", "solver_share"),
    ] {
        let err = refused(&["match", game, "--a", spec, "--b", "random"]);
        assert!(
            err.contains(&format!("parameter `{name}`")) && err.contains("out of range"),
            "{game}: {err}"
        );
    }
}
