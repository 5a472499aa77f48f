//! Issue 39, bigger boards: the contest server's 9 × 7, 8 × 8 and 10 × 6 (connect 4, 128-bit
//! bitboards). The serial solver agrees with plain minimax near the end, the parallel solver
//! at two threads agrees with the serial one on random positions further from the end (exact
//! and weak), and the engine keeps the proven value of such positions under a node budget.

use kibitz_connect4::solver::parallel::ParallelSolver;
use kibitz_connect4::{Board, Engine, Geometry, Position, Solver, SolverConfig, TimeControl};
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

mod common;
use common::oracle;

/// The three sizes of the contest server beyond 7 × 6.
const SIZES: [(usize, usize); 3] = [(9, 7), (8, 8), (10, 6)];

/// Random positions of `columns × rows` (connect 4) with exactly `empty` empty cells, the
/// game not over, and the moves leading there (0-based columns).
fn positions(
    columns: usize,
    rows: usize,
    empty: usize,
    count: usize,
    seed: u64,
) -> Vec<(Position, Vec<usize>)> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count {
        tries += 1;
        assert!(tries < 100_000, "no positions found");
        let mut b = Position::new(columns, rows, 4).unwrap();
        let mut hist = Vec::new();
        while b.moves_played() < columns * rows - empty && !b.is_over() {
            let legal = b.legal_moves();
            // Avoid handing over immediate wins where possible, so games last.
            let safe: Vec<usize> = legal
                .iter()
                .copied()
                .filter(|&c| !kibitz_connect4::solver::loses_at_once(&b, c))
                .collect();
            let pool = if safe.is_empty() { &legal } else { &safe };
            let c = pool[rng.random_range(0..pool.len())];
            b.play(c).unwrap();
            hist.push(c);
        }
        if !b.is_over() {
            out.push((b, hist));
        }
    }
    out
}

fn config() -> SolverConfig {
    SolverConfig {
        hash_mb: 8,
        ..Default::default()
    }
}

#[test]
fn serial_solver_matches_minimax_near_the_end() {
    let inf = TimeControl::infinite();
    for (w, h) in SIZES {
        let mut solver = Solver::new(Geometry::<u128>::new(w, h, 4).unwrap(), config());
        let mut memo = HashMap::new();
        for (b, _) in positions(w, h, 10, 12, (w * 10 + h) as u64) {
            solver.clear();
            assert_eq!(
                solver.solve(&b, &inf),
                Some(oracle(&b, &mut memo)),
                "{w}×{h}\n{b}"
            );
        }
    }
}

#[test]
fn one_and_two_threads_agree_on_random_positions() {
    let inf = TimeControl::infinite();
    for (w, h) in SIZES {
        let geo = Geometry::<u128>::new(w, h, 4).unwrap();
        let mut one = Solver::new(geo, config());
        let mut two = ParallelSolver::new(geo, config(), 2);
        let mut decided = 0;
        for empty in [18, 22] {
            for (b, _) in positions(w, h, empty, 6, (w * 1000 + h * 10 + empty) as u64) {
                one.clear();
                two.clear();
                let exact = one.solve(&b, &inf).expect("no limit");
                assert_eq!(two.solve(&b, &inf), Some(exact), "{w}×{h} exact\n{b}");
                two.clear();
                assert_eq!(
                    two.solve_window(&b, -1, 1, &inf),
                    Some(exact.signum()),
                    "{w}×{h} weak\n{b}"
                );
                decided += usize::from(exact != 0);
            }
        }
        // Not only draws: the sample also tests wins and losses.
        assert!(decided > 0, "{w}×{h}: all draws");
    }
}

#[test]
fn the_engine_keeps_the_value_on_big_boards() {
    let inf = TimeControl::infinite();
    for (w, h) in SIZES {
        let geo = Geometry::<u128>::new(w, h, 4).unwrap();
        let mut oracle = Solver::new(geo, config());
        let mut engine = Engine::new(w, h, 4, 16).unwrap();
        engine.set_node_limit(Some(200_000));
        for (b, hist) in positions(w, h, 20, 6, (w * 7 + h) as u64) {
            engine.clear();
            let c = engine.choose(&hist, &inf, None);
            assert!(b.can_play(c.column), "{w}×{h}: illegal {}", c.column);
            let v = oracle.solve(&b, &inf).unwrap().signum();
            let board: Board<u128> = b;
            if v >= 0 {
                assert_eq!(
                    oracle.move_at_least(&board, c.column, v, &inf),
                    Some(true),
                    "{w}×{h}: column {} ({}) gives away value {v}\n{b}",
                    c.column,
                    c.source
                );
            }
        }
    }
}
