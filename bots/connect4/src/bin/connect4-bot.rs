//! `connect4-bot`: plays Connect Four on a contest server over UDP (see `kibitz_bots_connect4::client`).

use clap::Parser;
use kibitz_bots_connect4::client::{Bot, BotConfig, Brain};
use std::io::IsTerminal;
use std::time::Duration;

/// Connect Four contest bot.
#[derive(Parser, Debug)]
#[command(name = "connect4-bot", version, about)]
struct Args {
    /// Server host name or IP address.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Server UDP port.
    #[arg(long, default_value_t = 4446)]
    port: u16,
    /// Our name (at most 30 UTF-16 units, no ';' or ',').
    #[arg(long)]
    name: String,
    /// Time from receiving YOURTURN until the reply leaves, in ms (the server allows 250
    /// including the round trip). The engine's soft budget is half of it.
    #[arg(long, default_value_t = 200)]
    time_ms: u64,
    /// Depth limit for the heuristic search (a weaker bot; also skips the book).
    #[arg(long)]
    depth: Option<u32>,
    /// Board width; must match the server's COLUMNS.
    #[arg(long, default_value_t = 7)]
    columns: usize,
    /// Board height; must match the server's ROWS.
    #[arg(long, default_value_t = 6)]
    rows: usize,
    /// Line length; must match the server's CONNECT.
    #[arg(long, default_value_t = 4)]
    connect: usize,
    /// Engine table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash_mb: usize,
    /// Do not think on the opponent's time.
    #[arg(long)]
    no_ponder: bool,
    /// Play uniformly random legal moves instead (a baseline), with this seed.
    #[arg(long)]
    random: Option<u64>,
    /// Engine tunable `NAME=V` (repeatable; see `kibitz_connect4::param_specs`).
    #[arg(long = "param")]
    params: Vec<String>,
    /// On exit (Ctrl-C), print the time-per-move distribution.
    #[arg(long)]
    stats: bool,
    /// Search this many nodes per move instead of watching the clock (reproducible moves;
    /// `--time-ms` then only guards against a machine too slow for the budget).
    #[arg(long)]
    nodes: Option<u64>,
    /// Log filter (error, warn, info, debug, trace or a tracing directive); RUST_LOG wins.
    #[arg(long, default_value = "info")]
    log_level: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let a = Args::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| a.log_level.as_str().into()),
        )
        .with_ansi(std::io::stdout().is_terminal())
        .init();
    if a.time_ms < 20 {
        anyhow::bail!("--time-ms must be at least 20");
    }
    let brain = match a.random {
        Some(seed) => Brain::Random { seed },
        None => Brain::Engine {
            hash_mb: a.hash_mb,
            max_depth: a.depth,
            ponder: !a.no_ponder,
        },
    };
    let mut params = kibitz_connect4::params::EngineParams::default();
    for p in &a.params {
        kibitz_search::params::Tunable::apply(&mut params, p)
            .map_err(|e| anyhow::anyhow!("--param {p}: {e}"))?;
    }
    let cfg = BotConfig {
        params,
        time: Duration::from_millis(a.time_ms),
        columns: a.columns,
        rows: a.rows,
        connect: a.connect,
        brain,
        nodes: a.nodes,
        ..BotConfig::new(a.host, a.port, a.name)
    };
    let bot = Bot::new(cfg).await?;
    let stats = bot
        .run(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    if a.stats {
        println!(
            "games: {} won, {} drawn, {} lost; {} fallback moves",
            stats.wins, stats.draws, stats.losses, stats.fallbacks
        );
        match stats.times.summary() {
            Some(s) => println!("time per move: {s}\n{}", stats.times.histogram(10.0)),
            None => println!("no moves played"),
        }
    }
    Ok(())
}
