//! Start files: Piranhas boards in `--openings`, Mau-Mau / Koehandel `--deals`, Connect Four
//! `--adjudicate`: each game starts from (or ends as) the file / flag says, seen in the records.

use kibitz_testkit::{fresh_dir, json_lines, run_bin, Ran};
use std::path::Path;

const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");

fn run(args: &[&str]) -> Ran {
    run_bin(KIBITZ, args)
}

/// Plays `kibitz match` with `extra` flags and records into a fresh folder; its record lines.
fn records(
    tag: &str,
    game: &str,
    a: &str,
    b: &str,
    games: &str,
    extra: &[&str],
) -> Vec<serde_json::Value> {
    let dir = fresh_dir(tag);
    let mut args = vec![
        "match",
        game,
        "--a",
        a,
        "--b",
        b,
        "--games",
        games,
        "--seed",
        "9",
        "--records",
        dir.to_str().unwrap(),
        "--json",
    ];
    args.extend(extra);
    let out = run(&args);
    assert!(out.ok, "{game}: {}", out.stderr);
    json_lines(&dir.join(format!("{game}-9.jsonl")))
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn piranhas_games_start_from_the_boards_of_the_openings_file() {
    // The data file's start board for Krakens (2,2), (3,4), and the same with RED's fish on
    // (0,1) moved to (1,1): a start position that is not a standard one.
    let standard = "-BBBBBBBB-R--------RR-O------RR--------RR--O-----RR--------RR--------RR--------RR--------R-BBBBBBBB-";
    let mut odd: Vec<char> = standard.chars().collect();
    odd.swap(10, 11);
    let odd: String = odd.into_iter().collect();
    let dir = fresh_dir("piranhas-openings");
    let file = write(
        &dir,
        "boards.txt",
        &format!("# two start boards\n{standard}\n{odd}\n"),
    );
    let recs = records(
        "piranhas-open-rec",
        "piranhas",
        "greedy",
        "random",
        "4",
        &["--openings", &file],
    );
    assert_eq!(recs.len(), 4);
    for r in &recs[..2] {
        assert_eq!(r["setup"]["krakens"], "2,2,3,4", "{}", r["setup"]);
        assert!(
            r["setup"].get("board").is_none(),
            "a standard start is its Krakens"
        );
    }
    for r in &recs[2..] {
        assert_eq!(r["setup"]["board"], odd.as_str());
        assert_eq!(r["setup"]["krakens"], "2,2,3,4");
        // RED's first move cannot start from (0,1): there is no fish there any more.
        assert!(
            !r["moves"][0].as_str().unwrap().starts_with("0,1,"),
            "{}",
            r["moves"][0]
        );
    }
    // The replay starts from the file's board.
    let rdir = dir.join("rec");
    std::fs::create_dir_all(&rdir).unwrap();
    let lines: Vec<String> = recs.iter().map(|r| r.to_string()).collect();
    let rec_file = write(&rdir, "p.jsonl", &lines.join("\n"));
    let out = run(&["replay", &rec_file, "--game", "2", "--all"]);
    assert!(out.ok, "{}", out.stderr);
    // Bad boards are refused with the line.
    let bad = write(
        &dir,
        "bad.txt",
        &format!("{}\n", standard.replace('O', "-")),
    );
    let out = run(&[
        "match",
        "piranhas",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "2",
        "--openings",
        &bad,
    ]);
    assert!(
        !out.ok && out.stderr.contains("two Krakens"),
        "{}",
        out.stderr
    );
}

#[test]
fn card_games_deal_the_seeds_of_the_deals_file() {
    let dir = fresh_dir("deals");
    let file = write(&dir, "deals.txt", "123\n\n# the second deal\n456\n");
    let mm = records(
        "deals-mm",
        "maumau",
        "heuristic",
        "random",
        "4",
        &["--deals", &file],
    );
    let seeds: Vec<u64> = mm
        .iter()
        .map(|r| r["setup"]["deal_seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, [123, 123, 456, 456]);
    let kh = records(
        "deals-kh",
        "koehandel",
        "heuristic",
        "random",
        "8",
        &["--deals", &file],
    );
    let seeds: Vec<u64> = kh
        .iter()
        .map(|r| r["setup"]["deck_seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, [123, 123, 123, 123, 456, 456, 456, 456]);
    // A deal seen in a record plays again the same deck.
    let again = records(
        "deals-mm2",
        "maumau",
        "random",
        "random",
        "2",
        &["--deals", &file],
    );
    assert_eq!(again[0]["setup"]["deck"], mm[0]["setup"]["deck"]);
    // Refused: games without deals, bad lines, deals with openings.
    for (game, args, want) in [
        ("connect4", vec!["--deals", file.as_str()], "has no deals"),
        ("maumau", vec!["--deals", "/nonexistent/deals"], "reading"),
    ] {
        let mut a = vec![
            "match", game, "--a", "random", "--b", "random", "--games", "2",
        ];
        a.extend(args);
        let out = run(&a);
        assert!(
            !out.ok && out.stderr.contains(want),
            "{game}: {}",
            out.stderr
        );
    }
    let bad = write(&dir, "bad.txt", "12\nseven\n");
    let out = run(&[
        "match",
        "koehandel",
        "--a",
        "random",
        "--b",
        "random",
        "--deals",
        &bad,
    ]);
    assert!(!out.ok && out.stderr.contains("deal 2"), "{}", out.stderr);
}

/// An opening file with only comments and blank lines would mean "no openings": `match` and
/// `roundrobin` refuse it alike (they share their flags), before any game is played.
#[test]
fn an_opening_file_without_lines_is_refused_by_match_and_roundrobin() {
    let dir = fresh_dir("empty-openings");
    let empty = write(&dir, "empty.txt", "# nothing here\n\n");
    for cmd in [
        vec!["match", "connect4", "--a", "random", "--b", "random"],
        vec!["roundrobin", "connect4", "--players", "random", "random"],
    ] {
        let mut a = cmd.clone();
        a.extend(["--games", "2", "--seed", "1", "--openings", empty.as_str()]);
        let out = run(&a);
        assert!(
            !out.ok && out.stderr.contains("no lines"),
            "{}: {}",
            cmd[0],
            out.stderr
        );
    }
}

#[test]
fn connect4_adjudication_ends_games_with_the_proven_result() {
    let recs = records(
        "adjudicate",
        "connect4",
        "search:depth=2",
        "random",
        "4",
        &["--adjudicate=50000"],
    );
    for r in &recs {
        let reason = r["result"]["reason"].as_str().unwrap();
        assert!(reason.starts_with("adjudicated (proven "), "{reason}");
    }
    let out = run(&[
        "match",
        "piranhas",
        "--a",
        "random",
        "--b",
        "random",
        "--adjudicate",
    ]);
    assert!(
        !out.ok && out.stderr.contains("no exact solver"),
        "{}",
        out.stderr
    );
}
