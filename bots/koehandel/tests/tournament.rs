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
    let dir = std::env::temp_dir().join(format!("kh-tournament-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |records: Option<std::path::PathBuf>| {
        let count = Arc::new(Count::default());
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
    assert_eq!(ca.total.load(std::sync::atomic::Ordering::SeqCst), 4);
    assert_eq!(*ca.done.lock().unwrap(), *cb.done.lock().unwrap());
    assert_eq!(ca.done.lock().unwrap().len(), 4);
    // One record per game; each replays to the recorded scores.
    let text = std::fs::read_to_string(dir.join("koehandel.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
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
