//! Criterion benches for kibitz-maumau: ISMCTS playouts per second and raw game simulation.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kibitz_maumau::agents::MauMauAgent;
use kibitz_maumau::arena::play_game;
use kibitz_maumau::game_impl::MauMau;
use kibitz_maumau::mcts::bench_with;
use kibitz_maumau::Config;
use kibitz_search::agent::Agent;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("maumau");
    g.sample_size(10);
    // One search of 2000 iterations from each of 2 fixed deals: throughput = playouts.
    g.throughput(Throughput::Elements(2 * 2000));
    g.bench_function("ismcts_playouts", |b| b.iter(|| bench_with(2, 2000)));
    g.throughput(Throughput::Elements(100));
    g.bench_function("greedy_selfplay_games", |b| {
        b.iter(|| {
            let mut turns = 0;
            for seed in 0..100 {
                let mut p: Vec<Box<dyn Agent<MauMau> + Send>> = vec![
                    Box::new(MauMauAgent::greedy().seated(0, seed)),
                    Box::new(MauMauAgent::greedy().seated(1, seed)),
                ];
                turns += play_game(Config::default(), seed, &mut p, None).turns;
            }
            turns
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
