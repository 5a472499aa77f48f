//! The generic [`Game`] conformance test (kibitz_search::conformance), then Mau-Mau's own.

use kibitz_maumau::game_impl::MauMau;
use kibitz_maumau::{Action, Config};
use kibitz_search::conformance::{random_play, random_play_with};
use kibitz_search::game::{Game, Turn};
use rand::SeedableRng;

#[test]
fn random_play_keeps_the_game_contract() {
    let stats = random_play::<MauMau>(1, 60).unwrap();
    assert!(stats.games == 60 && stats.plies > 60 * 4 && stats.determinizations > stats.plies);
}

#[test]
fn three_and_four_seats_keep_the_contract() {
    for players in [3, 4] {
        let config = Config {
            players,
            ..Config::default()
        };
        random_play_with::<MauMau>(&config, 9, 20).unwrap();
    }
}

#[test]
fn seat_0_answers_first_and_a_determinization_keeps_its_hand_only() {
    let g = MauMau::new_game(&Config::default(), 4);
    assert_eq!(g.turn(), Turn::Seat(0));
    assert!(g.legal_actions().contains(&Action::Draw));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let worlds: Vec<MauMau> = (0..8).map(|_| g.determinize(0, &mut rng)).collect();
    for w in &worlds {
        assert_eq!(w.game().hand(0), g.game().hand(0));
        assert_eq!(w.game().hand_size(1), g.game().hand_size(1));
    }
    // The hidden hand is resampled: eight deals of 7 from 24 cards are not all the same.
    assert!(worlds.iter().any(|w| w.game().hand(1) != g.game().hand(1)));
}
