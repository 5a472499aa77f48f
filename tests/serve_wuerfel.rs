//! `kibitz wuerfel --records DIR`: a few sample games per pairing as records that `kibitz
//! serve` draws (the positions themselves are checked by `wuerfel_report`'s unit tests).

use kibitz_testkit::{fresh_dir, json_lines, run_bin};

const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");

#[test]
fn wuerfel_records_hold_a_few_sample_games_per_pairing() {
    let dir = fresh_dir("serve-wuerfel");
    let dice = dir.join("dice.txt");
    std::fs::write(&dice, "3\n6 1 2 3 4 5 6\n6 1 1 1 6 6 6\n6 2 3 4 5 6 6\n").unwrap();
    let recs = dir.join("records");
    let args = |samples: &str| {
        vec![
            "wuerfel".to_string(),
            dice.display().to_string(),
            "--games".into(),
            "20".into(),
            "--threads".into(),
            "1".into(),
            "--seed".into(),
            "4".into(),
            "--records".into(),
            recs.display().to_string(),
            "--samples".into(),
            samples.into(),
        ]
    };
    let run = |samples: &str| {
        let a = args(samples);
        run_bin(KIBITZ, &a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let ran = run("3");
    assert!(ran.ok, "{}", ran.text());
    let lines = json_lines(&recs.join("wuerfel-4.jsonl"));
    // Three pairings, three samples each: nine games, not the 60 simulated.
    assert_eq!(lines.len(), 9);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["game"], "wuerfel");
        assert_eq!(l["index"], i);
        assert!(!l["moves"].as_array().unwrap().is_empty());
        assert_eq!(l["setup"]["dice"].as_array().unwrap().len(), 2);
    }
    assert_eq!(lines[0]["players"][1], "die 2 (1,1,1,6,6,6)");
    // A rerun replaces the file; a bad --samples is one clear line.
    assert!(run("1").ok);
    assert_eq!(json_lines(&recs.join("wuerfel-4.jsonl")).len(), 3);
    let bad = run("11");
    assert!(
        !bad.ok && bad.stderr.contains("--samples must be between 1 and 10"),
        "{}",
        bad.text()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
