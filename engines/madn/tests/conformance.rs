//! The generic [`Game`] conformance test (kibitz_search::conformance), then MADN's own.

use kibitz_madn::game::{GameResult, Variant};
use kibitz_madn::game_impl::{Madn, MadnConfig};
use kibitz_search::conformance::{random_play, random_play_with};
use kibitz_search::game::{Game, Turn};

#[test]
fn random_play_keeps_the_game_contract() {
    let stats = random_play::<Madn>(1, 40).unwrap();
    assert_eq!(stats.chance_plies, stats.plies);
}

#[test]
fn odd_dice_and_variants_keep_the_contract() {
    for (dice, variant) in [
        ([vec![1, 1, 6], vec![2, 3, 4, 6]], Variant::GoalFirst),
        ([vec![6, 5], vec![1, 2, 3, 4, 5, 6]], Variant::FrozenGoal),
        ([vec![4, 4, 4, 6, 6, 1], vec![3, 6]], Variant::Default),
    ] {
        let config = MadnConfig {
            dice,
            first: Some(1),
            variant,
        };
        random_play_with::<Madn>(&config, 11, 15).unwrap();
    }
}

#[test]
fn dice_without_a_six_end_in_a_draw() {
    // Without a 6 nobody brings a piece in from B: only the piece each side starts with on A
    // runs, so nobody can win, and the game ends when no 5 changes anything (spec §5.4).
    let config = MadnConfig {
        dice: [vec![5], vec![5]],
        first: Some(0),
        variant: Variant::Default,
    };
    let mut g = Madn::new_game(&config, 0);
    assert_eq!(g.chance_outcomes(), vec![(5, 1.0)]);
    while g.turn() == Turn::Chance {
        g.apply(&5).unwrap();
    }
    assert_eq!(g.result(), Some(GameResult::Draw));
    assert_eq!(g.returns(), vec![0.0, 0.0]);
    assert!(g.apply(&5).is_err());
}
