//! `kibitz connect4 audit`: games of the bot's real move-choice path ([`Engine::choose`] with
//! the real budget, the table kept as the bot keeps it, or fresh per move in harsh mode)
//! against random, weak and self opponents from the empty board, both colours, optionally
//! with a CPU hog thread; EVERY bot move is checked against the exact solver (or the book,
//! where the move came from it): did it keep the game value (win / draw / loss)?
//!
//! Prints per ply range the moves checked, where they came from, the share proven (book or
//! solver), and every value-worsening move with its position.

use super::{fmt_dur, play_one, Score};
use anyhow::{bail, Context};
use comfy_table::{presets::UTF8_FULL, Table};
use indicatif::{ProgressBar, ProgressStyle};
use kibitz_bots_connect4::client::engine_deadlines;
use kibitz_connect4::agents::{self, AgentSpec, EngineAgent, EngineSpec};
use kibitz_connect4::book::Book;
use kibitz_connect4::game_impl::{C4Config, ConnectFour};
use kibitz_connect4::{Board, Engine, Geometry, Solver, SolverConfig, TimeControl};
use kibitz_search::agent::Agent;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of one audit run.
#[derive(Clone, Debug)]
pub struct AuditArgs {
    /// Number of games (spread over opponents and colours).
    pub games: usize,
    /// The bot's reply time per move in ms, as `connect4-bot --time-ms T --overhead-ms 15` (engine soft budget
    /// half of it, hard deadline 30 ms before it).
    pub time_ms: u64,
    /// Deterministic node budget per move instead of the clock.
    pub nodes: Option<u64>,
    /// Opponents, cycled: `random`, `weak`, `self`.
    pub opponents: Vec<String>,
    /// Fresh tables for every move.
    pub harsh: bool,
    /// Run a thread burning CPU next to the bot.
    pub hog: bool,
    /// Random seed.
    pub seed: u64,
    /// Table of the checking solver in MiB.
    pub oracle_hash: usize,
    /// Engine tunables of the audited bot.
    pub params: kibitz_connect4::params::EngineParams,
    /// Book file instead of the embedded book.
    pub book: Option<PathBuf>,
    /// Check book moves with the solver too.
    pub verify_book: bool,
}

/// The verdict on one bot move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// Weak value (-1/0/1) of the position before the move, for the mover.
    pub before: i32,
    /// Whether the move keeps it.
    pub kept: bool,
    /// Checked by the book (true) or by the solver (false).
    pub by_book: bool,
}

/// Checks a move: the book's value where the move is the book's own choice in a book
/// position (the book is exact by construction), else the exact solver at unlimited time.
pub fn check_move(
    oracle: &mut Solver<u64>,
    book: &Book,
    board: &Board<u64>,
    col: usize,
) -> anyhow::Result<Check> {
    if let Some(e) = book.lookup(board) {
        if e.column as usize == col {
            return Ok(Check {
                before: (e.score as i32).signum(),
                kept: true,
                by_book: true,
            });
        }
    }
    let inf = TimeControl::infinite();
    let before = oracle
        .solve_window(board, -1, 1, &inf)
        .context("no time limit")?;
    let kept = before < 0
        || oracle
            .move_at_least(board, col, before, &inf)
            .context("no time limit")?;
    Ok(Check {
        before,
        kept,
        by_book: false,
    })
}

/// Per ply range: moves, by source, proven, worsening.
#[derive(Clone, Debug, Default)]
struct Row {
    moves: usize,
    book: usize,
    solver: usize,
    bounds: usize,
    search: usize,
    worse: usize,
    max_time: Duration,
}

const RANGES: [(usize, usize); 6] = [(0, 9), (10, 12), (13, 14), (15, 19), (20, 29), (30, 42)];

fn range_of(ply: usize) -> usize {
    RANGES
        .iter()
        .position(|&(a, b)| (a..=b).contains(&ply))
        .unwrap_or(RANGES.len() - 1)
}

/// `kibitz connect4 audit`.
pub fn audit(args: &AuditArgs) -> anyhow::Result<()> {
    if args.opponents.is_empty() {
        bail!("--opponents needs at least one of random, weak, self");
    }
    for o in &args.opponents {
        AgentSpec::opponent(o, 1)?;
    }
    let hog_stop = Arc::new(AtomicBool::new(false));
    let hog = args.hog.then(|| {
        let stop = Arc::clone(&hog_stop);
        std::thread::spawn(move || {
            let mut x = 0u64;
            while !stop.load(Ordering::Relaxed) {
                for i in 0..100_000u64 {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
                }
                std::hint::black_box(x);
            }
        })
    });
    let result = run_games(args);
    hog_stop.store(true, Ordering::Relaxed);
    if let Some(h) = hog {
        let _ = h.join();
    }
    result
}

fn run_games(args: &AuditArgs) -> anyhow::Result<()> {
    let geo = Geometry::<u64>::new(7, 6, 4)?;
    let mut oracle = Solver::new(
        geo,
        SolverConfig {
            hash_mb: args.oracle_hash,
            ..Default::default()
        },
    );
    let book = match &args.book {
        Some(f) => {
            let bytes = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
            Book::from_bytes(&bytes).with_context(|| format!("{}", f.display()))?
        }
        None => Book::embedded(),
    };
    // The checker trusts the book only when asked to (its entries are solver results).
    let check_book = if args.verify_book {
        Book::new()
    } else {
        book.clone()
    };
    // The bot's own deadlines for a reply time (soft half of it, hard 30 ms before it).
    let (soft, hard, _) = engine_deadlines(Duration::from_millis(args.time_ms));
    let mut engine = Engine::new(7, 6, 4, 64)?;
    engine.set_node_limit(args.nodes);
    engine.set_params(args.params);
    engine.set_book(book.clone());
    let spec = EngineSpec {
        fresh: args.harsh,
        ..EngineSpec::engine(64)
    };
    let mut bot = EngineAgent::with_engine(engine, &spec);
    let mut opponents: Vec<Box<dyn Agent<ConnectFour> + Send>> = Vec::new();
    for name in &args.opponents {
        let o = match AgentSpec::opponent(name, 64)? {
            AgentSpec::Engine(spec) => {
                let mut them = Engine::new(7, 6, 4, 64)?;
                them.set_node_limit(args.nodes);
                them.set_book(book.clone());
                Box::new(EngineAgent::with_engine(them, &spec))
            }
            other => other.build(&C4Config::default())?,
        };
        opponents.push(o);
    }
    let mut rows = vec![Row::default(); RANGES.len()];
    let mut worsening = Vec::new();
    let mut score = Score::default();
    let bar = ProgressBar::new(args.games as u64).with_style(
        ProgressStyle::with_template(
            "audit {bar:40} {pos}/{len} games [{elapsed_precise}<{eta}] {msg}",
        )
        .expect("valid template"),
    );
    let started = Instant::now();
    for g in 0..args.games {
        let k = opponents.len();
        let our_seat = (g / k) % 2;
        score.add(play_one(
            &mut bot,
            &mut *opponents[g % k],
            our_seat,
            (args.seed, g as u64),
            || TimeControl::new(soft, hard),
            |m| -> anyhow::Result<()> {
                let (column, time) = (m.decision.action, m.decision.elapsed);
                let source = agents::source(m.decision).unwrap_or("none");
                let check = check_move(&mut oracle, &check_book, m.board, column)?;
                let row = &mut rows[range_of(m.board.moves_played())];
                row.moves += 1;
                match source {
                    "book" => row.book += 1,
                    "solver" => row.solver += 1,
                    "bounds" => row.bounds += 1,
                    _ => row.search += 1,
                }
                row.max_time = row.max_time.max(time);
                if !check.kept {
                    row.worse += 1;
                    let moves: String = m
                        .history
                        .iter()
                        .map(|&c| char::from(b'1' + c as u8))
                        .collect();
                    worsening.push(format!(
                        "{moves:<20} played {} ({source}), value {} thrown away",
                        column + 1,
                        ["loss", "draw", "win"][(check.before + 1) as usize]
                    ));
                    bar.set_message(format!("{} value-worsening", worsening.len()));
                }
                Ok(())
            },
        )?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    print_report(args, &rows, &worsening, score, started);
    if !worsening.is_empty() {
        bail!("{} value-worsening moves", worsening.len());
    }
    Ok(())
}

fn print_report(
    args: &AuditArgs,
    rows: &[Row],
    worsening: &[String],
    Score {
        wins,
        draws,
        losses,
    }: Score,
    started: Instant,
) {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec![
        "plies",
        "moves checked",
        "book",
        "solver",
        "bounds",
        "search",
        "proven",
        "value-worsening",
        "max time",
    ]);
    let mut total = Row::default();
    for (i, r) in rows.iter().enumerate() {
        if r.moves == 0 {
            continue;
        }
        let (a, b) = RANGES[i];
        table.add_row(row_cells(format!("{a}-{b}"), r));
        total.moves += r.moves;
        total.book += r.book;
        total.solver += r.solver;
        total.bounds += r.bounds;
        total.search += r.search;
        total.worse += r.worse;
        total.max_time = total.max_time.max(r.max_time);
    }
    table.add_row(row_cells("all".into(), &total));
    println!(
        "audit: {} games, {} ms per move{}, opponents {}, {}{}; bot {wins} W {draws} D {losses} L; {}",
        args.games,
        args.time_ms,
        args.nodes
            .map(|n| format!(" (node budget {n})"))
            .unwrap_or_default(),
        args.opponents.join("/"),
        if args.harsh { "harsh (fresh table per move)" } else { "table kept" },
        if args.hog { ", CPU hog running" } else { "" },
        fmt_dur(started.elapsed())
    );
    println!("{table}");
    for w in worsening {
        println!("WORSE {w}");
    }
}

fn row_cells(label: String, r: &Row) -> Vec<String> {
    let pct = |x: usize| format!("{x} ({:.1}%)", 100.0 * x as f64 / r.moves.max(1) as f64);
    vec![
        label,
        r.moves.to_string(),
        pct(r.book),
        pct(r.solver),
        pct(r.bounds),
        pct(r.search),
        pct(r.book + r.solver),
        r.worse.to_string(),
        fmt_dur(r.max_time),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_flags_a_planted_wrong_move() {
        let geo = Geometry::<u64>::new(7, 6, 4).unwrap();
        let mut oracle = Solver::new(
            geo,
            SolverConfig {
                hash_mb: 16,
                ..Default::default()
            },
        );
        let book = Book::new();
        // A won position (score +1 for the side to move, Test_L3_R1).
        let b = Board::<u64>::from_digits(7, 6, 4, "7422341735647741166133573473242566").unwrap();
        let inf = TimeControl::infinite();
        let (mut good, mut bad) = (None, None);
        for c in b.legal_moves() {
            if oracle.move_at_least(&b, c, 1, &inf).unwrap() {
                good.get_or_insert(c);
            } else {
                bad.get_or_insert(c);
            }
        }
        let (good, bad) = (good.unwrap(), bad.unwrap());
        let planted = check_move(&mut oracle, &book, &b, bad).unwrap();
        assert_eq!(planted.before, 1);
        assert!(!planted.kept, "the planted move {bad} throws the win away");
        assert!(check_move(&mut oracle, &book, &b, good).unwrap().kept);
    }
}
