//! `piranhas-bot`: the contest client. `-h HOST -p PORT [-r RESERVATION]` as the contest starts
//! clients; plays one game, logs its thinking (depth, score, pv, time) to stderr, closes.

use anyhow::Context;
use clap::{ArgAction, Parser};
use kibitz_bots_piranhas::client::{self, ClientConfig};
use kibitz_net::cli::{self, AddrArgs, PlayerArgs};
use kibitz_piranhas::agents::{AgentKind, AgentSpec};
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_piranhas::{EngineConfig, EvalParams};
use kibitz_search::agent::Agent;
use kibitz_search::clock::{MoveBudget, PIRANHAS};
use kibitz_search::params::Tunable;
use std::time::Duration;

/// Plays one game of Piranhas (Software-Challenge 2019) on a game server over TCP, started
/// as the contest starts its clients (`-h HOST -p PORT -r CODE`); logs its thinking.
#[derive(Parser, Debug)]
#[command(
    name = "piranhas-bot",
    version,
    disable_help_flag = true,
    after_help = "Players: search (our engine; the default), greedy (best move one ply deep) or \
                  random (uniformly random legal moves; --seed picks them)."
)]
struct Args {
    /// Print help.
    #[arg(long, action = ArgAction::Help)]
    help: Option<bool>,
    /// Server address (`-h/--host`, `-p/--port`; help is `--help` only).
    #[command(flatten)]
    addr: AddrArgs,
    /// Move chooser and its seed (`--player`, `--seed`).
    #[command(flatten)]
    player: PlayerArgs,
    /// Reservation code: `joinPrepared` with it, else `join`.
    #[arg(short = 'r', long)]
    reservation: Option<String>,
    /// Move budget in ms: from the server's move request until our move must have reached it
    /// (the contest allows 2000 before its soft limit). The search starts no new iteration
    /// after 0.65 of it, stops at budget − 2 × overhead, and a move leaves by budget −
    /// overhead at the latest.
    #[arg(long, default_value_t = PIRANHAS.budget.as_millis() as u64)]
    time_ms: u64,
    /// Part of the move budget kept for the network and a loaded machine, in ms.
    #[arg(long, default_value_t = PIRANHAS.overhead.as_millis() as u64)]
    overhead_ms: u64,
    /// Old flag: a cap on the search's hard deadline in ms (the budget now sets it).
    #[arg(long, hide = true)]
    hard_ms: Option<u64>,
    /// Maximum search depth (0 = unlimited).
    #[arg(long, default_value_t = 0)]
    depth: u32,
    /// Transposition table size in MiB (at most 3/4 of this machine's memory).
    #[arg(long, default_value_t = 64, value_parser = kibitz_net::memory::parse_table_mb)]
    hash_mb: usize,
    /// Search threads: more than 1 searches with Lazy SMP over one shared table (2 threads
    /// measured +66 ± 32 Elo over 1 at 200 ms per move). `auto` takes this machine's cores, at
    /// most 4; give `--threads 1` where other programs share the cores.
    #[arg(long, default_value = "auto", value_parser = cli::parse_threads)]
    threads: usize,
    /// Evaluation preset: `default` (= `v4`), `v2` (the default of commit 1305576, also
    /// `tuned`), `v1`, `v3` or `v5` (v4 with round-limit terms, weaker at fixed nodes);
    /// `--param` overrides single weights on top of it.
    #[arg(long, default_value = "default")]
    eval: String,
    /// Tunable override, `name=value` (repeatable): any evaluation weight, search knob or
    /// switch `kibitz piranhas params` lists, e.g. `end_plies=0` for the `v4` search.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Search this many nodes per move (reproducible moves; the time limits then only guard,
    /// and there is no pondering).
    #[arg(long)]
    nodes: Option<u64>,
    /// Think on the opponent's time: `true` or `false`. One thread searches the position after
    /// the reply the last search expected until the opponent's move arrives; when that reply
    /// comes (`ponder_hit 1` in the move's log line) the search starts on warm tables. Give
    /// `false` where other programs share the cores (e.g. matches played side by side).
    #[arg(long, default_value_t = client::DEFAULT_PONDER, action = clap::ArgAction::Set)]
    ponder: bool,
    /// Give up when the server sends nothing for this many seconds (0 = wait forever); a
    /// warning is logged every minute of silence (every half of this, if shorter) before
    /// that. Long on purpose: before the game starts the server may wait for the other
    /// player; once it runs, it speaks at least every 10 s.
    #[arg(long, default_value_t = 600, value_name = "S")]
    idle_timeout_s: u64,
    /// Log filter (error, warn, info, debug, trace or a tracing directive); RUST_LOG wins.
    // `--log` is the old name: a hidden alias, so scripts keep working.
    #[arg(long = "log-level", alias = "log", default_value = "info")]
    log_level: String,
}

/// The agent the flags ask for (`--seed` reaches it through [`ClientConfig::seed`]).
fn build_agent(a: &Args) -> anyhow::Result<Box<dyn Agent<Piranhas> + Send>> {
    let player = a.player.player.as_deref().unwrap_or("search");
    let plain = |kind| AgentSpec::new(kind, EngineConfig::default()).build();
    Ok(match player {
        "random" => plain(AgentKind::Random),
        "greedy" => plain(AgentKind::Greedy),
        "search" => {
            let eval = EvalParams::preset(&a.eval).with_context(|| {
                format!(
                    "unknown --eval {:?} (default, v1, v2, v3, v4, v5, tuned)",
                    a.eval
                )
            })?;
            let mut cfg = EngineConfig {
                eval,
                ..EngineConfig::default()
            };
            cfg.search.hash_mb = a.hash_mb;
            cfg.search.max_depth = if a.depth == 0 {
                cfg.search.max_depth
            } else {
                a.depth
            };
            cfg.threads = a.threads;
            if let Some(n) = a.nodes {
                cfg.search.max_nodes = n;
                cfg.search.smart_time = false;
            }
            for p in &a.params {
                cfg.apply(p).with_context(|| {
                    format!("--param {p} (`kibitz piranhas params` lists every name and range)")
                })?;
            }
            Box::new(client::search_agent(cfg))
        }
        other => anyhow::bail!("unknown player {other:?} (search, greedy, random)"),
    })
}

/// The move's times from `--time-ms` and `--overhead-ms` by the one clock rule with the
/// contest's soft share ([`PIRANHAS`]), the hard deadline capped by the old `--hard-ms` if
/// given.
fn clock(a: &Args) -> anyhow::Result<MoveBudget> {
    let mut b = PIRANHAS.budget_for(
        Duration::from_millis(a.time_ms),
        Duration::from_millis(a.overhead_ms),
    );
    if let Some(h) = a.hard_ms {
        b.hard = b.hard.min(Duration::from_millis(h));
        b.soft = b.soft.min(b.hard);
    }
    let b = b.with_room(
        Duration::from_millis(a.time_ms),
        Duration::from_millis(a.overhead_ms),
    )?;
    Ok(b)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let a: Args = cli::parse(|c| {
        cli::defaults(&[
            ("host", "localhost"),
            ("port", "13050"),
            ("player", "search"),
            ("seed", "1"),
        ])(c)
        .mut_arg("host", |h| h.short('h'))
        .mut_arg("port", |p| p.short('p'))
    });
    kibitz_net::logging::init(&a.log_level);
    let config = ClientConfig {
        host: a.addr.host.clone().unwrap_or_else(|| "localhost".into()),
        port: a.addr.port.unwrap_or(13050),
        reservation: a.reservation.clone(),
        idle_timeout: (a.idle_timeout_s > 0).then(|| Duration::from_secs(a.idle_timeout_s)),
        seed: a.player.seed.unwrap_or(1),
        ponder: a.ponder && a.nodes.is_none(),
        ..ClientConfig::default()
    }
    .with_clock(clock(&a)?);
    let agent = build_agent(&a)?;
    if a.player.player.as_deref().is_none_or(|p| p == "search") {
        tracing::info!("searching on {} thread(s)", a.threads);
    }
    let out = client::run(&config, agent).await?;
    match &out.abnormal {
        None => tracing::info!("game over: {}", out.summary()),
        Some(_) => anyhow::bail!("game ended abnormally: {}", out.summary()),
    }
    Ok(())
}
