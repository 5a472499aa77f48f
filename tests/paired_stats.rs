//! `kibitz match` counts the paired games (both colours on one opening) as pentanomial pair
//! results beside the per-game W/D/L, and its SPRT uses the pair model where games are paired.

use serde_json::Value;

fn match_json(args: &[&str]) -> Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(["match"])
        .args(args)
        .arg("--json")
        .output()
        .expect("run kibitz");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON line")
}

#[test]
fn pairs_add_up_to_the_games_and_drive_the_sprt() {
    let v = match_json(&[
        "connect4",
        "--a",
        "search:depth=3",
        "--b",
        "search:depth=2",
        "--games",
        "40",
        "--seed",
        "3",
        "--sprt",
        "0,50",
    ]);
    let counts: Vec<u64> = serde_json::from_value(v["pentanomial"].clone()).expect("counts");
    assert_eq!(counts.len(), 5);
    assert_eq!(
        counts.iter().sum::<u64>() * 2,
        v["games"].as_u64().unwrap(),
        "{v}"
    );
    // Pair score k/2 points: the pairs hold exactly the games' points.
    let pair_points: u64 = counts.iter().enumerate().map(|(k, c)| k as u64 * c).sum();
    let (w, d) = (v["wins"].as_u64().unwrap(), v["draws"].as_u64().unwrap());
    assert_eq!(pair_points, 2 * w + d, "{v}");
    assert_eq!(v["elo_pairs"], v["elo"], "same score, same Elo: {v}");
    assert_eq!(v["sprt"]["model"], "pentanomial");
    assert_ne!(v["sprt"]["llr"], v["sprt"]["llr_trinomial"]);
}

#[test]
fn four_game_units_keep_the_per_game_model() {
    let v = match_json(&[
        "koehandel",
        "--a",
        "heuristic",
        "--b",
        "random",
        "--games",
        "4",
        "--seed",
        "1",
        "--sprt",
        "0,10",
    ]);
    assert!(v.get("pentanomial").is_none(), "{v}");
    assert_eq!(v["sprt"]["model"], "trinomial");
    assert_eq!(v["sprt"]["llr"], v["sprt"]["llr_trinomial"]);
}
