//! `kibitz tournament`'s Connect Four contest is reproducible: the same options give the same
//! standings (points and W/D/L of every player), whatever the machine's load; and the server's
//! records hold every game.

use kibitz_bots_connect4::tournament::{run, GAMES_PER_SEASON};
use kibitz_net::tournament::Options;
use kibitz_search::stats::Standing;

fn key(rows: &[Standing]) -> Vec<(String, u32, u32, u32, u32, String)> {
    kibitz_testkit::standings_key(rows, false)
}

#[test]
fn same_seed_same_standings_and_every_game_recorded() {
    let dir = kibitz_testkit::fresh_dir("c4-repro");
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
    let lines = kibitz_testkit::json_lines(&dir.join("connect4.jsonl"));
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
