//! `kibitz maumau match` and `kibitz koehandel match` are `kibitz match <game>`: the same
//! games, seeds and results; their old flags still work as hidden aliases; `--seats` sets the
//! Mau-Mau table and is refused where a game fixes it.

use kibitz_testkit::{run_bin, Ran};
use serde_json::Value;

const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");

fn run(args: &[&str]) -> Ran {
    run_bin(KIBITZ, args)
}

/// The one JSON object a `--json` match prints.
fn json(args: &[&str]) -> Value {
    let out = run(args);
    assert!(out.ok, "{args:?}: {}", out.stderr);
    serde_json::from_str(out.stdout.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// W/D/L and the per-seat breakdown of a result.
fn wdl(v: &Value) -> (Value, Value, Value, Value) {
    (
        v["wins"].clone(),
        v["draws"].clone(),
        v["losses"].clone(),
        v["sides"].clone(),
    )
}

#[test]
fn maumau_match_is_the_arena_match_for_the_same_seed() {
    // The example: the old runner said 4-0 here where the arena said 1-3.
    let common = [
        "--a", "first", "--b", "random", "--games", "4", "--seed", "1", "--json",
    ];
    let old = json(&[&["maumau", "match"], &common[..]].concat());
    let new = json(&[&["match", "maumau"], &common[..]].concat());
    assert_eq!(old, new);
    assert_eq!(new["games"], 4);
    // The old flag names reach the same match: --threads, --players 2, --iterations.
    let aliased = json(&[
        "maumau",
        "match",
        "--a",
        "first",
        "--b",
        "random",
        "--games",
        "4",
        "--seed",
        "1",
        "--threads",
        "1",
        "--players",
        "2",
        "--json",
    ]);
    assert_eq!(wdl(&aliased), wdl(&new));
}

#[test]
fn old_maumau_flags_map_onto_specs_and_sprt() {
    let v = json(&[
        "maumau",
        "match",
        "--a",
        "ismcts",
        "--b",
        "heuristic",
        "--iterations",
        "30",
        "--games",
        "2",
        "--seed",
        "3",
        "--elo1",
        "20",
        "--json",
    ]);
    assert_eq!(v["a"], "ismcts:iterations=30");
    assert_eq!(v["b"], "heuristic:iterations=30");
    assert_eq!(
        (&v["sprt"]["elo0"], &v["sprt"]["elo1"]),
        (&0.0.into(), &20.0.into())
    );
    let same = json(&[
        "match",
        "maumau",
        "--a",
        "ismcts:iterations=30",
        "--b",
        "heuristic:iterations=30",
        "--games",
        "2",
        "--seed",
        "3",
        "--sprt",
        "0,20",
        "--json",
    ]);
    assert_eq!(v, same);
}

#[test]
fn koehandel_match_is_the_arena_match_for_the_same_seed() {
    let common = [
        "--a",
        "heuristic",
        "--b",
        "random",
        "--games",
        "4",
        "--seed",
        "5",
        "--json",
    ];
    let old = json(&[&["koehandel", "match"], &common[..]].concat());
    let new = json(&[&["match", "koehandel"], &common[..]].concat());
    assert_eq!(old, new);
    // The old four-name --seats, two players twice each, is A against B.
    let listed = json(&[
        "koehandel",
        "match",
        "--seats",
        "heuristic,random,random,heuristic",
        "--games",
        "4",
        "--seed",
        "5",
        "--json",
    ]);
    assert_eq!(listed, new);
    // One against three cannot be A against B: refused, saying what to do.
    let out = run(&[
        "koehandel",
        "match",
        "--seats",
        "strong,heuristic,heuristic,heuristic",
    ]);
    assert!(!out.ok);
    assert!(out.stderr.contains("pass --a and --b"), "{}", out.stderr);
    let out = run(&["koehandel", "match"]);
    assert!(
        !out.ok && out.stderr.contains("--a <A> --b <B>"),
        "{}",
        out.stderr
    );
}

#[test]
fn maumau_plays_three_and_four_seat_tables() {
    for (seats, labels) in [("3", 3), ("4", 4)] {
        let v = json(&[
            "match",
            "maumau",
            "--seats",
            seats,
            "--a",
            "heuristic",
            "--b",
            "random",
            "--games",
            "8",
            "--seed",
            "2",
            "--json",
        ]);
        // Games round up to whole deals of one game per seat of A.
        let n: u64 = seats.parse().unwrap();
        assert_eq!(v["games"], 8u64.div_ceil(n) * n);
        let sides = v["sides"].as_object().unwrap();
        assert_eq!(sides.len(), labels, "{v}");
        for k in 0..labels {
            assert_eq!(
                sides[&format!("seat{k}")]["games"],
                v["games"].as_u64().unwrap() / n
            );
        }
        assert!(v.get("pentanomial").is_none(), "pairs only at two seats");
        // The old --players N is --seats N.
        let old = json(&[
            "maumau",
            "match",
            "--players",
            seats,
            "--a",
            "heuristic",
            "--b",
            "random",
            "--games",
            "8",
            "--seed",
            "2",
            "--json",
        ]);
        assert_eq!(old, v);
    }
}

#[test]
fn seats_are_refused_where_the_game_fixes_them() {
    for (game, args, msg) in [
        (
            "connect4",
            ["--seats", "3"],
            "connect4 is always played at 2 seats",
        ),
        (
            "koehandel",
            ["--seats", "2"],
            "koehandel is always played at 4 seats",
        ),
        (
            "maumau",
            ["--seats", "5"],
            "maumau is played at 2 to 4 seats",
        ),
    ] {
        let out = run(&[
            &[
                "match", game, "--a", "random", "--b", "random", "--games", "2",
            ][..],
            &args[..],
        ]
        .concat());
        assert!(!out.ok, "{game}");
        assert!(out.stderr.contains(msg), "{game}: {}", out.stderr);
    }
    let out = run(&[
        "koehandel",
        "match",
        "--seats",
        "3",
        "--a",
        "random",
        "--b",
        "random",
    ]);
    assert!(
        !out.ok && out.stderr.contains("always played at 4 seats"),
        "{}",
        out.stderr
    );
}
