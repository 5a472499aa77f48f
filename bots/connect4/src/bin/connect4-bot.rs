//! `connect4-bot`: plays Connect Four on a contest server over UDP (see `kibitz_bots_connect4::client`).

use clap::Parser;
use kibitz_bots_connect4::client::{
    Bot, BotConfig, Ending, DEFAULT_THREADS, GIVE_UP_AFTER, REREGISTER_AFTER,
};
use kibitz_net::cli::{self, AddrArgs, PlayerArgs};
use kibitz_search::clock::{MoveBudget, CONNECT4};
use std::time::Duration;

/// Plays Connect Four on a contest server (UDP): registers, joins its seasons and answers
/// every move request in time.
#[derive(Parser, Debug)]
#[command(
    name = "connect4-bot",
    version,
    after_help = "Players: engine (book, solver and search; the default), weak (wins, blocks, \
                  else random), random (uniformly random legal moves, a baseline; --seed picks \
                  them), or any spec of the engine's parser, e.g. engine:depth=4 or \
                  search:depth=8 (--hash-mb, --depth, --nodes, --param apply to engines)."
)]
struct Args {
    /// Server address (`--host`, `--port`).
    #[command(flatten)]
    addr: AddrArgs,
    /// Move chooser and its seed (`--player`, `--seed`).
    #[command(flatten)]
    player: PlayerArgs,
    /// Our name (at most 30 UTF-16 units, no ';' or ',').
    #[arg(long)]
    name: String,
    /// Move budget in ms: from receiving YOURTURN until the reply must have reached the
    /// server (the contest allows 250, round trip included). The engine thinks about half of
    /// it and stops at budget − 2 × overhead; the reply leaves by budget − overhead.
    #[arg(long, default_value_t = CONNECT4.budget.as_millis() as u64)]
    time_ms: u64,
    /// Part of the move budget kept for the network and sending, in ms.
    #[arg(long, default_value_t = CONNECT4.overhead.as_millis() as u64)]
    overhead_ms: u64,
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
    /// Engine table size in MiB (at most 3/4 of this machine's memory).
    #[arg(long, default_value = "64", value_parser = kibitz_net::memory::parse_table_mb)]
    hash_mb: usize,
    /// Threads of the engine's solver proofs: more than 1 proves with Lazy SMP over one
    /// shared table. `auto` takes this machine's cores, at most 4; give `--threads 1` where
    /// other programs share the cores.
    #[arg(long, default_value = DEFAULT_THREADS, value_parser = cli::parse_threads)]
    threads: usize,
    /// Do not think on the opponent's time.
    #[arg(long)]
    no_ponder: bool,
    /// Old form of `--player random --seed N`.
    #[arg(long, hide = true, value_name = "N")]
    random: Option<u64>,
    /// Engine tunable `NAME=V` (repeatable).
    #[arg(long = "param")]
    params: Vec<String>,
    /// Send REGISTER again after this many seconds without a datagram from the server (another
    /// client on our IP can take our name with one REGISTER; a server that still knows us
    /// just answers WELCOME). At least 1.
    #[arg(long, default_value_t = REREGISTER_AFTER.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    reregister_s: u64,
    /// Stop after this many seconds without a datagram from the server (its last season is
    /// over, it stopped, or it never answered) or with the name refused; 0 = never.
    #[arg(long, default_value_t = GIVE_UP_AFTER.as_secs())]
    idle_exit_s: u64,
    /// On exit (Ctrl-C, or the server falling silent), print the time-per-move distribution.
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
    let a: Args = cli::parse(cli::defaults(&[
        ("host", "127.0.0.1"),
        ("port", "4446"),
        ("player", "engine"),
        ("seed", "1"),
    ]));
    kibitz_net::logging::init_stdout(&a.log_level);
    let (time, overhead) = (
        Duration::from_millis(a.time_ms),
        Duration::from_millis(a.overhead_ms),
    );
    MoveBudget::for_move(time, overhead).with_room(time, overhead)?;
    let seed = a.random.or(a.player.seed).unwrap_or(1);
    let player = match a.random {
        Some(_) => "random",
        None => a.player.player.as_deref().unwrap_or("engine"),
    };
    let mut spec = kibitz_connect4::agents::AgentSpec::parse(player).map_err(|e| {
        anyhow::anyhow!("unknown --player {player:?} (engine, weak, random, or a spec): {e}")
    })?;
    if let kibitz_connect4::agents::AgentSpec::Engine(e) = &mut spec {
        // The flag's default applies where the spec sets no table size.
        if !player.contains("hash=") {
            e.hash_mb = a.hash_mb;
        }
        // Likewise the thread count.
        if !player.contains("threads=") {
            e.threads = a.threads;
        }
        tracing::info!("proving on {} thread(s)", e.threads);
        e.depth = a.depth.or(e.depth);
        e.nodes = a.nodes.or(e.nodes);
        for p in &a.params {
            kibitz_search::params::Tunable::apply(&mut e.params, p)
                .map_err(|err| anyhow::anyhow!("--param {p}: {err}"))?;
        }
    }
    let cfg = BotConfig {
        time: Duration::from_millis(a.time_ms),
        overhead: Duration::from_millis(a.overhead_ms),
        columns: a.columns,
        rows: a.rows,
        connect: a.connect,
        player: spec,
        seed,
        ponder: !a.no_ponder,
        reregister_after: Duration::from_secs(a.reregister_s),
        give_up_after: (a.idle_exit_s > 0).then(|| Duration::from_secs(a.idle_exit_s)),
        ..BotConfig::new(
            a.addr.host.unwrap_or_else(|| "127.0.0.1".into()),
            a.addr.port.unwrap_or(4446),
            a.name,
        )
    };
    let bot = Bot::new(cfg).await?;
    let stats = bot
        .run(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    if stats.ending == Ending::ServerSilent {
        eprintln!(
            "connect4-bot: the server sent nothing for {} s (its last season is over or it \
             stopped); stopped after {} won, {} drawn, {} lost",
            a.idle_exit_s, stats.wins, stats.draws, stats.losses
        );
    }
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
