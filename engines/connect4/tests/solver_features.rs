//! The solver's optional features keep every score exact: the opening book inside the tree
//! and the exact next-stone wins (with the lowered bound) change only the work done.

use kibitz_connect4::book::Book;
use kibitz_connect4::{Board, Geometry, Solver, SolverConfig, TimeControl};

fn solver(config: SolverConfig) -> Solver<u64> {
    Solver::new(Geometry::new(7, 6, 4).expect("7×6 fits"), config)
}

fn config() -> SolverConfig {
    SolverConfig {
        hash_mb: 16,
        ..Default::default()
    }
}

/// Lines `<moves> <score>` of a test set, every `step`-th one, at most `n`.
fn lines(set: &str, step: usize, n: usize) -> Vec<(Board<u64>, String, i32)> {
    let path = format!("{}/../../data/connect4/{set}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("test set present");
    text.lines()
        .step_by(step)
        .take(n)
        .map(|l| {
            let (m, s) = l.split_once(' ').expect("two fields");
            let b = Board::from_digits(7, 6, 4, m).expect("legal line");
            (b, m.to_string(), s.parse().expect("a score"))
        })
        .collect()
}

/// Exact score of every line from a cleared table, and the total nodes.
fn solve_all(s: &mut Solver<u64>, set: &[(Board<u64>, String, i32)]) -> u64 {
    let mut nodes = 0;
    for (b, m, want) in set {
        s.clear();
        s.reset_nodes();
        assert_eq!(s.solve(b, &TimeControl::infinite()), Some(*want), "{m}");
        nodes += s.nodes();
    }
    nodes
}

#[test]
fn the_book_inside_the_tree_keeps_scores_and_answers_book_positions_at_once() {
    let mut s = solver(config());
    s.set_book(Some(&Book::embedded()));
    // The empty board is in the book: the first player wins with its last stone.
    let empty = Board::<u64>::new(7, 6, 4).unwrap();
    assert_eq!(s.solve(&empty, &TimeControl::infinite()), Some(1));
    assert!(s.nodes() < 100, "{} nodes", s.nodes());
    // Early positions, many of them below book positions.
    let set = lines("Test_L1_R1", 25, 40);
    solve_all(&mut s, &set);
    s.set_book(None);
    solve_all(&mut s, &set);
}

#[test]
fn next_stone_wins_keep_scores_and_save_nodes() {
    let set = [lines("Test_L1_R1", 50, 20), lines("Test_L2_R2", 50, 20)].concat();
    let with = solve_all(&mut solver(config()), &set);
    let without = solve_all(
        &mut solver(SolverConfig {
            next_win_bound: false,
            ..config()
        }),
        &set,
    );
    assert!(with < without, "{with} nodes with, {without} without");
}
