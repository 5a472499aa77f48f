//! Speed workload for the round-limit solve (issue 38, `end_plies`): the cost of one call of
//! [`kibitz_piranhas::endgame::limit_value`] against one static evaluation, on positions two
//! plies (turn 58, RED to move: RED's last move and BLUE's answer) and one ply (turn 59)
//! before the limit.
//!
//! Positions: every playout position of turn 40 to 58 of `data/piranhas/playouts_small.jsonl.gz`
//! that is still running, played on to turn 58 with seeded random moves (games that end on
//! the way are dropped), and each one's first legal move for turn 59. Prints per kind of
//! call the number of positions, the CPU time per call (thread CPU clock) and a signature
//! (the sum of the values), which a pure speed-up keeps.
//!
//! Run: `cargo run --release -p kibitz-piranhas --example end_solve [-- REPEAT]` (default
//! 20 passes over the positions).

use kibitz_piranhas::endgame::limit_value;
use kibitz_piranhas::eval::evaluate;
use kibitz_piranhas::{EvalParams, State};
use rand::{Rng, SeedableRng};
use std::hint::black_box;

mod common;
use common::{playout_states, thread_cpu};

/// Runs `f` on every position `repeat` times; returns (CPU µs per call, Σ values of one pass).
fn time(positions: &[State], repeat: usize, f: impl Fn(&State) -> i32) -> (f64, i64) {
    let signature = positions.iter().map(|s| f(s) as i64).sum();
    let start = thread_cpu();
    for _ in 0..repeat {
        for s in positions {
            black_box(f(black_box(s)));
        }
    }
    let cpu = thread_cpu() - start;
    (
        cpu * 1e6 / (repeat * positions.len()).max(1) as f64,
        signature,
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let repeat: usize = std::env::args().nth(1).map_or(Ok(20), |a| a.parse())?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(58);
    let (mut two, mut one) = (Vec::new(), Vec::new());
    for mut s in playout_states(40..=58)? {
        while s.turn() < 58 && s.outcome().is_none() {
            let moves = s.legal_moves();
            s = s.apply(moves[rng.random_range(0..moves.len())])?;
        }
        if s.outcome().is_some() {
            continue;
        }
        if let Some(&m) = s.legal_moves().first() {
            one.push(s.apply(m)?);
        }
        two.push(s);
    }
    let p = EvalParams::default();
    for (name, positions, plies) in [("turn 58", &two, 2), ("turn 59", &one, 1)] {
        let (solve, sig) = time(positions, repeat, |s| {
            limit_value(s, plies).expect("in range")
        });
        let (eval, _) = time(positions, repeat, |s| evaluate(s, &p));
        println!(
            "{name}: {} positions, limit_value({plies}) {solve:.2} µs, evaluate {eval:.2} µs \
             ({:.1}×), signature {sig}",
            positions.len(),
            solve / eval.max(1e-9)
        );
    }
    Ok(())
}
