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

/// Counts what the runner reports.
#[derive(Default)]
struct Count {
    total: std::sync::atomic::AtomicU64,
    done: std::sync::Mutex<Vec<String>>,
}

impl kibitz_net::tournament::ProgressSink for Count {
    fn total(&self, games: u64) {
        self.total.store(games, std::sync::atomic::Ordering::SeqCst);
    }
    fn game_done(&self, summary: &str) {
        self.done.lock().unwrap().push(summary.to_string());
    }
}

#[test]
fn same_seed_same_standings_with_progress_and_replayable_records() {
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!("mm-tournament-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |records: Option<std::path::PathBuf>| {
        let count = Arc::new(Count::default());
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
    let done = ca.done.lock().unwrap().clone();
    assert_eq!(done, *cb.done.lock().unwrap(), "game by game");
    // 4 entrants: 3 matches of 3 games, all played.
    assert_eq!(ca.total.load(std::sync::atomic::Ordering::SeqCst), 9);
    assert_eq!(done.len(), 9);
    let text = std::fs::read_to_string(dir.join("maumau.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
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
