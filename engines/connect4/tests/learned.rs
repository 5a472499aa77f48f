//! The learned 7 × 6 evaluation (issue 39, item 2): the committed table loads, is symmetric
//! under mirroring, and orders positions of a test set (held out of its training data) by
//! their exact value better than chance; the `learned` tunable switches the heuristic
//! search's evaluation on 7 × 6 only.

use kibitz_connect4::eval::learned::{Model, FEATURES};
use kibitz_connect4::eval::{SearchPos, Weights};
use kibitz_connect4::{Board, Geometry};
use kibitz_search::alphabeta::Game;

/// `(moves, exact score)` of the first `n` lines of a test set.
fn set(name: &str, n: usize) -> Vec<(String, i32)> {
    let path = format!("{}/../../data/connect4/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.to_owned(), it.next()?.parse().ok()?))
        })
        .take(n)
        .collect()
}

fn value(moves: &str) -> f32 {
    let geo = Geometry::<u64>::new(7, 6, 4).unwrap();
    let b = Board::<u64>::from_digits(7, 6, 4, moves).unwrap();
    let (cur, mask) = b.bitboards();
    Model::embedded().value(&geo, cur, mask, b.moves_played() as u32)
}

fn mirrored(moves: &str) -> String {
    moves.bytes().map(|d| (b'8' - d + b'0') as char).collect()
}

#[test]
fn the_table_loads_and_is_fitted() {
    let m = Model::embedded();
    assert_eq!(m.weights.len(), FEATURES);
    assert!(m.weights.iter().all(|w| w.is_finite()));
    assert!(m.weights.iter().any(|&w| w != 0.0), "an unfitted table");
    assert!(m.theta[0] < m.theta[1], "draw-or-better below win");
}

#[test]
fn values_are_mirror_symmetric_and_bounded() {
    for (moves, _) in set("Test_L2_R1", 100) {
        let (a, b) = (value(&moves), value(&mirrored(&moves)));
        assert!((a - b).abs() < 1e-5, "{moves}: {a} vs mirrored {b}");
        assert!((-1.0..=1.0).contains(&a), "{moves}: {a}");
    }
}

#[test]
fn won_positions_score_above_lost_ones() {
    // Middle-game positions with exact scores: the learned value should order won above
    // lost far more often than not (the test sets were kept out of its training data).
    let lines = set("Test_L2_R1", 1000);
    let won: Vec<f32> = lines
        .iter()
        .filter(|l| l.1 > 0)
        .map(|l| value(&l.0))
        .collect();
    let lost: Vec<f32> = lines
        .iter()
        .filter(|l| l.1 < 0)
        .map(|l| value(&l.0))
        .collect();
    assert!(won.len() > 50 && lost.len() > 50);
    let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len() as f32;
    assert!(
        mean(&won) > mean(&lost),
        "{} vs {}",
        mean(&won),
        mean(&lost)
    );
    // Pairwise: a won position above a lost one in well over half of all pairs.
    let above: usize = won
        .iter()
        .map(|w| lost.iter().filter(|l| w > l).count())
        .sum();
    let share = above as f64 / (won.len() * lost.len()) as f64;
    assert!(share > 0.6, "won above lost in {share:.3} of pairs");
}

#[test]
fn the_tunable_switches_the_evaluation_on_7x6_only() {
    let on = Weights {
        learned: true,
        ..Default::default()
    };
    let moves = "4455326";
    let b = Board::<u64>::from_digits(7, 6, 4, moves).unwrap();
    let (cur, mask) = b.bitboards();
    let geo = Geometry::<u64>::new(7, 6, 4).unwrap();
    let p = SearchPos::new(geo, cur, mask, 7);
    let learned = (value(moves) * kibitz_connect4::eval::learned::SCALE).round() as i32;
    assert_eq!(p.with_weights(on).evaluate(), learned);
    assert_eq!(p.evaluate(), SearchPos::new(geo, cur, mask, 7).evaluate());
    // 8 × 7 keeps the threat evaluation.
    let b = Board::<u64>::from_digits(8, 7, 4, moves).unwrap();
    let (cur, mask) = b.bitboards();
    let geo = Geometry::<u64>::new(8, 7, 4).unwrap();
    let p = SearchPos::new(geo, cur, mask, 7);
    assert_eq!(p.with_weights(on).evaluate(), p.evaluate());
}

#[test]
fn the_learned_root_order_still_plays_proven_moves() {
    // With both learned tunables on and a budget the solve finishes in, the move is the
    // solver's and keeps the position's exact value (the order changes the path, not
    // the proof).
    use kibitz_connect4::params::EngineParams;
    use kibitz_connect4::{Engine, Solver, SolverConfig, TimeControl};
    let mut weights = EngineParams::default().weights;
    weights.learned = true;
    let params = EngineParams {
        learned_order: true,
        weights,
        ..Default::default()
    };
    let inf = TimeControl::infinite();
    let mut oracle = Solver::new(
        Geometry::new(7, 6, 4).unwrap(),
        SolverConfig {
            hash_mb: 16,
            ..Default::default()
        },
    );
    let lines: Vec<_> = set("Test_L2_R1", 200)
        .into_iter()
        .filter(|l| l.0.len() >= 18)
        .take(12)
        .collect();
    assert!(lines.len() >= 10);
    for (moves, score) in lines {
        let history: Vec<usize> = moves.bytes().map(|d| (d - b'1') as usize).collect();
        let mut engine = Engine::new(7, 6, 4, 16).unwrap();
        engine.set_params(params);
        let c = engine.choose(&history, &inf, None);
        assert_eq!(c.source, "solver", "{moves}");
        let b = Board::<u64>::from_digits(7, 6, 4, &moves).unwrap();
        assert_eq!(
            oracle.score_move(&b, c.column, &inf),
            Some(score),
            "{moves}"
        );
    }
}
