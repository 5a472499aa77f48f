//! `kibitz maumau …`: matches between Mau-Mau players (engine: kibitz-maumau).

use clap::{Args, Subcommand, ValueEnum};
use std::time::Instant;

/// `kibitz maumau` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Old name of `kibitz match maumau` (kept for scripts).
    #[command(hide = true)]
    Match(MatchArgs),
    /// Time the deterministic ISMCTS bench workload.
    Bench,
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
    /// Player A: random, greedy, heuristic, ismcts.
    #[arg(long)]
    pub a: String,
    /// Player B: random, greedy, heuristic, ismcts.
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
}

/// Runs one `kibitz maumau` subcommand.
pub fn run(cmd: Cmd) -> anyhow::Result<()> {
    match cmd {
        Cmd::Match(args) => crate::arena::cli::run(forward(args)),
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

/// The old flags as `kibitz match maumau` flags (`--iterations` goes into both specs,
/// `--time-ms` becomes `--tc`, `--elo0/--elo1` the SPRT).
fn forward(a: MatchArgs) -> crate::arena::cli::MatchArgs {
    let with_iters = |spec: String| match (a.iterations, spec.starts_with("ismcts")) {
        (Some(k), true) if a.time_ms.is_none() => {
            let sep = if spec.contains(':') { "," } else { ":" };
            format!("{spec}{sep}iterations={k}")
        }
        _ => spec,
    };
    crate::arena::cli::MatchArgs {
        game: "maumau".into(),
        a: with_iters(a.a.clone()),
        b: with_iters(a.b.clone()),
        games: a.games as u64,
        seed: Some(a.seed),
        concurrency: a.threads,
        tc: a.time_ms,
        openings: None,
        sprt: Some(format!("{},{}", a.elo0, a.elo1)),
        sprt_stop: false,
        records: None,
        json: false,
        legacy_keys: false,
        exhaustion_winner: match a.exhaustion_winner {
            Exhaustion::SecondSeat => "second-seat".into(),
            Exhaustion::MostValidMoves => "most-valid-moves".into(),
        },
    }
}
