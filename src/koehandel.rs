//! `kibitz koehandel …`: matches between Koehandel players (engine: kibitz-koehandel).

use clap::{Args, Subcommand};
use std::time::Instant;

/// `kibitz koehandel` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Old name of `kibitz match koehandel` (kept for scripts).
    #[command(hide = true)]
    Match(MatchArgs),
    /// Time the deterministic bench workload.
    Bench,
}

/// Flags of `kibitz koehandel match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Number of games (a multiple of 4 keeps the seat rotation complete).
    #[arg(long, default_value_t = 200)]
    pub games: u32,
    /// Four comma-separated player names (pass, random, heuristic, strong).
    #[arg(long, default_value = "strong,heuristic,heuristic,heuristic")]
    pub seats: String,
    /// Seed of the first deck.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played in parallel (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Runs one `kibitz koehandel` subcommand.
pub fn run(cmd: Cmd) -> anyhow::Result<()> {
    match cmd {
        Cmd::Match(args) => crate::arena::cli::run(forward(args)?),
        Cmd::Bench => {
            let t = Instant::now();
            let n = kibitz_koehandel::bench();
            let secs = t.elapsed().as_secs_f64();
            println!(
                "koehandel bench: {n} decisions in {secs:.2} s ({:.0} decisions/s)",
                n as f64 / secs
            );
            Ok(())
        }
    }
}

/// The old flags as `kibitz match koehandel` flags: A = the first name of `--seats`, B = the
/// second (the arena seats two of each).
fn forward(a: MatchArgs) -> anyhow::Result<crate::arena::cli::MatchArgs> {
    let names: Vec<&str> = a.seats.split(',').map(str::trim).collect();
    if names.len() != 4 {
        anyhow::bail!("--seats needs exactly 4 names, got {}", names.len());
    }
    if names[2..].iter().any(|n| *n != names[1]) {
        eprintln!(
            "note: the arena seats two copies of A = {} and two of B = {}; {} ignored",
            names[0],
            names[1],
            names[2..].join(",")
        );
    }
    Ok(crate::arena::cli::MatchArgs {
        game: "koehandel".into(),
        a: names[0].into(),
        b: names[1].into(),
        games: a.games as u64,
        seed: Some(a.seed),
        concurrency: a.threads,
        tc: None,
        openings: None,
        sprt: None,
        sprt_stop: false,
        records: None,
        json: false,
        legacy_keys: false,
        exhaustion_winner: "second-seat".into(),
    })
}
