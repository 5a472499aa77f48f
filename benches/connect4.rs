//! Criterion benches for kibitz-connect4: solver throughput (nodes/s) on fixed test-set
//! positions with a cleared table, and the engine's move choice on a mid-game position.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kibitz_connect4::book::Book;
use kibitz_connect4::{Board, Engine, Geometry, Solver, SolverConfig, TimeControl};

/// Lines of the Middle-Medium test set (spec §11).
const POSITIONS: &[&str] = &[
    "274552224131661",
    "5455174361263362",
    "2531276566711153",
    "37313333717124171162542",
];

fn solve_all(solver: &mut Solver<u64>, boards: &[Board<u64>]) -> u64 {
    let tc = TimeControl::infinite();
    let mut nodes = 0;
    for b in boards {
        solver.clear();
        solver.reset_nodes();
        solver.solve(b, &tc).expect("no time limit");
        nodes += solver.nodes();
    }
    nodes
}

fn bench(c: &mut Criterion) {
    let boards: Vec<_> = POSITIONS
        .iter()
        .map(|p| Board::<u64>::from_digits(7, 6, 4, p).expect("legal"))
        .collect();
    let geo = Geometry::<u64>::new(7, 6, 4).expect("fits");
    let mut solver = Solver::new(
        geo,
        SolverConfig {
            hash_mb: 16,
            ..Default::default()
        },
    );
    let nodes = solve_all(&mut solver, &boards);
    let mut g = c.benchmark_group("connect4");
    g.sample_size(10);
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("solve_middle_medium_nodes", |b| {
        b.iter(|| solve_all(&mut solver, &boards))
    });
    g.throughput(Throughput::Elements(1));
    let mut engine = Engine::new(7, 6, 4, 16).expect("7×6");
    engine.set_book(Book::new());
    let history: Vec<usize> = "2541266355551"
        .bytes()
        .map(|b| (b - b'1') as usize)
        .collect();
    g.bench_function("engine_choose_begin_medium", |b| {
        b.iter(|| {
            engine.clear();
            engine.choose(&history, &TimeControl::infinite(), None)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
