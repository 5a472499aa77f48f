//! `connect4-server`: the reference Connect Four contest server.
//!
//! Every setting is a flag; a flag not given falls back to the original's environment variable
//! (PORT, TIMEOUT, DELAY, MINPLAYERS) or our extensions (COLUMNS, ROWS, CONNECT, PARALLEL,
//! SEASONS, BIND); see spec §9-§10.

use clap::Parser;
use kibitz_bots_connect4::config::ServerConfig;
use kibitz_bots_connect4::server::Server;
use kibitz_net::cli::{self, AddrArgs, MoveLimitArgs};
use std::time::Duration;

/// The reference Connect Four contest server (UDP): registers bots, plays seasons of round
/// robins between them and announces the results. Every flag not given falls back to the
/// original server's environment variable named in its help.
#[derive(Parser, Debug)]
#[command(name = "connect4-server", version)]
struct Args {
    /// Listen address (`--host`, `--port`).
    #[command(flatten)]
    addr: AddrArgs,
    /// Time allowed for each answer (`--time-ms`).
    #[command(flatten)]
    limit: MoveLimitArgs,
    /// Time between the server's start and the first season in ms; registration is open
    /// meanwhile [env: DELAY] (default 0).
    #[arg(long)]
    delay: Option<String>,
    /// Registered players needed before a season starts [env: MINPLAYERS] (default 1).
    #[arg(long)]
    min_players: Option<String>,
    /// Board columns [env: COLUMNS] (default 7).
    #[arg(long)]
    columns: Option<String>,
    /// Board rows [env: ROWS] (default 6).
    #[arg(long)]
    rows: Option<String>,
    /// Line length that wins [env: CONNECT] (default 4).
    #[arg(long)]
    connect: Option<String>,
    /// Play a matchday's games at the same time, 0 or 1 [env: PARALLEL] (default 0).
    #[arg(long)]
    parallel: Option<String>,
    /// Stop after this many seasons, 0 = never [env: SEASONS] (default 0).
    #[arg(long)]
    seasons: Option<String>,
    /// Append every game of every season to DIR/connect4.jsonl (replay with
    /// `kibitz replay DIR/connect4.jsonl`).
    #[arg(long, value_name = "DIR")]
    records: Option<std::path::PathBuf>,
    /// Log filter (error, warn, info, debug, trace or a tracing directive); RUST_LOG wins.
    #[arg(long, default_value = "info")]
    log_level: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Args = cli::parse(|c| {
        c.mut_arg("host", |a| {
            a.help("Address to listen on [env: BIND] (default 127.0.0.1; the original listens on all interfaces)")
        })
        .mut_arg("port", |a| a.help("UDP port [env: PORT] (default 4446)"))
        .mut_arg("time_ms", |a| {
            a.help("Time allowed for each answer (JOIN and INSERT) in ms [env: TIMEOUT] (default 250)")
        })
    });
    kibitz_net::logging::init_stdout(&args.log_level);
    let port = args.addr.port.map(|p| p.to_string());
    let time_ms = args.limit.time_ms.map(|t| t.to_string());
    let flags = [
        ("BIND", &args.addr.host),
        ("PORT", &port),
        ("TIMEOUT", &time_ms),
        ("DELAY", &args.delay),
        ("MINPLAYERS", &args.min_players),
        ("COLUMNS", &args.columns),
        ("ROWS", &args.rows),
        ("CONNECT", &args.connect),
        ("PARALLEL", &args.parallel),
        ("SEASONS", &args.seasons),
    ];
    let config = ServerConfig::from_lookup(|k| {
        flags
            .iter()
            .find(|(name, _)| *name == k)
            .and_then(|(_, v)| (*v).clone())
            .or_else(|| std::env::var(k).ok())
    })?;
    let config = kibitz_bots_connect4::config::ServerConfig {
        records: args.records.clone(),
        ..config
    };
    println!("Starting server");
    let server = Server::start(config).await?;
    println!("Listening on {}", server.local_addr());
    let finished = async {
        while !server
            .wait_seasons(usize::MAX, Duration::from_secs(1))
            .await
        {
            if server.finished() {
                break;
            }
        }
    };
    tokio::select! {
        _ = finished => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    server.shutdown().await;
    Ok(())
}
