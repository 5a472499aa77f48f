//! The generic [`Game`] conformance test (kibitz_search::conformance), then Connect Four's own.

use kibitz_connect4::game_impl::{C4Config, ConnectFour};
use kibitz_search::conformance::{random_play, random_play_with};
use kibitz_search::game::{Game, Turn};

#[test]
fn random_play_keeps_the_game_contract() {
    let stats = random_play::<ConnectFour>(1, 200).unwrap();
    assert!(stats.games == 200 && stats.plies > 200 * 4 && stats.determinizations > stats.plies);
}

#[test]
fn other_sizes_keep_the_contract() {
    for (columns, rows, connect) in [(4, 4, 3), (9, 7, 5), (10, 11, 4), (3, 2, 2)] {
        let config = C4Config {
            columns,
            rows,
            connect,
        };
        random_play_with::<ConnectFour>(&config, 7, 40).unwrap();
    }
}

#[test]
fn a_vertical_line_wins_for_the_first_player() {
    let mut g = ConnectFour::new_game(&C4Config::default(), 0);
    for text in ["1", "2", "1", "2", "1", "2", "1"] {
        let a = g.action_from_string(text).unwrap();
        g.apply(&a).unwrap();
    }
    assert_eq!(g.turn(), Turn::Terminal);
    assert_eq!(g.returns(), vec![1.0, -1.0]);
    assert!(g.apply(&0).is_err());
    assert!(g.action_from_string("8").is_err() && g.action_from_string("0").is_err());
}
