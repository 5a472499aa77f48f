//! The player API: legal moves under any time pressure, perfect moves when time allows,
//! robustness against bad histories, other board sizes.

use kibitz_connect4::book::Book;
use kibitz_connect4::{Board, Engine, Geometry, Position, Solver, SolverConfig, TimeControl};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

fn digits(s: &str) -> Vec<usize> {
    s.chars()
        .map(|c| c.to_digit(10).unwrap() as usize - 1)
        .collect()
}

#[test]
fn expired_and_stopped_time_controls_still_give_legal_moves() {
    let mut engine = Engine::new(7, 6, 4, 8).unwrap();
    engine.set_book(Book::new());
    let flag = Arc::new(AtomicBool::new(true));
    for hist in ["", "4", "4444", "1234567", "32164625"] {
        let h = digits(hist);
        let b = Position::from_moves(7, 6, 4, &h).unwrap();
        for tc in [
            TimeControl::new(Duration::ZERO, Duration::ZERO),
            TimeControl::infinite().with_stop_flag(flag.clone()),
        ] {
            let c = engine.choose(&h, &tc, None);
            assert!(b.can_play(c.column), "{hist}: {c:?}");
        }
    }
}

#[test]
fn engine_moves_keep_the_exact_score_on_test_positions() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/connect4/Test_L2_R1"
    ))
    .unwrap();
    let geo = Geometry::<u64>::new(7, 6, 4).unwrap();
    let mut oracle = Solver::new(
        geo,
        SolverConfig {
            hash_mb: 16,
            ..Default::default()
        },
    );
    let mut engine = Engine::new(7, 6, 4, 16).unwrap();
    let tc = TimeControl::infinite();
    for line in text.lines().step_by(20) {
        let (moves, score) = line.split_once(' ').unwrap();
        let score: i32 = score.parse().unwrap();
        let c = engine.choose(&digits(moves), &tc, None);
        assert!(
            c.exact && c.score == Some(score),
            "{moves}: {c:?}, want {score}"
        );
        let b = Board::<u64>::from_digits(7, 6, 4, moves).unwrap();
        assert_eq!(
            oracle.score_move(&b, c.column, &tc),
            Some(score),
            "{moves}: {c:?}"
        );
    }
}

#[test]
fn book_and_solver_agree_at_the_start() {
    let mut engine = Engine::new(7, 6, 4, 8).unwrap();
    let tc = TimeControl::new(Duration::from_millis(200), Duration::from_millis(250));
    let c = engine.choose(&[], &tc, None);
    // Whatever the source, the first move must be the centre unless the engine admits it
    // does not know (heuristic search without a proof).
    if c.source != "search" {
        assert_eq!(c.column, 3, "{c:?}");
        assert_eq!(c.score, Some(1));
    }
}

#[test]
fn bad_histories_are_cut_at_the_first_illegal_move() {
    let mut engine = Engine::new(7, 6, 4, 8).unwrap();
    let tc = TimeControl::new(Duration::from_millis(50), Duration::from_millis(60));
    // Column 0 is full after six stones; the seventh and everything after is ignored.
    let h = [0, 0, 0, 0, 0, 0, 0, 9, 3];
    let c = engine.choose(&h, &tc, None);
    assert!(c.column >= 1 && c.column < 7, "{c:?}");
    // A finished game: nothing legal, but still an answer.
    let won = digits("1212121");
    let c = engine.choose(&won, &tc, None);
    assert!(c.column < 7);
}

#[test]
fn big_boards_win_and_block_with_the_heuristic_search() {
    for (w, h, n) in [(9, 7, 4), (10, 6, 4), (8, 8, 5), (12, 9, 4)] {
        let mut engine = Engine::new(w, h, n, 8).unwrap();
        let tc = TimeControl::new(Duration::from_millis(100), Duration::from_millis(150));
        // Side to move has n-1 in a row at the bottom, open on the right: it must win.
        let mut hist = Vec::new();
        for c in 0..n - 1 {
            hist.push(c);
            hist.push(c);
        }
        let c = engine.choose(&hist, &tc, None);
        assert_eq!(c.column, n - 1, "{w}×{h}: must complete the line: {c:?}");
        assert!(c.score.is_some_and(|s| s > 0));
        // The first player has n-1 in a row at the bottom (one open end): block it.
        let mut hist2 = Vec::new();
        for c in 0..n - 1 {
            hist2.push(c);
            if c < n - 2 {
                hist2.push(w - 1);
            }
        }
        let b = Position::from_moves(w, h, n, &hist2).unwrap();
        assert!(!b.legal_moves().iter().any(|&m| b.is_winning_move(m)));
        let c = engine.choose(&hist2, &tc, None);
        assert_eq!(c.column, n - 1, "{w}×{h}: must block\n{b}{c:?}");
    }
    assert!(
        Engine::new(11, 11, 4, 8).is_err(),
        "11·12 = 132 bits do not fit"
    );
    let e = Engine::new(2, 2, 4, 8)
        .err()
        .expect("2×2 connect 4 has no line");
    assert!(e.to_string().contains("no line"), "{e}");
    assert!(Engine::new(2, 4, 4, 8).is_ok(), "a vertical line fits");
}

#[test]
fn pondering_can_be_aborted_and_the_table_survives() {
    let mut engine = Engine::new(7, 6, 4, 16).unwrap();
    engine.set_book(Book::new());
    let flag = Arc::new(AtomicBool::new(false));
    let h = digits("2541266355551");
    let stopper = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        })
    };
    let c = engine.choose(&h, &TimeControl::infinite().with_stop_flag(flag), None);
    stopper.join().unwrap();
    assert!(Board::<u64>::from_digits(7, 6, 4, "2541266355551")
        .unwrap()
        .can_play(c.column));
    // After the abort, an unlimited search still gets the right answer.
    let c = engine.choose(&h, &TimeControl::infinite(), None);
    assert_eq!(c.score, Some(-3), "{c:?}");
    assert!(c.exact);
}

/// A fresh engine without book (so that the choice comes from the search).
fn bookless() -> Engine {
    let mut e = Engine::new(7, 6, 4, 8).unwrap();
    e.set_book(Book::new());
    e
}

#[test]
fn infinite_time_with_a_depth_limit_returns_the_bounded_time_choice() {
    // Early positions: far too many empty cells for the solver, so the heuristic search
    // would never end under an infinite time control without the depth limit.
    for hist in ["", "4", "44", "4453", "3244", "4343"] {
        for depth in [1, 4, 7] {
            let h = digits(hist);
            let untimed = bookless().choose(&h, &TimeControl::infinite(), Some(depth));
            let generous = TimeControl::new(Duration::from_secs(600), Duration::from_secs(900));
            let timed = bookless().choose(&h, &generous, Some(depth));
            assert_eq!(
                untimed.source, "search",
                "{hist} depth {depth}: {untimed:?}"
            );
            assert!(untimed.depth <= depth, "{hist} depth {depth}: {untimed:?}");
            assert_eq!(
                (untimed.column, untimed.depth, untimed.nodes),
                (timed.column, timed.depth, timed.nodes),
                "{hist} depth {depth}"
            );
        }
    }
}

#[test]
fn a_depth_limit_can_keep_the_book_and_solve_earlier() {
    use kibitz_connect4::DepthLimited;
    let mut e = Engine::new(7, 6, 4, 8).unwrap();
    // By default a depth-limited engine skips the book ...
    assert_eq!(
        e.choose(&[], &TimeControl::infinite(), Some(2)).source,
        "search"
    );
    // ... and can be told to use it, and to solve once 14 cells are empty.
    e.set_depth_limited(DepthLimited {
        book: true,
        solve_empty: Some(14),
    });
    assert_eq!(
        e.choose(&[], &TimeControl::infinite(), Some(2)).source,
        "book"
    );
    let h = digits("2252576253462244111563365343671351441");
    let c = e.choose(&h, &TimeControl::infinite(), Some(2));
    assert_eq!((c.source, c.exact), ("solver", true), "{c:?}");
}

#[test]
fn a_node_limit_ends_an_infinite_time_control() {
    let mut e = bookless();
    e.set_node_limit(Some(20_000));
    let a = e.choose(&digits("4453"), &TimeControl::infinite(), None);
    let mut f = bookless();
    f.set_node_limit(Some(20_000));
    let b = f.choose(&digits("4453"), &TimeControl::infinite(), None);
    assert_eq!(a, b);
    // Solver, then cheap proofs among the fallback's candidates (half the limit, read
    // every 4,096 nodes like the solver's clock), then the heuristic search.
    assert!(a.nodes <= 2 * 20_000 + 10_000 + 4_096 + 1_024, "{a:?}");
}
