//! The generic [`Game`] conformance test (kibitz_search::conformance), then Piranhas' own.

use kibitz_piranhas::agents::SearchAgent;
use kibitz_piranhas::game_impl::{Piranhas, PiranhasConfig};
use kibitz_piranhas::EngineConfig;
use kibitz_search::agent::{Agent, RandomAgent, View};
use kibitz_search::conformance::{random_play, random_play_with};
use kibitz_search::game::{Game, Turn};
use kibitz_search::time::TimeControl;

#[test]
fn random_play_keeps_the_game_contract() {
    let stats = random_play::<Piranhas>(1, 60).unwrap();
    assert!(stats.games == 60 && stats.plies > 60 * 4 && stats.determinizations > stats.plies);
}

#[test]
fn fixed_krakens_are_used_and_keep_the_contract() {
    let config = PiranhasConfig {
        krakens: Some([(3, 3), (6, 7)]),
    };
    let a = Piranhas::new_game(&config, 1);
    assert_eq!(a, Piranhas::new_game(&config, 2));
    random_play_with::<Piranhas>(&config, 5, 10).unwrap();
}

#[test]
fn red_moves_first_and_strings_are_the_data_notation() {
    let g = Piranhas::new_game(&PiranhasConfig::default(), 3);
    assert_eq!(g.turn(), Turn::Seat(0));
    let mv = g.legal_actions()[0];
    let text = g.action_to_string(&mv);
    assert_eq!(text, mv.to_string());
    assert!(text.split(',').count() == 3);
    assert!(g.action_from_string("1,2").is_err());
}

#[test]
fn the_search_agent_beats_random_through_the_agent_trait() {
    let mut config = EngineConfig::default();
    config.search.max_depth = 2;
    config.search.hash_mb = 1;
    let mut search = SearchAgent::new(config);
    let mut random = RandomAgent::new(3);
    let mut g = Piranhas::new_game(&PiranhasConfig::default(), 9);
    let tc = TimeControl::infinite();
    while let Some(seat) = View::mover(&g) {
        let view = View::new(&g, seat);
        let d = if seat == 0 {
            let d = search.choose(&view, &tc);
            assert!(d.nodes > 0 && d.depth == Some(2) && d.pv.first() == Some(&d.action));
            d
        } else {
            Agent::<Piranhas>::choose(&mut random, &view, &tc)
        };
        assert!(view.legal_actions().contains(&d.action));
        g.apply(&d.action).unwrap();
    }
    assert_eq!(g.returns(), vec![1.0, -1.0]);
}
