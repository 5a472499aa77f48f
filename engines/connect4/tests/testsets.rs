//! One test per line of the four faster Pons test sets (spec §11): the solver must reproduce
//! the exact score of every position. The two "Begin-Medium/Hard" sets are for the bench.

use kibitz_connect4::{Board, Geometry, Solver, SolverConfig, TimeControl};
use libtest_mimic::{Arguments, Failed, Trial};
use std::cell::RefCell;

const SETS: &[&str] = &["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1"];

thread_local! {
    // One solver per test thread; its table is sound across positions, so it is not cleared.
    static SOLVER: RefCell<Solver<u64>> = RefCell::new(Solver::new(
        Geometry::new(7, 6, 4).expect("7×6 fits"),
        SolverConfig { hash_mb: 32, ..Default::default() },
    ));
}

fn check(moves: &str, expected: i32) -> Result<(), Failed> {
    let board = Board::<u64>::from_digits(7, 6, 4, moves).map_err(|e| e.to_string())?;
    let got = SOLVER.with(|s| s.borrow_mut().solve(&board, &TimeControl::infinite()));
    match got {
        Some(s) if s == expected => Ok(()),
        other => Err(format!("{moves}: expected {expected}, got {other:?}").into()),
    }
}

fn main() {
    let args = Arguments::from_args();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/connect4/");
    let mut trials = Vec::new();
    for set in SETS {
        let text = std::fs::read_to_string(format!("{dir}{set}"))
            .unwrap_or_else(|e| panic!("cannot read {dir}{set}: {e}"));
        for (i, line) in text.lines().enumerate() {
            let mut it = line.split_whitespace();
            let (Some(moves), Some(score)) = (it.next(), it.next()) else {
                panic!("{set} line {}: malformed {line:?}", i + 1);
            };
            let moves = moves.to_string();
            let score: i32 = score.parse().expect("score is an integer");
            trials.push(Trial::test(
                format!("{set}::line{:04}_{moves}", i + 1),
                move || check(&moves, score),
            ));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
