//! The connect4 part of `kibitz tournament`: our reference server in-process on 127.0.0.1,
//! our bot at full strength, a shallow variant (depth-4 heuristic search, no book, no solver
//! until the end) and two random baselines, all over the real UDP protocol. A fixed number of
//! seasons is played (every season: each pair twice, both colours); the standings accumulate.
//!
//! Reproducible: the engine bots search a node budget ([`NODES`], [`DEPTH4_NODES`]) instead
//! of the clock and do not ponder, the players register one after the other (so the season's
//! schedule is the same every run), the server plays one game at a time, and each random
//! player draws its moves from a generator seeded per game (seed, season, opponent). The
//! standings therefore depend only on `--seed` and `--games`; the move times (load) go to
//! stderr. With `--records DIR` the server itself writes `DIR/connect4.jsonl`.

use crate::client::{Bot, BotConfig};
use crate::config::ServerConfig;
use crate::protocol::GameResult;
use crate::server::Server;
use anyhow::{bail, Context};
use kibitz_connect4::agents::{AgentSpec, EngineSpec};
use kibitz_net::tournament::Options;
use kibitz_search::stats::Standing;
use std::net::IpAddr;
use std::time::Duration;
use tokio::sync::watch;

/// Node budget per move of `kibitz` (solver and heuristic search each; the book answers the
/// first plies): about 10 ms of CPU for a searched move (measured against random on the shared
/// 2-core machine; 100k: 35 ms). At load 9–10 its slowest move took 43–71 ms wall, a safe
/// margin to the server's 250 ms; 80k took up to 187 ms there, too close to the 200 ms
/// guard. Strength against the old 100 ms clock: −89 ± 109 Elo (`kibitz match connect4
/// --a engine:nodes=30000,hash=32 --b engine:time=100,hash=32 --games 40 --seed 3
/// --concurrency 1`; 80k scored +89 ± 113).
pub const NODES: u64 = 30_000;
/// Node budget per move of `kibitz-depth4` (it also stops at depth 4).
pub const DEPTH4_NODES: u64 = 10_000;
/// Reply deadline of every engine bot: only a guard under a node budget (the engine's hard
/// stop and the fallback move come from it), the server allows 250 ms.
pub const MOVE_TIME: Duration = Duration::from_millis(200);
/// Games of one season with the four players (each pair twice).
pub const GAMES_PER_SEASON: u64 = 12;

/// Runs this contest's local tournament: `opts.games / 2` seasons (rounded up; each season
/// every pair plays both colours), random players seeded from `opts.seed`; returns the
/// standings.
pub fn run(opts: &Options) -> anyhow::Result<Vec<Standing>> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(run_async(opts))
}

/// Players of the tournament: name, player spec and seed.
fn lineup(seed: u64) -> Vec<(&'static str, AgentSpec, u64)> {
    let engine = |hash_mb, nodes, depth| {
        AgentSpec::Engine(EngineSpec {
            nodes: Some(nodes),
            depth,
            ..EngineSpec::engine(hash_mb)
        })
    };
    vec![
        ("kibitz", engine(32, NODES, None), seed),
        ("kibitz-depth4", engine(8, DEPTH4_NODES, Some(4)), seed),
        ("random-1", AgentSpec::Random, seed),
        ("random-2", AgentSpec::Random, seed + 1),
    ]
}

/// `a – b: 1-0 (17 moves)` for the progress line.
fn summary(g: &crate::server::GameRecord) -> String {
    let score = match &g.result {
        GameResult::Draw => "½-½",
        _ if g.winner() == Some(&g.home) => "1-0",
        _ => "0-1",
    };
    format!("{} – {}: {score} ({} moves)", g.home, g.away, g.moves.len())
}

async fn run_async(opts: &Options) -> anyhow::Result<Vec<Standing>> {
    let seasons = opts.games.div_ceil(2).max(1);
    let players = lineup(opts.seed);
    let config = ServerConfig {
        bind: IpAddr::from([127, 0, 0, 1]),
        port: 0,
        min_players: players.len(),
        records: opts.records.clone(),
        seed: Some(opts.seed),
        // Stop after the last season: a game of a further one must not reach the standings.
        seasons: Some(seasons),
        ..ServerConfig::default()
    };
    let server = Server::start(config).await?;
    let port = server.local_addr().port();
    opts.progress.total(GAMES_PER_SEASON * u64::from(seasons));
    let mut games = server.games();
    let progress = opts.progress.clone();
    let watcher = tokio::spawn(async move {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            match games.recv().await {
                Ok(g) => progress.game_done(&summary(&g)),
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => break,
            }
        }
    });
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut bots = Vec::new();
    for (i, (name, player, seed)) in players.into_iter().enumerate() {
        let cfg = BotConfig {
            time: MOVE_TIME,
            player,
            seed,
            ponder: false,
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
        // Registration order is the season's seating order: wait for this one first.
        let mut waited = 0;
        while server.registered().len() <= i {
            tokio::time::sleep(Duration::from_millis(5)).await;
            waited += 1;
            if waited > 2_000 {
                bail!("{name} did not register within 10 s");
            }
        }
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
        // Load-dependent numbers: stderr, never the standings.
        if let Some(t) = stats.times.summary() {
            eprintln!(
                "  connect4 {name}: move ms median {:.0} / p99 {:.0} / max {:.0}",
                t.median, t.p99, t.max
            );
        }
        if stats.fallbacks > 0 {
            eprintln!(
                "  connect4 {name}: {} fallback moves (engine out of time: the machine is overloaded)",
                stats.fallbacks
            );
        }
        if let Some(row) = standings.iter_mut().find(|s| s.player == name) {
            if let Some(n) = nodes_of(name) {
                row.note = [format!("{n} nodes/move"), row.note.clone()]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join("; ");
            }
        }
    }
    server.shutdown().await;
    watcher.abort();
    if !finished {
        bail!(
            "the {seasons} seasons did not finish within {} minutes",
            10 * seasons
        );
    }
    Ok(standings)
}

fn nodes_of(name: &str) -> Option<u64> {
    match name {
        "kibitz" => Some(NODES),
        "kibitz-depth4" => Some(DEPTH4_NODES),
        _ => None,
    }
}
