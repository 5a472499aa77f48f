//! The strong player is legal and deterministic without a time budget (its strength is
//! measured by matches, not tests), and the registry parses player parameters.

use kibitz_koehandel::runner::play_game;
use kibitz_koehandel::strong::{StrongParams, StrongPlayer};
use kibitz_koehandel::{make_player, Game, Player};

fn table(seed: u64, worlds: usize) -> Vec<Box<dyn Player>> {
    let params = StrongParams {
        worlds,
        ..Default::default()
    };
    let mut v: Vec<Box<dyn Player>> = vec![Box::new(StrongPlayer::with_params(params, seed))];
    for i in 1..4 {
        v.push(make_player("heuristic", seed + i).unwrap());
    }
    v
}

#[test]
fn strong_player_is_legal_and_deterministic() {
    for seed in 0..3 {
        let a = play_game(Game::new(seed), &mut table(seed, 3));
        let b = play_game(Game::new(seed), &mut table(seed, 3));
        assert_eq!(a, b, "same seed, same game");
        assert_eq!(a.stats[0].defaults, 0, "never an invalid or missing answer");
        assert_eq!(a.stats[0].bluffs, 0, "never caught bluffing");
    }
}

#[test]
fn registry_parses_parameters() {
    assert!(make_player("strong:worlds=4:rate=0.3", 1).is_some());
    assert!(make_player("strong:soft_ms=1500:hard_ms=3000", 1).is_some());
    assert!(make_player("heuristic:denial=0.1", 1).is_some());
    assert!(make_player("heuristic:nonsense=1", 1).is_none());
    assert!(make_player("random:rate=1", 1).is_none());
    assert!(make_player("nobody", 1).is_none());
}
