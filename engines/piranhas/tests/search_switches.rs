//! The Piranhas search switches of issue #12: null move by colour, union-threat detection (for
//! the threat extension), and whole games with aspiration windows and extensions on.

use kibitz_piranhas::movegen::legal_moves;
use kibitz_piranhas::search::{greedy_move, intern, union_threat, Node, NodeOptions};
use kibitz_piranhas::swarm::{is_connected, swarms};
use kibitz_piranhas::{Color, Engine, EngineConfig, EvalParams, State};
use kibitz_search::alphabeta::Game;
use kibitz_search::params::Tunable;
use kibitz_search::time::TimeControl;
use rand::{Rng, SeedableRng};

/// Whether `c` is united (with at least one fish) or some legal move of `c` unites it,
/// by trying every move.
fn brute_union_threat(state: &State, c: Color) -> bool {
    let fish = state.board().fish_of(c);
    if !fish.is_empty() && is_connected(fish) {
        return true;
    }
    let mover = if state.current() == c {
        *state
    } else {
        state.pass()
    };
    legal_moves(&mover).into_iter().any(|m| {
        let after = mover.apply(m).expect("legal");
        is_connected(after.board().fish_of(c))
    })
}

/// Positions of games where each move is greedy (swarm-seeking) or, one time in three,
/// random, so that near-unions are frequent. Greedy plays with the fixed `v2` weights, so the
/// corpus (and the coverage counts asserted on it) does not move when the default changes.
fn positions(games: u64) -> Vec<State> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let params = EvalParams::TUNED;
    let mut out = Vec::new();
    for g in 0..games {
        const KRAKENS: [[(u8, u8); 2]; 5] = [
            [(3, 3), (6, 7)],
            [(2, 2), (7, 3)],
            [(2, 3), (7, 5)],
            [(4, 2), (5, 6)],
            [(3, 6), (6, 2)],
        ];
        let mut s = State::start(KRAKENS[g as usize % KRAKENS.len()]);
        while s.outcome().is_none() {
            out.push(s);
            let moves = legal_moves(&s);
            let m = if rng.random_range(0..3) == 0 {
                moves[rng.random_range(0..moves.len())]
            } else {
                greedy_move(&s, &params).expect("a move")
            };
            s = s.apply(m).expect("legal");
        }
    }
    out
}

#[test]
fn union_threat_equals_trying_every_move() {
    let (mut threats, mut checked) = (0, 0);
    for s in positions(120) {
        for c in [Color::Red, Color::Blue] {
            let fast = union_threat(&s, c);
            let brute = brute_union_threat(&s, c);
            // Exact up to 4 swarms; beyond that the fast test says no.
            if swarms(s.board().fish_of(c)).len() <= 4 {
                assert_eq!(fast, brute, "{c:?} in\n{s}");
                checked += 1;
            } else {
                assert!(!fast);
            }
            threats += u32::from(brute);
        }
    }
    assert!(checked > 3_000 && threats > 250, "{checked} {threats}");
}

#[test]
fn node_threat_bits_are_red_then_blue() {
    let params = intern(EvalParams::default());
    let mut both = 0;
    for s in positions(10) {
        let t = Node::new(s, params).threats();
        let want =
            u8::from(union_threat(&s, Color::Red)) | u8::from(union_threat(&s, Color::Blue)) << 1;
        assert_eq!(t, want);
        both += u32::from(t == 3);
    }
    assert!(both > 0);
}

#[test]
fn null_move_can_be_switched_off_for_one_colour() {
    let params = intern(EvalParams::default());
    let red_to_move = State::start([(3, 3), (6, 7)]);
    let blue_to_move = red_to_move
        .apply(legal_moves(&red_to_move)[0])
        .expect("legal");
    assert_eq!(red_to_move.current(), Color::Red);
    assert_eq!(blue_to_move.current(), Color::Blue);
    let no_red = NodeOptions {
        null_red: false,
        null_blue: true,
    };
    let no_blue = NodeOptions {
        null_red: true,
        null_blue: false,
    };
    let null = |s: State, o: NodeOptions| Node::with_options(s, params, o).null_move().is_some();
    assert!(null(red_to_move, NodeOptions::default()));
    assert!(null(blue_to_move, NodeOptions::default()));
    assert!(!null(red_to_move, no_red) && null(blue_to_move, no_red));
    assert!(null(red_to_move, no_blue) && !null(blue_to_move, no_blue));
    // The params reach the options.
    let mut config = EngineConfig::default();
    config.apply("null_red=0").unwrap();
    assert_eq!(config.node, no_red);
    config.apply("asp=40").unwrap();
    config.apply("ext=1").unwrap();
    assert_eq!(config.search.aspiration, 40);
    assert!(config.search.extensions);
}

#[test]
fn games_with_every_switch_are_legal_and_reproducible() {
    let play = || {
        let mut config = EngineConfig::default();
        for p in ["null_red=0", "asp=30", "ext=1"] {
            config.apply(p).unwrap();
        }
        config.search.max_nodes = 3_000;
        config.search.hash_mb = 1;
        let mut engine = Engine::new(config);
        let mut s = State::start([(2, 3), (7, 5)]);
        let mut trace = Vec::new();
        while s.outcome().is_none() {
            let c = engine.choose(&s, &TimeControl::infinite());
            let mv = c.mv.expect("a move while the game is on");
            trace.push((mv, c.score, c.depth));
            s = s.apply(mv).expect("legal");
        }
        (trace, s.outcome())
    };
    let a = play();
    assert_eq!(a, play());
    assert!(a.0.len() >= 2);
}
