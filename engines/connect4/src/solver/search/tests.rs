//! Tests of the search.

use super::*;
use crate::geometry::Geometry;
use crate::solver::SolverConfig;

/// The constant-stride line test agrees with the geometry's on random stone sets.
fn same_wins<B: Bits>(columns: usize, rows: usize, stride: u32, word: impl Fn(u64, u64) -> B) {
    let geo = Geometry::<B>::new(columns, rows, 4).unwrap();
    let config = SolverConfig {
        hash_mb: 1,
        ..SolverConfig::default()
    };
    let solver = Solver::new(geo, config);
    assert_eq!(solver.stride4, stride);
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        word(x, x.rotate_left(29).wrapping_mul(0xD1B5_4A32_D192_ED03))
    };
    for _ in 0..20_000 {
        let mask = next() & next() & geo.full();
        let stones = next() & mask;
        assert_eq!(
            solver.wins(stones, mask),
            geo.winning_cells(stones, mask),
            "{columns}×{rows}: stones {stones:?} mask {mask:?}"
        );
    }
}

/// The copy of the search built with `popcnt` and the portable one are the same search:
/// same scores, node for node (the ordering counts bits, so a slip would show here).
#[test]
fn both_copies_of_the_search_agree() {
    use crate::board::Board;
    use kibitz_search::time::TimeControl;
    // Every 100th line of a test set (middle, medium) with its score.
    let path = format!(
        "{}/../../data/connect4/Test_L2_R2",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("test set present");
    let lines: Vec<(&str, i32)> = text
        .lines()
        .step_by(100)
        .map(|l| {
            let (m, s) = l.split_once(' ').expect("two fields");
            (m, s.parse().expect("a score"))
        })
        .collect();
    assert_eq!(lines.len(), 10);
    let geo = Geometry::<u64>::new(7, 6, 4).unwrap();
    let config = SolverConfig {
        hash_mb: 4,
        ..SolverConfig::default()
    };
    let tc = TimeControl::infinite();
    for (moves, score) in lines {
        let board = Board::<u64>::from_digits(7, 6, 4, moves).unwrap();
        let mut portable = Solver::new(geo, config.clone());
        portable.popcnt = false;
        assert_eq!(portable.solve(&board, &tc), Some(score), "{moves}");
        assert!(portable.nodes() > 1, "{moves}: a search took place");
        let mut fast = Solver::new(geo, config.clone());
        if !fast.popcnt {
            continue; // this CPU has only the portable copy
        }
        assert_eq!(fast.solve(&board, &tc), Some(score), "{moves}");
        assert_eq!(fast.nodes(), portable.nodes(), "{moves}");
    }
}

#[test]
fn constant_stride_line_test_matches_the_geometry() {
    let wide = |a: u64, b: u64| u128::from(a) | (u128::from(b) << 64);
    same_wins::<u64>(7, 6, 7, |a, _| a);
    same_wins::<u64>(8, 7, 8, |a, _| a);
    same_wins::<u128>(10, 6, 7, wide);
    same_wins::<u128>(9, 7, 8, wide);
    same_wins::<u128>(8, 8, 9, wide);
}
