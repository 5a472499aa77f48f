//! `kibitz roundrobin`: every pair is the `kibitz match` of the same seed, the crosstable and
//! Elo list add up, gauntlets pair only the first player, records land one file per pair.

use kibitz_testkit::{fresh_dir, json_lines, run_bin, Ran};

const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");

fn run(args: &[&str]) -> Ran {
    run_bin(KIBITZ, args)
}

fn one_json(out: &Ran) -> serde_json::Value {
    assert!(out.ok, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 1, "{}", out.stdout);
    serde_json::from_str(&out.stdout).expect("one JSON object")
}

const PLAYERS: [&str; 3] = ["search:depth=4", "search:depth=1", "random"];

#[test]
fn every_pair_is_the_match_of_the_same_seed_and_the_fit_uses_them_all() {
    let dir = fresh_dir("roundrobin-records");
    let dir_s = dir.to_str().unwrap();
    let mut args = vec!["roundrobin", "connect4", "--players"];
    args.extend(PLAYERS);
    args.extend([
        "--games",
        "6",
        "--seed",
        "5",
        "--concurrency",
        "2",
        "--json",
        "--records",
        dir_s,
    ]);
    let v = one_json(&run(&args));
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3);
    for p in pairs {
        let (i, j) = (p["i"].as_u64().unwrap(), p["j"].as_u64().unwrap());
        let (a, b) = (PLAYERS[i as usize - 1], PLAYERS[j as usize - 1]);
        let m = one_json(&run(&[
            "match", "connect4", "--a", a, "--b", b, "--games", "6", "--seed", "5", "--json",
        ]));
        for k in ["wins", "draws", "losses", "games"] {
            assert_eq!(p[k], m[k], "pair {i} v {j}: {k}");
        }
        // One record file per pair, its lines those of `kibitz match --records`.
        let file = dir.join(format!("connect4-5-{i}v{j}.jsonl"));
        let lines = json_lines(&file);
        assert_eq!(lines.len(), 6, "{}", file.display());
        assert!(lines
            .iter()
            .all(|l| l["a"] == a && l["b"] == b && l["seed"] == 5));
    }
    // No scratch folders left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    // Ratings: mean anchor, points and games add up from the pairs.
    let r = v["ratings"].as_array().unwrap();
    let sum: f64 = r.iter().map(|x| x["elo"].as_f64().unwrap()).sum();
    assert!(sum.abs() < 1e-6, "{v}");
    assert_eq!(v["anchor"], "mean");
    for (k, x) in r.iter().enumerate() {
        let p = k as u64 + 1;
        let (mut games, mut points) = (0, 0.0);
        for q in pairs {
            let (w, d, l) = (
                q["wins"].as_u64().unwrap(),
                q["draws"].as_u64().unwrap(),
                q["losses"].as_u64().unwrap(),
            );
            if q["i"] == p {
                games += w + d + l;
                points += w as f64 + 0.5 * d as f64;
            } else if q["j"] == p {
                games += w + d + l;
                points += l as f64 + 0.5 * d as f64;
            }
        }
        assert_eq!(x["games"], games);
        assert_eq!(x["points"].as_f64().unwrap(), points);
        assert!(x["elo_ci95"].as_f64().unwrap() > 0.0);
    }
    // Depth 4 beats random: its rating is the higher.
    assert!(
        r[0]["elo"].as_f64().unwrap() > r[2]["elo"].as_f64().unwrap(),
        "{v}"
    );
}

#[test]
fn a_gauntlet_plays_the_first_against_each_other_and_prints_the_tables() {
    let mut args = vec!["roundrobin", "connect4", "--gauntlet", "--players"];
    args.extend(PLAYERS);
    args.extend(["--games", "2", "--seed", "3", "--anchor", "first"]);
    let out = run(&args);
    assert!(out.ok, "{}", out.stderr);
    let t = &out.stdout;
    assert!(t.contains("gauntlet") && t.contains("2 pairs"), "{t}");
    assert!(
        t.contains("1 v 2") && t.contains("1 v 3") && !t.contains("2 v 3"),
        "{t}"
    );
    assert!(t.contains("anchor player 1 = 0"), "{t}");
    assert!(t.contains("W-D-L") && t.contains("± 95 %"), "{t}");
}

#[test]
fn every_pair_deals_from_the_deals_file() {
    let dir = fresh_dir("roundrobin-deals");
    let deals = dir.join("deals.txt");
    std::fs::write(&deals, "31\n32\n").unwrap();
    let rec = dir.join("rec");
    let out = run(&[
        "roundrobin",
        "maumau",
        "--players",
        "heuristic",
        "random",
        "heuristic",
        "--games",
        "4",
        "--seed",
        "2",
        "--deals",
        deals.to_str().unwrap(),
        "--records",
        rec.to_str().unwrap(),
        "--json",
    ]);
    one_json(&out);
    for pair in ["1v2", "1v3", "2v3"] {
        let lines = json_lines(&rec.join(format!("maumau-2-{pair}.jsonl")));
        let seeds: Vec<u64> = lines
            .iter()
            .map(|l| l["setup"]["deal_seed"].as_u64().unwrap())
            .collect();
        assert_eq!(seeds, [31, 31, 32, 32], "{pair}");
    }
    let out = run(&[
        "roundrobin",
        "connect4",
        "--players",
        "random",
        "random",
        "--deals",
        deals.to_str().unwrap(),
    ]);
    assert!(!out.ok && out.stderr.contains("no deals"), "{}", out.stderr);
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let out = run(&["roundrobin", "connect4", "--players", "random", "nope"]);
    assert!(!out.ok);
    assert!(out.stderr.contains("unknown player"), "{}", out.stderr);
    let out = run(&["roundrobin", "connect4", "--players", "random"]);
    assert!(!out.ok, "one player is no tournament");
    let out = run(&[
        "roundrobin",
        "maumau",
        "--players",
        "random",
        "random",
        "--openings",
        "/nonexistent",
    ]);
    assert!(!out.ok);
    assert!(out.stderr.contains("no openings"), "{}", out.stderr);
}
