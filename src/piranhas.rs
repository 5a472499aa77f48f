//! `kibitz piranhas …`: perft, bench, a single search, one shown game, and matches between
//! player specs. No game logic here: everything calls into `kibitz_piranhas`.

use anyhow::{anyhow, bail, Context};
use clap::{Args, Subcommand};
use kibitz_piranhas::arena::{play_game, GameRecord};
use kibitz_piranhas::kraken::{parse_pair, random_pair};
use kibitz_piranhas::players::PlayerSpec;
use kibitz_piranhas::{perft, Choice, Engine, EngineConfig, EvalParams, State};
use kibitz_search::time::TimeControl;
use rand::SeedableRng;
use std::time::{Duration, Instant};

/// `kibitz piranhas` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Leaf counts of pure move generation from the start position (RED to move).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Kraken squares `x,y,x,y` (default 3,3,6,7).
        #[arg(long, default_value = "3,3,6,7")]
        kraken: String,
        /// Print every depth from 1 up to `depth`.
        #[arg(long)]
        all: bool,
    },
    /// Deterministic search bench: node count (the signature) and nodes/s.
    Bench,
    /// Search one position and print every iteration.
    Search(SearchArgs),
    /// Play one game between two player specs and show the board after every move.
    Game {
        /// RED player spec.
        #[arg(long, default_value = "search:time=300")]
        a: String,
        /// BLUE player spec.
        #[arg(long, default_value = "greedy")]
        b: String,
        /// Kraken squares `x,y,x,y` (default: random from --seed).
        #[arg(long)]
        kraken: Option<String>,
        /// Seed for the Kraken and random players.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Old name of `kibitz match piranhas` (kept for scripts).
    #[command(hide = true)]
    Match(MatchArgs),
}

/// Flags of `kibitz piranhas search`.
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// Kraken squares `x,y,x,y` for the start position.
    #[arg(long, default_value = "3,3,6,7")]
    kraken: String,
    /// A position as the data files write it (100 characters) instead of the start position.
    #[arg(long)]
    board: Option<String>,
    /// Turn of `--board` (0..=60; even = RED to move).
    #[arg(long, default_value_t = 0)]
    turn: u32,
    /// Soft time budget in ms: no new iteration after it.
    #[arg(long, default_value_t = 1200)]
    time_ms: u64,
    /// Hard deadline in ms (default: 4/3 of the soft budget, i.e. 1600 for 1200).
    #[arg(long)]
    hard_ms: Option<u64>,
    /// Maximum depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 32)]
    hash_mb: usize,
    /// Search threads (only 1 is implemented).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Evaluation preset: `tuned` or `v1`.
    #[arg(long, default_value = "tuned")]
    eval: String,
    /// Evaluation weight override `name=value` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
}

/// Flags of `kibitz piranhas match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Number of games (rounded up to an even number: each Kraken pair is played twice).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Player A, e.g. `search:time=100,param.rim=8`, `greedy`, `random`.
    #[arg(long)]
    a: String,
    /// Player B.
    #[arg(long)]
    b: String,
    /// Games played in parallel.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Match seed (Kraken pairs, random players).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// SPRT hypotheses `elo0,elo1` (alpha = beta = 0.05).
    #[arg(long, default_value = "0,10")]
    sprt: String,
    /// Stop early when the SPRT accepts a hypothesis.
    #[arg(long)]
    sprt_stop: bool,
    /// Print one JSON line `{"w":..,"d":..,"l":..,...}` instead of the table (for tuning scripts).
    #[arg(long)]
    json: bool,
}

/// Runs one `kibitz piranhas` subcommand.
pub fn run(cmd: Cmd) -> anyhow::Result<()> {
    match cmd {
        Cmd::Perft { depth, kraken, all } => run_perft(depth, &kraken, all),
        Cmd::Bench => {
            let t = Instant::now();
            let nodes = kibitz_piranhas::bench();
            let s = t.elapsed().as_secs_f64();
            println!(
                "piranhas bench: {nodes} nodes  {:.3} s  {:.0} nodes/s",
                s,
                nodes as f64 / s
            );
            Ok(())
        }
        Cmd::Search(args) => run_search(args),
        Cmd::Game { a, b, kraken, seed } => run_game(&a, &b, kraken.as_deref(), seed),
        Cmd::Match(args) => crate::arena::cli::run(forward(args)),
    }
}

fn run_perft(depth: u32, kraken: &str, all: bool) -> anyhow::Result<()> {
    let state = State::start(parse_pair(kraken)?);
    println!("{state}");
    let from = if all { 1 } else { depth };
    for d in from..=depth {
        let t = Instant::now();
        let n = perft(&state, d);
        let s = t.elapsed().as_secs_f64().max(1e-9);
        println!(
            "perft {d}: {n} leaves  {:.3} s  {:.0} nodes/s",
            s,
            n as f64 / s
        );
    }
    Ok(())
}

fn eval_params(preset: &str, overrides: &[String]) -> anyhow::Result<EvalParams> {
    let mut p =
        EvalParams::preset(preset).ok_or_else(|| anyhow!("unknown eval preset {preset:?}"))?;
    for o in overrides {
        let (k, v) = o
            .split_once('=')
            .ok_or_else(|| anyhow!("--param wants name=value, got {o:?}"))?;
        let v: i32 = v.parse().with_context(|| format!("--param {o}"))?;
        if !p.set(k, v) {
            bail!(
                "unknown eval weight {k:?}; known: {}",
                EvalParams::NAMES.join(", ")
            );
        }
    }
    Ok(p)
}

fn run_search(a: SearchArgs) -> anyhow::Result<()> {
    let state = match &a.board {
        Some(b) => State::from_letters(b, a.turn)?,
        None => State::start(parse_pair(&a.kraken)?),
    };
    let mut config = EngineConfig {
        eval: eval_params(&a.eval, &a.params)?,
        threads: a.threads,
        ..EngineConfig::default()
    };
    config.search.hash_mb = a.hash_mb;
    if let Some(d) = a.depth {
        config.search.max_depth = d;
    }
    if a.threads > 1 {
        eprintln!(
            "note: the search is single-threaded; --threads {} is ignored",
            a.threads
        );
    }
    println!("{state}");
    let mut engine = Engine::new(config);
    let soft = Duration::from_millis(a.time_ms);
    let hard = a.hard_ms.map(Duration::from_millis).unwrap_or(soft * 4 / 3);
    let tc = TimeControl::new(soft, hard);
    let start = Instant::now();
    let print = |c: &Choice| {
        let s = start.elapsed().as_secs_f64().max(1e-9);
        let pv: Vec<String> = c.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "depth {:>2}  score {:>6}  nodes {:>10}  {:>8.0} nps  {:>6.0} ms  pv {}",
            c.depth,
            c.score,
            c.nodes,
            c.nodes as f64 / s,
            s * 1000.0,
            pv.join(" ")
        );
    };
    let c = engine.choose_with(&state, &tc, print);
    let s = start.elapsed().as_secs_f64().max(1e-9);
    match c.mv {
        Some(m) => println!(
            "best {m}  depth {}  nodes {}  {:.0} nodes/s  {:.0} ms",
            c.depth,
            c.nodes,
            c.nodes as f64 / s,
            s * 1000.0
        ),
        None => println!("no legal move"),
    }
    Ok(())
}

fn run_game(a: &str, b: &str, kraken: Option<&str>, seed: u64) -> anyhow::Result<()> {
    let (sa, sb): (PlayerSpec, PlayerSpec) = (a.parse()?, b.parse()?);
    let krakens = match kraken {
        Some(k) => parse_pair(k)?,
        None => random_pair(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)),
    };
    let (mut pa, mut pb) = (sa.build(seed), sb.build(seed + 1));
    let rec = play_game([pa.as_mut(), pb.as_mut()], krakens);
    let mut state = State::start(krakens);
    println!("RED = {a}, BLUE = {b}\n{state}\n");
    for m in &rec.moves {
        state = state.apply(*m)?;
        println!("{m}\n{state}\n");
    }
    println!("{}", describe(&rec));
    Ok(())
}

fn describe(rec: &GameRecord) -> String {
    match (&rec.result, &rec.violation) {
        (Some(r), _) => r.to_string(),
        (None, Some((c, Some(e)))) => format!("{c} broke the rules: {e}"),
        (None, Some((c, None))) => format!("{c} returned no move"),
        (None, None) => "unfinished".into(),
    }
}

/// The old flags as `kibitz match piranhas` flags.
fn forward(a: MatchArgs) -> crate::arena::cli::MatchArgs {
    crate::arena::cli::MatchArgs {
        game: "piranhas".into(),
        a: a.a,
        b: a.b,
        games: a.games as u64,
        seed: Some(a.seed),
        concurrency: Some(a.threads),
        tc: None,
        openings: None,
        sprt: Some(a.sprt),
        sprt_stop: a.sprt_stop,
        records: None,
        json: a.json,
        legacy_keys: true,
        exhaustion_winner: "second-seat".into(),
    }
}
