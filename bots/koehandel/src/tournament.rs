//! The koehandel part of `kibitz tournament`: the market on loopback, our best bot and the
//! baselines as HTTP endpoints, seats rotated, standings by wins and mean score.

use crate::client::{self, best_strategy, BotHandle};
use crate::server::{Entrant, GameRecord, Market, MarketConfig};
use kibitz_search::stats::{mean_ci, Standing};
use std::time::{Duration, Instant};

/// The entrants: (display name, strategy).
fn entrants() -> Vec<(String, String)> {
    let best = best_strategy();
    vec![
        (format!("ours ({best})"), best.to_string()),
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

/// Runs this contest's local tournament within roughly `budget` and returns the standings.
pub fn run(budget: Duration) -> anyhow::Result<Vec<Standing>> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(run_async(budget))
}

async fn run_async(budget: Duration) -> anyhow::Result<Vec<Standing>> {
    let t0 = Instant::now();
    let names = entrants();
    let mut bots: Vec<BotHandle> = Vec::new();
    for (_, strategy) in &names {
        bots.push(client::spawn("127.0.0.1:0", strategy).await?);
    }
    let market = Market::new(MarketConfig {
        give_up_after: Some(5),
        ..MarketConfig::default()
    });
    let mut tallies = vec![Tally::default(); names.len()];
    let mut games = 0u32;
    let mut slowest = Duration::ZERO;
    loop {
        let left = budget.saturating_sub(t0.elapsed());
        // Start another game only if it will likely finish in time (always play one).
        if games > 0 && left < slowest.mul_f64(1.3) {
            break;
        }
        let order: Vec<usize> = (0..names.len())
            .map(|s| (s + games as usize) % names.len())
            .collect();
        let seats = order.iter().map(|&e| Entrant::Url(bots[e].url())).collect();
        let g0 = Instant::now();
        let limit = if games == 0 {
            left.max(Duration::from_secs(5))
        } else {
            left
        };
        match tokio::time::timeout(limit, market.play(seats)).await {
            Ok(Ok(r)) => record(&mut tallies, &order, &r),
            Ok(Err(e)) => anyhow::bail!("market refused a game: {e}"),
            Err(_) => {
                tracing::warn!(
                    "koehandel tournament: game {} cut off by the budget",
                    games + 1
                );
                break;
            }
        }
        slowest = slowest.max(g0.elapsed());
        games += 1;
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
            Standing {
                player: name.clone(),
                games: t.games,
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
                points: t.points,
                note: format!(
                    "avg score {mean:.0} ± {ci:.0}; defaults {}, bluffs caught {}, barred {}, {:.2} ms/request (max {} ms), {} no answer",
                    t.defaults, t.bluffs, t.barred, ms, t.max_time.as_millis(), t.failures
                ),
            }
        })
        .collect())
}
