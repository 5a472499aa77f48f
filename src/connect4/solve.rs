//! `kibitz connect4 solve` and `bench`: score test-set lines, check them, time the solver.
//!
//! Both read `<moves> [<score>]` lines: 1-based column digits as in the test sets, or, on
//! boards wider than nine columns (where a digit cannot name every column), 1-based column
//! numbers separated by commas (`1,10,5`; commas are accepted on every size). `solve` takes
//! any board size (`--columns --rows --connect`; 64-bit bitboards where the board fits, else
//! 128-bit ones), `bench` the 7 × 6 test sets. A line that cannot be read, or whose position
//! is already decided ("game over"), is an error; so is a score that disagrees with ours.
//! Every such line is named on stderr and the command exits non-zero after doing all the
//! others.

use super::{file_label, fmt_dur};
use anyhow::{bail, Context};
use comfy_table::{presets::UTF8_FULL, Table};
use indicatif::{ProgressBar, ProgressStyle};
use kibitz_connect4::bitboard::Bits;
use kibitz_connect4::solver::parallel::ParallelSolver;
use kibitz_connect4::{Board, Geometry, Position, Solver, SolverConfig, TimeControl};
use kibitz_search::time::{process_cpu, thread_cpu};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A board size: columns, rows and line length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Columns.
    pub columns: usize,
    /// Rows.
    pub rows: usize,
    /// Stones in a line that win.
    pub connect: usize,
}

impl Size {
    /// The standard 7 × 6 board, connect 4 (the test sets' size).
    pub const STANDARD: Size = Size {
        columns: 7,
        rows: 6,
        connect: 4,
    };

    /// Checks that the solver supports the size (bitboard width, a line that fits).
    pub fn checked(self) -> anyhow::Result<Self> {
        if !kibitz_connect4::line_fits(self.columns, self.rows, self.connect) {
            bail!(
                "no line of {} fits on a {}×{} board (connect must not exceed both columns and rows)",
                self.connect,
                self.columns,
                self.rows
            );
        }
        Position::new(self.columns, self.rows, self.connect)?;
        Ok(self)
    }

    /// Whether 64-bit bitboards hold the board (the faster solver).
    fn narrow(self) -> bool {
        Geometry::<u64>::new(self.columns, self.rows, self.connect).is_ok()
    }
}

/// The serial solver (one thread, deterministic) or the parallel one, on 64-bit bitboards
/// or, for boards that need them, 128-bit ones.
pub enum AnySolver {
    /// One thread.
    One(Box<Solver<u64>>),
    /// Several threads over one shared table.
    Many(ParallelSolver<u64>),
    /// One thread, 128-bit bitboards.
    OneWide(Box<Solver<u128>>),
    /// Several threads, 128-bit bitboards.
    ManyWide(ParallelSolver<u128>),
}

/// The board of `moves` (0-based columns, known to be legal) in bitboard word `B`.
fn board_of<B: Bits>(size: Size, moves: &[usize]) -> Option<Board<B>> {
    Board::<B>::from_moves(size.columns, size.rows, size.connect, moves).ok()
}

impl AnySolver {
    /// A 7 × 6 solver with `threads` threads.
    pub fn new(config: SolverConfig, threads: usize) -> anyhow::Result<Self> {
        Self::with_size(Size::STANDARD, config, threads)
    }

    /// A solver for `size` with `threads` threads.
    pub fn with_size(size: Size, config: SolverConfig, threads: usize) -> anyhow::Result<Self> {
        let size = size.checked()?;
        let (c, r, n) = (size.columns, size.rows, size.connect);
        Ok(if size.narrow() {
            let geo = Geometry::<u64>::new(c, r, n)?;
            if threads <= 1 {
                Self::One(Box::new(Solver::new(geo, config)))
            } else {
                Self::Many(ParallelSolver::new(geo, config, threads))
            }
        } else {
            let geo = Geometry::<u128>::new(c, r, n)?;
            if threads <= 1 {
                Self::OneWide(Box::new(Solver::new(geo, config)))
            } else {
                Self::ManyWide(ParallelSolver::new(geo, config, threads))
            }
        })
    }

    /// The exact score of the position of `line`, or with `weak` win / draw / loss (`None`
    /// only on a deadline, or when the line is for another size).
    pub fn solve(&mut self, line: &Line, weak: bool, tc: &TimeControl) -> Option<i32> {
        let size = line.size;
        let w = |lo: i32, hi: i32| if weak { (-1, 1) } else { (lo, hi) };
        match self {
            Self::One(s) => {
                let b = board_of::<u64>(size, &line.columns)?;
                let (lo, hi) = w(i32::MIN, i32::MAX);
                s.solve_window(&b, lo, hi, tc)
            }
            Self::Many(s) => {
                let b = board_of::<u64>(size, &line.columns)?;
                let (lo, hi) = w(i32::MIN, i32::MAX);
                s.solve_window(&b, lo, hi, tc)
            }
            Self::OneWide(s) => {
                let b = board_of::<u128>(size, &line.columns)?;
                let (lo, hi) = w(i32::MIN, i32::MAX);
                s.solve_window(&b, lo, hi, tc)
            }
            Self::ManyWide(s) => {
                let b = board_of::<u128>(size, &line.columns)?;
                let (lo, hi) = w(i32::MIN, i32::MAX);
                s.solve_window(&b, lo, hi, tc)
            }
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
            Self::OneWide(s) => {
                s.clear();
                s.reset_nodes();
            }
            Self::ManyWide(s) => {
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
            Self::OneWide(s) => s.nodes(),
            Self::ManyWide(s) => s.nodes(),
        }
    }

    /// Consults the embedded opening book inside the tree (7 × 6 only; other sizes have
    /// none).
    pub fn use_book(&mut self) {
        let book = kibitz_connect4::book::Book::embedded();
        match self {
            Self::One(s) if s.geometry().cells() == 42 => s.set_book(Some(&book)),
            Self::Many(s) => s.set_book(Some(&book)),
            _ => {}
        }
    }

    /// Thread count.
    fn threads(&self) -> usize {
        match self {
            Self::One(_) | Self::OneWide(_) => 1,
            Self::Many(s) => s.threads(),
            Self::ManyWide(s) => s.threads(),
        }
    }
}

/// One readable test line.
#[derive(Debug)]
pub struct Line {
    /// The move string as given.
    pub moves: String,
    /// The board size.
    pub size: Size,
    /// The moves, 0-based columns.
    pub columns: Vec<usize>,
    /// The expected score, if the line has one.
    pub expected: Option<i32>,
}

/// The 0-based columns of a move string: 1-based digits, or 1-based numbers separated by
/// commas when the string holds a comma.
fn parse_move_string(moves: &str) -> Result<Vec<usize>, String> {
    if moves.contains(',') {
        moves
            .split(',')
            .enumerate()
            .map(|(i, f)| match f.trim().parse::<usize>() {
                Ok(c) if c > 0 => Ok(c - 1),
                _ => Err(format!(
                    "move {}: {f:?} is not a column number (1-based)",
                    i + 1
                )),
            })
            .collect()
    } else {
        moves
            .chars()
            .map(|ch| match ch.to_digit(10) {
                Some(d) if d > 0 => Ok(d as usize - 1),
                _ => Err(format!(
                    "bad move character {ch:?} (1-based column digits, or numbers separated by commas)"
                )),
            })
            .collect()
    }
}

/// Parses `<moves> [<score>]` for the 7 × 6 board; `Ok(None)` for a blank line. A finished
/// game is an error.
pub fn parse_line(text: &str) -> Result<Option<Line>, String> {
    parse_sized_line(text, Size::STANDARD)
}

/// Parses `<moves> [<score>]` for a board of `size`; `Ok(None)` for a blank line. A finished
/// game is an error.
pub fn parse_sized_line(text: &str, size: Size) -> Result<Option<Line>, String> {
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
    let columns = parse_move_string(moves)?;
    let one_based: Vec<usize> = columns.iter().map(|c| c + 1).collect();
    let board = Position::from_one_based(size.columns, size.rows, size.connect, &one_based)
        .map_err(|e| e.to_string())?;
    if board.is_over() {
        return Err("game over: the position is already decided".into());
    }
    Ok(Some(Line {
        moves: moves.to_string(),
        size,
        columns,
        expected,
    }))
}

/// The empty board as a line without an expected score (a blank input line).
fn empty_line(size: Size) -> Line {
    Line {
        moves: String::new(),
        size,
        columns: Vec::new(),
        expected: None,
    }
}

/// A line of `kibitz connect4 solve`'s input: like [`parse_sized_line`], but a blank line is
/// the empty board (the position Pons's sets write as an empty move string).
pub fn solve_line(text: &str, size: Size) -> Result<Line, String> {
    Ok(parse_sized_line(text, size)?.unwrap_or_else(|| empty_line(size)))
}

/// `kibitz connect4 solve`: stdin lines to `<moves> <score>` on stdout (a blank line is the
/// empty board); with `empty` only the empty board, stdin unread.
pub fn solve(
    size: Size,
    hash: usize,
    weak: bool,
    empty: bool,
    threads: usize,
) -> anyhow::Result<()> {
    let mut solver = AnySolver::with_size(
        size,
        SolverConfig {
            hash_mb: hash,
            ..Default::default()
        },
        threads,
    )?;
    let input: Box<dyn BufRead> = if empty {
        Box::new(std::io::Cursor::new(Vec::new()))
    } else {
        Box::new(std::io::stdin().lock())
    };
    let mut out = std::io::stdout().lock();
    solve_lines(&mut solver, size, weak, empty, input, &mut out)
}

/// The body of [`solve`]: every line of `input` (or, with `empty`, the empty board alone)
/// solved with `solver`, `<moves> <score>` written to `out`.
pub fn solve_lines(
    solver: &mut AnySolver,
    size: Size,
    weak: bool,
    empty: bool,
    input: impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let tc = TimeControl::infinite();
    let (mut bad, mut wrong) = (0usize, 0usize);
    let input: Box<dyn Iterator<Item = std::io::Result<Vec<u8>>>> = if empty {
        Box::new(std::iter::once(Ok(Vec::new())))
    } else {
        Box::new(input.split(b'\n'))
    };
    for (i, line) in input.enumerate() {
        let line = line.context("reading stdin")?;
        let text = String::from_utf8_lossy(&line);
        let l = match solve_line(&text, size) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("line {}: {:?}: {e}", i + 1, text.trim());
                bad += 1;
                continue;
            }
        };
        let score = solver
            .solve(&l, weak, &tc)
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
        let cpu_clock = if parallel { process_cpu } else { thread_cpu };
        let c0 = cpu_clock();
        let t = Instant::now();
        let score = solver.solve(l, weak, &tc);
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
mod tests;
