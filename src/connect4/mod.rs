//! `kibitz connect4 …`: solve positions, benchmark the solver on the test sets, grow the
//! opening book, show a position, and measure (in games) how early the engine plays provably
//! perfectly.

use anyhow::{bail, Context};
use clap::Subcommand;
use kibitz_connect4::{Geometry, Solver, SolverConfig};
use std::path::{Path, PathBuf};
use std::time::Duration;

mod audit;
mod book;
mod games;
mod play;
mod show;
mod solve;
mod timing;

pub(crate) use play::{play_one, Score};

/// Where `kibitz connect4 book` writes by default (the file embedded into the engine).
const BOOK_FILE: &str = "engines/connect4/book/book_7x6.bin";

/// `kibitz connect4` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Read `<moves> [<score>]` lines (1-based column digits, or 1-based column numbers
    /// separated by commas on boards wider than 9) from stdin, print `<moves> <score>`; a
    /// blank line is the empty board (printed as ` <score>`, the move string being empty).
    /// Any size with columns × (rows + 1) ≤ 128 (default 7×6, connect 4). Unreadable lines,
    /// finished games and wrong scores are named on stderr and make the exit status non-zero.
    Solve {
        /// Board columns.
        #[arg(long, default_value_t = 7)]
        columns: usize,
        /// Board rows.
        #[arg(long, default_value_t = 6)]
        rows: usize,
        /// Line length.
        #[arg(long, default_value_t = 4)]
        connect: usize,
        /// Transposition table size in MiB (at most 3/4 of the machine's memory).
        #[arg(long, default_value_t = 256, value_parser = kibitz_net::memory::parse_table_mb)]
        hash: usize,
        /// Only win / draw / loss (-1 / 0 / 1).
        #[arg(long)]
        weak: bool,
        /// Solve the empty board instead of reading stdin.
        #[arg(long)]
        empty: bool,
        /// Search threads sharing one table (Lazy SMP); 1 is the deterministic serial solver.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
    },
    /// Solve every position of test-set files with a cleared table each time; print a table
    /// (thread CPU time of the solve alone). Bad lines or wrong scores: non-zero exit.
    Bench {
        /// Test-set files (`<moves> <score>` per line).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Only the first N positions of each file.
        #[arg(long)]
        limit: Option<usize>,
        /// Transposition table size in MiB (at most 3/4 of the machine's memory).
        #[arg(long, default_value_t = 64, value_parser = kibitz_net::memory::parse_table_mb)]
        hash: usize,
        /// Solver tunable `name=value` (etc_min_empty, symmetry_max_moves, check_every, parity_weight, history, prefetch, tt_min_empty, next_win_bound, near_empty, near_kb, forcing_weight, keep_threat_weight, stack_weight, probe_rule, abdada_min_empty, abdada_min_index, abdada_first_min_empty, helper_mirror, parallel_check_every, split_windows, split_root, serial_nodes, grow_table).
        #[arg(long = "param")]
        params: Vec<String>,
        /// Only win / draw / loss (checks the sign of the expected score).
        #[arg(long)]
        weak: bool,
        /// Let the solver consult the embedded opening book inside the tree.
        #[arg(long)]
        book: bool,
        /// Search threads sharing one table (Lazy SMP); 1 is the deterministic serial solver.
        /// CPU times are then the whole process's.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
    },
    /// Grow the 7×6 opening book (resumable: run it again to continue or go deeper).
    Book {
        /// Deepest position (stones on the board) to put into the book.
        #[arg(long, default_value_t = 8)]
        plies: usize,
        /// Book file to read and extend.
        #[arg(long, default_value = BOOK_FILE)]
        file: PathBuf,
        /// Solver nodes (from a cleared table) within which a position counts as "the bot
        /// finds the perfect move alone"; about 100 ms of a busy core.
        #[arg(long, default_value_t = 500_000)]
        easy_nodes: u64,
        /// Time allowed to refine a hard position from win/draw/loss to the exact score (s).
        #[arg(long, default_value_t = 20)]
        exact_secs: u64,
        /// Stop after this many new positions (0 = no limit).
        #[arg(long, default_value_t = 0)]
        max_new: usize,
        /// Transposition table size of the persistent solver in MiB (at most 3/4 of the
        /// machine's memory).
        #[arg(long, default_value_t = 1024, value_parser = kibitz_net::memory::parse_table_mb)]
        hash: usize,
        /// Only print the book's statistics.
        #[arg(long)]
        stats: bool,
        /// First re-test the positions marked easy with `--easy-nodes` and grow the book
        /// below those it no longer proves (to deepen a book for a smaller budget).
        #[arg(long)]
        recheck_easy: bool,
    },
    /// Print the board after `<moves>` (1-based digits), a legend, the book's move and the
    /// score of every column (book where it knows, else the solver within `--secs`).
    Show {
        /// Moves as 1-based column digits (may be empty).
        #[arg(default_value = "")]
        moves: String,
        /// Transposition table size in MiB (at most 3/4 of the machine's memory).
        #[arg(long, default_value_t = 256, value_parser = kibitz_net::memory::parse_table_mb)]
        hash: usize,
        /// Solver time for all columns together, in seconds.
        #[arg(long, default_value_t = 10)]
        secs: u64,
    },
    /// Ask the engine for a move as the bot would (book, solver, search) and print its choice.
    Play {
        /// Moves as 1-based column digits (may be empty).
        #[arg(default_value = "")]
        moves: String,
        /// Time budget in ms.
        #[arg(long, default_value_t = 200)]
        ms: u64,
        /// Board columns.
        #[arg(long, default_value_t = 7)]
        columns: usize,
        /// Board rows.
        #[arg(long, default_value_t = 6)]
        rows: usize,
        /// Line length.
        #[arg(long, default_value_t = 4)]
        connect: usize,
        /// Play without the opening book.
        #[arg(long)]
        no_book: bool,
        /// Threads of the solver's proofs (`auto`: this machine's cores, at most 4).
        #[arg(long, default_value = "1", value_parser = kibitz_net::cli::parse_threads)]
        threads: usize,
        /// Engine tunable `NAME=V` (repeatable; `kibitz connect4 params` lists them).
        #[arg(long = "param")]
        params: Vec<String>,
    },
    /// List the engine's tunables (name, default, min, max, step, doc; tab-separated).
    Params(crate::params_cli::ParamsArgs),
    /// Audit the bot: games of its real move choice against random / weak / self opponents,
    /// both colours; every bot move checked by the exact solver (or the book); per ply range
    /// the moves, their source and the value-worsening ones. Non-zero exit if any.
    Audit {
        /// Number of games (cycling through the opponents, then colours).
        #[arg(long, default_value_t = 30)]
        games: usize,
        /// Reply time per bot move in ms, as `connect4-bot --time-ms T --overhead-ms 15`: the engine gets half of it
        /// as soft budget and a hard deadline 30 ms before it (no pondering: opponents answer
        /// at once).
        #[arg(long, default_value_t = 200)]
        time_ms: u64,
        /// Deterministic node budget per move instead of the clock (solver and search each).
        #[arg(long)]
        nodes: Option<u64>,
        /// Opponents, comma-separated: random, weak, self.
        #[arg(long, value_delimiter = ',', default_value = "random,weak,self")]
        opponents: Vec<String>,
        /// Fresh tables for every move (no help from earlier moves).
        #[arg(long)]
        harsh: bool,
        /// Keep a CPU hog thread running next to the bot.
        #[arg(long)]
        hog: bool,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Table of the checking solver in MiB (at most 3/4 of the machine's memory).
        #[arg(long, default_value_t = 256, value_parser = kibitz_net::memory::parse_table_mb)]
        oracle_hash: usize,
        /// Engine tunable `NAME=V` (repeatable; `kibitz connect4 params` lists them).
        #[arg(long = "param")]
        params: Vec<String>,
        /// Opening book file for the bot (and the self opponent) instead of the embedded one,
        /// e.g. one `kibitz connect4 book` is still growing.
        #[arg(long)]
        book: Option<PathBuf>,
        /// Check book moves with the exact solver too, instead of trusting the book.
        #[arg(long)]
        verify_book: bool,
    },
    /// The bot's time per move on any size (its own engine thread with pondering, on the
    /// bot's clock: `--time-ms` and `--overhead-ms` by the one clock rule, as `connect4-bot`
    /// takes them) against a random opponent: p50, p99, p99.9 and max.
    Timing {
        /// Board columns.
        #[arg(long, default_value_t = 9)]
        columns: usize,
        /// Board rows.
        #[arg(long, default_value_t = 7)]
        rows: usize,
        /// Line length.
        #[arg(long, default_value_t = 4)]
        connect: usize,
        /// Bot moves to measure.
        #[arg(long, default_value_t = 1000)]
        moves: usize,
        /// The bot's move budget in ms (`connect4-bot --time-ms`; the contest's 250 by default).
        #[arg(long, default_value_t = kibitz_search::clock::CONNECT4.budget.as_millis() as u64)]
        time_ms: u64,
        /// The bot's overhead in ms (`connect4-bot --overhead-ms`): the engine stops at
        /// budget − 2 × overhead, the move leaves by budget − overhead.
        #[arg(long, default_value_t = kibitz_search::clock::CONNECT4.overhead.as_millis() as u64)]
        overhead_ms: u64,
        /// Keep one core busy.
        #[arg(long)]
        hog: bool,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads of the solver's proofs, as `connect4-bot --threads` (`auto`: this
        /// machine's cores, at most 4).
        #[arg(long, default_value = kibitz_bots_connect4::client::DEFAULT_THREADS,
              value_parser = kibitz_net::cli::parse_threads)]
        threads: usize,
        /// Engine tunable `NAME=V` (repeatable; `kibitz connect4 params` lists them).
        #[arg(long = "param")]
        params: Vec<String>,
    },
    /// Play games of the engine (book + solver + search, table kept between moves as in the
    /// bot) against a random, weak or engine opponent, both colours; per ply, how many of our moves
    /// came from the book, were proven by the solver, or were only heuristic.
    Games {
        /// Number of games (half with each colour).
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// Reply time per move in ms, as `connect4-bot --time-ms T --overhead-ms 15` (soft half, hard 30 ms before).
        #[arg(long, default_value_t = 200)]
        ms: u64,
        /// The opponent: `random`, `weak`, or `self` / `engine` (same engine, own table, random
        /// first move).
        #[arg(long, default_value = "random")]
        opponent: String,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Runs one `kibitz connect4` subcommand.
pub fn run(cmd: Cmd) -> anyhow::Result<()> {
    match cmd {
        Cmd::Solve {
            columns,
            rows,
            connect,
            hash,
            weak,
            empty,
            threads,
        } => solve::solve(
            solve::Size {
                columns,
                rows,
                connect,
            },
            hash,
            weak,
            empty,
            threads as usize,
        ),
        Cmd::Bench {
            files,
            limit,
            hash,
            params,
            weak,
            book,
            threads,
        } => {
            let mut config = SolverConfig {
                hash_mb: hash,
                ..Default::default()
            };
            for p in &params {
                set_param(&mut config, p)?;
            }
            solve::bench(&files, limit, config, weak, book, threads as usize)
        }
        Cmd::Book {
            plies,
            file,
            easy_nodes,
            exact_secs,
            max_new,
            hash,
            stats,
            recheck_easy,
        } => {
            if stats {
                book::book_stats(&file)
            } else {
                book::grow_book(
                    plies,
                    &file,
                    easy_nodes,
                    exact_secs,
                    max_new,
                    hash,
                    recheck_easy,
                )
            }
        }
        Cmd::Show { moves, hash, secs } => show::show(&moves, hash, secs),
        Cmd::Play {
            moves,
            ms,
            columns,
            rows,
            connect,
            no_book,
            threads,
            params,
        } => show::play(
            &moves,
            ms,
            (columns, rows, connect),
            no_book,
            threads,
            engine_params(&params)?,
        ),
        Cmd::Params(args) => {
            crate::params_cli::print(&kibitz_connect4::param_specs(), &args);
            Ok(())
        }
        Cmd::Audit {
            games,
            time_ms,
            nodes,
            opponents,
            harsh,
            hog,
            seed,
            oracle_hash,
            params,
            book,
            verify_book,
        } => audit::audit(&audit::AuditArgs {
            params: engine_params(&params)?,
            book,
            verify_book,
            games,
            time_ms,
            nodes,
            opponents,
            harsh,
            hog,
            seed,
            oracle_hash,
        }),
        Cmd::Timing {
            columns,
            rows,
            connect,
            moves,
            time_ms,
            overhead_ms,
            hog,
            seed,
            threads,
            params,
        } => timing::timing(&timing::TimingArgs {
            params: engine_params(&params)?,
            threads,
            columns,
            rows,
            connect,
            moves,
            time_ms,
            overhead_ms,
            hog,
            seed,
        }),
        Cmd::Games {
            games,
            ms,
            opponent,
            seed,
        } => games::play_games(games, ms, &opponent, seed),
    }
}

/// Engine tunables from `NAME=V` assignments.
fn engine_params(list: &[String]) -> anyhow::Result<kibitz_connect4::params::EngineParams> {
    let mut p = kibitz_connect4::params::EngineParams::default();
    for a in list {
        kibitz_search::params::Tunable::apply(&mut p, a).with_context(|| format!("--param {a}"))?;
    }
    Ok(p)
}

/// Sets one solver tunable from `name=value`.
fn set_param(config: &mut SolverConfig, p: &str) -> anyhow::Result<()> {
    let (name, value) = p.split_once('=').context("--param wants name=value")?;
    let v: u64 = value
        .parse()
        .with_context(|| format!("{name}: not a number"))?;
    match name {
        "etc_min_empty" => config.etc_min_empty = v as u32,
        "symmetry_max_moves" => config.symmetry_max_moves = v as u32,
        "check_every" if v.is_power_of_two() => config.check_every = v,
        "parity_weight" => config.parity_weight = v as u32,
        "history" => config.history = v != 0,
        "prefetch" => config.prefetch = v != 0,
        "next_win_bound" => config.next_win_bound = v != 0,
        "near_empty" => config.near_empty = v as u32,
        "near_kb" => config.near_kb = v as usize,
        "abdada_min_empty" => config.abdada_min_empty = v.min(u32::MAX as u64) as u32,
        "split_windows" => config.split_windows = v != 0,
        "split_root" => config.split_root = v != 0,
        "serial_nodes" => config.serial_nodes = v,
        "parallel_check_every" if v.is_power_of_two() => config.parallel_check_every = v,
        "helper_mirror" => config.helper_mirror = v != 0,
        "abdada_min_index" => config.abdada_min_index = v.min(64) as u32,
        "abdada_first_min_empty" => config.abdada_first_min_empty = v.min(u32::MAX as u64) as u32,
        "grow_table" => config.grow_table = v != 0,
        "forcing_weight" => config.forcing_weight = v as u32,
        "keep_threat_weight" => config.keep_threat_weight = v as u32,
        "stack_weight" => config.stack_weight = v as u32,
        "probe_rule" => config.probe_rule = v as u32,
        "tt_min_empty" => config.tt_min_empty = v as u32,
        _ => bail!("unknown or invalid solver parameter {p:?}"),
    }
    Ok(())
}

pub(crate) fn solver(hash: usize) -> Solver<u64> {
    let geo = Geometry::<u64>::new(7, 6, 4).expect("7×6 fits 64 bits");
    Solver::new(
        geo,
        SolverConfig {
            hash_mb: hash,
            ..Default::default()
        },
    )
}

pub(crate) fn file_label(path: &Path) -> String {
    path.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default()
}

pub(crate) fn fmt_dur(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.1} µs")
    } else if us < 1e6 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

/// The 1-based column digits of a move string (as typed; 0 is refused).
pub(crate) fn parse_moves(moves: &str) -> anyhow::Result<Vec<usize>> {
    moves
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) if d > 0 => Ok(d as usize),
            _ => bail!("bad column digit {c:?}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Cmd;
    use clap::Parser;

    #[test]
    fn parallel_solver_tunables_are_bench_params() {
        let mut c = kibitz_connect4::SolverConfig::default();
        for p in [
            "parallel_check_every=64",
            "helper_mirror=0",
            "abdada_min_index=3",
            "abdada_first_min_empty=24",
        ] {
            super::set_param(&mut c, p).unwrap();
        }
        assert_eq!(c.parallel_check_every, 64);
        assert!(!c.helper_mirror);
        assert_eq!((c.abdada_min_index, c.abdada_first_min_empty), (3, 24));
        assert!(super::set_param(&mut c, "parallel_check_every=3").is_err());
    }

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(subcommand)]
        cmd: Cmd,
    }

    fn parse(args: &[&str]) -> Result<Cmd, String> {
        Cli::try_parse_from(std::iter::once("connect4").chain(args.iter().copied()))
            .map(|c| c.cmd)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn hash_flags_are_bounded_by_the_machine() {
        // 2^40 MiB: more than any machine has; used to abort inside the allocator.
        let huge = (1u64 << 40).to_string();
        for args in [
            vec!["solve", "--hash", &huge],
            vec!["bench", "f", "--hash", &huge],
            vec!["book", "--hash", &huge],
            vec!["show", "4", "--hash", &huge],
            vec!["audit", "--oracle-hash", &huge],
        ] {
            let e = parse(&args).unwrap_err();
            assert!(e.contains("MiB"), "{args:?}: {e}");
        }
        assert!(matches!(
            parse(&["solve", "--hash", "16"]),
            Ok(Cmd::Solve { hash: 16, .. })
        ));
        assert!(parse(&["solve", "--hash", "lots"]).is_err());
    }

    #[test]
    fn solve_and_bench_take_a_thread_count() {
        assert!(matches!(
            parse(&["solve", "--threads", "2", "--weak"]),
            Ok(Cmd::Solve {
                threads: 2,
                weak: true,
                ..
            })
        ));
        assert!(matches!(
            parse(&["bench", "f", "--threads", "2"]),
            Ok(Cmd::Bench { threads: 2, .. })
        ));
        assert!(parse(&["solve", "--threads", "0"]).is_err());
        // The engine's commands take the bot's form (`auto` or 1 to 64).
        assert!(matches!(
            parse(&["timing", "--threads", "2"]),
            Ok(Cmd::Timing { threads: 2, .. })
        ));
        assert!(matches!(
            parse(&["play", "44", "--threads", "2"]),
            Ok(Cmd::Play { threads: 2, .. })
        ));
        let default = kibitz_net::cli::parse_threads(kibitz_bots_connect4::client::DEFAULT_THREADS);
        assert!(matches!(
            parse(&["timing"]),
            Ok(Cmd::Timing { threads, .. }) if Ok(threads) == default
        ));
        assert!(matches!(parse(&["play"]), Ok(Cmd::Play { threads: 1, .. })));
        for bad in ["0", "65", "many"] {
            for cmd in ["timing", "play"] {
                let e = parse(&[cmd, "--threads", bad]).unwrap_err();
                assert!(e.contains("is not a thread count"), "{cmd} {bad}: {e}");
            }
        }
    }

    #[test]
    fn move_strings_report_one_based_columns() {
        let e = super::show::show("48", 1, 1).unwrap_err().to_string();
        assert!(e.contains("no column 8"), "{e}");
        let e = super::show::show("4444444", 1, 1).unwrap_err().to_string();
        assert!(e.contains("column 4 is full"), "{e}");
        let e =
            super::show::play("4444444", 1, (7, 6, 4), true, 1, Default::default()).unwrap_err();
        assert!(format!("{e:#}").contains("column 4 is full"), "{e:#}");
        let e = super::solve::parse_line("48 1").unwrap_err();
        assert!(e.contains("no column 8"), "{e}");
    }
}
