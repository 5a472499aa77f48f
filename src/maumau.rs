//! `kibitz maumau …`: matches between Mau-Mau players (engine: kibitz-maumau).

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use comfy_table::{presets::UTF8_FULL, Table};
use indicatif::{ProgressBar, ProgressStyle};
use kibitz_maumau::arena::{run_match, MatchResult, MoveBudget};
use kibitz_maumau::game::{Config, ExhaustionWinner};
use kibitz_maumau::player::make_player;
use kibitz_search::stats::{elo_from_wdl, win_rate_ci, Sprt, SprtStatus};
use std::time::Instant;

/// `kibitz maumau` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// In-process match on duplicate deals (each deal twice, seats swapped).
    Match(MatchArgs),
    /// Time the deterministic ISMCTS bench workload.
    Bench,
    /// Measure the determinizer's evidence weights from self-play of a field of players.
    #[cfg(feature = "research")]
    Prior(PriorArgs),
    /// List the ISMCTS tunables (set them in a player spec: `ismcts:param.NAME=V`).
    Params(crate::params_cli::ParamsArgs),
}

/// Flags of `kibitz maumau prior`.
#[cfg(feature = "research")]
#[derive(Args, Debug)]
pub struct PriorArgs {
    /// Players of the field (every ordered pair plays `--games` games).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "random,greedy,heuristic,ismcts:iters=1000"
    )]
    pub field: Vec<String>,
    /// Games per ordered pair.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
}

/// Winner rule on talon exhaustion.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum Exhaustion {
    /// The highest seat online wins (the real server's bug).
    SecondSeat,
    /// Most cards legally played wins (the README's intent).
    MostValidMoves,
}

/// Flags of `kibitz maumau match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Number of games (rounded up to an even number: deals are played twice).
    #[arg(long, default_value_t = 200)]
    pub games: u32,
    /// Player A: random, first, greedy, heuristic, ismcts.
    #[arg(long)]
    pub a: String,
    /// Player B: random, first, greedy, heuristic, ismcts.
    #[arg(long)]
    pub b: String,
    /// Time per move in milliseconds (searching players).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Iterations per move (searching players); overrides the default time of 100 ms.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Games played in parallel (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the first deal.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Winner rule on talon exhaustion.
    #[arg(long, value_enum, default_value_t = Exhaustion::SecondSeat)]
    pub exhaustion_winner: Exhaustion,
    /// SPRT H0 Elo.
    #[arg(long, default_value_t = 0.0)]
    pub elo0: f64,
    /// SPRT H1 Elo.
    #[arg(long, default_value_t = 50.0)]
    pub elo1: f64,
    /// Seats: 2 = duplicate match; 3-4 = A against copies of B, A's seat rotated over each deal.
    #[arg(long, default_value_t = 2)]
    pub players: usize,
}

/// Runs one `kibitz maumau` subcommand.
pub fn run(cmd: Cmd) -> anyhow::Result<()> {
    match cmd {
        Cmd::Match(args) => run_match_cmd(args),
        Cmd::Params(args) => {
            crate::params_cli::print(&kibitz_maumau::param_specs(), &args);
            Ok(())
        }
        #[cfg(feature = "research")]
        Cmd::Prior(args) => {
            let mut st = kibitz_maumau::prior::EvidenceStats::default();
            for a in &args.field {
                for b in &args.field {
                    make_player(a, 0, None, 1)?;
                    make_player(b, 0, None, 1)?;
                    st.add_games(Config::default(), 0..args.games, &|s| {
                        vec![
                            make_player(a, s, None, 1).expect("checked"),
                            make_player(b, s ^ 0x5555, None, 1).expect("checked"),
                        ]
                    });
                }
            }
            println!("{st}");
            Ok(())
        }
        Cmd::Bench => {
            let t = Instant::now();
            let steps = kibitz_maumau::bench();
            let secs = t.elapsed().as_secs_f64();
            println!(
                "maumau bench: {steps} simulated actions in {secs:.2} s ({:.0} actions/s)",
                steps as f64 / secs
            );
            Ok(())
        }
    }
}

fn run_match_cmd(args: MatchArgs) -> anyhow::Result<()> {
    for name in [&args.a, &args.b] {
        make_player(name, 0, None, 1)?;
    }
    let budget = match (args.time_ms, args.iterations) {
        (Some(t), _) => Some(MoveBudget::millis(t)),
        (None, Some(_)) => None,
        (None, None) => Some(MoveBudget::millis(100)),
    };
    let cfg = Config {
        players: 2,
        exhaustion_winner: match args.exhaustion_winner {
            Exhaustion::SecondSeat => ExhaustionWinner::SecondSeat,
            Exhaustion::MostValidMoves => ExhaustionWinner::MostValidMoves,
        },
    };
    if args.players > 2 {
        return run_table_cmd(&args, cfg, budget);
    }
    let deals = args.games.div_ceil(2).max(1);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("building the thread pool")?;
    let bar = ProgressBar::new(deals as u64 * 2);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed} / ~{eta}]")
            .expect("valid template"),
    );
    let sprt = Sprt {
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: 0.05,
        beta: 0.05,
    };
    let (a, b, iters) = (args.a.clone(), args.b.clone(), args.iterations);
    let t = Instant::now();
    let result = pool.install(|| {
        run_match(
            cfg,
            deals,
            args.seed,
            |s| make_player(&a, s, iters, 1).expect("checked name"),
            |s| make_player(&b, s, iters, 1).expect("checked name"),
            budget,
            &|r: &MatchResult| {
                if bar.is_hidden() && r.games.is_multiple_of(20) {
                    eprintln!("progress: {} games, A wins {}", r.games, r.a_wins);
                }
                bar.set_position(r.games as u64);
                let (rate, _) = win_rate_ci(r.a_wins, r.games);
                bar.set_message(format!("A {:.1} %", 100.0 * rate));
            },
        )
    });
    bar.finish_and_clear();
    print_result(&args, &result, &sprt, t.elapsed().as_secs_f64());
    Ok(())
}

fn run_table_cmd(args: &MatchArgs, cfg: Config, budget: Option<MoveBudget>) -> anyhow::Result<()> {
    let n = args.players.clamp(3, 4);
    let cfg = Config { players: n, ..cfg };
    let deals = args.games.div_ceil(n as u32).max(1);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("building the thread pool")?;
    let (a, b, iters) = (args.a.clone(), args.b.clone(), args.iterations);
    let t = Instant::now();
    let r = pool.install(|| {
        kibitz_maumau::arena::run_table(
            cfg,
            deals,
            args.seed,
            |s| make_player(&a, s, iters, 1).expect("checked name"),
            |s| make_player(&b, s, iters, 1).expect("checked name"),
            budget,
            &|r| {
                if r.games.is_multiple_of(20) {
                    eprintln!("progress: {} games, A wins {}", r.games, r.a_wins);
                }
            },
        )
    });
    let (rate, half) = win_rate_ci(r.a_wins, r.games);
    println!(
        "{n} seats: A={} vs {}x B={}: {} games, A won {} ({:.1} % ± {:.1}; fair share {:.1} %), exhausted {}, A penalties {}, {:.1} s wall",
        args.a,
        n - 1,
        args.b,
        r.games,
        r.a_wins,
        100.0 * rate,
        100.0 * half,
        100.0 / n as f64,
        r.exhausted,
        r.a_penalties,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn print_result(args: &MatchArgs, r: &MatchResult, sprt: &Sprt, secs: f64) {
    let (w, l) = (r.a_wins, r.games - r.a_wins);
    let (rate, half) = win_rate_ci(w, r.games);
    let elo = elo_from_wdl(w, 0, l);
    let status = match sprt.status(w, 0, l) {
        SprtStatus::Continue => "continue",
        SprtStatus::AcceptH0 => "H0",
        SprtStatus::AcceptH1 => "H1",
    };
    let (lo, hi) = sprt.bounds();
    let budget = match (args.time_ms, args.iterations) {
        (Some(t), _) => format!("{t} ms/move"),
        (None, Some(k)) => format!("{k} iterations/move"),
        (None, None) => "100 ms/move".into(),
    };
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec![
        "A",
        "B",
        "budget",
        "games",
        "A wins",
        "B wins",
        "A win rate",
        "Elo (A−B)",
        "A wins seat 0/1",
        "exhausted",
        "SPRT",
    ]);
    table.add_row(vec![
        args.a.clone(),
        args.b.clone(),
        budget,
        r.games.to_string(),
        w.to_string(),
        l.to_string(),
        format!("{:.1} % ± {:.1}", 100.0 * rate, 100.0 * half),
        elo.text(0),
        format!("{} / {}", r.a_wins_by_seat[0], r.a_wins_by_seat[1]),
        r.exhausted.to_string(),
        format!(
            "{status} (LLR {:.2} in [{lo:.2}, {hi:.2}], {}..{} Elo)",
            sprt.llr(w, 0, l),
            sprt.elo0,
            sprt.elo1
        ),
    ]);
    println!("{table}");
    println!(
        "{:.1} s wall, penalties A {} / B {}",
        secs, r.penalties[0], r.penalties[1]
    );
}
