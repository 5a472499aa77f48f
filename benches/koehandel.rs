//! Criterion benches for kibitz-koehandel: complete games (games/s) with the heuristic
//! players, the strong player's decisions, and the market's payment search.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use kibitz_koehandel::auction::server_payment;
use kibitz_koehandel::runner::play_game;
use kibitz_koehandel::sim::{rollout, rollout_seats};
use kibitz_koehandel::strong::{StrongParams, StrongPlayer};
use kibitz_koehandel::{make_agent, Cards, Game, KhAgent};

fn games(c: &mut Criterion) {
    let mut g = c.benchmark_group("koehandel");
    g.throughput(Throughput::Elements(1));
    g.bench_function("heuristic game (4 players, with notices)", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            let seeds: Vec<u64> = (0..4).map(|i| seed * 4 + i).collect();
            let mut players: Vec<KhAgent> = seeds
                .iter()
                .map(|&s| make_agent("heuristic", s).expect("registered"))
                .collect();
            play_game(Game::new(seed), &mut players, &seeds)
        })
    });
    g.bench_function("rollout (quiet heuristic play-out from the start)", |b| {
        let mut seed = 0;
        b.iter_batched(
            || {
                seed += 1;
                Game::new(seed)
            },
            |game| rollout(game, &Default::default()),
            BatchSize::SmallInput,
        )
    });
    g.bench_function(
        "rollout_seats (same play, bid values cached per auction)",
        |b| {
            let mut seed = 0;
            b.iter_batched(
                || {
                    seed += 1;
                    Game::new(seed)
                },
                |game| rollout_seats(game, &[Default::default(); 4]),
                BatchSize::SmallInput,
            )
        },
    );
    g.bench_function("server payment", |b| {
        let hand = Cards::parse("nnttttttffffhhTTF").expect("cards");
        b.iter(|| server_payment(&hand, 370))
    });
    g.finish();

    let mut g = c.benchmark_group("koehandel strong");
    g.sample_size(10);
    g.bench_function("strong game vs 3 heuristics (8 worlds)", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            let params = StrongParams {
                worlds: 8,
                ..Default::default()
            };
            let seeds = [seed, seed * 4 + 1, seed * 4 + 2, seed * 4 + 3];
            let mut players: Vec<KhAgent> = vec![Box::new(StrongPlayer::with_params(params, seed))];
            for &s in &seeds[1..] {
                players.push(make_agent("heuristic", s).expect("registered"));
            }
            play_game(Game::new(seed), &mut players, &seeds)
        })
    });
    g.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
