//! `kibitz score` reads record files and must count exactly what was played: it is checked
//! against `kibitz match`'s own tally of the same games, and on hand-written records for
//! draws, renames, opponent filters, multi-player games and bad input.

use kibitz_testkit::{fresh_dir, run_bin};
use serde_json::{json, Value};
use std::path::Path;

fn kibitz(args: &[&str]) -> kibitz_testkit::Ran {
    run_bin(env!("CARGO_BIN_EXE_kibitz"), args)
}

fn score_json(args: &[&str]) -> Value {
    let mut all = vec!["score", "--json"];
    all.extend_from_slice(args);
    let out = kibitz(&all);
    assert!(out.ok, "kibitz score failed: {}", out.stderr);
    serde_json::from_str(out.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

/// The entry of `list` (e.g. `"players"` or `"seats"`) whose `key` is `name`.
fn entry(report: &Value, list: &str, key: &str, name: &str) -> Value {
    report[list]
        .as_array()
        .unwrap_or_else(|| panic!("no {list} in {report}"))
        .iter()
        .find(|x| x[key] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no {key} {name} in {report}"))
}

fn wdl(v: &Value) -> (u64, u64, u64) {
    (
        v["wins"].as_u64().expect("wins"),
        v["draws"].as_u64().expect("draws"),
        v["losses"].as_u64().expect("losses"),
    )
}

/// One record line in the keys every writer shares.
fn rec(game: &str, players: &[&str], winner: Option<usize>, reason: &str) -> String {
    json!({
        "format": "kibitz-record/1", "game": game, "players": players,
        "result": {"winner": winner, "reason": reason},
    })
    .to_string()
}

fn write(dir: &Path, name: &str, lines: &[String]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").expect("write records");
    path.to_string_lossy().into_owned()
}

#[test]
fn scores_a_match_from_its_records_as_the_match_itself_counted_it() {
    let dir = fresh_dir("score-match");
    let d = dir.to_string_lossy();
    let (a, b) = ("search:nodes=300", "greedy");
    let out = kibitz(&[
        "match",
        "piranhas",
        "--a",
        a,
        "--b",
        b,
        "--games",
        "8",
        "--seed",
        "11",
        "--concurrency",
        "2",
        "--records",
        &d,
        "--json",
    ]);
    assert!(out.ok, "match failed: {}", out.stderr);
    let m: Value = serde_json::from_str(out.stdout.trim()).expect("match --json");
    let file = dir.join("piranhas-11.jsonl");
    let s = score_json(&["--a", a, &file.to_string_lossy()]);
    assert_eq!(wdl(&s["total"]), wdl(&m), "{s} vs {m}");
    assert_eq!(s["total"]["games"], 8);
    // Per colour: the match's sides are A's colours, the score's seats too.
    let seats = s["seats"].as_array().expect("seats");
    assert_eq!(seats.len(), 2);
    for seat in seats {
        let colour = seat["seat"].as_str().expect("seat label").to_lowercase();
        assert_eq!(wdl(seat), wdl(&m["sides"][&colour]), "{colour}: {s} vs {m}");
    }
    // Seen from B, the same games are the mirror image.
    let sb = score_json(&["--a", b, "--b", a, &file.to_string_lossy()]);
    let (w, dr, l) = wdl(&m);
    assert_eq!(wdl(&sb["total"]), (l, dr, w));
    // Standings list both players with the same counts.
    let st = score_json(&[&file.to_string_lossy()]);
    assert_eq!(st["games"], 8);
    let row = |name: &str| entry(&st, "players", "player", name);
    assert_eq!(wdl(&row(a)), (w, dr, l));
    assert_eq!(wdl(&row(b)), (l, dr, w));
}

#[test]
fn counts_draws_merges_renamed_players_and_filters_by_opponent() {
    let dir = fresh_dir("score-rename");
    let run1 = write(
        &dir,
        "run1.jsonl",
        &[
            rec(
                "piranhas",
                &["1: new.sh", "2: old.sh"],
                Some(0),
                "Rundenlimit",
            ),
            rec("piranhas", &["2: old.sh", "1: new.sh"], Some(1), "united"),
            rec("piranhas", &["1: new.sh", "2: old.sh"], None, "Rundenlimit"),
        ],
    );
    let run2 = write(
        &dir,
        "run2.jsonl",
        &[
            rec("piranhas", &["2: old2.sh", "1: new2.sh"], Some(0), "united"),
            rec("piranhas", &["1: new2.sh", "3: other"], Some(0), "united"),
        ],
    );
    let s = score_json(&[
        "--a",
        "1: new.sh",
        "--b",
        "2: old.sh",
        "--rename",
        "1: new2.sh=1: new.sh",
        "--rename",
        "2: old2.sh=2: old.sh",
        "--sprt",
        "0,10",
        &run1,
        &run2,
    ]);
    // Four games against old (the game against "3: other" is filtered out): 2 W, 1 D, 1 L.
    assert_eq!(wdl(&s["total"]), (2, 1, 1));
    let seat = |label: &str| entry(&s, "seats", "seat", label);
    assert_eq!(wdl(&seat("RED")), (1, 1, 0));
    assert_eq!(wdl(&seat("BLUE")), (1, 0, 1));
    assert_eq!(s["total"]["score"], 0.625);
    assert!(s["sprt"]["llr"].is_number(), "{s}");
    let reasons = s["reasons"].as_array().expect("reasons");
    assert_eq!(
        reasons
            .iter()
            .map(|r| r["games"].as_u64().unwrap())
            .sum::<u64>(),
        4
    );
    // Without --b, the game against "3: other" counts too.
    let all = score_json(&[
        "--a",
        "1: new.sh",
        "--rename",
        "1: new2.sh=1: new.sh",
        &run1,
        &run2,
    ]);
    assert_eq!(wdl(&all["total"]), (3, 1, 1));
    // The table form says the same.
    let text = kibitz(&["score", "--a", "1: new.sh", &run1]);
    assert!(text.ok, "{}", text.stderr);
    assert!(
        text.stdout.contains("RED") && text.stdout.contains("BLUE") && text.stdout.contains("all")
    );
    assert!(text.stdout.contains("Rundenlimit"), "{}", text.stdout);
}

#[test]
fn four_player_games_count_one_winner_per_table() {
    let dir = fresh_dir("score-four");
    let names = ["strong", "h1", "h2", "h3"];
    let lines: Vec<String> = (0..8)
        .map(|i| {
            // Seats rotate; "strong" wins the first five markets.
            let mut seats = names;
            seats.rotate_left(i % 4);
            let strong = seats.iter().position(|p| *p == "strong").unwrap();
            let winner = if i < 5 { strong } else { (strong + 1) % 4 };
            rec("koehandel", &seats, Some(winner), "all cards auctioned")
        })
        .collect();
    let file = write(&dir, "koe.jsonl", &lines);
    let s = score_json(&["--a", "strong", &file]);
    assert_eq!(wdl(&s["total"]), (5, 0, 3));
    assert_eq!(s["seats"].as_array().expect("seats").len(), 4);
    let st = score_json(&[&file]);
    let first = &st["players"][0];
    assert_eq!(first["player"], "strong", "best score first: {st}");
    // A shared first place (winner null, scores tied at the top) is a draw for the tied
    // seats and a loss for the others.
    let mut tie: Value = serde_json::from_str(&rec("koehandel", &names, None, "tie")).unwrap();
    tie["result"]["scores"] = json!([900, 900, 300, 0]);
    let tied = write(&dir, "tie.jsonl", &[tie.to_string()]);
    let t = score_json(&[&tied]);
    let row = |name: &str| wdl(&entry(&t, "players", "player", name));
    assert_eq!(
        (row("strong"), row("h1"), row("h2")),
        ((0, 1, 0), (0, 1, 0), (0, 0, 1))
    );
    let total_wins: u64 = st["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(total_wins, 8, "one winner per game: {st}");
}

#[test]
fn bad_records_and_flags_are_clear_errors() {
    let dir = fresh_dir("score-bad");
    let good = rec("maumau", &["a", "b"], Some(1), "hand emptied");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                good.clone(),
                "{\"game\": \"maumau\", \"players\": [\"a\", \"b\"]}".into(),
            ],
            "record 2: no \"result\"",
        ),
        (
            vec![rec("maumau", &["a", "b"], Some(2), "x")],
            "winner seat 2 of 2 players",
        ),
        (
            vec![rec("maumau", &["a"], None, "x")],
            "a game needs two or more",
        ),
        (vec![good.clone(), "{\"game\": \"mau".into()], "line 2"),
    ];
    for (i, (lines, expected)) in cases.iter().enumerate() {
        let file = write(&dir, &format!("bad{i}.jsonl"), lines);
        let out = kibitz(&["score", &file]);
        assert!(!out.ok, "case {i} accepted: {}", out.stdout);
        assert!(out.stderr.contains(expected), "case {i}: {}", out.stderr);
        assert!(!out.stderr.contains("panicked"), "case {i}: {}", out.stderr);
    }
    let file = write(&dir, "good.jsonl", &[good]);
    let out = kibitz(&["score", "--a", "c", &file]);
    assert!(!out.ok);
    assert!(out.stderr.contains("players: a, b"), "{}", out.stderr);
    let out = kibitz(&["score", "--rename", "nonsense", &file]);
    assert!(!out.ok);
    assert!(out.stderr.contains("expected FROM=TO"), "{}", out.stderr);
    let empty = write(&dir, "empty.jsonl", &[String::new()]);
    let out = kibitz(&["score", &empty]);
    assert!(!out.ok);
    assert!(out.stderr.contains("no records"), "{}", out.stderr);
}

#[test]
fn the_same_name_in_two_games_is_two_rows() {
    // A tournament's records call our bot `kibitz` in every contest.
    let dir = fresh_dir("score-per-game");
    let c4 = write(
        &dir,
        "connect4.jsonl",
        &[rec("connect4", &["kibitz", "random"], Some(0), "line")],
    );
    let mm = write(
        &dir,
        "maumau.jsonl",
        &[rec(
            "maumau",
            &["kibitz", "greedy"],
            Some(1),
            "emptied hand",
        )],
    );
    let report = score_json(&[&c4, &mm]);
    let rows: Vec<(String, String, (u64, u64, u64))> = report["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|r| {
            (
                r["game"].as_str().unwrap().into(),
                r["player"].as_str().unwrap().into(),
                wdl(r),
            )
        })
        .collect();
    assert!(
        rows.contains(&("connect4".into(), "kibitz".into(), (1, 0, 0))),
        "{rows:?}"
    );
    assert!(
        rows.contains(&("maumau".into(), "kibitz".into(), (0, 0, 1))),
        "{rows:?}"
    );
    assert_eq!(rows.len(), 4, "{rows:?}");
    let text = kibitz(&["score", &c4, &mm]).stdout;
    assert!(
        text.contains("connect4: kibitz") && text.contains("maumau: kibitz"),
        "{text}"
    );
}

/// `--plots DIR` draws A's running Elo and SPRT over its games in record order: one point per
/// game of A (games without A left out), the SPRT bounds from `--sprt`.
#[test]
fn plots_draw_one_point_per_game_of_a() {
    let dir = fresh_dir("score-plots");
    let file = write(
        &dir,
        "m.jsonl",
        &[
            rec("connect4", &["new", "old"], Some(0), "line"),
            rec("connect4", &["old", "new"], Some(0), "line"),
            rec("connect4", &["x", "y"], Some(0), "line"),
            rec("connect4", &["new", "old"], None, "full board"),
        ],
    );
    let plots = dir.join("plots");
    let p = plots.to_string_lossy();
    let out = kibitz(&[
        "score", &file, "--a", "new", "--sprt", "0,20", "--plots", &p,
    ]);
    assert!(out.ok, "{}", out.stderr);
    let elo = std::fs::read_to_string(plots.join("elo.svg")).expect("elo.svg");
    let sprt = std::fs::read_to_string(plots.join("sprt.svg")).expect("sprt.svg");
    let points = |svg: &str| {
        let i = svg.find("class=\"series\" points=\"").expect("a series") + 23;
        svg[i..svg[i..].find('"').unwrap() + i].split(' ').count()
    };
    assert_eq!((points(&elo), points(&sprt)), (3, 3), "3 games of new");
    assert!(sprt.contains("[0, 20]") && sprt.contains(">H1<"), "{sprt}");
    let no_a = kibitz(&["score", &file, "--plots", &p]);
    assert!(!no_a.ok && no_a.stderr.contains("--a"), "{}", no_a.stderr);
}
