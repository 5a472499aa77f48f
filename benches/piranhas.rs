//! Criterion benches for kibitz-piranhas: perft (move generation + make) and fixed-depth
//! search (nodes/s = reported node count / measured time).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kibitz_piranhas::{perft, Engine, EngineConfig, State};
use kibitz_search::time::TimeControl;
use std::hint::black_box;

fn bench_perft(c: &mut Criterion) {
    let state = State::start([(3, 3), (6, 7)]);
    let mut g = c.benchmark_group("piranhas_perft");
    for depth in [2u32, 3] {
        let leaves = perft(&state, depth);
        g.throughput(Throughput::Elements(leaves));
        g.bench_with_input(BenchmarkId::from_parameter(depth), &depth, |b, &d| {
            b.iter(|| perft(black_box(&state), d))
        });
    }
    g.finish();
}

fn bench_search(c: &mut Criterion) {
    let state = State::start([(3, 3), (6, 7)]);
    let mut config = EngineConfig::default();
    config.search.max_depth = 5;
    config.search.hash_mb = 16;
    // Node count of one fresh search, for the throughput figure.
    let nodes = Engine::new(config.clone())
        .choose(&state, &TimeControl::infinite())
        .nodes;
    let mut g = c.benchmark_group("piranhas_search");
    g.sample_size(10);
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("depth5_start", |b| {
        b.iter(|| {
            let mut engine = Engine::new(config.clone());
            black_box(engine.choose(&state, &TimeControl::infinite()).nodes)
        })
    });
    g.finish();
}

criterion_group!(benches, bench_perft, bench_search);
criterion_main!(benches);
