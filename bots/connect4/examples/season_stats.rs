//! Measures our bot's time per move over many games on loopback:
//! `cargo run --release --example season_stats [seasons=50] [time_ms=200]`.
//!
//! Our reference server (TIMEOUT 250 ms) runs `seasons` seasons of two players, our bot at
//! full strength (default settings, pondering) and the depth-4 variant (50 ms, no pondering),
//! i.e. 2 games per season. Prints the results and the distribution of our bot's response
//! times (receipt of YOURTURN to sending INSERT).

use kibitz_bots_connect4::client::{Bot, BotConfig};
use kibitz_bots_connect4::config::ServerConfig;
use kibitz_bots_connect4::server::Server;
use kibitz_connect4::agents::{AgentSpec, EngineSpec};
use std::time::Duration;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let mut args = std::env::args().skip(1);
    let seasons: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(50);
    let time_ms: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(200);
    let server = Server::start(ServerConfig {
        port: 0,
        min_players: 2,
        seasons: Some(seasons),
        ..ServerConfig::default()
    })
    .await?;
    let port = server.local_addr().port();
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut tasks = Vec::new();
    for (name, time, brain) in [
        ("kibitz", time_ms, (EngineSpec::engine(64), true)),
        (
            "kibitz-depth4",
            50,
            (
                EngineSpec {
                    depth: Some(4),
                    ..EngineSpec::engine(8)
                },
                false,
            ),
        ),
    ] {
        let cfg = BotConfig {
            time: Duration::from_millis(time),
            player: AgentSpec::Engine(brain.0),
            ponder: brain.1,
            ..BotConfig::new("127.0.0.1", port, name)
        };
        let bot = Bot::new(cfg).await?;
        let mut rx = stop_rx.clone();
        tasks.push(tokio::spawn(bot.run(async move {
            let _ = rx.wait_for(|s| *s).await;
        })));
    }
    let t = std::time::Instant::now();
    server
        .wait_seasons(seasons as usize, Duration::from_secs(3600))
        .await;
    let _ = stop_tx.send(true);
    let mut stats = Vec::new();
    for task in tasks {
        stats.push(task.await??);
    }
    println!(
        "{} games in {:.0} s\n{}",
        seasons * 2,
        t.elapsed().as_secs_f64(),
        server.scoreboard().table()
    );
    let ours = &stats[0];
    let games: Vec<_> = server.results().into_iter().flat_map(|s| s.games).collect();
    let same = games
        .iter()
        .zip(&ours.histories)
        .filter(|(g, h)| g.moves == **h)
        .count();
    println!(
        "bot's reconstructed history equals the server's record in {same} of {} games",
        games.len()
    );
    for g in games.iter().filter(|g| g.winner() != Some("kibitz")) {
        let result = kibitz_bots_connect4::protocol::ServerMsg::Result(g.result.clone());
        println!(
            "  not won: {} - {}: {} moves, {result}",
            g.home,
            g.away,
            g.moves.len()
        );
    }
    println!(
        "kibitz: {} won, {} drawn, {} lost, {} fallback moves",
        ours.wins, ours.draws, ours.losses, ours.fallbacks
    );
    if let Some(s) = ours.times.summary() {
        println!("time per move: {s}\n{}", ours.times.histogram(10.0));
    }
    server.shutdown().await;
    Ok(())
}
