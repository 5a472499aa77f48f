//! Audit (research, issue 39): at a fixed node budget, how often does the engine's choice
//! keep the value of a test-set position? Per stone count, over a sample of each set; the
//! exact solver judges every choice (the child after the chosen move is weak-solved).
//!
//! `cargo run --release -p kibitz-connect4 --example keep_audit -- NODES PER_SET SET...`
use kibitz_connect4::{Board, Engine, Geometry, Solver, SolverConfig, TimeControl};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nodes: u64 = args[0].parse().expect("NODES");
    let per_set: usize = args[1].parse().expect("PER_SET");
    let inf = TimeControl::infinite();
    let mut oracle = Solver::new(
        Geometry::new(7, 6, 4).unwrap(),
        SolverConfig {
            hash_mb: 256,
            ..Default::default()
        },
    );
    // stones -> (kept, judged, lost by source)
    let mut table: BTreeMap<usize, (usize, usize, BTreeMap<&'static str, usize>)> = BTreeMap::new();
    for set in &args[2..] {
        let text = std::fs::read_to_string(set).expect("set file");
        let lines: Vec<&str> = text.lines().collect();
        let step = (lines.len() / per_set).max(1);
        for line in lines.iter().step_by(step).take(per_set) {
            let mut it = line.split_whitespace();
            let moves = it.next().unwrap();
            let score: i32 = it.next().unwrap().parse().unwrap();
            let history: Vec<usize> = moves
                .chars()
                .map(|c| c.to_digit(10).unwrap() as usize - 1)
                .collect();
            let b = Board::<u64>::from_digits(7, 6, 4, moves).unwrap();
            let mut engine = Engine::new(7, 6, 4, 64).unwrap();
            engine.set_node_limit(Some(nodes));
            let c = engine.choose(&history, &inf, None);
            // Kept: the move scores at least the position's sign (any move keeps a loss).
            let v = score.signum();
            let kept = v < 0 || oracle.move_at_least(&b, c.column, v, &inf).unwrap();
            let e = table.entry(moves.len()).or_default();
            e.1 += 1;
            if kept {
                e.0 += 1;
            } else {
                *e.2.entry(c.source).or_default() += 1;
                println!(
                    "lost {set} {moves} value {v}: played {} ({})",
                    c.column + 1,
                    c.source
                );
            }
        }
    }
    println!("stones | kept / judged | lost by source");
    let (mut k, mut n) = (0, 0);
    for (s, (kept, judged, src)) in &table {
        println!("{s:6} | {kept:4} / {judged:4} | {src:?}");
        k += kept;
        n += judged;
    }
    println!("all    | {k:4} / {n:4}");
}
