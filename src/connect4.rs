//! `kibitz connect4 …`: solve positions, benchmark the solver on the test sets, grow the
//! opening book, show a position, and measure (in games) how early the engine plays provably
//! perfectly.

use anyhow::{bail, Context};
use clap::Subcommand;
use comfy_table::{presets::UTF8_FULL, Table};
use indicatif::{ProgressBar, ProgressStyle};
use kibitz_connect4::book::{self, Book};
use kibitz_connect4::{Board, Engine, Geometry, Solver, SolverConfig, TimeControl};
use rand::{Rng, SeedableRng};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where `kibitz connect4 book` writes by default (the file embedded into the engine).
const BOOK_FILE: &str = "engines/connect4/book/book_7x6.bin";

/// `kibitz connect4` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Read `<moves> [<score>]` lines (1-based column digits, 7×6) from stdin, print
    /// `<moves> <score>`, marking mismatches against a given score.
    Solve {
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 256)]
        hash: usize,
        /// Only win / draw / loss (-1 / 0 / 1).
        #[arg(long)]
        weak: bool,
    },
    /// Solve every position of test-set files with a cleared table each time; print a table.
    Bench {
        /// Test-set files (`<moves> <score>` per line).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Only the first N positions of each file.
        #[arg(long)]
        limit: Option<usize>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Solver tunable `name=value` (etc_min_empty, symmetry_max_moves, check_every, parity_weight, history).
        #[arg(long = "param")]
        params: Vec<String>,
        /// Only win / draw / loss (checks the sign of the expected score).
        #[arg(long)]
        weak: bool,
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
        /// Transposition table size of the persistent solver in MiB.
        #[arg(long, default_value_t = 1024)]
        hash: usize,
        /// Only print the book's statistics.
        #[arg(long)]
        stats: bool,
    },
    /// Print the board after `<moves>` (1-based digits) and the exact score of every column.
    Show {
        /// Moves as 1-based column digits (may be empty).
        #[arg(default_value = "")]
        moves: String,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 256)]
        hash: usize,
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
    },
    /// Play games of the engine (book + solver + search, table kept between moves as in the
    /// bot) against a random or engine opponent, both colours; per ply, how many of our moves
    /// came from the book, were proven by the solver, or were only heuristic.
    Games {
        /// Number of games (half with each colour).
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// Time budget per move in ms.
        #[arg(long, default_value_t = 200)]
        ms: u64,
        /// The opponent: `random`, or `engine` (same engine, own table, random first move).
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
        Cmd::Solve { hash, weak } => solve(hash, weak),
        Cmd::Bench {
            files,
            limit,
            hash,
            params,
            weak,
        } => {
            let mut config = SolverConfig {
                hash_mb: hash,
                ..Default::default()
            };
            for p in &params {
                set_param(&mut config, p)?;
            }
            bench(&files, limit, config, weak)
        }
        Cmd::Book {
            plies,
            file,
            easy_nodes,
            exact_secs,
            max_new,
            hash,
            stats,
        } => {
            if stats {
                book_stats(&file)
            } else {
                grow_book(plies, &file, easy_nodes, exact_secs, max_new, hash)
            }
        }
        Cmd::Show { moves, hash } => show(&moves, hash),
        Cmd::Play {
            moves,
            ms,
            columns,
            rows,
            connect,
            no_book,
        } => play(&moves, ms, columns, rows, connect, no_book),
        Cmd::Games {
            games,
            ms,
            opponent,
            seed,
        } => play_games(games, ms, &opponent, seed),
    }
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
        "tt_min_empty" => config.tt_min_empty = v as u32,
        _ => bail!("unknown or invalid solver parameter {p:?}"),
    }
    Ok(())
}

/// CPU time of this thread (Linux), so measurements survive a busy machine.
fn cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn solver(hash: usize) -> Solver<u64> {
    let geo = Geometry::<u64>::new(7, 6, 4).expect("7×6 fits 64 bits");
    Solver::new(
        geo,
        SolverConfig {
            hash_mb: hash,
            ..Default::default()
        },
    )
}

fn solve(hash: usize, weak: bool) -> anyhow::Result<()> {
    let mut solver = solver(hash);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let tc = TimeControl::infinite();
    for (i, line) in stdin.lock().split(b'\n').enumerate() {
        let line = line.context("reading stdin")?;
        let line = String::from_utf8_lossy(&line);
        let mut fields = line.split_whitespace();
        let Some(moves) = fields.next() else { continue };
        let expected = fields.next().map(str::parse::<i32>);
        let board = match Board::<u64>::from_digits(7, 6, 4, moves) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("line {}: {moves}: {e}", i + 1);
                continue;
            }
        };
        let score = if weak {
            solver.solve_window(&board, -1, 1, &tc)
        } else {
            solver.solve(&board, &tc)
        }
        .expect("no time limit");
        match expected {
            Some(Ok(e)) if (if weak { e.signum() } else { e }) != score => {
                writeln!(out, "{moves} {score} MISMATCH (expected {e})")?
            }
            Some(Err(_)) => writeln!(out, "{moves} {score} (unreadable expected score)")?,
            _ => writeln!(out, "{moves} {score}")?,
        }
    }
    Ok(())
}

fn read_set(path: &Path, limit: Option<usize>) -> anyhow::Result<Vec<(String, i32)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut v = Vec::new();
    for (i, line) in text.lines().enumerate().take(limit.unwrap_or(usize::MAX)) {
        let mut f = line.split_whitespace();
        match (f.next(), f.next().map(str::parse::<i32>)) {
            (Some(m), Some(Ok(s))) => v.push((m.to_string(), s)),
            _ => bail!(
                "{} line {}: expected `<moves> <score>`",
                path.display(),
                i + 1
            ),
        }
    }
    Ok(v)
}

fn bench(
    files: &[PathBuf],
    limit: Option<usize>,
    config: SolverConfig,
    weak: bool,
) -> anyhow::Result<()> {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec![
        "set",
        "positions",
        "wrong",
        "mean time",
        "max time",
        "mean CPU",
        "max CPU",
        "mean nodes",
        "nodes/s (CPU)",
    ]);
    let geo = Geometry::<u64>::new(7, 6, 4).expect("7×6 fits 64 bits");
    let mut solver = Solver::new(geo, config);
    let tc = TimeControl::infinite();
    for path in files {
        let set = read_set(path, limit)?;
        let bar = ProgressBar::new(set.len() as u64).with_style(
            ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} [{elapsed_precise}<{eta}]")
                .expect("valid template"),
        );
        bar.set_message(file_label(path));
        let (mut wrong, mut nodes, mut total, mut max) = (0, 0u64, Duration::ZERO, Duration::ZERO);
        let (mut cpu_total, mut cpu_max) = (Duration::ZERO, Duration::ZERO);
        for (moves, expected) in &set {
            let board = Board::<u64>::from_digits(7, 6, 4, moves)
                .with_context(|| format!("{}: bad position {moves}", path.display()))?;
            solver.clear();
            solver.reset_nodes();
            let t = Instant::now();
            let c0 = cpu_time();
            let score = if weak {
                solver.solve_window(&board, -1, 1, &tc)
            } else {
                solver.solve(&board, &tc)
            }
            .expect("no time limit");
            let dt = t.elapsed();
            let cpu = match (c0, cpu_time()) {
                (Some(a), Some(b)) => b.saturating_sub(a),
                _ => dt,
            };
            cpu_total += cpu;
            cpu_max = cpu_max.max(cpu);
            let expected = &if weak { expected.signum() } else { *expected };
            if score != *expected {
                wrong += 1;
                bar.println(format!("WRONG {moves}: got {score}, expected {expected}"));
            }
            nodes += solver.nodes();
            total += dt;
            max = max.max(dt);
            bar.inc(1);
        }
        bar.finish_and_clear();
        let n = set.len().max(1) as f64;
        table.add_row(vec![
            file_label(path),
            set.len().to_string(),
            wrong.to_string(),
            fmt_dur(total.div_f64(n)),
            fmt_dur(max),
            fmt_dur(cpu_total.div_f64(n)),
            fmt_dur(cpu_max),
            format!("{:.0}", nodes as f64 / n),
            format!(
                "{:.2} M",
                nodes as f64 / cpu_total.as_secs_f64().max(1e-9) / 1e6
            ),
        ]);
    }
    println!("{table}");
    Ok(())
}

fn file_label(path: &Path) -> String {
    path.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn fmt_dur(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.1} µs")
    } else if us < 1e6 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

fn grow_book(
    plies: usize,
    file: &Path,
    easy_nodes: u64,
    exact_secs: u64,
    max_new: usize,
    hash: usize,
) -> anyhow::Result<()> {
    let mut book = match std::fs::read(file) {
        Ok(bytes) => Book::from_bytes(&bytes).with_context(|| format!("{}", file.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Book::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", file.display())),
    };
    let start_len = book.len();
    let mut big = solver(hash);
    let mut quick = solver(48);
    let root = Board::<u64>::new(7, 6, 4).expect("7×6");
    let mut added = 0;
    let mut last_save = Instant::now();
    // Each pass adds the frontier positions not yet in the book; their book moves open the
    // next pass's frontier. Stops when a pass adds nothing.
    'passes: loop {
        let todo: Vec<_> = book::frontier(&book, root, plies)
            .into_iter()
            .filter(|b| !book.contains(b))
            .collect();
        if todo.is_empty() {
            break;
        }
        let bar = ProgressBar::new(todo.len() as u64).with_style(
            ProgressStyle::with_template(
                "{msg} {bar:40} {pos}/{len} [{elapsed_precise}<{eta}] {per_sec}",
            )
            .expect("valid template"),
        );
        bar.set_message(format!("book ({} positions)", book.len()));
        for b in &todo {
            let exact = TimeControl::new(
                Duration::from_secs(exact_secs),
                Duration::from_secs(exact_secs),
            );
            if let Some(e) = book::analyse(&mut big, &mut quick, b, easy_nodes, &exact) {
                book.insert(b, e);
                added += 1;
            }
            bar.inc(1);
            bar.set_message(format!("book ({} positions)", book.len()));
            if last_save.elapsed() > Duration::from_secs(30) {
                save_book(&book, file)?;
                last_save = Instant::now();
            }
            if max_new > 0 && added >= max_new {
                bar.finish();
                break 'passes;
            }
        }
        bar.finish();
        save_book(&book, file)?;
    }
    save_book(&book, file)?;
    let per_ply = book_plies(&book);
    println!(
        "book {}: {} positions ({} new), {} bytes, positions per ply {:?}",
        file.display(),
        book.len(),
        book.len() - start_len,
        book.len() * book::RECORD,
        per_ply
    );
    Ok(())
}

/// Book positions per ply (positions reachable along book moves that are in the book).
fn book_plies(book: &Book) -> Vec<usize> {
    let root = Board::<u64>::new(7, 6, 4).expect("7×6");
    let mut per_ply = vec![0; 43];
    for b in book::frontier(book, root, 42) {
        if book.contains(&b) {
            per_ply[b.moves_played()] += 1;
        }
    }
    while per_ply.len() > 1 && per_ply.last() == Some(&0) {
        per_ply.pop();
    }
    per_ply
}

fn book_stats(file: &Path) -> anyhow::Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let book = Book::from_bytes(&bytes)?;
    let per_ply = book_plies(&book);
    let count = |f: u8| book.entries().filter(|(_, e)| e.flags & f != 0).count();
    println!(
        "{}: {} positions, {} bytes; exact {}, easy (solver alone) {}; positions per ply {:?}",
        file.display(),
        book.len(),
        bytes.len(),
        count(book::EXACT),
        count(book::EASY),
        per_ply
    );
    Ok(())
}

fn save_book(book: &Book, file: &Path) -> anyhow::Result<()> {
    let tmp = file.with_extension("tmp");
    std::fs::write(&tmp, book.to_bytes()).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, file).with_context(|| format!("renaming to {}", file.display()))?;
    Ok(())
}

fn show(moves: &str, hash: usize) -> anyhow::Result<()> {
    let board = Board::<u64>::from_digits(7, 6, 4, moves)?;
    print!("{board}");
    let mut solver = solver(hash);
    let tc = TimeControl::infinite();
    if board.is_over() {
        println!("game over: winner {:?}", board.winner());
        return Ok(());
    }
    let t = Instant::now();
    let score = solver.solve(&board, &tc).expect("no time limit");
    let mut row = Vec::new();
    for col in 0..7 {
        row.push(if board.can_play(col) {
            solver
                .score_move(&board, col, &tc)
                .expect("no time limit")
                .to_string()
        } else {
            "-".into()
        });
    }
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL)
        .set_header((1..=7).map(|c| c.to_string()).collect::<Vec<_>>());
    table.add_row(row);
    println!("{table}");
    println!(
        "score {score} for the side to move ({} nodes, {})",
        solver.nodes(),
        fmt_dur(t.elapsed())
    );
    Ok(())
}

fn parse_moves(moves: &str) -> anyhow::Result<Vec<usize>> {
    moves
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) if d > 0 => Ok(d as usize - 1),
            _ => bail!("bad column digit {c:?}"),
        })
        .collect()
}

fn play(
    moves: &str,
    ms: u64,
    columns: usize,
    rows: usize,
    connect: usize,
    no_book: bool,
) -> anyhow::Result<()> {
    let history = parse_moves(moves)?;
    let board = kibitz_connect4::Position::from_moves(columns, rows, connect, &history)?;
    print!("{board}");
    let mut engine = Engine::new(columns, rows, connect, 64)?;
    if no_book {
        engine.set_book(Book::new());
    }
    let budget = Duration::from_millis(ms);
    let tc = TimeControl::new(budget, budget + budget / 4);
    let choice = engine.choose(&history, &tc, None);
    println!("{choice:?} in {}", fmt_dur(tc.elapsed()));
    Ok(())
}

fn play_games(games: usize, ms: u64, opponent: &str, seed: u64) -> anyhow::Result<()> {
    let engine_opponent = match opponent {
        "random" => false,
        "engine" => true,
        _ => bail!("--opponent must be random or engine"),
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let budget = Duration::from_millis(ms);
    // Per ply: [moves, book, proven (book or solver), exact, heuristic], total time, max time.
    let mut stats = vec![([0usize; 5], Duration::ZERO, Duration::ZERO); 43];
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let bar = ProgressBar::new(games as u64);
    for g in 0..games {
        let we_first = g % 2 == 0;
        let mut us = Engine::new(7, 6, 4, 64)?;
        let mut them = Engine::new(7, 6, 4, 64)?;
        let mut b = Board::<u64>::new(7, 6, 4)?;
        let mut hist = Vec::new();
        while !b.is_over() {
            let our_turn = (b.moves_played() % 2 == 0) == we_first;
            let col = if our_turn {
                let tc = TimeControl::new(budget, budget + budget / 4);
                let c = us.choose(&hist, &tc, None);
                let dt = tc.elapsed();
                let s = &mut stats[b.moves_played()];
                s.0[0] += 1;
                s.0[1] += usize::from(c.source == "book");
                s.0[2] += usize::from(c.source == "book" || c.source == "solver");
                s.0[3] += usize::from(c.exact);
                s.0[4] += usize::from(c.source == "search");
                s.1 += dt;
                s.2 = s.2.max(dt);
                c.column
            } else if engine_opponent && b.moves_played() > 1 {
                let tc = TimeControl::new(budget, budget + budget / 4);
                them.choose(&hist, &tc, None).column
            } else {
                let legal = b.legal_moves();
                legal[rng.random_range(0..legal.len())]
            };
            b.play(col)?;
            hist.push(col);
        }
        match b.winner() {
            None => draws += 1,
            Some(p) if (p == kibitz_connect4::Player::First) == we_first => wins += 1,
            Some(_) => losses += 1,
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec![
        "ply",
        "our moves",
        "book",
        "proven",
        "exact",
        "heuristic",
        "mean time",
        "max time",
    ]);
    for (ply, (c, total, max)) in stats.iter().enumerate() {
        if c[0] == 0 {
            continue;
        }
        let pct = |x: usize| format!("{:.0}%", 100.0 * x as f64 / c[0] as f64);
        table.add_row(vec![
            ply.to_string(),
            c[0].to_string(),
            pct(c[1]),
            pct(c[2]),
            pct(c[3]),
            pct(c[4]),
            fmt_dur(total.div_f64(c[0] as f64)),
            fmt_dur(*max),
        ]);
    }
    println!("{table}");
    println!("our results: {wins} wins, {draws} draws, {losses} losses (opponent {opponent})");
    Ok(())
}
