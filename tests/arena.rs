//! `kibitz match` for every game: reproducible JSON (independent of --concurrency), one-line
//! errors for bad specs, records that `kibitz replay --all` can show.

use kibitz_testkit::{fresh_dir, json_lines, run_bin, Ran};
use std::process::Command;

const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");

/// Cheap, untimed (reproducible) specs per game.
const GAMES: [(&str, &str, &str); 4] = [
    ("connect4", "search:depth=3", "random"),
    ("piranhas", "search:depth=1", "greedy"),
    ("maumau", "ismcts:iterations=50,param.c=0.8", "heuristic"),
    ("koehandel", "heuristic", "random"),
];

fn run(args: &[&str]) -> Ran {
    run_bin(KIBITZ, args)
}

fn json_match(game: &str, a: &str, b: &str, conc: &str) -> serde_json::Value {
    let out = run(&[
        "match",
        game,
        "--a",
        a,
        "--b",
        b,
        "--games",
        "4",
        "--seed",
        "11",
        "--concurrency",
        conc,
        "--json",
    ]);
    assert!(out.ok, "{game}: {}", out.stderr);
    let text = out.stdout;
    assert_eq!(
        text.lines().count(),
        1,
        "{game}: stdout must be one line: {text}"
    );
    serde_json::from_str(&text).expect("one JSON object")
}

#[test]
fn same_seed_same_json_at_any_concurrency() {
    for (game, a, b) in GAMES {
        let one = json_match(game, a, b, "1");
        let two = json_match(game, a, b, "2");
        assert_eq!(one, two, "{game}");
        for key in [
            "game", "a", "b", "seed", "games", "wins", "draws", "losses", "score", "elo", "los",
            "sides",
        ] {
            assert!(one.get(key).is_some(), "{game}: no {key:?} in {one}");
        }
        assert_eq!(one["game"], game);
        assert_eq!(one["seed"], 11);
        let n = one["games"].as_u64().unwrap();
        let wdl: u64 = ["wins", "draws", "losses"]
            .iter()
            .map(|k| one[k].as_u64().unwrap())
            .sum();
        assert_eq!(wdl, n, "{game}");
        let sides: u64 = one["sides"]
            .as_object()
            .unwrap()
            .values()
            .map(|s| s["games"].as_u64().unwrap())
            .sum();
        assert_eq!(sides, n, "{game}");
    }
}

#[test]
fn bad_spec_fails_with_one_line() {
    for (game, _, b) in GAMES {
        for bad in ["nonsense", "random:bogus=1"] {
            let out = run(&[
                "match", game, "--a", bad, "--b", b, "--games", "2", "--seed", "1", "--json",
            ]);
            assert!(!out.ok, "{game} {bad}");
            assert!(out.stdout.is_empty(), "{game} {bad}: stdout not empty");
            let err = &out.stderr;
            assert_eq!(err.trim_end().lines().count(), 1, "{game} {bad}: {err}");
        }
    }
}

#[test]
fn records_replay_with_all() {
    let dir = fresh_dir("arena-test");
    for (game, a, b) in GAMES {
        let d = dir.to_string_lossy().to_string();
        let out = run(&[
            "match",
            game,
            "--a",
            a,
            "--b",
            b,
            "--games",
            "2",
            "--seed",
            "3",
            "--records",
            &d,
            "--json",
        ]);
        assert!(out.ok, "{game}: {}", out.stderr);
        let summary: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
        let file = dir.join(format!("{game}-3.jsonl"));
        let records = json_lines(&file);
        assert_eq!(
            records.len() as u64,
            summary["games"].as_u64().unwrap(),
            "{game}"
        );
        let first = &records[0];
        assert_eq!(first["format"], "kibitz-record/1");
        let moves = first["moves"].as_array().expect("moves").len();
        let out = run(&["replay", &file.to_string_lossy(), "--game", "0", "--all"]);
        assert!(out.ok, "{game}: {}", out.stderr);
        let shown = &out.stdout;
        // One position per move plus the start (Mau-Mau also shows skipped turns).
        let positions = shown.lines().filter(|l| l.starts_with('[')).count();
        assert!(
            positions > moves,
            "{game}: {positions} positions for {moves} moves"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_a_terminal_progress_comes_as_stderr_lines() {
    let out = run(&[
        "match",
        "connect4",
        "--a",
        "search:depth=2",
        "--b",
        "random",
        "--games",
        "20",
        "--seed",
        "3",
    ]);
    assert!(out.ok);
    let err = &out.stderr;
    let lines: Vec<_> = err.lines().filter(|l| l.starts_with("match: ")).collect();
    assert!(lines.len() >= 2, "{err}");
    assert!(
        lines.last().unwrap().starts_with("match: 20/20 games"),
        "{err}"
    );
}

#[test]
fn records_are_written_as_games_end_and_survive_a_killed_match() {
    let dir = fresh_dir("arena-kill");
    let mut child = Command::new(KIBITZ)
        .args([
            "match",
            "connect4",
            "--a",
            "search:depth=6",
            "--b",
            "random",
            "--games",
            "100000",
            "--seed",
            "5",
            "--concurrency",
            "1",
            "--records",
            &dir.to_string_lossy(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("kibitz runs");
    let file = dir.join("connect4-5.jsonl");
    // Poll (bounded) until a few games are on disk, then kill the match mid-run.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let lines = loop {
        let n = std::fs::read_to_string(&file).map_or(0, |t| t.lines().count());
        if n >= 3 || std::time::Instant::now() > deadline {
            break n;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    child.kill().expect("kill");
    child.wait().expect("reaped");
    assert!(lines >= 3, "no records appeared while the match ran");
    // Every line is whole JSON (json_lines names a torn one), in game order.
    for (i, v) in json_lines(&file).iter().enumerate() {
        assert_eq!(v["index"].as_u64(), Some(i as u64), "game order");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
