//! Research (issue 39, bigger boards): how far from the end does the solver prove positions
//! within a node budget per move? For each size and each count of empty cells, random
//! positions (random play that avoids handing over an immediate win) are weak-solved from a
//! cleared table under the budget; prints the share proven and the median nodes and thread
//! CPU time of the proven ones.
//!
//! `cargo run --release -p kibitz-connect4 --example reach -- NODES PER_POINT [EMPTY_FROM EMPTY_TO STEP]`
use kibitz_connect4::bitboard::Bits;
use kibitz_connect4::solver::loses_at_once;
use kibitz_connect4::{Board, Geometry, Solver, SolverConfig, TimeControl};
use kibitz_search::time::thread_cpu;
use rand::{Rng, SeedableRng};

fn run<B: Bits>(w: usize, h: usize, nodes: u64, per: usize, range: (usize, usize, usize)) {
    let geo = Geometry::<B>::new(w, h, 4).expect("size fits");
    let mut solver = Solver::new(geo, SolverConfig::for_engine(64));
    solver.set_node_limit(Some(nodes));
    let inf = TimeControl::infinite();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64((w * 16 + h) as u64);
    let mut empty = range.0;
    while empty <= range.1.min(w * h) {
        let (mut proven, mut n) = (0, 0);
        let mut costs = Vec::new();
        while n < per {
            let mut b = Board::<B>::new(w, h, 4).expect("size fits");
            while b.moves_played() < w * h - empty && !b.is_over() {
                let legal = b.legal_moves();
                let safe: Vec<usize> = legal
                    .iter()
                    .copied()
                    .filter(|&c| !loses_at_once(&b, c))
                    .collect();
                let pool = if safe.is_empty() { &legal } else { &safe };
                b.play(pool[rng.random_range(0..pool.len())])
                    .expect("legal");
            }
            if b.is_over() {
                continue;
            }
            n += 1;
            solver.clear();
            solver.reset_nodes();
            let t0 = thread_cpu();
            let r = solver.solve_window(&b, -1, 1, &inf);
            let dt = thread_cpu() - t0;
            if r.is_some() {
                proven += 1;
                costs.push((solver.nodes(), dt));
            }
        }
        costs.sort();
        let med = costs.get(costs.len() / 2).copied().unwrap_or_default();
        println!(
            "{w}×{h} empty {empty:2}: {proven:3}/{n} proven within {nodes} nodes; median {} nodes, {:.1} ms CPU",
            med.0,
            med.1.as_secs_f64() * 1e3
        );
        empty += range.2;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nodes: u64 = args.first().and_then(|s| s.parse().ok()).expect("NODES");
    let per: usize = args.get(1).and_then(|s| s.parse().ok()).expect("PER_POINT");
    let num = |i: usize, d: usize| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let range = (num(2, 20), num(3, 44), num(4, 4));
    run::<u64>(7, 6, nodes, per, range);
    run::<u128>(9, 7, nodes, per, range);
    run::<u128>(8, 8, nodes, per, range);
    run::<u128>(10, 6, nodes, per, range);
}
