//! `maumau-bot`: our Mau-Mau contest bot. Connects to a (real or reference) server and plays one
//! whole game; logs what it thinks to stderr (`--log-level debug` or `RUST_LOG=debug` for every
//! line; colours only on a terminal).

use clap::Parser;
use kibitz_bots_maumau::client::{play, unique_name, Bot, BotConfig};
use kibitz_net::cli::{self, AddrArgs, PlayerArgs};
use kibitz_search::clock::MAUMAU;
use std::time::Duration;

/// Plays one game of Mau-Mau on a contest server (JSON lines over TCP) and prints who won.
#[derive(Parser, Debug)]
#[command(
    name = "maumau-bot",
    version,
    after_help = "Players: ismcts (our search; the default), heuristic, greedy, first (the first \
                  legal card) or random. Without --seed the bot draws a random one."
)]
struct Args {
    /// Server address (`--host`, `--port`; the real server's port is 1338).
    #[command(flatten)]
    addr: AddrArgs,
    /// Move chooser and its seed (`--player`, `--seed`).
    #[command(flatten)]
    player: PlayerArgs,
    /// Bot name; a random suffix is added unless --exact-name is given.
    #[arg(long, default_value = "kibitz")]
    name: String,
    /// Use the name exactly as given (no random suffix).
    #[arg(long)]
    exact_name: bool,
    /// Move budget in ms: from the server's request until our answer should have reached it
    /// (default 1000; the contest has no limit). The search starts nothing new after half of
    /// it and stops at budget − 2 × overhead.
    #[arg(long, conflicts_with = "iterations")]
    time_ms: Option<u64>,
    /// Part of the move budget kept for the network, in ms.
    #[arg(long, default_value_t = MAUMAU.overhead.as_millis() as u64)]
    overhead_ms: u64,
    /// Fixed ISMCTS iterations per move instead of a time budget (capped at 30 s per move).
    #[arg(long)]
    iterations: Option<u64>,
    /// Seats at the table (2 in the contest; 3-4 for our server's network game).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: u8,
    /// An ISMCTS tunable, NAME=VALUE (repeatable; `kibitz maumau params` lists them).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Inactivity timeout in seconds: warn after half of it without a line from the server,
    /// give up and exit non-zero after all of it (0 = wait forever).
    #[arg(long, default_value_t = 300)]
    idle_timeout_s: u64,
    /// Log filter (error, warn, info, debug, trace or a tracing directive); RUST_LOG wins.
    #[arg(long, default_value = "info")]
    log_level: String,
}

fn main() -> anyhow::Result<()> {
    let a: Args = cli::parse(cli::defaults(&[
        ("host", "127.0.0.1"),
        ("port", "1338"),
        ("player", "ismcts"),
    ]));
    let (host, port) = (
        a.addr.host.clone().unwrap_or_else(|| "127.0.0.1".into()),
        a.addr.port.unwrap_or(1338),
    );
    kibitz_net::logging::init(&a.log_level);
    let cfg = BotConfig {
        name: if a.exact_name {
            a.name.clone()
        } else {
            unique_name(&a.name)
        },
        strategy: a.player.player.clone().unwrap_or_else(|| "ismcts".into()),
        time: match (a.time_ms, a.iterations) {
            (Some(t), _) => Duration::from_millis(t.max(1)),
            (None, Some(_)) => Duration::from_secs(30),
            (None, None) => MAUMAU.budget,
        },
        overhead: Duration::from_millis(a.overhead_ms),
        iterations: a.iterations,
        seed: a.player.seed.unwrap_or_else(rand::random),
        players: usize::from(a.players),
        params: a.params,
        read_timeout: Duration::from_secs(a.idle_timeout_s),
    };
    if cfg.iterations.is_none() {
        if let Err(e) = cfg.move_budget().with_room(cfg.time, cfg.overhead) {
            eprintln!("maumau-bot: error: {e}");
            std::process::exit(2);
        }
    }
    // Bad strategies and parameters fail here, before connecting.
    if let Err(e) = Bot::for_config(&cfg) {
        eprintln!("maumau-bot: error: {e:#}");
        std::process::exit(2);
    }
    let report = match play((host.as_str(), port), &cfg) {
        Ok(r) => r,
        Err(e) => {
            // One clear line and a non-zero exit on any abnormal end.
            eprintln!("maumau-bot: error: {e:#}");
            std::process::exit(1);
        }
    };
    eprintln!(
        "{}: winner {}, {} moves, {} penalties, {} odd lines",
        report.name,
        report.winner.as_deref().unwrap_or("(none)"),
        report.moves,
        report.penalties,
        report.odd_lines
    );
    Ok(())
}
