//! `kibitz tournament`'s Piranhas contest is reproducible: the same options give the same
//! standings (points and W/D/L of every player); and the server records every game, with its
//! Software-Challenge replay next to it.

use kibitz_bots_piranhas::tournament::run;
use kibitz_net::tournament::Options;
use kibitz_search::stats::Standing;

fn key(rows: &[Standing]) -> Vec<(String, u32, u32, u32, u32, String)> {
    kibitz_testkit::standings_key(rows, true)
}

#[test]
fn same_seed_same_standings_and_every_game_recorded() {
    let dir = kibitz_testkit::fresh_dir("pir-repro");
    let opts = Options {
        games: 2,
        seed: 11,
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
    assert_eq!(first.iter().map(|r| r.games).sum::<u32>(), 12);
    let mut lines = kibitz_testkit::json_lines(&dir.join("piranhas.jsonl"));
    assert_eq!(lines.len(), 6);
    lines.sort_by_key(|l| l["index"].as_u64());
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["format"], "kibitz-record/1");
        assert_eq!(l["game"], "piranhas");
        assert_eq!(l["seed"], 11);
        assert_eq!(l["index"], i as u64);
        let xml = std::fs::read_to_string(dir.join(l["native_file"].as_str().unwrap())).unwrap();
        let states = xml.matches("<state ").count();
        assert_eq!(states, l["moves"].as_array().unwrap().len() + 1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
