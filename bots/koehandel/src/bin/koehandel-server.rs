//! `koehandel-server [--host H] [--port P]`: the reference koehandel market (spec C6):
//! `GET /?connect&url1=..&url4=..` starts a game, `GET /?log=ID` shows a log, `GET /` a web page.

use clap::Parser;
use kibitz_bots_koehandel::{server::MarketConfig, web};
use kibitz_net::cli::{self, AddrArgs, MoveLimitArgs, SeedArgs};
use std::time::Duration;

/// A Koehandel market: an HTTP server that runs games between four player endpoints.
/// `GET /?connect&url1=..&url4=..` starts a game (seat URLs must be `http://HOST:PORT/...`),
/// `GET /?log=ID` shows a player's log, `GET /` a web page to start games and read scores.
/// Other methods get 405; rejected requests are logged at warn (a few per 10 s, the rest
/// summarised).
#[derive(Parser)]
#[command(name = "koehandel-server", version)]
struct Args {
    /// Listen address (`--host`, `--port`).
    #[command(flatten)]
    addr: AddrArgs,
    /// Old form `ADDR:PORT` (overrides --host/--port).
    #[arg(long, hide = true)]
    listen: Option<String>,
    /// Log filter (error, warn, info, debug, trace or a tracing directive); RUST_LOG wins.
    #[arg(long, default_value = "info")]
    log_level: String,
    /// Time per request (`--time-ms`).
    #[command(flatten)]
    limit: MoveLimitArgs,
    /// Deck shuffle seed (`--seed`).
    #[command(flatten)]
    seed: SeedArgs,
    /// Consecutive failed requests after which a seat is treated as passive (0 = never).
    #[arg(long, default_value_t = 20)]
    give_up_after: u32,
    /// Milliseconds a client has to send a complete request head (also the keep-alive idle time).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    header_timeout_ms: u64,
    /// HTTP connections open at once (at least 1).
    #[arg(long, default_value_t = 512, value_parser = at_least_one())]
    max_connections: usize,
    /// HTTP connections open at once from one IP address (at least 1).
    #[arg(long, default_value_t = 32, value_parser = at_least_one())]
    max_connections_per_peer: usize,
    /// Folder for game records: every finished game is appended to DIR/koehandel.jsonl
    /// (JSON lines; `kibitz replay DIR/koehandel.jsonl`).
    #[arg(long, value_name = "DIR")]
    records: Option<std::path::PathBuf>,
}

/// A count flag that must be at least 1 (0 would refuse every connection).
fn at_least_one() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let a: Args = cli::parse(|c| {
        cli::defaults(&[
            ("host", "127.0.0.1"),
            ("port", "56789"),
            ("time_ms", "5000"),
            ("seed", "2010"),
        ])(c)
        .mut_arg("time_ms", |t| {
            t.help("Time a player has for each request in ms, connecting included (1 to 5000; the contest's is 5000)")
                .value_parser(clap::value_parser!(u64).range(1..=5000))
        })
        .mut_arg("seed", |s| s.help("Base seed of the deck shuffles (game M uses seed + M)"))
    });
    kibitz_net::logging::init_stdout(&a.log_level);
    let listen = a
        .listen
        .clone()
        .unwrap_or_else(|| a.addr.addr_or("127.0.0.1", 56789));
    let cfg = MarketConfig {
        deadline: a.limit.time_or(Duration::from_millis(5000)),
        seed: a.seed.seed.unwrap_or(2010),
        give_up_after: (a.give_up_after > 0).then_some(a.give_up_after),
        header_timeout: Duration::from_millis(a.header_timeout_ms),
        max_connections: a.max_connections,
        max_connections_per_peer: a.max_connections_per_peer,
        records: match &a.records {
            Some(dir) => Some(std::sync::Arc::new(
                kibitz_net::record::RecordWriter::create(dir, "koehandel")?,
            )),
            None => None,
        },
        ..MarketConfig::default()
    };
    let server = web::spawn(&listen, cfg).await?;
    tracing::info!("koehandel market on {}", server.url());
    tokio::signal::ctrl_c().await?;
    Ok(())
}
