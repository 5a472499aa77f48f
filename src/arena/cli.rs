//! `kibitz match <game>`: flags, the human-readable report and the `--json` line
//! (the contract with the tuning scripts: tuning/README.md).
//!
//! # Stopping a match
//! SIGINT (Ctrl-C) or SIGTERM stops a match cleanly: no further game starts, the running
//! ones play to their end, and the report (table, Elo, SPRT; or the `--json` line, with an
//! `interrupted` object) covers the games that finished, followed by a line that says the
//! match was interrupted (on stdout after the table; on stderr with `--json`). The record file holds exactly those games, one whole JSON
//! line each. The exit code is then 128 + the signal's number, as a shell reports a process
//! the signal killed: [`EXIT_SIGINT`] (130) or [`EXIT_SIGTERM`] (143). A second signal
//! while the running games finish ends the process at once with the same code.

use super::play_flags::{PlayFlags, Resolved};
use super::{
    adapter, run_match_interruptible, Interrupted, MatchOutcome, MatchSettings, SideTally,
};
use anyhow::{anyhow, Context};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use kibitz_search::stats::{elo_from_wdl, Pentanomial, Sprt, SprtStatus};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Exit code of a match stopped by SIGINT (128 + 2).
pub const EXIT_SIGINT: i32 = 130;

/// Exit code of a match stopped by SIGTERM (128 + 15).
pub const EXIT_SIGTERM: i32 = 143;

/// The exit code of a match stopped by `signal`: 128 + its number.
fn exit_code(signal: i32) -> i32 {
    match signal {
        2 => EXIT_SIGINT,
        15 => EXIT_SIGTERM,
        n => 128 + n,
    }
}

/// A signal's name for the report.
fn signal_name(signal: i32) -> String {
    match signal {
        2 => "SIGINT".into(),
        15 => "SIGTERM".into(),
        n => format!("signal {n}"),
    }
}

/// From now on, SIGINT and SIGTERM no longer kill the process: the first one stores its
/// number in the returned flag (the runner then starts no new game) and says so on stderr;
/// a second one exits at once with 128 + its number. The signals are caught on a thread of
/// their own (a one-thread tokio runtime), registered before this returns.
#[cfg(unix)]
fn catch_signals() -> anyhow::Result<Arc<AtomicI32>> {
    use tokio::signal::unix::{signal, SignalKind};
    let got = Arc::new(AtomicI32::new(0));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .context("starting the signal watcher")?;
    let (mut int, mut term) = rt
        .block_on(async {
            Ok::<_, std::io::Error>((
                signal(SignalKind::interrupt())?,
                signal(SignalKind::terminate())?,
            ))
        })
        .context("catching SIGINT and SIGTERM")?;
    let flag = Arc::clone(&got);
    std::thread::Builder::new()
        .name("match-signals".into())
        .spawn(move || {
            rt.block_on(async move {
                loop {
                    let signal = tokio::select! {
                        Some(()) = int.recv() => 2,
                        Some(()) = term.recv() => 15,
                        else => return,
                    };
                    if flag.swap(signal, Ordering::SeqCst) != 0 {
                        eprintln!("{}: stopping now", signal_name(signal));
                        std::process::exit(exit_code(signal));
                    }
                    eprintln!(
                        "{}: starting no more games; the running ones finish (again to stop now)",
                        signal_name(signal)
                    );
                }
            })
        })
        .context("starting the signal watcher")?;
    Ok(got)
}

/// Elsewhere the signals keep their default action.
#[cfg(not(unix))]
fn catch_signals() -> anyhow::Result<Arc<AtomicI32>> {
    Ok(Arc::new(AtomicI32::new(0)))
}

/// Flags of `kibitz match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// The game: connect4, piranhas, maumau or koehandel.
    pub game: String,
    /// Player A's spec, e.g. `search:nodes=2000,param.fish=60` (piranhas),
    /// `engine:depth=8` (connect4), `ismcts:iterations=2000,param.c=0.8` (maumau),
    /// `strong:worlds=32` (koehandel).
    #[arg(long)]
    pub a: String,
    /// Player B's spec.
    #[arg(long)]
    pub b: String,
    /// Games (rounded up to whole pairing units: one game per seat of A, so 2 for two-seat
    /// games, 3–4 for Mau-Mau at `--seats 3|4`, 4 for Koehandel).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Seed, concurrency, default time, openings or deals.
    #[command(flatten)]
    pub play: PlayFlags,
    /// SPRT `elo0,elo1[,alpha,beta]` (default alpha = beta = 0.05), LLR shown as it runs.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Stop when the SPRT decides (at the first whole pairing unit, in game order).
    #[arg(long, requires = "sprt")]
    pub sprt_stop: bool,
    /// Write every game as a JSON-lines record to `DIR/<game>-<seed>.jsonl`.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Print exactly one JSON object on stdout at the end (nothing else on stdout).
    #[arg(long)]
    pub json: bool,
    /// Also emit the old `kibitz piranhas match --json` keys (w, d, l, error95, llr) for
    /// scripts written against it.
    #[arg(long, hide = true)]
    pub legacy_keys: bool,
    /// Connect Four: end a game once the exact solver proves its result within NODES
    /// nodes per move (default 200000); the record says `adjudicated (proven …)`.
    #[arg(long, value_name = "NODES", num_args = 0..=1, require_equals = true)]
    pub adjudicate: Option<Option<u64>>,
    /// Mau-Mau: who wins on talon exhaustion (second-seat as the real server, or most-valid-moves).
    #[arg(long, default_value = "second-seat", hide = true)]
    pub exhaustion_winner: String,
    /// Seats at the table (Mau-Mau: 2–4, A against copies of B, A's seat rotated over each
    /// deal; refused for games with fixed seats).
    #[arg(long, value_name = "N")]
    pub seats: Option<usize>,
}

/// Parses `elo0,elo1[,alpha,beta]`.
pub fn parse_sprt(s: &str) -> anyhow::Result<Sprt> {
    let v: Vec<f64> = s
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow!("--sprt wants elo0,elo1[,alpha,beta], got {s:?}"))?;
    let (alpha, beta) = match v.len() {
        2 => (0.05, 0.05),
        4 => (v[2], v[3]),
        _ => anyhow::bail!("--sprt wants elo0,elo1[,alpha,beta], got {s:?}"),
    };
    if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) || v[0] >= v[1] {
        anyhow::bail!("--sprt {s:?}: need elo0 < elo1 and 0 < alpha, beta < 0.5");
    }
    Ok(Sprt {
        elo0: v[0],
        elo1: v[1],
        alpha,
        beta,
    })
}

/// Runs `kibitz match`.
pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    let game = adapter(&args.game)?;
    let seats = super::check_seats(game.as_ref(), args.seats)?;
    let options = super::GameOptions {
        seats,
        exhaustion_winner: (args.exhaustion_winner != "second-seat")
            .then(|| args.exhaustion_winner.clone()),
        adjudicate: args.adjudicate,
    };
    let arena = super::configured(game, &options)?;
    // Flags that would do nothing for this game, and bad specs, fail before anything is printed.
    arena.check_spec(&args.a)?;
    arena.check_spec(&args.b)?;
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let Resolved {
        seed,
        concurrency,
        openings,
    } = args.play.resolve(arena.as_ref(), "match")?;
    let settings = MatchSettings {
        games: args.games,
        seed,
        concurrency,
        sprt,
        sprt_stop: args.sprt_stop,
        openings,
        tc_ms: args.play.tc,
        progress: true,
        records_dir: args.records.clone(),
    };
    if !args.json {
        println!(
            "{} match: A = {}  vs  B = {}\nseed {seed}, {} games requested, pairing unit {}, concurrency {concurrency}{}",
            arena.name(),
            args.a,
            args.b,
            args.games,
            arena.unit(),
            args.play.tc.map(|t| format!(", default time {t} ms/move")).unwrap_or_default(),
        );
    }
    super::external::set_stderr_dir(args.records.as_deref());
    let interrupt = catch_signals()?;
    let started = Instant::now();
    let out = run_match_interruptible(arena.as_ref(), &args.a, &args.b, &settings, &interrupt)?;
    let secs = started.elapsed().as_secs_f64();
    if let Some((path, lines)) = &out.record_file {
        eprintln!("{lines} records written to {}", path.display());
    }
    if args.json {
        let mut v = json_line(arena.name(), &args.a, &args.b, seed, &out, sprt.as_ref());
        if args.legacy_keys {
            let t = &out.total;
            v["w"] = t.wins.into();
            v["d"] = t.draws.into();
            v["l"] = t.losses.into();
            v["error95"] = v["elo_ci95"].clone();
            v["llr"] = v["sprt"]["llr"].clone();
        }
        if let Some(i) = &out.interrupted {
            v["interrupted"] = interrupted_json(i);
        }
        println!("{v}");
    } else {
        print_report(&out, sprt.as_ref(), secs);
    }
    if let Some(i) = &out.interrupted {
        // After the report on stdout; on stderr where stdout holds only the JSON line.
        let line = interrupted_line(i, out.games);
        if args.json {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        std::process::exit(exit_code(i.signal));
    }
    Ok(())
}

/// The line that ends an interrupted match's report, e.g. `interrupted by SIGINT:
/// 12 of 100 games finished and counted; exit code 130`.
pub fn interrupted_line(i: &Interrupted, games: u64) -> String {
    let abandoned = if i.abandoned > 0 {
        format!(", {} abandoned", i.abandoned)
    } else {
        String::new()
    };
    format!(
        "interrupted by {}: {games} of {} games finished and counted{abandoned}; exit code {}",
        signal_name(i.signal),
        i.planned,
        exit_code(i.signal)
    )
}

/// The `interrupted` object of an interrupted match's `--json` line: the signal's name, the
/// games planned and the games abandoned (`games` counts those that finished).
fn interrupted_json(i: &Interrupted) -> Value {
    json!({"signal": signal_name(i.signal), "planned": i.planned, "abandoned": i.abandoned})
}

fn side_json(t: &SideTally) -> Value {
    let e = elo_from_wdl(t.wins, t.draws, t.losses);
    json!({"games": t.games(), "wins": t.wins, "draws": t.draws, "losses": t.losses, "score": e.score})
}

/// A tally as JSON: games, W/D/L, score, Elo and its 95 % half-width (each null while unbounded),
/// LOS. The totals of a `--json` line and of `kibitz score`.
pub fn tally_json(t: &SideTally) -> Value {
    let e = elo_from_wdl(t.wins, t.draws, t.losses);
    json!({
        "games": t.games(), "wins": t.wins, "draws": t.draws, "losses": t.losses,
        "score": e.score,
        "elo": if e.elo.is_finite() { json!(e.elo) } else { Value::Null },
        "elo_ci95": if e.error95.is_finite() { json!(e.error95) } else { Value::Null },
        "los": e.los,
    })
}

/// The `--json` object of the contract (tuning/README.md).
pub fn json_line(
    game: &str,
    a: &str,
    b: &str,
    seed: u64,
    out: &MatchOutcome,
    sprt: Option<&Sprt>,
) -> Value {
    let t = &out.total;
    let sides: serde_json::Map<String, Value> = out
        .sides
        .iter()
        .map(|s| (s.label.clone(), side_json(s)))
        .collect();
    let mut v = tally_json(t);
    v["game"] = json!(game);
    v["a"] = json!(a);
    v["b"] = json!(b);
    v["seed"] = json!(seed);
    v["games"] = json!(out.games);
    v["sides"] = Value::Object(sides);
    if let Some(p) = &out.pairs {
        let e = p.elo();
        v["pentanomial"] = json!(p.counts);
        v["elo_pairs"] = if e.elo.is_finite() {
            json!(e.elo)
        } else {
            Value::Null
        };
        v["elo_pairs_ci95"] = if e.error95.is_finite() {
            json!(e.error95)
        } else {
            Value::Null
        };
    }
    if let Some(s) = sprt {
        v["sprt"] = sprt_json(s, t, out.pairs.as_ref());
    }
    v
}

/// The `sprt` object of a `--json` line: hypotheses, LLR, bounds, status word and the model
/// (pentanomial where games come in pairs; `llr_trinomial` is the per-game LLR either way).
pub fn sprt_json(s: &Sprt, t: &SideTally, pairs: Option<&Pentanomial>) -> Value {
    let (lo, hi) = s.bounds();
    let (llr, model) = super::runner::sprt_llr(s, t, pairs);
    json!({
        "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
        "llr": llr, "model": model, "llr_trinomial": s.llr(t.wins, t.draws, t.losses),
        "lower": lo, "upper": hi,
        "status": status_word(super::runner::sprt_status(s, t, pairs)),
    })
}

/// The SPRT line of a report, e.g. `SPRT [0, 10] α=0.05 β=0.05: LLR 1.23 in [-2.94, 2.94] →
/// continue`.
pub fn sprt_text(s: &Sprt, t: &SideTally, pairs: Option<&Pentanomial>) -> String {
    let (lo, hi) = s.bounds();
    let (llr, model) = super::runner::sprt_llr(s, t, pairs);
    format!(
        "SPRT [{}, {}] α={} β={} ({model}): LLR {:.2} in [{lo:.2}, {hi:.2}] → {}",
        s.elo0,
        s.elo1,
        s.alpha,
        s.beta,
        llr,
        match super::runner::sprt_status(s, t, pairs) {
            SprtStatus::Continue => "continue",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
        },
    )
}

/// A table of tallies, one row each: label, games, W/D/L, score, Elo ± 95 %, LOS.
pub fn tally_table(first: &str, elo: &str, rows: &[&SideTally]) -> Table {
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_header(vec![first, "games", "W", "D", "L", "score", elo, "LOS"]);
    for t in rows {
        let e = elo_from_wdl(t.wins, t.draws, t.losses);
        table.add_row(vec![
            Cell::new(&t.label),
            right(t.games()),
            right(t.wins),
            right(t.draws),
            right(t.losses),
            right(format!("{:.1} %", 100.0 * e.score)),
            right(e.text(1)),
            right(format!("{:.1} %", 100.0 * e.los)),
        ]);
    }
    table
}

fn status_word(s: SprtStatus) -> &'static str {
    match s {
        SprtStatus::Continue => "continue",
        SprtStatus::AcceptH0 => "H0",
        SprtStatus::AcceptH1 => "H1",
    }
}

fn right(s: impl ToString) -> Cell {
    Cell::new(s.to_string()).set_alignment(CellAlignment::Right)
}

/// Prints the table (per side and overall), the SPRT line and the summary.
pub fn print_report(out: &MatchOutcome, sprt: Option<&Sprt>, secs: f64) {
    let rows: Vec<&SideTally> = out
        .sides
        .iter()
        .chain(std::iter::once(&out.total))
        .collect();
    println!("{}", tally_table("A as", "Elo (A−B)", &rows));
    if let Some(p) = &out.pairs {
        let e = p.elo();
        println!(
            "pairs (A's score 0, ½, 1, 1½, 2): {:?}; Elo from the pairs {}, LOS {:.1} %",
            p.counts,
            e.text(1),
            100.0 * e.los
        );
    }
    if let Some(s) = sprt {
        println!(
            "{}{}",
            sprt_text(s, &out.total, out.pairs.as_ref()),
            if out.stopped_early {
                " (stopped early)"
            } else {
                ""
            }
        );
    }
    println!(
        "{} games in {:.1} s, {:.1} moves/game",
        out.games,
        secs,
        out.plies as f64 / out.games.max(1) as f64
    );
}
