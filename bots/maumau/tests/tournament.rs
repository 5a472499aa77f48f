//! `tournament::run` over real TCP with short matches: every bot gets a row, the books balance,
//! and our bot takes no penalty cards.

#[test]
fn tournament_reports_every_bot() {
    let rows = kibitz_bots_maumau::tournament::run(&kibitz_net::tournament::Options {
        games: 1,
        seed: 7,
        ..Default::default()
    })
    .expect("tournament");
    for r in &rows {
        println!(
            "{:<14} {:>2} games {:>2} wins  {}",
            r.player, r.games, r.wins, r.note
        );
    }
    assert_eq!(rows.len(), 4);
    let wins: u32 = rows.iter().map(|r| r.wins).sum();
    let losses: u32 = rows.iter().map(|r| r.losses).sum();
    assert_eq!(wins, losses, "every game has one winner and one loser");
    assert!(wins >= 1, "at least one game was played");
    assert!(rows[0].note.starts_with("champion"));
    let ours = rows.iter().find(|r| r.player == "kibitz").expect("our bot");
    assert!(ours.note.contains("penalties 0"), "{}", ours.note);
}

#[test]
fn same_seed_same_standings_with_progress_and_replayable_records() {
    use std::sync::Arc;
    let dir = kibitz_testkit::fresh_dir("mm-tournament");
    let run = |records: Option<std::path::PathBuf>| {
        let count = Arc::new(kibitz_testkit::CountingProgress::default());
        let rows = kibitz_bots_maumau::tournament::run(&kibitz_net::tournament::Options {
            games: 3,
            seed: 11,
            records,
            progress: kibitz_net::tournament::Progress::new(count.clone()),
        })
        .expect("tournament");
        (rows, count)
    };
    let (a, ca) = run(Some(dir.clone()));
    let (b, cb) = run(None);
    assert_eq!(a, b, "the same seed gives the same standings");
    let done = ca.done();
    assert_eq!(done, cb.done(), "game by game");
    // 4 entrants: 3 matches of 3 games, all played.
    assert_eq!(ca.announced(), 9);
    assert_eq!(done.len(), 9);
    let lines = kibitz_testkit::json_lines(&dir.join("maumau.jsonl"));
    assert_eq!(lines.len(), 9, "one record per game");
    for l in &lines {
        assert_eq!(l["format"], kibitz_net::record::FORMAT);
        assert_eq!(l["game"], "maumau");
        assert_eq!(l["setup"]["deck"].as_array().unwrap().len(), 32);
        let positions = kibitz_bots_maumau::record::replay(l).unwrap();
        assert!(positions.len() > 1);
        let last = &positions.last().unwrap().0;
        let winner = l["result"]["winner"].as_u64().unwrap();
        assert!(last.contains(&format!("seat {winner} wins")), "{last}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
