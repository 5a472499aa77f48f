//! What the keep-the-value audits (`keep_audit` at a node budget, `keep_clock` under the bot's
//! clock) share: the command line, the test-set lines, the exact judge and the per-stone-count
//! table. Each audit chooses its own way; the judging and the counting are the same.

use kibitz_connect4::book::Book;
use kibitz_connect4::params::EngineParams;
use kibitz_connect4::{Board, Geometry, Solver, SolverConfig, TimeControl};
use std::collections::BTreeMap;

/// The choice sources the engine reports, in table order.
pub const SOURCES: [&str; 5] = ["book", "solver", "bounds", "search", "none"];

/// Settings from the command line.
pub struct Args {
    /// Solver node budget per move (`--nodes`; only the node audit takes it).
    pub nodes: u64,
    /// Lines read from each set (`--lines`).
    pub lines: usize,
    /// Set files (`--sets`): any list of `MOVES SCORE` lines.
    pub sets: Vec<String>,
    /// Only positions with at least this many stones (`--min-stones`).
    pub min_stones: usize,
    /// The judge's table in MiB (`--oracle-hash`).
    pub oracle_hash: usize,
    /// The judge uses the opening book inside its tree (off with `--no-oracle-book`).
    pub oracle_book: bool,
    /// Engine tunables (`--param NAME=V`).
    pub params: EngineParams,
    /// Threads of the engine's solver proofs (`--threads`, default 1).
    pub threads: usize,
    /// Soft share of the contest clock in permille (`--soft-permille`; only the clock audit
    /// takes it): `None` keeps [`kibitz_search::clock::CONNECT4`]'s.
    pub soft_permille: Option<u32>,
}

/// Parses the shared flags; `--nodes` only when `with_nodes` (the node audit).
pub fn parse_args(with_nodes: bool) -> Result<Args, String> {
    let mut a = Args {
        nodes: 1_280_000,
        lines: 1000,
        sets: ["L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3"]
            .iter()
            .map(|s| format!("data/connect4/Test_{s}"))
            .collect(),
        min_stones: 0,
        oracle_hash: 512,
        oracle_book: true,
        params: Default::default(),
        threads: 1,
        soft_permille: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--nodes" if with_nodes => {
                let v = value()?;
                a.nodes = v.parse().map_err(|e| format!("--nodes {v:?}: {e}"))?;
            }
            "--lines" => {
                let v = value()?;
                a.lines = v.parse().map_err(|e| format!("--lines {v:?}: {e}"))?;
            }
            "--min-stones" => {
                let v = value()?;
                a.min_stones = v.parse().map_err(|e| format!("--min-stones {v:?}: {e}"))?;
            }
            "--sets" => a.sets = value()?.split(',').map(str::to_owned).collect(),
            "--oracle-hash" => {
                let v = value()?;
                a.oracle_hash = v.parse().map_err(|e| format!("--oracle-hash {v:?}: {e}"))?;
            }
            "--no-oracle-book" => a.oracle_book = false,
            "--soft-permille" if !with_nodes => {
                let v = value()?;
                a.soft_permille = match v.parse::<u32>() {
                    Ok(n @ 1..=1000) => Some(n),
                    _ => return Err(format!("--soft-permille {v:?}: give 1 to 1000")),
                };
            }
            "--threads" => {
                let v = value()?;
                a.threads = match v.parse::<usize>() {
                    Ok(n @ 1..=64) => n,
                    _ => return Err(format!("--threads {v:?}: give 1 to 64")),
                };
            }
            "--param" => {
                let v = value()?;
                kibitz_search::params::Tunable::apply(&mut a.params, &v)
                    .map_err(|e| format!("--param {v}: {e}"))?;
            }
            other => {
                return Err(format!(
                    "unknown flag {other:?}; flags: {}--lines L --sets FILE,FILE… \
                     --min-stones S --oracle-hash MB --no-oracle-book --threads T --param NAME=V",
                    if with_nodes {
                        "--nodes N "
                    } else {
                        "--soft-permille P "
                    }
                ))
            }
        }
    }
    Ok(a)
}

/// One test-set position.
pub struct Case {
    /// The set file it came from.
    pub set: String,
    /// Its moves (1-based digits).
    pub moves: String,
    /// The exact score for the side to move.
    pub score: i32,
    /// The position.
    pub board: Board<u64>,
    /// The moves as 0-based columns.
    pub history: Vec<usize>,
}

/// One test-set line: the moves (1-based digits) and the exact score for the side to move.
pub fn parse_line(line: &str) -> Result<(String, i32), String> {
    let mut it = line.split_whitespace();
    let (Some(moves), Some(score)) = (it.next(), it.next()) else {
        return Err(format!("line {line:?}: want MOVES SCORE"));
    };
    let score = score
        .parse()
        .map_err(|e| format!("line {line:?}: score: {e}"))?;
    Ok((moves.to_owned(), score))
}

/// The first `a.lines` lines of each set with at least `a.min_stones` stones, in order.
pub fn cases(a: &Args) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for set in &a.sets {
        let text = std::fs::read_to_string(set).map_err(|e| format!("{set}: {e}"))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()).take(a.lines) {
            let (moves, score) = parse_line(line)?;
            if moves.len() < a.min_stones {
                continue;
            }
            let board = Board::<u64>::from_digits(7, 6, 4, &moves)
                .map_err(|e| format!("{set}: {moves}: {e}"))?;
            let history = moves.bytes().map(|d| (d - b'1') as usize).collect();
            out.push(Case {
                set: set.clone(),
                moves,
                score,
                board,
                history,
            });
        }
    }
    Ok(out)
}

/// The exact solver at unlimited time, one table for the whole run.
pub struct Judge {
    oracle: Solver<u64>,
}

impl Judge {
    /// A judge with `a.oracle_hash` MiB and, unless `--no-oracle-book`, the opening book.
    pub fn new(a: &Args) -> Result<Judge, String> {
        let geo = Geometry::<u64>::new(7, 6, 4).map_err(|e| e.to_string())?;
        let mut oracle = Solver::new(
            geo,
            SolverConfig {
                hash_mb: a.oracle_hash,
                grow_table: false,
                ..Default::default()
            },
        );
        if a.oracle_book {
            oracle.set_book(Some(&Book::embedded()));
        }
        Ok(Judge { oracle })
    }

    /// Whether playing `column` keeps the case's value: one null-window test of the move
    /// against the sign of the known score (any move keeps a loss).
    pub fn keeps(&mut self, c: &Case, column: usize) -> Result<bool, String> {
        let v = c.score.signum();
        Ok(v < 0
            || self
                .oracle
                .move_at_least(&c.board, column, v, &TimeControl::infinite())
                .ok_or("the judge has no time limit")?)
    }
}

/// Counts for one stone count.
#[derive(Default)]
struct Row {
    positions: usize,
    kept: usize,
    /// Choices per source.
    source: BTreeMap<&'static str, usize>,
    /// Lost values per source.
    lost: BTreeMap<&'static str, usize>,
}

/// The per-stone-count table of an audit.
#[derive(Default)]
pub struct Table {
    rows: BTreeMap<usize, Row>,
}

impl Table {
    /// Counts one judged choice of `source` for a position of `stones` stones.
    pub fn add(&mut self, stones: usize, source: &'static str, kept: bool) {
        let row = self.rows.entry(stones).or_default();
        row.positions += 1;
        *row.source.entry(source).or_default() += 1;
        if kept {
            row.kept += 1;
        } else {
            *row.lost.entry(source).or_default() += 1;
        }
    }

    /// Prints the table: per stone count, then all and from 10 stones on.
    pub fn print(&self) {
        println!(
            "stones | positions |  kept | lost | kept % | choices book/solver/bounds/search | lost by source"
        );
        let (mut all, mut from10) = ((0, 0), (0, 0));
        for (s, row) in &self.rows {
            let by: Vec<String> = SOURCES[..4]
                .iter()
                .map(|k| row.source.get(k).copied().unwrap_or(0).to_string())
                .collect();
            let lost: Vec<String> = row.lost.iter().map(|(k, n)| format!("{k} {n}")).collect();
            println!(
                "{s:6} | {:9} | {:5} | {:4} | {:6.2} | {:33} | {}",
                row.positions,
                row.kept,
                row.positions - row.kept,
                100.0 * row.kept as f64 / row.positions as f64,
                by.join("/"),
                lost.join(", ")
            );
            all = (all.0 + row.positions, all.1 + row.kept);
            if *s >= 10 {
                from10 = (from10.0 + row.positions, from10.1 + row.kept);
            }
        }
        for (name, (n, k)) in [("all", all), (">= 10", from10)] {
            println!(
                "{name:6} | {n:9} | {k:5} | {:4} | {:6.2} |",
                n - k,
                100.0 * k as f64 / n.max(1) as f64
            );
        }
    }
}
