//! Plays the games of a match in parallel and reduces them in game order.
//!
//! The runner knows tables only through the adapter: [`Arena::unit`] games per pairing unit,
//! [`Arena::seating`] for where A sits in each slot (handed to the game in [`Job::seating`]),
//! so 2-seat games, Mau-Mau at 3–4 seats and Koehandel's four seats share one loop.

use super::{record, Arena, Job, Outcome, Played};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kibitz_net::record::RecordWriter;
use kibitz_search::stats::{elo_from_wdl, Pentanomial, Sprt, SprtStatus};
use rayon::prelude::*;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::Mutex;

/// How to run a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Games requested (rounded up to whole pairing units).
    pub games: u64,
    /// Match seed.
    pub seed: u64,
    /// Games played at the same time.
    pub concurrency: usize,
    /// SPRT shown while running (and used by `sprt_stop`).
    pub sprt: Option<Sprt>,
    /// Stop at the first whole pairing unit (in game order) where the SPRT decides.
    pub sprt_stop: bool,
    /// Opening lines (cycled over the pairing units).
    pub openings: Vec<String>,
    /// Default per-move time (ms) for specs without a limit of their own.
    pub tc_ms: Option<u64>,
    /// Draw a progress bar on stderr (only when stderr is a terminal).
    pub progress: bool,
    /// Write every game's record line to `DIR/<game>-<seed>.jsonl` as soon as it and all
    /// games before it are done (game order, flushed per line).
    pub records_dir: Option<std::path::PathBuf>,
}

/// W/D/L of A with one side / seat pattern.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideTally {
    /// Side label (e.g. `red`, `first`, `seat0`, `ABBA`).
    pub label: String,
    /// A's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// A's losses.
    pub losses: u32,
}

impl SideTally {
    fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// The result of a match, reduced in game order.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    /// Total W/D/L of A (label `all`).
    pub total: SideTally,
    /// One tally per slot of the pairing unit.
    pub sides: Vec<SideTally>,
    /// Plies / decisions over all games.
    pub plies: u64,
    /// Games that counted (a multiple of the pairing unit).
    pub games: u64,
    /// A's pair results (both colours on one opening, both seats on one deal) where the
    /// pairing unit is two games; `None` for Koehandel's four-game units.
    pub pairs: Option<Pentanomial>,
    /// Whether the SPRT stopped the match early.
    pub stopped_early: bool,
    /// The record file written (with [`MatchSettings::records_dir`]) and its lines.
    pub record_file: Option<(std::path::PathBuf, u64)>,
    /// Set when a signal stopped the match ([`run_match_interruptible`]): then the counts
    /// above are of the games that finished, whatever their place in game order.
    pub interrupted: Option<Interrupted>,
}

/// How a signal ended a match early (see [`run_match_interruptible`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted {
    /// The signal's number (2: SIGINT, 15: SIGTERM).
    pub signal: i32,
    /// Games the match would have played (whole pairing units).
    pub planned: u64,
    /// Games that were running when the signal came and ended in an error (an external bot
    /// that got the terminal's SIGINT too): dropped, not counted and not an error.
    pub abandoned: u64,
}

struct Shared {
    results: Vec<Option<Played>>,
    /// Games `0..prefix` are all done and folded into `tally`.
    prefix: usize,
    tally: SideTally,
    /// Pair results of the prefix (two-game units only).
    pairs: Option<Pentanomial>,
    done: u64,
    /// Counted games at which the next progress line is printed (no terminal only).
    next_line: u64,
    /// Record lines go here as the prefix grows, with the lines written and the first error.
    records: Option<(RecordWriter, u64)>,
    record_error: Option<anyhow::Error>,
}

/// Plays `settings.games` (rounded up to whole units) games of A against B.
///
/// Errors (a bad spec, a game that cannot be set up) stop the match with the first error in
/// game order.
pub fn run_match(
    arena: &dyn Arena,
    a: &str,
    b: &str,
    settings: &MatchSettings,
) -> anyhow::Result<MatchOutcome> {
    run_match_interruptible(arena, a, b, settings, &AtomicI32::new(0))
}

/// [`run_match`] that a signal can stop: once `interrupt` holds a signal number (not 0), no
/// further game starts, the games already running end, and the outcome counts every game
/// that finished ([`MatchOutcome::interrupted`] says so); a running game that fails after
/// the signal is abandoned, not an error. The records of the finished games are all
/// written, in game order, so the record file holds exactly the games counted.
pub fn run_match_interruptible(
    arena: &dyn Arena,
    a: &str,
    b: &str,
    settings: &MatchSettings,
    interrupt: &AtomicI32,
) -> anyhow::Result<MatchOutcome> {
    arena.check_spec(a)?;
    arena.check_spec(b)?;
    let unit = arena.unit();
    anyhow::ensure!(unit >= 1, "{}: a pairing unit has no games", arena.name());
    // Every slot's table, once: A must hold at least one seat and B at least one.
    let seatings: Vec<_> = (0..unit).map(|k| arena.seating(k)).collect();
    for (k, s) in seatings.iter().enumerate() {
        let a_seats = (0..s.seats()).filter(|&x| s.is_a(x)).count();
        anyhow::ensure!(
            s.seats() == arena.seats() && a_seats >= 1 && a_seats < s.seats(),
            "{}: slot {k} seats A as {} at a {}-seat table",
            arena.name(),
            s.pattern(),
            arena.seats()
        );
    }
    let n = settings.games.max(1).div_ceil(unit) * unit;
    let bar = progress_bar(settings.progress, n);
    // Without a terminal (a log file, a tuning script), one stderr line per tenth of the
    // games counted, so a long run can be watched and stopped with a known standing.
    let lines = settings.progress && !std::io::stderr().is_terminal();
    let line_every = (n / 10).max(unit);
    let stop_at = AtomicU64::new(n);
    let writer = match &settings.records_dir {
        Some(dir) => {
            // One file per match: a rerun replaces it rather than appending to it.
            let name = format!("{}-{}", arena.name(), settings.seed);
            let w = RecordWriter::replace(dir, &name)
                .with_context(|| format!("creating a record file in {}", dir.display()))?;
            Some((w, 0))
        }
        None => None,
    };
    let shared = Mutex::new(Shared {
        results: vec![None; n as usize],
        prefix: 0,
        tally: SideTally::default(),
        pairs: (unit == 2).then(Pentanomial::default),
        done: 0,
        next_line: line_every,
        records: writer,
        record_error: None,
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.concurrency.max(1))
        .build()?;
    let first_error: Mutex<Option<(u64, anyhow::Error)>> = Mutex::new(None);
    let abandoned = AtomicU64::new(0);
    pool.install(|| {
        (0..n).into_par_iter().for_each(|i| {
            if i >= stop_at.load(Ordering::Relaxed) || interrupt.load(Ordering::Relaxed) != 0 {
                return;
            }
            let unit_no = i / unit;
            let opening = (!settings.openings.is_empty())
                .then(|| settings.openings[unit_no as usize % settings.openings.len()].as_str());
            let job = Job {
                a,
                b,
                seed: settings.seed,
                index: i,
                unit: unit_no,
                slot: i % unit,
                opening,
                tc_ms: settings.tc_ms,
                seating: seatings[(i % unit) as usize],
            };
            let played = match arena.play(&job) {
                Ok(p) => p,
                Err(_) if interrupt.load(Ordering::Relaxed) != 0 => {
                    abandoned.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                Err(e) => {
                    let mut fe = first_error.lock().unwrap_or_else(|e| e.into_inner());
                    if fe.as_ref().is_none_or(|(j, _)| i < *j) {
                        *fe = Some((i, e));
                    }
                    stop_at.fetch_min(i, Ordering::Relaxed);
                    return;
                }
            };
            let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
            s.results[i as usize] = Some(played);
            s.done += 1;
            // Fold the finished prefix in game order; check the SPRT at unit boundaries.
            while s.prefix < n as usize && (s.prefix as u64) < stop_at.load(Ordering::Relaxed) {
                let Some(o) = s.results[s.prefix].as_ref().map(|p| p.outcome) else {
                    break;
                };
                s.tally.add(o);
                let k = s.prefix;
                s.prefix += 1;
                if k % 2 == 1 {
                    let first = s.results[k - 1].as_ref().map_or(0.0, |p| score(p.outcome));
                    if let Some(pairs) = s.pairs.as_mut() {
                        pairs.add_pair(first, score(o));
                    }
                }
                write_record(&mut s, arena, a, b, settings.seed, k);
                if settings.sprt_stop && (s.prefix as u64).is_multiple_of(unit) {
                    if let Some(sprt) = &settings.sprt {
                        if sprt_status(sprt, &s.tally, s.pairs.as_ref()) != SprtStatus::Continue {
                            stop_at.fetch_min(s.prefix as u64, Ordering::Relaxed);
                        }
                    }
                }
            }
            if lines && s.prefix as u64 >= s.next_line {
                s.next_line = (s.prefix as u64 / line_every + 1) * line_every;
                eprintln!(
                    "match: {}/{n} games  {}",
                    s.prefix,
                    live_line(&s.tally, s.pairs.as_ref(), settings.sprt.as_ref())
                );
            }
            let (pos, msg) = progress(
                s.prefix as u64,
                s.done,
                live_line(&s.tally, s.pairs.as_ref(), settings.sprt.as_ref()),
            );
            bar.set_position(pos);
            bar.set_message(msg);
        })
    });
    bar.finish_and_clear();
    if let Some((_, e)) = first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut s = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    let signal = interrupt.load(Ordering::Relaxed);
    let counted = stop_at.load(Ordering::Relaxed).min(n);
    if signal != 0 {
        // The games that finished after the in-order prefix: their records too.
        for k in s.prefix..counted as usize {
            write_record(&mut s, arena, a, b, settings.seed, k);
        }
    }
    if let Some(e) = s.record_error {
        return Err(e);
    }
    let record_file = s.records.map(|(w, lines)| (w.path().to_path_buf(), lines));
    let mut sides: Vec<SideTally> = (0..unit)
        .map(|k| SideTally {
            label: arena.side_label(k),
            ..Default::default()
        })
        .collect();
    let mut total = SideTally {
        label: "all".into(),
        ..Default::default()
    };
    let mut plies = 0;
    // The pairs of the counted games (the prefix may have run past a stop inside a unit).
    let mut pairs = (unit == 2).then(Pentanomial::default);
    for (i, p) in s.results.iter().take(counted as usize).enumerate() {
        if let (Some(pairs), 1) = (pairs.as_mut(), i % 2) {
            let (x, y) = (&s.results[i - 1], p);
            if let (Some(x), Some(y)) = (x, y) {
                pairs.add_pair(score(x.outcome), score(y.outcome));
            }
        }
    }
    let mut games = 0;
    for (i, p) in s.results.into_iter().take(counted as usize).enumerate() {
        let Some(p) = p else {
            // Interrupted: the games never started (or abandoned) are not counted.
            anyhow::ensure!(signal != 0, "game {i} did not finish");
            continue;
        };
        total.add(p.outcome);
        sides[i % unit as usize].add(p.outcome);
        plies += p.plies as u64;
        games += 1;
    }
    Ok(MatchOutcome {
        total,
        sides,
        plies,
        games,
        pairs,
        stopped_early: counted < n,
        record_file,
        interrupted: (signal != 0).then(|| Interrupted {
            signal,
            planned: n,
            abandoned: abandoned.into_inner(),
        }),
    })
}

/// Writes game `k`'s record line (all games before it are written already); the first write
/// error stops further writing and is reported when the match ends.
fn write_record(s: &mut Shared, arena: &dyn Arena, a: &str, b: &str, seed: u64, k: usize) {
    let Some((w, lines)) = s.records.as_mut() else {
        return;
    };
    let Some(p) = s.results[k].as_ref() else {
        return;
    };
    let side = arena.side_label(k as u64 % arena.unit());
    let line = record::line(arena.name(), seed, k as u64, a, b, &side, p);
    match w.write(&line) {
        Ok(()) => *lines += 1,
        Err(e) => {
            let e = anyhow::Error::new(e).context(format!("writing {}", w.path().display()));
            s.record_error = Some(e);
            s.records = None;
        }
    }
}

/// A's score in one game: 1, ½ or 0.
fn score(o: Outcome) -> f64 {
    match o {
        Outcome::Win => 1.0,
        Outcome::Draw => 0.5,
        Outcome::Loss => 0.0,
    }
}

/// The SPRT's LLR and the model it used: the pentanomial model where games come in pairs,
/// the per-game (trinomial) one otherwise.
pub fn sprt_llr(sprt: &Sprt, t: &SideTally, pairs: Option<&Pentanomial>) -> (f64, &'static str) {
    match pairs {
        Some(p) => (sprt.llr_pentanomial(p), "pentanomial"),
        None => (sprt.llr(t.wins, t.draws, t.losses), "trinomial"),
    }
}

/// The SPRT's decision by the model of [`sprt_llr`].
pub fn sprt_status(sprt: &Sprt, t: &SideTally, pairs: Option<&Pentanomial>) -> SprtStatus {
    match pairs {
        Some(p) => sprt.status_pentanomial(p),
        None => sprt.status(t.wins, t.draws, t.losses),
    }
}

/// The progress bar's position and message: the games counted so far (the in-order prefix,
/// the same games its W/D/L describe), plus how many later games already finished and wait
/// for their predecessors.
fn progress(prefix: u64, done: u64, mut msg: String) -> (u64, String) {
    if done > prefix {
        msg += &format!("  (+{} done, counted in game order)", done - prefix);
    }
    (prefix, msg)
}

/// `+W =D -L  Elo e ± c  LLR x [lo, hi]` for the progress line (Elo and LLR from the pairs
/// where games come in pairs).
pub fn live_line(t: &SideTally, pairs: Option<&Pentanomial>, sprt: Option<&Sprt>) -> String {
    let e = pairs.map_or_else(|| elo_from_wdl(t.wins, t.draws, t.losses), Pentanomial::elo);
    let mut s = format!("+{} ={} -{}  Elo {}", t.wins, t.draws, t.losses, e.text(0));
    if let Some(sprt) = sprt {
        let (lo, hi) = sprt.bounds();
        s += &format!("  LLR {:.2} [{lo:.2}, {hi:.2}]", sprt_llr(sprt, t, pairs).0);
    }
    s
}

fn progress_bar(wanted: bool, n: u64) -> ProgressBar {
    let bar = ProgressBar::new(n);
    if !wanted || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
        return bar;
    }
    bar.set_draw_target(ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed} < {eta}]")
    {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_counts_the_games_its_tally_describes() {
        let t = SideTally {
            wins: 10,
            losses: 1,
            ..SideTally::default()
        };
        // 11 games folded in order, 28 finished: the bar stands at 11, not 28.
        let (pos, msg) = progress(11, 28, live_line(&t, None, None));
        assert_eq!(pos, u64::from(t.games()));
        assert!(
            msg.starts_with("+10 =0 -1") && msg.ends_with("(+17 done, counted in game order)"),
            "{msg}"
        );
        assert_eq!(
            progress(11, 11, live_line(&t, None, None)).1,
            live_line(&t, None, None)
        );
    }
}
