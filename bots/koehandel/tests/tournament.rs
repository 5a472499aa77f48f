//! The tournament entry point plays real games over HTTP and reports consistent standings.

#[test]
fn tournament_plays_games_and_every_entrant_gets_a_row() {
    let rows = kibitz_bots_koehandel::tournament::run(&kibitz_net::tournament::Options {
        games: 4,
        seed: 1,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(rows.len(), 4);
    let games = rows[0].games;
    assert_eq!(games, 4, "a fixed number of games");
    assert!(rows.iter().any(|r| r.player == "kibitz"));
    let mut points = 0.0;
    for r in &rows {
        assert_eq!(r.games, games, "{}", r.player);
        assert_eq!(r.wins + r.draws + r.losses, r.games);
        assert!(r.note.contains("avg score"));
        points += r.points;
    }
    assert!(
        (points - f64::from(games)).abs() < 1e-9,
        "one point per game"
    );
}

#[test]
fn same_seed_same_standings_with_progress_and_replayable_records() {
    use std::sync::Arc;
    let dir = kibitz_testkit::fresh_dir("kh-tournament");
    let run = |records: Option<std::path::PathBuf>| {
        let count = Arc::new(kibitz_testkit::CountingProgress::default());
        let rows = kibitz_bots_koehandel::tournament::run(&kibitz_net::tournament::Options {
            games: 4,
            seed: 7,
            records,
            progress: kibitz_net::tournament::Progress::new(count.clone()),
        })
        .unwrap();
        (rows, count)
    };
    let (a, ca) = run(Some(dir.clone()));
    let (b, cb) = run(None);
    assert_eq!(a, b, "the same seed gives the same standings");
    assert_eq!(ca.announced(), 4);
    assert_eq!(ca.done(), cb.done());
    assert_eq!(ca.done().len(), 4);
    // One record per game; each replays to the recorded scores.
    let lines = kibitz_testkit::json_lines(&dir.join("koehandel.jsonl"));
    assert_eq!(lines.len(), 4);
    for l in &lines {
        assert_eq!(l["format"], kibitz_net::record::FORMAT);
        assert_eq!(l["game"], "koehandel");
        assert!(l["players"][0].is_string());
        let positions = kibitz_bots_koehandel::record::replay(l).unwrap();
        assert_eq!(positions.len(), l["moves"].as_array().unwrap().len() + 1);
        assert!(positions.last().unwrap().0.contains("game over"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
