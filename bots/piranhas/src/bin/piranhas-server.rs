//! `piranhas-server`: our reference server for the 2019 protocol, or (with `--client`) a round
//! robin between client commands started as `CMD -h HOST -p PORT -r CODE`.

use anyhow::Context;
use clap::Parser;
use kibitz_bots_piranhas::server::{Server, ServerConfig};
use kibitz_bots_piranhas::tournament::{self, Entrant, TournamentConfig};
use kibitz_net::cli::{self, AddrArgs, MoveLimitArgs, SeedArgs};
use std::path::PathBuf;
use std::time::Duration;

/// A Piranhas (Software-Challenge 2019) game server for clients over TCP, or (with `--client`)
/// a round robin between client programs, each started as `CMD -h HOST -p PORT -r CODE`.
#[derive(Parser, Debug)]
#[command(name = "piranhas-server", version)]
struct Args {
    /// Listen address (`--host`, `-p/--port`).
    #[command(flatten)]
    addr: AddrArgs,
    /// Admin password.
    #[arg(long, default_value = "examplepassword")]
    password: String,
    /// The soft time limit per move (`--time-ms`).
    #[command(flatten)]
    limit: MoveLimitArgs,
    /// Hard time limit per move in ms (at least `--time-ms`): a later move ends the game
    /// at once; one after `--time-ms` loses it at its end.
    #[arg(long, default_value_t = 10000)]
    hard_ms: u64,
    /// Kraken placement seed (`--seed`).
    #[command(flatten)]
    seed: SeedArgs,
    /// Fixed Kraken pair for every game (tournaments too), `x,y,x,y`.
    #[arg(long)]
    krakens: Option<String>,
    /// Save every connection's raw byte streams into this directory.
    // `--record` is the old name: a hidden alias.
    #[arg(long, alias = "record", value_name = "DIR")]
    record_streams: Option<PathBuf>,
    /// Append every game to DIR/piranhas.jsonl (`kibitz replay` reads it) and
    /// write its Software-Challenge replay as `DIR/piranhas-<n>.xml`.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Tournament mode: a client command (repeat for each entrant, at least two).
    #[arg(long = "client", value_name = "CMD")]
    clients: Vec<String>,
    /// Tournament: games per pair, rounded up to an even number (every Kraken pair is played
    /// with both colours).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Tournament: games at the same time (at least 1).
    #[arg(
        long,
        default_value_t = 1,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    parallel: usize,
    /// Log filter (error, warn, info, debug, trace or a tracing directive); RUST_LOG wins.
    // `--log` is the old name: a hidden alias, so scripts keep working.
    #[arg(long = "log-level", alias = "log", default_value = "info")]
    log_level: String,
    /// Close a joined or admin connection silent this long outside a running game, in seconds
    /// (0 = never).
    #[arg(long, default_value_t = 600)]
    idle_timeout_s: u64,
    /// Connections open at once.
    #[arg(long, default_value_t = 512)]
    max_connections: usize,
    /// Connections open at once from one IP address.
    #[arg(long, default_value_t = 128)]
    max_connections_per_peer: usize,
}

/// `N: program args…` with the program's directory dropped, at most 48 characters.
fn entrant_name(i: usize, cmd: &str) -> String {
    let mut words = cmd.split_whitespace();
    let prog = words.next().unwrap_or(cmd);
    let prog = prog.rsplit('/').next().unwrap_or(prog);
    let rest: Vec<&str> = words.collect();
    let name = format!("{}: {} {}", i + 1, prog, rest.join(" "));
    name.trim_end().chars().take(48).collect()
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let a: Args = cli::parse(|c| {
        cli::defaults(&[
            ("host", "127.0.0.1"),
            ("port", "13050"),
            ("time_ms", "2000"),
        ])(c)
        .mut_arg("host", |h| {
            h.help(
                "Address to listen on (loopback by default, like the official server). \
                     Tournament mode ignores it and --port: it listens on a free loopback port",
            )
        })
        .mut_arg("port", |p| p.short('p'))
        .mut_arg("time_ms", |t| {
            t.help("Soft time limit per move in ms: a later move loses the game")
        })
        .mut_arg("seed", |s| {
            s.help(
                "Seed of the Kraken placement. Without it the server draws every game's \
                     pair at random, and a tournament uses seed 2019 (so tournaments repeat)",
            )
        })
    });
    kibitz_net::logging::init(&a.log_level);
    let soft_ms = a.limit.time_ms.unwrap_or(2000);
    let (host, port) = (
        a.addr.host.clone().unwrap_or_else(|| "127.0.0.1".into()),
        a.addr.port.unwrap_or(13050),
    );
    let krakens = a
        .krakens
        .as_deref()
        .map(kibitz_piranhas::kraken::parse_pair)
        .transpose()
        .context("--krakens")?;
    let config = ServerConfig {
        soft_timeout: Duration::from_millis(soft_ms),
        hard_timeout: Duration::from_millis(a.hard_ms.max(soft_ms)),
        password: a.password.clone(),
        seed: a.seed.seed,
        krakens,
        record_dir: a.record_streams.clone(),
        records: a.records.clone(),
        idle_timeout: (a.idle_timeout_s > 0).then(|| Duration::from_secs(a.idle_timeout_s)),
        max_connections: a.max_connections,
        max_connections_per_peer: a.max_connections_per_peer,
        ..ServerConfig::default()
    };
    if !a.clients.is_empty() {
        anyhow::ensure!(
            a.clients.len() >= 2,
            "a tournament needs at least two --client commands"
        );
        let entrants: Vec<Entrant> = a
            .clients
            .iter()
            .enumerate()
            .map(|(i, cmd)| Entrant::Command {
                name: entrant_name(i, cmd),
                cmd: cmd.clone(),
            })
            .collect();
        let cfg = TournamentConfig {
            games_per_pair: a.games,
            server: config,
            parallel: a.parallel,
            game_timeout: Duration::from_secs(60) + Duration::from_millis(a.hard_ms) * 62,
            seed: a.seed.seed.unwrap_or(2019),
        };
        let rows = tournament::round_robin(&entrants, &cfg).await?;
        println!("{}", tournament::table(&rows));
        return Ok(());
    }
    let server = Server::bind((host.as_str(), port), config).await?;
    tracing::info!("piranhas server listening on {}", server.local_addr());
    while let Some(g) = server.next_finished().await {
        tracing::info!("finished: {}", g.summary());
    }
    Ok(())
}
