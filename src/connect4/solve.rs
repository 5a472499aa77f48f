//! `kibitz connect4 solve` and `bench`: score test-set lines, check them, time the solver.
//!
//! Both read `<moves> [<score>]` lines (1-based column digits, 7 × 6). A line that cannot be
//! read, or whose position is already decided ("game over"), is an error; so is a score that
//! disagrees with ours. Every such line is named on stderr and the command exits non-zero
//! after doing all the others.

use super::{cpu_now, file_label, fmt_dur, process_cpu_now};
use anyhow::{bail, Context};
use comfy_table::{presets::UTF8_FULL, Table};
use indicatif::{ProgressBar, ProgressStyle};
use kibitz_connect4::solver::parallel::ParallelSolver;
use kibitz_connect4::{Board, Geometry, Solver, SolverConfig, TimeControl};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The serial solver (one thread, deterministic) or the parallel one.
pub enum AnySolver {
    /// One thread.
    One(Box<Solver<u64>>),
    /// Several threads over one shared table.
    Many(ParallelSolver<u64>),
}

impl AnySolver {
    /// A 7 × 6 solver with `threads` threads.
    pub fn new(config: SolverConfig, threads: usize) -> anyhow::Result<Self> {
        let geo = Geometry::<u64>::new(7, 6, 4).context("7×6 fits 64 bits")?;
        Ok(if threads <= 1 {
            Self::One(Box::new(Solver::new(geo, config)))
        } else {
            Self::Many(ParallelSolver::new(geo, config, threads))
        })
    }

    /// The exact score, or with `weak` win / draw / loss (`None` only on a deadline).
    pub fn solve(&mut self, board: &Board<u64>, weak: bool, tc: &TimeControl) -> Option<i32> {
        match (self, weak) {
            (Self::One(s), true) => s.solve_window(board, -1, 1, tc),
            (Self::One(s), false) => s.solve(board, tc),
            (Self::Many(s), true) => s.solve_window(board, -1, 1, tc),
            (Self::Many(s), false) => s.solve(board, tc),
        }
    }

    /// Forgets every stored position and zeroes the node count.
    pub fn reset(&mut self) {
        match self {
            Self::One(s) => {
                s.clear();
                s.reset_nodes();
            }
            Self::Many(s) => {
                s.clear();
                s.reset_nodes();
            }
        }
    }

    /// Nodes since the last reset (all threads).
    pub fn nodes(&self) -> u64 {
        match self {
            Self::One(s) => s.nodes(),
            Self::Many(s) => s.nodes(),
        }
    }

    /// Consults the embedded opening book inside the tree.
    pub fn use_book(&mut self) {
        let book = kibitz_connect4::book::Book::embedded();
        match self {
            Self::One(s) => s.set_book(Some(&book)),
            Self::Many(s) => s.set_book(Some(&book)),
        }
    }

    /// Thread count.
    fn threads(&self) -> usize {
        match self {
            Self::One(_) => 1,
            Self::Many(s) => s.threads(),
        }
    }
}

/// One readable test line.
#[derive(Debug)]
pub struct Line {
    /// The move string as given.
    pub moves: String,
    /// The position.
    pub board: Board<u64>,
    /// The expected score, if the line has one.
    pub expected: Option<i32>,
}

/// Parses `<moves> [<score>]`; `Ok(None)` for a blank line. A finished game is an error.
pub fn parse_line(text: &str) -> Result<Option<Line>, String> {
    let mut fields = text.split_whitespace();
    let Some(moves) = fields.next() else {
        return Ok(None);
    };
    let expected = match fields.next() {
        None => None,
        Some(s) => Some(
            s.parse::<i32>()
                .map_err(|_| format!("unreadable score {s:?}"))?,
        ),
    };
    if let Some(extra) = fields.next() {
        return Err(format!("unexpected field {extra:?}"));
    }
    let board = Board::<u64>::from_digits(7, 6, 4, moves).map_err(|e| e.to_string())?;
    if board.is_over() {
        return Err("game over: the position is already decided".into());
    }
    Ok(Some(Line {
        moves: moves.to_string(),
        board,
        expected,
    }))
}

/// The empty 7 × 6 board as a line without an expected score (a blank input line).
fn empty_line() -> Line {
    Line {
        moves: String::new(),
        board: Board::<u64>::from_digits(7, 6, 4, "").expect("7×6 fits"),
        expected: None,
    }
}

/// A line of `kibitz connect4 solve`'s input: like [`parse_line`], but a blank line is the
/// empty board (the position Pons's sets write as an empty move string).
pub fn solve_line(text: &str) -> Result<Line, String> {
    Ok(parse_line(text)?.unwrap_or_else(empty_line))
}

/// `kibitz connect4 solve`: stdin lines to `<moves> <score>` on stdout (a blank line is the
/// empty board); with `empty` only the empty board, stdin unread.
pub fn solve(hash: usize, weak: bool, empty: bool, threads: usize) -> anyhow::Result<()> {
    let mut solver = AnySolver::new(
        SolverConfig {
            hash_mb: hash,
            ..Default::default()
        },
        threads,
    )?;
    let mut out = std::io::stdout().lock();
    let tc = TimeControl::infinite();
    let (mut bad, mut wrong) = (0usize, 0usize);
    let input: Box<dyn Iterator<Item = std::io::Result<Vec<u8>>>> = if empty {
        Box::new(std::iter::once(Ok(Vec::new())))
    } else {
        Box::new(std::io::stdin().lock().split(b'\n'))
    };
    for (i, line) in input.enumerate() {
        let line = line.context("reading stdin")?;
        let text = String::from_utf8_lossy(&line);
        let l = match solve_line(&text) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("line {}: {:?}: {e}", i + 1, text.trim());
                bad += 1;
                continue;
            }
        };
        let score = solver
            .solve(&l.board, weak, &tc)
            .context("the solver has no time limit here")?;
        match l.expected.map(|e| if weak { e.signum() } else { e }) {
            Some(e) if e != score => {
                wrong += 1;
                eprintln!("line {}: {}: score {score}, expected {e}", i + 1, l.moves);
                writeln!(out, "{} {score} MISMATCH (expected {e})", l.moves)?;
            }
            _ => writeln!(out, "{} {score}", l.moves)?,
        }
    }
    out.flush()?;
    if bad + wrong > 0 {
        bail!("{bad} unreadable or finished positions, {wrong} wrong scores (lines above)");
    }
    Ok(())
}

/// Reads a test-set file: the good lines, and one message per bad line.
fn read_set(path: &Path, limit: Option<usize>) -> anyhow::Result<(Vec<Line>, Vec<String>)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let (mut good, mut bad) = (Vec::new(), Vec::new());
    for (i, line) in text.lines().enumerate().take(limit.unwrap_or(usize::MAX)) {
        match parse_line(line) {
            Ok(Some(l)) if l.expected.is_some() => good.push(l),
            Ok(None) => {}
            Ok(Some(_)) => bad.push(format!(
                "{} line {}: {:?}: no expected score",
                path.display(),
                i + 1,
                line.trim()
            )),
            Err(e) => bad.push(format!(
                "{} line {}: {:?}: {e}",
                path.display(),
                i + 1,
                line.trim()
            )),
        }
    }
    Ok((good, bad))
}

/// `kibitz connect4 bench`: every position of the files from a cleared table; a table of
/// wall and thread-CPU time per position (only the solve is timed) and nodes. With `book`
/// the solver consults the embedded opening book inside the tree.
pub fn bench(
    files: &[PathBuf],
    limit: Option<usize>,
    config: SolverConfig,
    weak: bool,
    book: bool,
    threads: usize,
) -> anyhow::Result<()> {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec![
        "set",
        "positions",
        "bad lines",
        "wrong",
        "mean time",
        "max time",
        "mean CPU",
        "max CPU",
        "mean nodes",
        "nodes/s (CPU)",
    ]);
    let mut solver = AnySolver::new(config, threads)?;
    if book {
        solver.use_book();
    }
    let (mut all_bad, mut all_wrong) = (0usize, 0usize);
    for path in files {
        let (set, bad) = read_set(path, limit)?;
        for b in &bad {
            eprintln!("{b}");
        }
        all_bad += bad.len();
        let stats = bench_set(&mut solver, path, &set, weak);
        all_wrong += stats.wrong;
        let n = set.len().max(1) as f64;
        let cpu_secs = stats.cpu_total.as_secs_f64();
        table.add_row(vec![
            file_label(path),
            set.len().to_string(),
            bad.len().to_string(),
            stats.wrong.to_string(),
            fmt_dur(stats.total.div_f64(n)),
            fmt_dur(stats.max),
            fmt_dur(stats.cpu_total.div_f64(n)),
            fmt_dur(stats.cpu_max),
            format!("{:.0}", stats.nodes as f64 / n),
            // Below a millisecond of CPU in all the rate is noise.
            if cpu_secs >= 1e-3 {
                format!("{:.2} M", stats.nodes as f64 / cpu_secs / 1e6)
            } else {
                "-".into()
            },
        ]);
    }
    println!("{table}");
    if all_bad + all_wrong > 0 {
        bail!("{all_bad} bad lines, {all_wrong} wrong scores (listed on stderr)");
    }
    Ok(())
}

/// Totals of one file.
struct SetStats {
    wrong: usize,
    nodes: u64,
    total: Duration,
    max: Duration,
    cpu_total: Duration,
    cpu_max: Duration,
}

fn bench_set(solver: &mut AnySolver, path: &Path, set: &[Line], weak: bool) -> SetStats {
    let bar = ProgressBar::new(set.len() as u64).with_style(
        ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} [{elapsed_precise}<{eta}]")
            .expect("valid template"),
    );
    bar.set_message(file_label(path));
    let tc = TimeControl::infinite();
    let mut st = SetStats {
        wrong: 0,
        nodes: 0,
        total: Duration::ZERO,
        max: Duration::ZERO,
        cpu_total: Duration::ZERO,
        cpu_max: Duration::ZERO,
    };
    for l in set {
        solver.reset();
        // Timed: the solve and nothing else (all threads' CPU when there are several).
        let parallel = solver.threads() > 1;
        let cpu_clock = if parallel { process_cpu_now } else { cpu_now };
        let c0 = cpu_clock();
        let t = Instant::now();
        let score = solver.solve(&l.board, weak, &tc);
        let dt = t.elapsed();
        let cpu = cpu_clock().saturating_sub(c0);
        let expected = l.expected.map(|e| if weak { e.signum() } else { e });
        if score != expected {
            st.wrong += 1;
            let msg = format!(
                "{}: WRONG {}: got {score:?}, expected {expected:?}",
                file_label(path),
                l.moves
            );
            bar.suspend(|| eprintln!("{msg}"));
        }
        st.nodes += solver.nodes();
        st.total += dt;
        st.max = st.max.max(dt);
        st.cpu_total += cpu;
        st.cpu_max = st.cpu_max.max(cpu);
        bar.inc(1);
    }
    bar.finish_and_clear();
    st
}

#[cfg(test)]
mod tests {
    use super::parse_line;

    #[test]
    fn finished_and_malformed_lines_are_errors() {
        assert!(parse_line("1212121").unwrap_err().contains("game over"));
        assert!(parse_line("1122334").unwrap_err().contains("game over"));
        assert!(parse_line("44x4").is_err());
        assert!(parse_line("4444444").is_err());
        assert!(parse_line("44 1 2").is_err());
        assert!(parse_line("44 one").is_err());
        assert!(parse_line("   ").unwrap().is_none());
        let l = parse_line("4455 -3").unwrap().unwrap();
        assert_eq!((l.moves.as_str(), l.expected), ("4455", Some(-3)));
    }

    #[test]
    fn a_blank_solve_line_is_the_empty_board() {
        for text in ["", "   ", "\r"] {
            let l = super::solve_line(text).unwrap();
            assert_eq!(l.board.moves_played(), 0, "{text:?}");
            assert_eq!((l.moves.as_str(), l.expected), ("", None));
        }
        let l = super::solve_line("4455 -3").unwrap();
        assert_eq!((l.moves.as_str(), l.expected), ("4455", Some(-3)));
    }
}
