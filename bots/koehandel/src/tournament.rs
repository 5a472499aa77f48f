//! The koehandel part of `kibitz tournament`: the market on loopback, our best bot and the
//! baselines as HTTP endpoints, seats rotated, standings by wins and mean score.
//!
//! Reproducible: decks come from `seed` and the game number (market seed `seed`, game `M`
//! uses deck `seed + M`), every bot's randomness from `seed`, its entrant number and the game
//! ids, and our strong player decides with a fixed number of worlds ([`STRONG_WORLDS`]), never
//! a clock, so the standings depend only on the seed and the game count. Its decisions stay
//! far inside the market's 5 s per request (mean and max are logged at `info`).

use crate::client::{self, BotHandle};
use crate::server::{Entrant, GameRecord, Market, MarketConfig};
use kibitz_net::tournament::Options;
use kibitz_search::stats::{mean_ci, Standing};
use std::time::Duration;

/// Worlds our strong player samples per decision (a fixed budget, not a time: reproducible).
pub const STRONG_WORLDS: usize = 64;

/// The entrants: (display name, strategy).
fn entrants() -> Vec<(String, String)> {
    vec![
        (
            "kibitz".to_string(),
            format!("strong:worlds={STRONG_WORLDS}"),
        ),
        ("heuristic #1".into(), "heuristic".into()),
        ("heuristic #2".into(), "heuristic".into()),
        ("random".into(), "random".into()),
    ]
}

#[derive(Default, Clone)]
struct Tally {
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    points: f64,
    scores: Vec<f64>,
    defaults: u32,
    bluffs: u32,
    barred: u32,
    requests: u32,
    failures: u32,
    time: Duration,
    max_time: Duration,
}

/// Adds one game's result; `order[seat]` is the entrant index in that seat.
fn record(tallies: &mut [Tally], order: &[usize], r: &GameRecord) {
    let Some(scores) = r.scores else { return };
    let best = scores.iter().copied().max().unwrap_or(0);
    let top = scores.iter().filter(|&&s| s == best).count();
    for (seat, &e) in order.iter().enumerate() {
        let t = &mut tallies[e];
        t.games += 1;
        t.scores.push(f64::from(scores[seat]));
        if scores[seat] == best && top == 1 {
            t.wins += 1;
            t.points += 1.0;
        } else if scores[seat] == best {
            t.draws += 1;
            t.points += 1.0 / top as f64;
        } else {
            t.losses += 1;
        }
        t.defaults += r.stats[seat].defaults;
        t.bluffs += r.stats[seat].bluffs;
        t.barred += u32::from(r.stats[seat].barred);
        t.requests += r.counters[seat].requests;
        t.failures += r.counters[seat].failures;
        t.time += r.counters[seat].time;
        t.max_time = t.max_time.max(r.counters[seat].max_time);
    }
}

/// Runs this contest's local tournament: `games` games (rounded up to a multiple of 4 so every
/// entrant sits in every seat), decks from `seed`; returns the standings.
pub fn run(opts: &Options) -> anyhow::Result<Vec<Standing>> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(run_async(opts))
}

async fn run_async(opts: &Options) -> anyhow::Result<Vec<Standing>> {
    let (total, seed) = (opts.games.max(1).div_ceil(4) * 4, opts.seed);
    opts.progress.total(u64::from(total));
    let names = entrants();
    let mut bots: Vec<BotHandle> = Vec::new();
    for (i, (_, strategy)) in names.iter().enumerate() {
        let bot_seed = kibitz_search::seed::mix(seed, i as u64 + 1);
        bots.push(client::spawn_seeded("127.0.0.1:0", strategy, bot_seed).await?);
    }
    let market = Market::new(MarketConfig {
        give_up_after: Some(5),
        seed,
        records: opts.record_writer("koehandel")?,
        ..MarketConfig::default()
    });
    let mut tallies = vec![Tally::default(); names.len()];
    for games in 0..total {
        let order: Vec<usize> = (0..names.len())
            .map(|s| (s + games as usize) % names.len())
            .collect();
        let seats = order.iter().map(|&e| Entrant::Url(bots[e].url())).collect();
        let seat_names: Vec<String> = order.iter().map(|&e| names[e].0.clone()).collect();
        let play = market.play_as(seats, &seat_names);
        match tokio::time::timeout(Duration::from_secs(600), play).await {
            Ok(Ok(r)) => {
                record(&mut tallies, &order, &r);
                let scores = r.scores.unwrap_or_default();
                let line: Vec<String> = seat_names
                    .iter()
                    .zip(scores)
                    .map(|(n, s)| format!("{n} {s}"))
                    .collect();
                opts.progress
                    .game_done(&format!("game {}: {}", games + 1, line.join(", ")));
            }
            Ok(Err(e)) => anyhow::bail!("market refused a game: {e}"),
            Err(_) => anyhow::bail!("koehandel game {} took more than 10 minutes", games + 1),
        }
    }
    Ok(names
        .iter()
        .zip(&tallies)
        .map(|((name, _), t)| {
            let (mean, ci) = mean_ci(&t.scores);
            let ms = if t.requests > 0 {
                t.time.as_secs_f64() * 1000.0 / f64::from(t.requests)
            } else {
                0.0
            };
            // Times vary with the machine: logged, not in the (reproducible) table.
            tracing::info!(
                "koehandel {name}: {} requests, {ms:.2} ms/request, max {} ms",
                t.requests,
                t.max_time.as_millis()
            );
            Standing {
                player: name.clone(),
                games: t.games,
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
                points: t.points,
                note: format!(
                    "avg score {mean:.0} ± {ci:.0}; defaults {}, bluffs caught {}, barred {}, {} no answer",
                    t.defaults, t.bluffs, t.barred, t.failures
                ),
            }
        })
        .collect())
}
