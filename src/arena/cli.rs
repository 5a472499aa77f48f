//! `kibitz match <game>`: flags, the human-readable report and the `--json` line
//! (the contract with the tuning scripts: tuning/README.md).

use super::{adapter, run_match, MatchOutcome, MatchSettings, SideTally};
use anyhow::{anyhow, Context};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use kibitz_search::stats::{elo_from_wdl, Pentanomial, Sprt, SprtStatus};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Instant;

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
    /// Match seed: openings, deals, decks and every player's RNG derive from it
    /// (default: random, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games played at the same time (default: all cores).
    #[arg(long, alias = "threads")]
    pub concurrency: Option<usize>,
    /// Per-move time in ms for specs that set no limit of their own.
    #[arg(long, value_name = "MS")]
    pub tc: Option<u64>,
    /// Openings, one per line, cycled over the pairing units (connect4: 1-based column
    /// digits; piranhas: Kraken squares `x,y,x,y` or a 100-character start board as in
    /// `data/piranhas/start_positions.jsonl`).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Mau-Mau and Koehandel: deals, one per line, cycled over the pairing units: each line a
    /// deal seed (the record's `setup.deal_seed` / `deck_seed`; format: `arena::deals`).
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    pub deals: Option<PathBuf>,
    /// SPRT `elo0,elo1[,alpha,beta]` (default alpha = beta = 0.05), LLR shown as it runs.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Stop when the SPRT decides (at the first whole pairing unit, in game order).
    #[arg(long, requires = "sprt")]
    pub sprt_stop: bool,
    /// Write every game as a JSON-lines record to DIR/<game>-<seed>.jsonl.
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
    if args.openings.is_some() && !arena.takes_openings() {
        anyhow::bail!(
            "--openings: {} has no openings (Connect Four and Piranhas have; Mau-Mau and Koehandel take --deals)",
            arena.name()
        );
    }
    if args.deals.is_some() && !arena.takes_deals() {
        anyhow::bail!(
            "--deals: {} has no deals (Mau-Mau and Koehandel have; Connect Four and Piranhas take --openings)",
            arena.name()
        );
    }
    arena.check_spec(&args.a)?;
    arena.check_spec(&args.b)?;
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let seed = match args.seed {
        Some(s) => s,
        None => {
            let s = rand::random::<u64>() >> 16;
            eprintln!("seed {s} (random; pass --seed {s} to repeat this match)");
            s
        }
    };
    let openings = match &args.openings {
        Some(p) => std::fs::read_to_string(p)
            .with_context(|| format!("reading {}", p.display()))?
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect(),
        None => Vec::new(),
    };
    let openings = match &args.deals {
        Some(p) => {
            let deals = crate::roundrobin::lines_of(p)?;
            super::deals::check(&deals)?;
            deals
        }
        None => openings,
    };
    if args.concurrency == Some(0) {
        anyhow::bail!("--concurrency 0: at least one game must be played at a time");
    }
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let settings = MatchSettings {
        games: args.games,
        seed,
        concurrency,
        sprt,
        sprt_stop: args.sprt_stop,
        openings,
        tc_ms: args.tc,
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
            args.tc.map(|t| format!(", default time {t} ms/move")).unwrap_or_default(),
        );
    }
    super::external::set_stderr_dir(args.records.as_deref());
    let started = Instant::now();
    let out = run_match(arena.as_ref(), &args.a, &args.b, &settings)?;
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
        println!("{v}");
    } else {
        print_report(&out, sprt.as_ref(), secs);
    }
    Ok(())
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
