//! The connect4 part of `kibitz tournament`: our reference server in-process on 127.0.0.1,
//! our bot at full strength, a shallow variant (depth-4 heuristic search, no book, no solver
//! until the end) and two random baselines, all over the real UDP protocol. Seasons are
//! played while the budget allows another one (at least one); the standings accumulate.

use crate::client::{Bot, BotConfig, Brain};
use crate::config::ServerConfig;
use crate::server::Server;
use anyhow::{bail, Context};
use kibitz_search::stats::Standing;
use std::net::IpAddr;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Runs this contest's local tournament within roughly `budget` and returns the standings.
pub fn run(budget: Duration) -> anyhow::Result<Vec<Standing>> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(run_async(budget))
}

/// Players of the tournament: name and brain.
fn lineup(seed: u64) -> Vec<(&'static str, Brain)> {
    vec![
        (
            "kibitz",
            Brain::Engine {
                hash_mb: 32,
                max_depth: None,
                ponder: true,
            },
        ),
        (
            "kibitz-depth4",
            Brain::Engine {
                hash_mb: 8,
                max_depth: Some(4),
                ponder: false,
            },
        ),
        ("random-1", Brain::Random { seed }),
        ("random-2", Brain::Random { seed: seed + 1 }),
    ]
}

async fn run_async(budget: Duration) -> anyhow::Result<Vec<Standing>> {
    let start = Instant::now();
    // Per-move time scales with the budget: 100 ms for the usual 20 s.
    let move_time = (budget / 200).clamp(Duration::from_millis(30), Duration::from_millis(150));
    let players = lineup(20_261_121);
    let config = ServerConfig {
        bind: IpAddr::from([127, 0, 0, 1]),
        port: 0,
        min_players: players.len(),
        ..ServerConfig::default()
    };
    let server = Server::start(config).await?;
    let port = server.local_addr().port();
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut bots = Vec::new();
    for (name, brain) in players {
        let cfg = BotConfig {
            time: move_time,
            brain,
            ..BotConfig::new("127.0.0.1", port, name)
        };
        let bot = Bot::new(cfg)
            .await
            .with_context(|| format!("starting {name}"))?;
        let mut rx = stop_rx.clone();
        bots.push((
            name,
            tokio::spawn(bot.run(async move {
                let _ = rx.wait_for(|s| *s).await;
            })),
        ));
    }
    // Play seasons while another one (as long as the longest so far, plus margin) fits.
    let mut longest = Duration::ZERO;
    let mut seasons = 0;
    loop {
        let season_start = Instant::now();
        let left = budget.saturating_sub(start.elapsed());
        if !server.wait_seasons(seasons + 1, left).await {
            break;
        }
        seasons += 1;
        longest = longest.max(season_start.elapsed());
        if start.elapsed() + longest.mul_f64(1.3) > budget {
            break;
        }
    }
    let mut standings = server.standings();
    let _ = stop_tx.send(true);
    for (name, b) in bots {
        let Ok(Ok(Ok(stats))) = tokio::time::timeout(Duration::from_secs(2), b).await else {
            continue;
        };
        let Some(row) = standings.iter_mut().find(|s| s.player == name) else {
            continue;
        };
        let mut note = Vec::new();
        if let Some(t) = stats.times.summary() {
            note.push(format!(
                "move ms median {:.0} / p99 {:.0} / max {:.0}",
                t.median, t.p99, t.max
            ));
        }
        if stats.fallbacks > 0 {
            note.push(format!("{} fallback moves", stats.fallbacks));
        }
        if !row.note.is_empty() {
            note.push(row.note.clone());
        }
        row.note = note.join("; ");
    }
    server.shutdown().await;
    if seasons == 0 {
        bail!("no season finished within {budget:?}");
    }
    Ok(standings)
}
