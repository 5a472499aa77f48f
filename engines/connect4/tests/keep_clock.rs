//! Issue 39, item 2, under the bot's clock (`examples/keep_clock.rs`): the clock-true audit
//! lost Test_L1_R3 `5236371113` and `2773543365` (10 stones, draws) in every run although
//! the node audit keeps them. Both are "search" choices: no move is proven within the
//! solver's share, and the heuristic fallback picks among all the open moves. At 800,000
//! nodes it gets 800,000 nodes of its own; under the clock it got the 5 ms that the solver
//! (100 ms) and the resumed solve (`resume_share` 0.8 of the rest, 20 ms) left, about 10k
//! nodes. With several candidates left the resumed solve now takes `resume_open_share`
//! (0.2) of the rest, leaving the heuristic about 20 ms. These tests pin both facts with node
//! budgets, so they are deterministic.

use kibitz_connect4::params::EngineParams;
use kibitz_connect4::{Board, Engine, Geometry, Solver, SolverConfig, TimeControl};

/// The node audit's solver budget per move.
const BOT_NODES: u64 = 800_000;

/// The engine's choice for `moves` (1-based digits) from a fresh engine at [`BOT_NODES`]
/// solver nodes with `params`, the heuristic fallback limited to `search` nodes (`None`:
/// the node model's own share); column, source and nodes.
fn choose(moves: &str, params: EngineParams, search: Option<u64>) -> (usize, &'static str, u64) {
    let history: Vec<usize> = moves.bytes().map(|d| (d - b'1') as usize).collect();
    let mut engine = Engine::new(7, 6, 4, 64).unwrap();
    engine.set_params(params);
    engine.set_node_limit(Some(BOT_NODES));
    engine.set_search_node_limit(search);
    let c = engine.choose(&history, &TimeControl::infinite(), None);
    (c.column, c.source, c.nodes)
}

/// Whether playing `column` keeps the weak value `value` (-1, 0, 1) of `moves`, by the exact
/// solver at unlimited time.
fn keeps(moves: &str, value: i32, column: usize) -> bool {
    let b = Board::<u64>::from_digits(7, 6, 4, moves).unwrap();
    let mut oracle = Solver::new(
        Geometry::new(7, 6, 4).unwrap(),
        SolverConfig {
            hash_mb: 32,
            ..Default::default()
        },
    );
    let inf = TimeControl::infinite();
    assert_eq!(oracle.solve_window(&b, -1, 1, &inf), Some(value), "{moves}");
    value < 0 || oracle.move_at_least(&b, column, value, &inf).unwrap()
}

/// `5236371113` (a draw by columns 3, 5 and 6): the solver's share proves nothing, so the
/// heuristic picks among all seven moves. With the ~10k nodes the clock used to leave it, it
/// plays a losing column; with ~50k (about what 20 ms gives) it keeps the draw.
#[test]
fn the_fallback_needs_more_than_10k_nodes_to_keep_the_draw_of_5236371113() {
    let p = "5236371113";
    let (c, source, _) = choose(p, EngineParams::default(), Some(10_000));
    assert_eq!(source, "search");
    assert!(!keeps(p, 0, c), "at 10k nodes {} draws", c + 1);
    let (c, source, _) = choose(p, EngineParams::default(), Some(50_000));
    assert_eq!(source, "search");
    assert!(keeps(p, 0, c), "at 50k nodes {} loses", c + 1);
}

/// With several candidates left after the solver's share, the resumed solve spends
/// `n · (1 − solver_share) / solver_share · resume_open_share` = 0.05 n more solver nodes
/// (0.2 n with `resume_share` before), leaving the rest of the move to the heuristic.
#[test]
fn with_several_candidates_the_resume_leaves_the_heuristic_its_time() {
    let p = "5236371113";
    let off = EngineParams {
        resume_share: 0.0,
        ..Default::default()
    };
    let search = 10_000;
    let (_, source, base) = choose(p, off, Some(search));
    assert_eq!(source, "search");
    let (_, source, with) = choose(p, EngineParams::default(), Some(search));
    assert_eq!(source, "search");
    let slack = 2 * SolverConfig::default().check_every;
    let extra = with - base;
    assert!(extra + slack >= BOT_NODES / 20, "{extra}");
    assert!(extra <= BOT_NODES / 20 + slack, "{extra}");
}
