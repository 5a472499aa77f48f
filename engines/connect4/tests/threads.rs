//! Issue 39 item 3: the engine's root proofs on the parallel solver
//! ([`Engine::with_threads`]). Moves are judged by the exact serial solver; a node limit or
//! the caller's stop flag ends a 2-thread choice as it ends a 1-thread one.

use kibitz_connect4::book::Book;
use kibitz_connect4::{Board, Engine, Geometry, Solver, SolverConfig, TimeControl};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

fn digits(s: &str) -> Vec<usize> {
    s.chars()
        .map(|c| c.to_digit(10).unwrap() as usize - 1)
        .collect()
}

/// Runs `f` on a thread of its own and fails the test if it has not returned within a
/// generous bound (a choice that ignored its limit would never return).
fn bounded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|_| panic!("{what}: the choice did not return"))
}

fn oracle() -> Solver<u64> {
    Solver::new(
        Geometry::new(7, 6, 4).unwrap(),
        SolverConfig {
            hash_mb: 16,
            ..Default::default()
        },
    )
}

#[test]
fn two_threads_keep_the_exact_score_on_test_positions() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/connect4/Test_L2_R2"
    ))
    .unwrap();
    let mut oracle = oracle();
    let mut engine = Engine::with_threads(7, 6, 4, 16, 2).unwrap();
    assert_eq!(engine.threads(), 2);
    let tc = TimeControl::infinite();
    for line in text.lines().step_by(25) {
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
fn a_node_limited_two_thread_choice_returns_and_keeps_what_it_proves() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/connect4/Test_L1_R3"
    ))
    .unwrap();
    let mut oracle = oracle();
    let inf = TimeControl::infinite();
    let mut engine = Engine::with_threads(7, 6, 4, 16, 2).unwrap();
    engine.set_book(Book::new());
    engine.set_node_limit(Some(50_000));
    // Hard positions (many empty cells): most are not proven in 50k nodes, so the limit
    // must end the solver's parallel tests (an infinite clock would not).
    let lines: Vec<&str> = text.lines().step_by(100).collect();
    let mut choices = Vec::new();
    for line in &lines {
        let (moves, _) = line.split_once(' ').unwrap();
        let h = digits(moves);
        let (e, c) = bounded(moves, move || {
            let c = engine.choose(&h, &TimeControl::infinite(), None);
            (engine, c)
        });
        engine = e;
        choices.push(c);
    }
    // Early positions of the contest's large boards: a single root test there never ends,
    // so only the node limit can end it.
    for (w, h, hist) in [(9, 7, "55"), (8, 8, "45"), (10, 6, "56")] {
        let moves = digits(hist);
        let c = bounded(&format!("{w}x{h} {hist}"), move || {
            let mut e = Engine::with_threads(w, h, 4, 16, 2).unwrap();
            e.set_node_limit(Some(50_000));
            e.choose(&moves, &TimeControl::infinite(), None)
        });
        assert!(c.column < w, "{w}x{h} {hist}: {c:?}");
    }
    assert_eq!(engine.threads(), 2);
    for (line, c) in lines.iter().zip(&choices) {
        let (moves, score) = line.split_once(' ').unwrap();
        let score: i32 = score.parse().unwrap();
        let b = Board::<u64>::from_digits(7, 6, 4, moves).unwrap();
        assert!(b.can_play(c.column), "{moves}: {c:?}");
        if c.source == "solver" {
            let v = oracle.score_move(&b, c.column, &inf).unwrap();
            // A proven move keeps the value it claims (and the position's value).
            assert_eq!(v.signum(), score.signum(), "{moves}: {c:?}");
            if c.exact {
                assert_eq!(v, score, "{moves}: {c:?}");
            }
        }
    }
}

#[test]
fn the_callers_stop_flag_ends_a_two_thread_choice() {
    let flag = Arc::new(AtomicBool::new(false));
    let setter = {
        let flag = Arc::clone(&flag);
        std::thread::spawn(move || {
            // Whenever it comes, the flag must end the move; a little later than at once
            // lets the solver's root tests go parallel first.
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
        })
    };
    // A 9 × 7 board two stones in: a single root test there never ends.
    let h = digits("55");
    let c = bounded("stop flag", move || {
        let mut engine = Engine::with_threads(9, 7, 4, 16, 2).unwrap();
        engine.choose(&h, &TimeControl::infinite().with_stop_flag(flag), None)
    });
    setter.join().unwrap();
    assert!(c.column < 9, "{c:?}");
}

#[test]
fn one_thread_is_the_serial_engine() {
    // Same node-limited choices, node for node, as the engine without threads.
    for hist in ["4453", "2541266355551", "444333"] {
        let h = digits(hist);
        let mut a = Engine::new(7, 6, 4, 8).unwrap();
        let mut b = Engine::with_threads(7, 6, 4, 8, 1).unwrap();
        for e in [&mut a, &mut b] {
            e.set_book(Book::new());
            e.set_node_limit(Some(30_000));
        }
        let inf = TimeControl::infinite();
        assert_eq!(a.choose(&h, &inf, None), b.choose(&h, &inf, None), "{hist}");
    }
}
