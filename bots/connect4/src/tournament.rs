//! The connect4 part of `kibitz tournament`: our reference server in-process on 127.0.0.1,
//! our bot at full strength, a shallow variant (depth-4 heuristic search, no book, no solver
//! until the end) and two random baselines, all over the real UDP protocol. A fixed number of
//! seasons is played (every season: each pair twice, both colours); the standings accumulate.

use crate::client::{Bot, BotConfig, Brain};
use crate::config::ServerConfig;
use crate::server::Server;
use anyhow::{bail, Context};
use kibitz_net::tournament::Options;
use kibitz_search::stats::Standing;
use std::net::IpAddr;
use std::time::Duration;
use tokio::sync::watch;

/// Thinking time of every engine bot per move.
pub const MOVE_TIME: Duration = Duration::from_millis(100);

/// Runs this contest's local tournament: `opts.games / 2` seasons (rounded up; each season
/// every pair plays both colours), random players seeded from `opts.seed`; returns the
/// standings.
pub fn run(opts: &Options) -> anyhow::Result<Vec<Standing>> {
    let (seasons, seed) = (opts.games.div_ceil(2), opts.seed);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(run_async(seasons.max(1), seed))
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

async fn run_async(seasons: u32, seed: u64) -> anyhow::Result<Vec<Standing>> {
    let move_time = MOVE_TIME;
    let players = lineup(seed);
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
    // A season of 4 players is 12 games of at most 42 moves; allow 10 minutes each.
    let finished = server
        .wait_seasons(seasons as usize, Duration::from_secs(600) * seasons)
        .await;
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
    if !finished {
        bail!(
            "the {seasons} seasons did not finish within {} minutes",
            10 * seasons
        );
    }
    Ok(standings)
}
