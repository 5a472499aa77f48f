//! Issue 11, item 1: the positions where the bot gave away the game value through the
//! heuristic fallback. Each runs the real move-choice path ([`Engine::choose`]) with a
//! deterministic node budget and checks the answer against the exact solver:
//!
//! - with a budget small enough that the solver cannot finish, every bound the root search
//!   proved is true, and the move played is never one of those proven worse;
//! - with a budget that lets the move-by-move root search finish, the move keeps the value;
//! - the positions on the bot's own lines are in the embedded book, so the shipped bot keeps
//!   the value there whatever its budget.

use kibitz_connect4::book::Book;
use kibitz_connect4::root::{solve_root, MoveBounds};
use kibitz_connect4::{Board, Engine, Geometry, Solver, SolverConfig, TimeControl};

fn oracle() -> Solver<u64> {
    Solver::new(
        Geometry::new(7, 6, 4).unwrap(),
        SolverConfig {
            hash_mb: 32,
            ..Default::default()
        },
    )
}

fn digits(s: &str) -> Vec<usize> {
    s.chars()
        .map(|c| c.to_digit(10).unwrap() as usize - 1)
        .collect()
}

/// Weak value (-1/0/1) of `p` and, per legal column, whether playing it keeps that value.
fn value_keeping(oracle: &mut Solver<u64>, b: &Board<u64>) -> (i32, Vec<usize>) {
    let inf = TimeControl::infinite();
    let v = oracle.solve_window(b, -1, 1, &inf).unwrap();
    let keep = b
        .legal_moves()
        .into_iter()
        .filter(|&c| v < 0 || oracle.move_at_least(b, c, v, &inf).unwrap())
        .collect();
    (v, keep)
}

/// Node budget that lets the root search finish the weak solve on these positions from an
/// empty table (the hardest needs about 6 M nodes).
const PROOF_NODES: u64 = 8_000_000;
/// A budget far too small to prove anything much (about 50–100 ms of a busy core).
const SMALL_NODES: u64 = 150_000;

/// `reached`: the position lies on the bot's own lines (it follows its choices, the
/// opponent plays anything), so the embedded book must hold it.
fn check(p: &str, reached: bool) {
    let b = Board::<u64>::from_digits(7, 6, 4, p).unwrap();
    let mut oracle = oracle();
    let (v, keep) = value_keeping(&mut oracle, &b);
    let inf = TimeControl::infinite();

    // Small budget: every proven bound holds and the move is not among the proven-worse.
    let mut s = oracle_small();
    s.set_node_limit(Some(SMALL_NODES));
    let mut bounds = MoveBounds::new(&s, &b);
    assert!(solve_root(&mut s, &b, &mut bounds, None, &inf, &inf).is_none());
    for c in bounds.legal().collect::<Vec<_>>() {
        for t in [0, 1] {
            let holds = oracle.move_at_least(&b, c, t, &inf).unwrap();
            assert!(
                bounds.lo[c] < t || holds,
                "{p} col {c}: lo {} wrong",
                bounds.lo[c]
            );
            assert!(
                bounds.hi[c] >= t || !holds,
                "{p} col {c}: hi {} wrong",
                bounds.hi[c]
            );
        }
    }
    // The solver path alone (no book: these positions are in the embedded book now).
    let mut engine = Engine::new(7, 6, 4, 16).unwrap();
    engine.set_book(Book::new());
    engine.set_node_limit(Some(SMALL_NODES));
    let small = engine.choose(&digits(p), &inf, None);
    assert!(b.can_play(small.column));
    let best = bounds.best_proven().unwrap();
    assert!(
        bounds.hi[small.column] >= best,
        "{p}: small-budget move {} proven worse",
        small.column
    );

    // Enough budget for the weak solve: the value is kept.
    let mut engine = Engine::new(7, 6, 4, 16).unwrap();
    engine.set_book(Book::new());
    engine.set_node_limit(Some(PROOF_NODES));
    let c = engine.choose(&digits(p), &inf, None);
    assert_eq!(c.source, "solver", "{p}: {c:?}");
    assert!(
        keep.contains(&c.column),
        "{p}: value {v}, played {} ({c:?}), keeping {keep:?}",
        c.column
    );

    // Positions the bot reaches along its own book moves are in the embedded book now, so
    // the bot as shipped keeps the value even on the small budget. (The self-play positions
    // from odd openings are not on its own lines.)
    let mut engine = Engine::new(7, 6, 4, 16).unwrap();
    engine.set_node_limit(Some(SMALL_NODES));
    let shipped = engine.choose(&digits(p), &inf, None);
    assert_eq!(Book::embedded().contains(&b), reached, "{p}");
    if reached {
        assert_eq!(shipped.source, "book");
        assert!(
            keep.contains(&shipped.column),
            "{p}: shipped bot played {} ({shipped:?}), keeping {keep:?}",
            shipped.column
        );
    }
}

fn oracle_small() -> Solver<u64> {
    Solver::new(
        Geometry::new(7, 6, 4).unwrap(),
        SolverConfig {
            hash_mb: 12,
            ..Default::default()
        },
    )
}

macro_rules! positions {
    ($($name:ident => $p:literal, $reached:literal;)*) => {$(
        #[test]
        fn $name() {
            check($p, $reached);
        }
    )*};
}

positions! {
    win_kept_44442333321 => "44442333321", true;
    win_kept_444446666541 => "444446666541", true;
    win_kept_444446666222 => "444446666222", true;
    draw_kept_32222637633366 => "32222637633366", false;
    draw_kept_522622336336 => "522622336336", false;
}

/// Issue 39: positions outside the book whose every child is in it. With a budget far too
/// small for the solver (20k nodes) the engine used to play a move the book scores worse
/// than another (3 of the 248 such positions with 2–5 stones); the book's value of each
/// child is now a proven bound at the root, so the move keeps the best child value.
fn keeps_book_child_value(p: &str) {
    let book = Book::embedded();
    let b = Board::<u64>::from_digits(7, 6, 4, p).unwrap();
    assert!(!book.contains(&b), "{p} must be outside the book");
    let value = |c: usize| {
        let mut child = b;
        child.play(c).unwrap();
        -(book.lookup(&child).expect("every child in the book").score as i32).signum()
    };
    let best = b.legal_moves().into_iter().map(value).max().unwrap();
    let mut engine = Engine::new(7, 6, 4, 8).unwrap();
    engine.set_node_limit(Some(20_000));
    let c = engine.choose(&digits(p), &TimeControl::infinite(), None);
    assert_eq!(
        value(c.column),
        best,
        "{p}: played {} ({c:?})",
        c.column + 1
    );
}

#[test]
fn book_child_values_bound_the_fallback() {
    for p in ["54", "5455", "3433"] {
        keeps_book_child_value(p);
    }
}
