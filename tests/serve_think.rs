//! What every bot thought: `kibitz match --records` writes a `think` entry per move for the
//! searching players of Piranhas, Mau-Mau and Koehandel (and `null` for the players that
//! know nothing), as `arena::record` documents; `kibitz serve` shows them per move.

use kibitz_testkit::{fresh_dir, json_lines, run_bin};
use serde_json::Value;

const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");

/// Plays one untimed game of `game` (`a` against `b`, seed 5) and returns its record.
fn record(game: &str, a: &str, b: &str) -> Value {
    let dir = fresh_dir(&format!("think-{game}"));
    let d = dir.to_str().expect("UTF-8 temp dir");
    let ran = run_bin(
        KIBITZ,
        &[
            "match",
            game,
            "--a",
            a,
            "--b",
            b,
            "--games",
            "1",
            "--seed",
            "5",
            "--records",
            d,
        ],
    );
    assert!(ran.ok, "{}", ran.text());
    let recs = json_lines(&dir.join(format!("{game}-5.jsonl")));
    let _ = std::fs::remove_dir_all(&dir);
    recs.into_iter().next().expect("one record")
}

/// `think` has one entry per move; returns the entries of seats playing `a` and the rest.
fn split(rec: &Value) -> (Vec<Value>, Vec<Value>) {
    let moves = rec["moves"].as_array().expect("moves");
    let think = rec["think"].as_array().expect("a think key");
    assert_eq!(think.len(), moves.len(), "one think per move");
    let a = rec["a"].as_str().expect("a");
    let players = rec["players"].as_array().expect("players");
    think
        .iter()
        .cloned()
        .partition(|t| t.is_object() && players[t["seat"].as_u64().unwrap_or(99) as usize] == a)
}

#[test]
fn piranhas_search_tells_score_depth_nodes_ms_and_pv() {
    let rec = record("piranhas", "search:depth=2", "greedy");
    let (mine, rest) = split(&rec);
    assert!(rest.iter().all(Value::is_null), "greedy thinks nothing");
    assert!(!mine.is_empty());
    let moves = rec["moves"].as_array().unwrap();
    for (i, t) in rec["think"].as_array().unwrap().iter().enumerate() {
        if t.is_null() {
            continue;
        }
        assert_eq!(t["depth"], 2, "{t}");
        assert!(t["nodes"].as_u64().unwrap() > 0 && t["ms"].is_u64() && t["score"].is_i64());
        let pv = t["pv"].as_array().unwrap();
        assert_eq!(
            pv.first(),
            Some(&moves[i]),
            "the pv starts with the move played"
        );
    }
}

#[test]
fn maumau_ismcts_tells_iterations_visits_and_win_rate() {
    let rec = record("maumau", "ismcts:iterations=60", "heuristic");
    let (mine, rest) = split(&rec);
    assert!(rest.iter().all(Value::is_null));
    assert!(!mine.is_empty());
    for t in &mine {
        // At most the 60 asked for (the search may stop early once the choice is settled).
        let n = t["iterations"].as_u64().unwrap();
        assert!((1..=60).contains(&n), "{t}");
        let v = t["visits"].as_u64().unwrap();
        assert!((1..=n).contains(&v), "{t}");
        let w = t["win_rate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w), "{t}");
        assert!(t["ms"].is_u64());
    }
}

#[test]
fn koehandel_strong_tells_worlds_and_estimate() {
    let rec = record("koehandel", "strong:worlds=3", "heuristic");
    let (mine, rest) = split(&rec);
    assert!(rest.iter().all(Value::is_null));
    assert!(
        !mine.is_empty(),
        "the strong player samples worlds for some decisions"
    );
    for t in &mine {
        assert_eq!(t["worlds"], 3, "{t}");
        assert!(t["candidates"].as_u64().unwrap() >= 2, "{t}");
        assert!(t["estimate"].as_f64().is_some_and(f64::is_finite) && t["ms"].is_u64());
    }
}
