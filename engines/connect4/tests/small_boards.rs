//! The solver on small boards of other sizes against plain memoised minimax, for both
//! bitboard widths, and the engine's choices against the same oracle.

use kibitz_connect4::bitboard::Bits;
use kibitz_connect4::{Board, Engine, Geometry, Solver, SolverConfig, TimeControl};
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

mod common;
use common::oracle;

fn check_size<B: Bits>(w: usize, h: usize, n: usize, samples: usize) {
    let mut memo = HashMap::new();
    let geo = Geometry::<B>::new(w, h, n).unwrap();
    let mut solver = Solver::new(
        geo,
        SolverConfig {
            hash_mb: 1,
            ..Default::default()
        },
    );
    let tc = TimeControl::infinite();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64((w * 100 + h * 10 + n) as u64);
    let mut engine = Engine::new(w, h, n, 4).unwrap();
    for i in 0..samples {
        let mut b = Board::<B>::new(w, h, n).unwrap();
        let mut hist = Vec::new();
        let plies = rng.random_range(0..(w * h) / 2);
        while hist.len() < plies && !b.is_over() {
            let legal = b.legal_moves();
            let c = legal[rng.random_range(0..legal.len())];
            b.play(c).unwrap();
            hist.push(c);
        }
        if b.is_over() {
            continue;
        }
        let want = oracle(&b, &mut memo);
        if i % 3 == 0 {
            solver.clear();
        }
        assert_eq!(
            solver.solve(&b, &tc),
            Some(want),
            "{w}×{h} connect {n} after {hist:?}\n{b}"
        );
        // Weak solve agrees in sign.
        assert_eq!(solver.solve_window(&b, -1, 1, &tc), Some(want.signum()));
        // The engine's move keeps the exact score.
        let choice = engine.choose(&hist, &tc, None);
        assert!(choice.exact, "{choice:?}");
        assert_eq!(choice.score, Some(want));
        let mut after = b;
        after.play(choice.column).unwrap();
        let got = if after.winner().is_some() {
            (w * h + 1 - b.moves_played()) as i32 / 2
        } else {
            -oracle(&after, &mut memo)
        };
        assert_eq!(
            got, want,
            "engine move {} after {hist:?} loses value\n{b}",
            choice.column
        );
    }
}

#[test]
fn four_by_four_connect_three() {
    check_size::<u64>(4, 4, 3, 60);
    check_size::<u128>(4, 4, 3, 30);
}

#[test]
fn five_by_four_connect_four() {
    check_size::<u64>(5, 4, 4, 40);
}

#[test]
fn four_by_five_connect_three_u128() {
    check_size::<u128>(4, 5, 3, 40);
}

#[test]
fn tall_and_wide_boards() {
    check_size::<u64>(2, 9, 4, 30);
    check_size::<u64>(6, 2, 3, 30);
}
