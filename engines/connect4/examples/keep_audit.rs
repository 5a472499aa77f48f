//! Audit (research, issue 39): at a fixed node budget, how often does the engine's choice
//! keep the value of a test-set position? Per stone count: positions, kept, lost, and where
//! the choices came from (book / solver / bounds / search), over the first `--lines` lines of
//! each set.
//!
//! Each position gets a fresh (cleared) engine with the given node budget
//! ([`Engine::set_node_limit`]), so the audit is deterministic and no warmer than a bot
//! meeting the position cold. The exact solver judges every choice with one null-window test
//! of the chosen move against the sign of the line's known score: "does the move score at
//! least 1" for a won position, "at least 0" for a drawn one (any move keeps a loss). The
//! judge keeps one table for the whole run and, unless `--no-oracle-book`, uses the opening
//! book inside its tree (a book entry bounds a node without search), which makes the
//! judgement of early positions cheap.
//!
//! `cargo run --release -p kibitz-connect4 --features research --example keep_audit --
//!  [--nodes N] [--lines L] [--sets FILE,FILE…] [--oracle-hash MB] [--no-oracle-book]
//!  [--param NAME=V]…` (engine tunables, [`kibitz_connect4::params::EngineParams`])
//!
//! Defaults: 800,000 nodes (at most what the bot's solver phase searches per move, see
//! `keep_budget`), 1,000 lines, the six sets in `data/connect4/`. Every lost line is printed
//! (`lost SET MOVES value V: played C (SOURCE)`), and every position
//! (`pos SET MOVES SCORE STONES SOURCE kept|lost NODES`, for comparing two runs; NODES above
//! the budget marks a position whose first root solve ran out, the only ones a change of the
//! resumed solve or the fallback can alter), then the table.
//! A set file may be any list of `MOVES SCORE` lines (e.g. the fallback positions of a
//! previous run, to re-judge only the choices a change of the fallback can alter).
//!
//! Results at 800,000 nodes, 6 × 1,000 lines (803 s CPU): before the resumed solve
//! (`resume_share` 0) 5,869 / 6,000 kept, 4,621 / 4,629 from 10 stones on (8 lost: 3 "bounds",
//! a proven draw played where a win was open; 5 "search"). With it (default 0.8; only the
//! 901 fallback positions re-judged, the others' choices cannot change) 4,622 / 4,629 from
//! 10 stones on; still lost: `427761773521`, `44561362221`, `46217547345` (bounds),
//! `217124624716`, `7321565577`, `6621166225`, `2751641731` (search).
//! With the root solve going on from the round it stopped in (and the win question starting
//! at the cap that proved the draw): 4,624 / 4,629 from 10 stones on (`427761773521`,
//! `46217547345` fixed, none broken; every position of 10 stones or more re-run, and all
//! lines of L3_R1, L2_R1, L2_R2, L1_R1 and L1_R2). Still lost: `44561362221` (bounds: only
//! column 6 wins, its proof needs about 560k nodes after the draw's and comes fifth in the
//! solver's order), and the four "search" positions, where no move is proven either way
//! within the budget (the cheapest proof that keeps the value costs 250k–4.4M nodes from a
//! fresh table and is not among the first moves the rounds reach).
//!
//! Every position of 10 stones or more of the six sets (4,629; `--lines 100000` on a set file
//! of those lines; about 90 s CPU per run), kept per budget: 400k 4,611 (lost 7/6/3/1/1 at
//! 10–14 stones), 800k 4,624 (3/1/1 at 10–12), 1.6M 4,626 (2 at 10, 1 at 12;
//! `217124624716` and `6621166225` are lost even then, `3651136162` only then).
//! What the five cost (`keep_grand`, fresh table): the root's weak solve 0.86M–6.4M nodes;
//! `6621166225` keeps its draw only by column 5, whose proof costs 6.5M (3.7M for one reply)
//! and whose elimination costs 1.5M–7.5M per losing move in the solver's reply order (reply
//! 5 refutes five of them for 9k–114k each, but comes third); `44561362221` needs the draw
//! proven and then column 6's win (557k) on top. The heuristic fallback (`keep_heur`) ranks
//! no value-keeping move first in any of the four "search" losses.
//! Tried on all 4,629 positions at 800k and not kept (kept from 10 stones, base 4,624):
//! - first round cap 64k instead of 16k: 4,625 (`2751641731` kept), but 4,612 vs 4,611 at
//!   400k and 4,625 vs 4,626 at 1.6M: noise, not a gain; growth 8× per round: 4,622;
//! - each move's test split into one test per opponent reply (a depth-2 breadth-first
//!   scheme, cheap refutations by a late reply), with the cap shared among the replies:
//!   4,621; plus "killer" replies (those that refuted a sibling) first with the whole cap and
//!   a killer pass per round: 4,618 (proofs, which need every reply, get slower: `427761773521`,
//!   `6133112551`, `5425417144`, `2147756677465` lost);
//! - a quick 2-ply probe (1k–2k nodes per reply) ordering the rounds by replies proven:
//!   4,620–4,621 (orders `217124624716`'s column 1 and `7321565577`'s column 2 first, but
//!   its cost breaks others);
//! - on the 26 "search" positions: the solver's static order instead of the heuristic
//!   search 18 kept (search 22); evaluation weights (`--param`) trade one loss for another
//!   (best `segment=5`: 23).
//!
//! With the best possible order (the winning / drawing move first, by hand: not a fix),
//! four of the five keep their value at 800k; `6621166225` does not.
use kibitz_connect4::book::Book;
use kibitz_connect4::{Board, Engine, Geometry, Solver, SolverConfig, TimeControl};
use std::collections::BTreeMap;

/// The choice sources the engine reports, in table order.
const SOURCES: [&str; 5] = ["book", "solver", "bounds", "search", "none"];

/// Settings from the command line.
struct Args {
    nodes: u64,
    lines: usize,
    sets: Vec<String>,
    oracle_hash: usize,
    oracle_book: bool,
    params: kibitz_connect4::params::EngineParams,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        nodes: 800_000,
        lines: 1000,
        sets: ["L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3"]
            .iter()
            .map(|s| format!("data/connect4/Test_{s}"))
            .collect(),
        oracle_hash: 512,
        oracle_book: true,
        params: Default::default(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--nodes" => {
                let v = value()?;
                a.nodes = v.parse().map_err(|e| format!("--nodes {v:?}: {e}"))?;
            }
            "--lines" => {
                let v = value()?;
                a.lines = v.parse().map_err(|e| format!("--lines {v:?}: {e}"))?;
            }
            "--sets" => a.sets = value()?.split(',').map(str::to_owned).collect(),
            "--oracle-hash" => {
                let v = value()?;
                a.oracle_hash = v.parse().map_err(|e| format!("--oracle-hash {v:?}: {e}"))?;
            }
            "--no-oracle-book" => a.oracle_book = false,
            "--param" => {
                let v = value()?;
                kibitz_search::params::Tunable::apply(&mut a.params, &v)
                    .map_err(|e| format!("--param {v}: {e}"))?;
            }
            other => {
                return Err(format!(
                    "unknown flag {other:?}; flags: --nodes N --lines L --sets FILE,FILE… \
                     --oracle-hash MB --no-oracle-book --param NAME=V"
                ))
            }
        }
    }
    Ok(a)
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

/// One test-set line: the moves (1-based digits) and the exact score for the side to move.
fn parse_line(line: &str) -> Result<(String, i32), String> {
    let mut it = line.split_whitespace();
    let (Some(moves), Some(score)) = (it.next(), it.next()) else {
        return Err(format!("line {line:?}: want MOVES SCORE"));
    };
    let score = score
        .parse()
        .map_err(|e| format!("line {line:?}: score: {e}"))?;
    Ok((moves.to_owned(), score))
}

fn main() -> Result<(), String> {
    let a = parse_args()?;
    let inf = TimeControl::infinite();
    let geo = Geometry::<u64>::new(7, 6, 4).map_err(|e| e.to_string())?;
    let mut oracle = Solver::new(
        geo,
        SolverConfig {
            hash_mb: a.oracle_hash,
            grow_table: false,
            ..Default::default()
        },
    );
    let book = Book::embedded();
    if a.oracle_book {
        oracle.set_book(Some(&book));
    }
    let mut engine = Engine::new(7, 6, 4, 64).map_err(|e| e.to_string())?;
    engine.set_params(a.params);
    engine.set_node_limit(Some(a.nodes));
    let mut table: BTreeMap<usize, Row> = BTreeMap::new();
    for set in &a.sets {
        let text = std::fs::read_to_string(set).map_err(|e| format!("{set}: {e}"))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()).take(a.lines) {
            let (moves, score) = parse_line(line)?;
            let b = Board::<u64>::from_digits(7, 6, 4, &moves)
                .map_err(|e| format!("{set}: {moves}: {e}"))?;
            let history: Vec<usize> = moves.bytes().map(|d| (d - b'1') as usize).collect();
            engine.clear();
            let c = engine.choose(&history, &inf, None);
            // Kept: the move scores at least the position's sign (any move keeps a loss).
            let v = score.signum();
            let kept = v < 0
                || oracle
                    .move_at_least(&b, c.column, v, &inf)
                    .ok_or("the judge has no time limit")?;
            println!(
                "pos {set} {moves} {score} {} {} {} {}",
                moves.len(),
                c.source,
                if kept { "kept" } else { "lost" },
                c.nodes
            );
            let row = table.entry(moves.len()).or_default();
            row.positions += 1;
            *row.source.entry(c.source).or_default() += 1;
            if kept {
                row.kept += 1;
            } else {
                *row.lost.entry(c.source).or_default() += 1;
                println!(
                    "lost {set} {moves} value {v}: played {} ({})",
                    c.column + 1,
                    c.source
                );
            }
        }
    }
    println!(
        "nodes {} · lines {} per set · {} sets",
        a.nodes,
        a.lines,
        a.sets.len()
    );
    println!(
        "stones | positions |  kept | lost | kept % | choices book/solver/bounds/search | lost by source"
    );
    let mut all = Row::default();
    let mut from10 = Row::default();
    for (s, row) in &table {
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
        for sum in [&mut all, &mut from10]
            .into_iter()
            .take(if *s >= 10 { 2 } else { 1 })
        {
            sum.positions += row.positions;
            sum.kept += row.kept;
        }
    }
    for (name, row) in [("all", &all), (">= 10", &from10)] {
        println!(
            "{name:6} | {:9} | {:5} | {:4} | {:6.2} |",
            row.positions,
            row.kept,
            row.positions - row.kept,
            100.0 * row.kept as f64 / row.positions.max(1) as f64
        );
    }
    Ok(())
}
