//! `kibitz koehandel …`: matches between Koehandel players (engine: kibitz-koehandel).

use clap::{Args, Subcommand};
use comfy_table::{presets::UTF8_FULL, Table};
use indicatif::{ProgressBar, ProgressStyle};
use kibitz_koehandel::runner::run_match;
use kibitz_koehandel::PLAYER_NAMES;
use kibitz_search::params::Tunable;
use kibitz_search::stats::mean_ci;
use std::time::Instant;

/// `kibitz koehandel` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// In-process match of four players, seats rotated over the same deck order.
    Match(MatchArgs),
    /// Time the deterministic bench workload.
    Bench,
    /// List the strong player's tunables (name, default, range, step, doc; tab-separated).
    Params(crate::params_cli::ParamsArgs),
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
    /// A strong-player tunable `name=value` applied to every `strong` seat (repeatable; see
    /// `kibitz koehandel params`). Same as writing `strong:param.name=value`.
    #[arg(long = "param")]
    pub params: Vec<String>,
}

/// Runs one `kibitz koehandel` subcommand.
pub fn run(cmd: Cmd) -> anyhow::Result<()> {
    match cmd {
        Cmd::Match(args) => run_match_cmd(args),
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
        Cmd::Params(args) => {
            crate::params_cli::print(&kibitz_koehandel::param_specs(), &args);
            Ok(())
        }
    }
}

fn run_match_cmd(args: MatchArgs) -> anyhow::Result<()> {
    let mut suffix = String::new();
    for p in &args.params {
        let mut check = kibitz_koehandel::strong::StrongParams::default();
        check
            .apply(p)
            .map_err(|e| anyhow::anyhow!("--param {p}: {e}"))?;
        suffix.push_str(&format!(":param.{}", p.trim()));
    }
    let names: Vec<String> = args
        .seats
        .split(',')
        .map(|s| {
            let s = s.trim();
            if s.split(':').next() == Some("strong") {
                format!("{s}{suffix}")
            } else {
                s.to_string()
            }
        })
        .collect();
    let entrants: [String; 4] = names.try_into().map_err(|v: Vec<String>| {
        anyhow::anyhow!(
            "--seats needs exactly 4 names, got {} (known: {})",
            v.len(),
            PLAYER_NAMES.join(", ")
        )
    })?;
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let t = Instant::now();
    let (results, decisions) =
        run_match(&entrants, args.games, args.seed, threads, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let secs = t.elapsed().as_secs_f64();

    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec![
        "entrant",
        "games",
        "win rate ± 95%",
        "firsts",
        "mean score ± 95%",
        "bluffs caught",
        "defaults",
    ]);
    for (i, r) in results.iter().enumerate() {
        let n = r.scores.len();
        let best: Vec<f64> = win_shares(&results, i);
        let (w, wh) = mean_ci(&best);
        let (m, mh) = mean_ci(&r.scores);
        table.add_row(vec![
            format!("{} {}", i + 1, r.name),
            n.to_string(),
            format!("{:.1} % ± {:.1}", 100.0 * w, 100.0 * wh),
            r.firsts.to_string(),
            format!("{m:.0} ± {mh:.0}"),
            r.bluffs.to_string(),
            r.defaults.to_string(),
        ]);
    }
    println!("{table}");
    println!(
        "{} games in {secs:.1} s, {decisions} decisions ({:.1} µs/decision incl. market, {threads} threads)",
        args.games,
        secs * 1e6 * threads as f64 / decisions.max(1) as f64
    );
    Ok(())
}

/// Per-game win shares of entrant `i` (1/k for a k-way tie for first).
fn win_shares(results: &[kibitz_koehandel::runner::EntrantResult], i: usize) -> Vec<f64> {
    let games = results[i].scores.len();
    (0..games)
        .map(|g| {
            let best = results.iter().map(|r| r.scores[g]).fold(f64::MIN, f64::max);
            let ties = results.iter().filter(|r| r.scores[g] == best).count() as f64;
            if results[i].scores[g] == best {
                1.0 / ties
            } else {
                0.0
            }
        })
        .collect()
}
