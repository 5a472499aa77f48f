//! Research (issue 39): the root bounds the engine's solver phase leaves at a node budget,
//! next to the exact value of every move, for the positions given.
//!
//! `cargo run --release -p kibitz-connect4 --example keep_probe -- NODES MOVES...`
use kibitz_connect4::root::{solve_root, MoveBounds};
use kibitz_connect4::{Board, Geometry, Solver, SolverConfig, TimeControl};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nodes: u64 = args[0].parse().expect("NODES");
    let inf = TimeControl::infinite();
    let geo = Geometry::<u64>::new(7, 6, 4).expect("7×6");
    let mut oracle = Solver::new(
        geo,
        SolverConfig {
            hash_mb: 128,
            ..Default::default()
        },
    );
    for moves in &args[1..] {
        let b = Board::<u64>::from_digits(7, 6, 4, moves).expect("legal moves");
        let mut s = Solver::new(geo, SolverConfig::for_engine(64));
        s.set_node_limit(Some(nodes));
        let mut mb = MoveBounds::new(&s, &b);
        mb.apply_book(&kibitz_connect4::book::Book::embedded(), &b);
        let r = solve_root(&mut s, &b, &mut mb, None, &inf, &inf);
        println!(
            "{moves}: result {r:?} nodes {} candidates {:?}",
            s.nodes(),
            mb.candidates(None)
        );
        for c in mb.legal().collect::<Vec<_>>() {
            let v = oracle.score_move(&b, c, &inf).unwrap();
            let mut cost = Vec::new();
            for t in [0, 1] {
                let mut f = Solver::new(
                    geo,
                    SolverConfig {
                        hash_mb: 48,
                        ..Default::default()
                    },
                );
                let r = f.move_at_least(&b, c, t, &inf);
                cost.push(format!(">={t}: {r:?} {} nodes", f.nodes()));
            }
            println!(
                "  col {}: [{}, {}] true {v}  {cost:?}",
                c + 1,
                mb.lo[c],
                mb.hi[c]
            );
        }
    }
}
