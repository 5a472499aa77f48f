//! Würfelglück simulator throughput: games per second for 1-6 against 1-6 and for a mixed
//! pairing, single-threaded (multiply by cores for the parallel tournament).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kibitz_madn::game::FastDie;
use kibitz_madn::tournament::play_block;
use kibitz_madn::{Die, Variant};

fn games(c: &mut Criterion) {
    let d6 = FastDie::new(&Die::new(vec![1, 2, 3, 4, 5, 6]).unwrap());
    let d20 = FastDie::new(&Die::new((1..=20).collect()).unwrap());
    let mut group = c.benchmark_group("madn");
    group.throughput(Throughput::Elements(2_000));
    let mut block = 0;
    group.bench_function("games 1-6 vs 1-6", |b| {
        b.iter(|| {
            block += 1;
            play_block([&d6, &d6], (0, 1), block, 2_000, 1, Variant::Default)
        })
    });
    group.bench_function("games 1-6 vs 1-20", |b| {
        b.iter(|| {
            block += 1;
            play_block([&d6, &d20], (0, 1), block, 2_000, 1, Variant::Default)
        })
    });
    group.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
