//! `kibitz piranhas perft`: move-generation counts from a start position, counted root move
//! by root move with progress, and a warning with a time estimate before a deep count.

use anyhow::{bail, Context};
use kibitz_piranhas::kraken::parse_pair;
use kibitz_piranhas::{perft, State};
use std::time::{Duration, Instant};

/// Last turn of a game (spec §3: turn 60 = round 30, 30 moves each): perft refuses deeper.
const LAST_TURN: u32 = 60;

/// From this depth on, perft says up front how long it will take and reports progress on
/// stderr after every root move: perft 6 from the start takes about a CPU-minute (perft 5:
/// 1.2 s CPU, 2.2·10⁸ leaves, measured 2026-11-27), and every further ply multiplies that by
/// about 46.
const DEEP_PERFT: u32 = 6;

/// Runs `kibitz piranhas perft`: `depth` plies from the start with Kraken `kraken` (`all`: every
/// depth up to it).
pub(super) fn run_perft(depth: u32, kraken: &str, all: bool) -> anyhow::Result<()> {
    if depth > LAST_TURN {
        bail!("perft depth {depth} is past the game's last move: a game ends after {LAST_TURN} plies (round 30)");
    }
    let state = State::start(parse_pair(kraken).context("--kraken")?);
    println!("{state}");
    let from = if all { 1 } else { depth };
    for d in from..=depth {
        if d >= DEEP_PERFT {
            eprintln!("{}", deep_perft_warning(&state, d));
        }
        let t = Instant::now();
        let n = perft_with_progress(&state, d, |p| {
            if d >= DEEP_PERFT {
                eprintln!("{}", p.line(d));
            }
        });
        let s = t.elapsed().as_secs_f64().max(1e-9);
        println!(
            "perft {d}: {n} leaves  {:.3} s  {:.0} nodes/s",
            s,
            n as f64 / s
        );
    }
    Ok(())
}

/// How far a perft has come: after `done` of `total` root moves, `leaves` counted in
/// `elapsed`.
#[derive(Debug, Clone, Copy)]
struct PerftProgress {
    done: usize,
    total: usize,
    leaves: u64,
    elapsed: Duration,
}

impl PerftProgress {
    /// `perft 9: root move 3/48, 1.2e13 leaves, 2.0 h so far, about 30 h left`.
    fn line(&self, depth: u32) -> String {
        let left =
            self.elapsed.as_secs_f64() * (self.total - self.done) as f64 / self.done.max(1) as f64;
        format!(
            "perft {depth}: root move {}/{}, {:.3e} leaves, {} so far, about {} left",
            self.done,
            self.total,
            self.leaves as f64,
            human_duration(self.elapsed.as_secs_f64()),
            human_duration(left)
        )
    }
}

/// `perft(state, depth)` counted root move by root move, calling `report` after each.
fn perft_with_progress(state: &State, depth: u32, mut report: impl FnMut(PerftProgress)) -> u64 {
    if depth <= 1 {
        return perft(state, depth);
    }
    let t = Instant::now();
    let moves = state.legal_moves();
    let mut leaves = 0;
    for (i, m) in moves.iter().enumerate() {
        // Legal by construction: `apply` cannot fail here.
        if let Ok(child) = state.apply(*m) {
            leaves += perft(&child, depth - 1);
        }
        report(PerftProgress {
            done: i + 1,
            total: moves.len(),
            leaves,
            elapsed: t.elapsed(),
        });
    }
    leaves
}

/// What a deep perft is in for: leaves and time extrapolated from perft 3 and 4 of the same
/// position on this machine (the branching factor stays near 46 in the opening).
fn deep_perft_warning(state: &State, depth: u32) -> String {
    let n3 = perft(state, 3).max(1);
    let t = Instant::now();
    let n4 = perft(state, 4).max(1);
    let t4 = t.elapsed().as_secs_f64();
    deep_perft_estimate(depth, n3, n4, t4)
}

/// The warning for `depth` given perft 3 and 4 (`n3`, `n4`) and the seconds perft 4 took.
fn deep_perft_estimate(depth: u32, n3: u64, n4: u64, t4: f64) -> String {
    let b = n4 as f64 / n3 as f64;
    let grow = b.powi(depth as i32 - 4);
    format!(
        "warning: perft {depth} counts about {:.1e} leaves (branching ≈ {b:.0}); at this \
         machine's speed that takes about {} (progress after each root move below; Ctrl-C \
         stops it)",
        n4 as f64 * grow,
        human_duration(t4 * grow)
    )
}

/// `42 s`, `3.5 min`, `2.0 h`, `61 days`, `3.1e4 years`.
fn human_duration(secs: f64) -> String {
    const MIN: f64 = 60.0;
    const HOUR: f64 = 3600.0;
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.25 * DAY;
    if secs < MIN {
        format!("{secs:.0} s")
    } else if secs < HOUR {
        format!("{:.1} min", secs / MIN)
    } else if secs < DAY {
        format!("{:.1} h", secs / HOUR)
    } else if secs < 1000.0 * DAY {
        format!("{:.0} days", secs / DAY)
    } else {
        format!("{:.1e} years", secs / YEAR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_blames_the_shared_diagonal_not_the_range() {
        let err = format!("{:#}", run_perft(1, "3,3,4,4", false).unwrap_err());
        assert!(err.contains("share a rising diagonal"), "{err}");
        assert!(!err.contains("2 <= x,y <= 7"), "{err}");
    }

    #[test]
    fn perft_counted_by_root_moves_matches_the_data() {
        // Every full row of data/piranhas/perft.txt: perft 3 counted root move by root move
        // equals the row's perft3, with one report per root move (perft1 of them).
        let data = include_str!("../../data/piranhas/perft.txt");
        let field = |line: &str, key: &str| -> Option<u64> {
            let rest = line.split(&format!("{key}=")).nth(1)?;
            rest.split_whitespace().next()?.parse().ok()
        };
        let mut rows = 0;
        for line in data.lines().filter(|l| l.contains("perft3=")) {
            let k: Vec<char> = line["krakens=".len()..].chars().collect();
            let kraken = format!("{},{},{},{}", k[1], k[3], k[6], k[8]);
            let state = State::start(parse_pair(&kraken).unwrap());
            let (p1, p3) = (
                field(line, "perft1").unwrap(),
                field(line, "perft3").unwrap(),
            );
            let mut seen = Vec::new();
            let n = perft_with_progress(&state, 3, |p| seen.push(p));
            assert_eq!(n, p3, "{line}");
            assert_eq!(seen.len() as u64, p1, "{line}");
            assert_eq!(
                seen.last()
                    .map(|p| (p.done as u64, p.total as u64, p.leaves)),
                Some((p1, p1, n))
            );
            assert!(seen[0]
                .line(3)
                .starts_with(&format!("perft 3: root move 1/{p1}, ")));
            rows += 1;
        }
        assert!(rows >= 3, "perft.txt has {rows} full rows");
    }

    #[test]
    fn deep_perft_warns_with_an_estimate() {
        // perft 3 and 4 of the start position; perft 4 taking 20 ms.
        let w = deep_perft_estimate(9, 102_171, 4_598_967, 0.02);
        assert!(
            w.starts_with("warning: perft 9 counts about 8.5e14 leaves"),
            "{w}"
        );
        assert!(w.contains("days"), "{w}");
        let w = deep_perft_estimate(6, 102_171, 4_598_967, 0.02);
        assert!(w.contains("about 41 s"), "{w}");
        assert_eq!(human_duration(90.0), "1.5 min");
        assert_eq!(human_duration(7200.0), "2.0 h");
    }
}
