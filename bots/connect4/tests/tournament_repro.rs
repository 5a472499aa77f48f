//! `kibitz tournament`'s Connect Four contest is reproducible: the same options give the same
//! standings (points and W/D/L of every player), whatever the machine's load; and the server's
//! records hold every game.

use kibitz_bots_connect4::tournament::{run, GAMES_PER_SEASON};
use kibitz_net::tournament::Options;
use kibitz_search::stats::Standing;

fn key(rows: &[Standing]) -> Vec<(String, u32, u32, u32, u32, String)> {
    let mut v: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r.player.clone(),
                r.games,
                r.wins,
                r.draws,
                r.losses,
                format!("{:.1}", r.points),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn same_seed_same_standings_and_every_game_recorded() {
    let dir = std::env::temp_dir().join(format!("kibitz-c4-repro-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = Options {
        games: 2,
        seed: 7,
        records: Some(dir.clone()),
        ..Options::default()
    };
    let first = run(&opts).expect("first run");
    let second = run(&Options {
        records: None,
        ..opts.clone()
    })
    .expect("second run");
    assert_eq!(key(&first), key(&second));
    assert_eq!(first.iter().map(|r| r.games).sum::<u32>(), 24);
    let text = std::fs::read_to_string(dir.join("connect4.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, GAMES_PER_SEASON);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["format"], "kibitz-record/1");
        assert_eq!(l["game"], "connect4");
        assert_eq!(l["seed"], 7);
        assert_eq!(l["index"], i as u64);
        assert!(l["moves"].as_array().is_some_and(|m| m.len() >= 7));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
