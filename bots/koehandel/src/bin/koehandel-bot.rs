//! `koehandel-bot [--host H] [--port P] [--strategy NAME]`: our player endpoint for the
//! koehandel market.

use clap::Parser;
use kibitz_bots_koehandel::client;
use kibitz_net::cli::{self, AddrArgs, PlayerArgs};
use kibitz_search::clock::{MoveBudget, KOEHANDEL};
use std::time::Duration;

/// A Koehandel player for the market: an HTTP endpoint that answers the market's requests
/// with the chosen player's moves, for any number of games at once.
#[derive(Parser)]
#[command(
    name = "koehandel-bot",
    version,
    after_help = "Players: strong (our best; the default), heuristic, random or pass (never \
                  answers). Options follow the name: strong:worlds=32, heuristic:rate=0.5."
)]
struct Args {
    /// Listen address (`--host`, `--port`; not the market's 56789).
    #[command(flatten)]
    addr: AddrArgs,
    /// Player and base seed (`--player`, `--seed`).
    #[command(flatten)]
    player: PlayerArgs,
    /// Old form `ADDR:PORT` (overrides --host/--port).
    #[arg(long, hide = true)]
    listen: Option<String>,
    /// Log filter (error, warn, info, debug, trace or a tracing directive); RUST_LOG wins.
    #[arg(long, default_value = "info")]
    log_level: String,
    /// Move budget in ms: from the market's request until our answer must have reached it
    /// (the market allows 5000, connecting included). The strong strategy stops thinking by
    /// budget − 2 × overhead; any decision still running at budget − overhead is answered
    /// with the empty reply.
    #[arg(long, default_value_t = KOEHANDEL.budget.as_millis() as u64)]
    time_ms: u64,
    /// Part of the move budget kept for connecting and the HTTP round trip, in ms.
    #[arg(long, default_value_t = KOEHANDEL.overhead.as_millis() as u64)]
    overhead_ms: u64,
    /// Milliseconds a client has to send a complete request head (also the keep-alive idle time).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    header_timeout_ms: u64,
    /// HTTP connections open at once (at least 1).
    #[arg(long, default_value_t = 512, value_parser = at_least_one())]
    max_connections: usize,
    /// HTTP connections open at once from one IP address (at least 1).
    #[arg(long, default_value_t = 128, value_parser = at_least_one())]
    max_connections_per_peer: usize,
}

/// A count flag that must be at least 1 (0 would refuse every connection).
fn at_least_one() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Args = cli::parse(|c| {
        cli::defaults(&[("host", "127.0.0.1"), ("port", "56790"), ("seed", "1")])(c)
            .mut_arg("port", |p| {
                p.help("Port to listen on (0 = any free port); not the market's 56789")
            })
            .mut_arg("seed", |s| {
                s.help("Base seed of the player's randomness (each game's player is seeded from it and the game's ids)")
            })
            .mut_arg("player", |p| p.help("How the bot plays [default: strong]"))
    });
    kibitz_net::logging::init_stdout(&args.log_level);
    let listen = args
        .listen
        .clone()
        .unwrap_or_else(|| args.addr.addr_or("127.0.0.1", 56790));
    let strategy = args
        .player
        .player
        .clone()
        .unwrap_or_else(|| client::best_strategy().to_string());
    let (budget, overhead) = (
        Duration::from_millis(args.time_ms),
        Duration::from_millis(args.overhead_ms),
    );
    let clock = MoveBudget::for_move(budget, overhead).with_room(budget, overhead)?;
    let limits = client::EndpointLimits {
        header_timeout: Duration::from_millis(args.header_timeout_ms),
        max_connections: args.max_connections,
        max_connections_per_peer: args.max_connections_per_peer,
        answer_by: clock.send_by,
        move_budget: Some(clock),
    };
    let seed = args.player.seed.unwrap_or(1);
    let bot = client::spawn_with(&listen, &strategy, seed, limits).await?;
    tracing::info!("koehandel bot ({strategy}) listening on {}", bot.url());
    tokio::signal::ctrl_c().await?;
    Ok(())
}
