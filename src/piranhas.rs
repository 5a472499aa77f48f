//! `kibitz piranhas …`: perft, bench, a single search, one shown game, and matches between
//! player specs. No game logic here: everything calls into `kibitz_piranhas`.

use anyhow::{anyhow, Context};
use clap::{Args, Subcommand};
use kibitz_piranhas::agents::AgentSpec;
use kibitz_piranhas::arena::{play_game, GameRecord};
use kibitz_piranhas::kraken::{parse_pair, random_pair};
use kibitz_piranhas::{Choice, Engine, EngineConfig, EvalParams, State};
use kibitz_search::time::TimeControl;
use rand::SeedableRng;
#[cfg(feature = "research")]
use rayon::prelude::*;
use std::time::{Duration, Instant};

mod perft;

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
    /// List the tunable parameters (name, default, min, max, step, doc), tab-separated.
    Params(crate::params_cli::ParamsArgs),
    /// Texel-style fit of the evaluation weights from self-play (reproducible from --seed).
    ///
    /// The positions depend only on --seed, --games, --nodes, --random-min/max, --per-game,
    /// --quiet-only, --no-pv-leaf and --eval (game g is seeded by mix(seed, g), so --threads
    /// does not change them); the fit only on the positions and --epochs, --l2, --lr,
    /// --val-every and --freeze. The defaults reproduce the `v3` preset:
    /// `kibitz piranhas tune --seed 1` (about 20 CPU-minutes; --save FILE keeps the
    /// positions, --load FILE refits from them in seconds).
    #[cfg(feature = "research")]
    Tune(TuneArgs),
}

/// Flags of `kibitz piranhas tune` (see its help for what a fit depends on).
#[cfg(feature = "research")]
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Seed of the self-play games (game g uses mix(seed, g): Kraken pair, random plies, kept
    /// positions).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play games.
    #[arg(long, default_value_t = 25000)]
    games: u32,
    /// Nodes per move in self-play.
    #[arg(long, default_value_t = 1000)]
    nodes: u64,
    /// Fewest random plies at the start of a game (variety).
    #[arg(long, default_value_t = 2)]
    random_min: u32,
    /// Most random plies at the start of a game (each game draws its number uniformly).
    #[arg(long, default_value_t = 8)]
    random_max: u32,
    /// Positions kept per game at most, drawn at random (0 = all; one game's positions are
    /// strongly correlated).
    #[arg(long, default_value_t = 8)]
    per_game: usize,
    /// Keep the positions themselves instead of the ends of their principal variations.
    #[arg(long)]
    no_pv_leaf: bool,
    /// Keep only positions where the side to move has no capture (few in Piranhas).
    #[arg(long)]
    quiet_only: bool,
    /// Adam steps of the fit at most (the weights of the best validation epoch are kept).
    #[arg(long, default_value_t = 2000)]
    epochs: u32,
    /// L2 pull towards the starting weights, per weight λ·(Δw·σ(feature)/scale)².
    #[arg(long, default_value_t = 0.005)]
    l2: f64,
    /// Adam step size in weight units.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// One game in this many is held out for validation (0 = none).
    #[arg(long, default_value_t = 5)]
    val_every: u32,
    /// Evaluation preset the self-play uses and the fit starts from.
    #[arg(long, default_value = "v2")]
    eval: String,
    /// Self-play threads (the data does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Weights the fit leaves at their preset values (comma-separated).
    #[arg(long, default_value = "tempo,mobility")]
    freeze: String,
    /// Write the self-play positions to this file (`game turn result board` per line).
    #[arg(long)]
    save: Option<std::path::PathBuf>,
    /// Fit on positions read from this file instead of playing games.
    #[arg(long)]
    load: Option<std::path::PathBuf>,
}

/// Flags of `kibitz piranhas search`.
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// Kraken squares `x,y,x,y` for the start position.
    #[arg(long, default_value = "3,3,6,7")]
    kraken: String,
    /// A position as the data files write it (100 characters) instead of the start position.
    /// A board whose first square is empty starts with `-`: it is taken as the value, not
    /// as a flag.
    #[arg(long, allow_hyphen_values = true)]
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
    /// Search threads (more than 1: Lazy SMP over a shared lock-free table).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Evaluation preset: `default` (= `v4`), `v1`, `v2` (= `tuned`), `v3` or `v5` (v4 with
    /// round-limit terms; weaker at fixed nodes).
    #[arg(long, default_value = "default")]
    eval: String,
    /// Tunable override `name=value` (repeatable): an evaluation weight, search knob or
    /// switch (`kibitz piranhas params`), e.g. `end_plies=0`.
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
        Cmd::Perft { depth, kraken, all } => perft::run_perft(depth, &kraken, all),
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
        #[cfg(feature = "research")]
        Cmd::Tune(args) => run_tune(args),
        Cmd::Params(args) => {
            crate::params_cli::print(&kibitz_piranhas::param_specs(), &args);
            Ok(())
        }
    }
}

#[cfg(feature = "research")]
fn run_tune(a: TuneArgs) -> anyhow::Result<()> {
    use kibitz_piranhas::tune::{fit, is_validation, self_play, FitConfig, Position, SelfPlay};
    use kibitz_piranhas::tune::{Sample, TUNED_NAMES};
    let start = eval_params(&a.eval)?;
    let t = Instant::now();
    let positions: Vec<Position> = match &a.load {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            text.lines()
                .enumerate()
                .map(|(i, l)| {
                    Position::from_line(l)
                        .ok_or_else(|| anyhow!("{}:{}: not a position line", path.display(), i + 1))
                })
                .collect::<anyhow::Result<_>>()?
        }
        None => {
            let cfg = SelfPlay {
                seed: a.seed,
                nodes: a.nodes,
                random_plies: (a.random_min, a.random_max),
                per_game: a.per_game,
                quiet_only: a.quiet_only,
                pv_leaf: !a.no_pv_leaf,
            };
            let threads = a.threads.max(1);
            let chunk = a.games.div_ceil(threads);
            let parts: Vec<Vec<Position>> = (0..threads)
                .into_par_iter()
                .map(|i| {
                    let lo = (i * chunk).min(a.games);
                    self_play(&cfg, lo..(lo + chunk).min(a.games), &start)
                })
                .collect();
            let positions: Vec<Position> = parts.into_iter().flatten().collect();
            println!(
                "self-play: {} games at {} nodes/move, {} positions in {:.1} s",
                a.games,
                a.nodes,
                positions.len(),
                t.elapsed().as_secs_f64()
            );
            positions
        }
    };
    if let Some(path) = &a.save {
        let mut text = String::new();
        for p in &positions {
            text.push_str(&p.to_line());
            text.push('\n');
        }
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    let samples: Vec<Sample> = positions.par_iter().map(Position::sample).collect();
    let (val, train): (Vec<Sample>, Vec<Sample>) = samples
        .into_iter()
        .partition(|s| is_validation(s.game, a.val_every));
    let games = |v: &[Sample]| {
        let mut g: Vec<u32> = v.iter().map(|s| s.game).collect();
        g.dedup();
        g.len()
    };
    println!(
        "train: {} positions from {} games; validation: {} positions from {} games",
        train.len(),
        games(&train),
        val.len(),
        games(&val)
    );
    let n = train.len().max(1) as f64;
    let mean_abs: Vec<String> = (0..TUNED_NAMES.len())
        .map(|i| {
            let m = train.iter().map(|s| s.x[i].abs()).sum::<f64>() / n;
            format!("{}={m:.2}", TUNED_NAMES[i])
        })
        .collect();
    println!("mean |feature|: {}", mean_abs.join(" "));
    let cfg = FitConfig {
        epochs: a.epochs,
        frozen: a.freeze.split(',').map(|s| s.trim().to_string()).collect(),
        l2: a.l2,
        lr: a.lr,
    };
    let f = fit(&train, &val, &start, &cfg);
    println!(
        "scale {:.1}  train loss {:.5} -> {:.5}  validation loss {:.5} -> {:.5}  (best epoch {})",
        f.scale, f.train_before, f.train_after, f.val_before, f.val_after, f.best_epoch
    );
    let mut spec = Vec::new();
    for name in TUNED_NAMES {
        let (old, new) = (
            start.get(name).unwrap_or(0),
            f.params.get(name).unwrap_or(0),
        );
        println!("{name:>12} {old:>6} -> {new:>6}");
        spec.push(format!("param.{name}={new}"));
    }
    println!("spec: {}", spec.join(","));
    Ok(())
}

/// The evaluation preset named `preset`.
fn eval_params(preset: &str) -> anyhow::Result<EvalParams> {
    EvalParams::preset(preset).ok_or_else(|| anyhow!("unknown eval preset {preset:?}"))
}

/// Applies `--param name=value` overrides through the engine's registry: evaluation weights,
/// search knobs and switches alike (`kibitz piranhas params` lists them).
fn set_params(config: &mut EngineConfig, overrides: &[String]) -> anyhow::Result<()> {
    use kibitz_search::params::Tunable;
    for o in overrides {
        config.apply(o).with_context(|| {
            format!("--param {o} (`kibitz piranhas params` lists every name and range)")
        })?;
    }
    Ok(())
}

fn run_search(a: SearchArgs) -> anyhow::Result<()> {
    let state = match &a.board {
        Some(b) => State::from_letters(b, a.turn)?,
        None => State::start(parse_pair(&a.kraken)?),
    };
    let mut config = EngineConfig {
        eval: eval_params(&a.eval)?,
        threads: a.threads,
        ..EngineConfig::default()
    };
    set_params(&mut config, &a.params)?;
    config.search.hash_mb = a.hash_mb;
    if let Some(d) = a.depth {
        config.search.max_depth = d;
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
    let (sa, sb): (AgentSpec, AgentSpec) = (a.parse()?, b.parse()?);
    let krakens = match kraken {
        Some(k) => parse_pair(k)?,
        None => random_pair(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)),
    };
    let (mut pa, mut pb) = (sa.build(), sb.build());
    let rec = play_game([pa.as_mut(), pb.as_mut()], [seed, seed + 1], krakens);
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
        (None, Some((c, e))) => format!("{c} broke the rules: {e}"),
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
        play: crate::arena::play_flags::PlayFlags {
            seed: Some(a.seed),
            concurrency: Some(a.threads),
            ..Default::default()
        },
        sprt: Some(a.sprt),
        sprt_stop: a.sprt_stop,
        records: None,
        json: a.json,
        legacy_keys: true,
        exhaustion_winner: "second-seat".into(),
        seats: None,
        adjudicate: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `kibitz piranhas …` as the binary parses it.
    #[derive(Parser, Debug)]
    struct Cli {
        #[command(subcommand)]
        cmd: Cmd,
    }

    /// Start position with Kraken (3,3) and (6,7) in the data files' notation: it starts
    /// with `-` (the empty corner (0,0)).
    const START: &str = "-BBBBBBBB-R--------RR--------RR--O-----RR--------RR--------RR--------RR-----O--RR--------R-BBBBBBBB-";

    #[test]
    fn a_board_starting_with_a_dash_is_a_value_not_a_flag() {
        for args in [
            vec!["kibitz", "search", "--board", START],
            vec!["kibitz", "search", "--board", START, "--turn", "0"],
        ] {
            let cli = Cli::try_parse_from(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
            let Cmd::Search(a) = cli.cmd else {
                panic!("not search")
            };
            assert_eq!(a.board.as_deref(), Some(START));
            assert_eq!(a.turn, 0);
        }
        // The `=` form keeps working; the flag after it is still a flag.
        let cli = Cli::try_parse_from(["kibitz", "search", &format!("--board={START}")]).unwrap();
        assert!(matches!(
            cli.cmd,
            Cmd::Search(SearchArgs { board: Some(_), .. })
        ));
    }
}
