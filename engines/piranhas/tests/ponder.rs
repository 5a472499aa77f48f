//! Pondering ([`Engine::ponder`]): a search of the opponent's position that only fills the
//! tables the next move's search reuses.

use kibitz_piranhas::agents::SearchAgent;
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_piranhas::movegen::legal_moves;
use kibitz_piranhas::search::greedy_move;
use kibitz_piranhas::{Engine, EngineConfig, EvalParams, State};
use kibitz_search::agent::{Agent, View};
use kibitz_search::time::TimeControl;

/// A middle-game position: twelve greedy plies from a fixed start.
fn middle_game() -> State {
    let mut s = State::start([(2, 3), (6, 6)]);
    for _ in 0..12 {
        let m = greedy_move(&s, &EvalParams::TUNED).expect("a move");
        s = s.apply(m).expect("legal");
    }
    s
}

/// An engine searching to `depth` on `threads` threads with a small table.
fn engine(depth: u32, threads: usize) -> Engine {
    let mut cfg = EngineConfig::default();
    cfg.search.hash_mb = 8;
    cfg.search.max_depth = depth;
    cfg.threads = threads;
    Engine::new(cfg)
}

/// Asserts that the warm search took at most `1 / factor` of the cold one's nodes.
fn assert_cheaper(warm: u64, cold: u64, factor: f64) {
    assert!(
        warm as f64 * factor < cold as f64,
        "after pondering {warm} nodes, against {cold} cold"
    );
}

#[test]
fn pondering_a_position_makes_its_search_cheap() {
    let next = middle_game();
    let inf = TimeControl::infinite();
    let cold = engine(5, 1).choose(&next, &inf);
    let mut warm_engine = engine(5, 1);
    assert!(warm_engine.ponder(&next, &inf) > 0);
    let warm = warm_engine.choose(&next, &inf);
    assert!(legal_moves(&next).contains(&warm.mv.expect("a move")));
    assert_cheaper(warm.nodes, cold.nodes, 3.0);
}

#[test]
fn pondering_on_an_smp_engine_fills_the_shared_table() {
    let next = middle_game();
    let inf = TimeControl::infinite();
    let cold = engine(5, 2).choose(&next, &inf);
    let mut warm_engine = engine(5, 2);
    warm_engine.ponder(&next, &inf);
    let warm = warm_engine.choose(&next, &inf);
    // Lazy SMP's helpers search until the main thread ends, so their node counts vary from
    // run to run; the margin is smaller than on one thread.
    assert_cheaper(warm.nodes, cold.nodes, 1.5);
}

/// The search agent ponders the position after the reply its last search expected: when the
/// opponent plays that reply, the next search finds its tables ready.
#[test]
fn the_search_agent_ponders_the_reply_it_expected() {
    let us = middle_game();
    let agent = || {
        let mut cfg = EngineConfig::default();
        cfg.search.hash_mb = 8;
        cfg.search.max_depth = 5;
        SearchAgent::new(cfg)
    };
    let inf = TimeControl::infinite();
    let mut a = agent();
    let game = Piranhas(us);
    let d = a.choose(&View::new(&game, us.current() as usize), &inf);
    assert!(d.pv.len() >= 2, "pv {:?}", d.pv);
    let after = us.apply(d.action).expect("legal");
    let next = after.apply(d.pv[1]).expect("legal");
    let seat = us.current() as usize;
    a.ponder(&View::new(&Piranhas(after), seat), &inf);
    let warm = a.choose(&View::new(&Piranhas(next), seat), &inf);
    let cold = agent().choose(&View::new(&Piranhas(next), seat), &inf);
    assert_cheaper(warm.nodes, cold.nodes, 3.0);
}

#[test]
fn a_stopped_ponder_returns_at_once() {
    let tc = TimeControl::infinite();
    tc.stop();
    let nodes = engine(64, 1).ponder(&middle_game(), &tc);
    // The search polls its clock every `check_every` nodes (256 by default).
    assert!(nodes <= 2 * 256, "{nodes} nodes after a stop");
}

#[test]
fn there_is_nothing_to_ponder_after_the_game_ended() {
    let mut s = State::start([(2, 3), (6, 6)]);
    while s.result().is_none() {
        let m = greedy_move(&s, &EvalParams::TUNED).expect("a move");
        s = s.apply(m).expect("legal");
    }
    assert_eq!(engine(4, 1).ponder(&s, &TimeControl::infinite()), 0);
}
