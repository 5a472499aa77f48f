//! `kibitz connect4 show` and `play`: one position, explained.

use super::{fmt_dur, parse_moves, solver};
use anyhow::{bail, Context};
use comfy_table::{presets::UTF8_FULL, Table};
use kibitz_connect4::book::{self, Book};
use kibitz_connect4::{Board, Engine, Player, TimeControl};
use std::time::{Duration, Instant};

/// The score of a book entry as text: exact, or W / D / L when only the sign is known.
fn book_score(e: &book::Entry, negate: bool) -> String {
    let s = if negate {
        -(e.score as i32)
    } else {
        e.score as i32
    };
    if e.flags & book::EXACT != 0 {
        s.to_string()
    } else {
        match s.signum() {
            1 => "W".into(),
            0 => "D".into(),
            _ => "L".into(),
        }
    }
}

/// `kibitz connect4 show`: the board, a legend, the book's move, and the score of every
/// column (from the book where it knows it, else solved within `secs` seconds in all).
pub fn show(moves: &str, hash: usize, secs: u64) -> anyhow::Result<()> {
    let board = Board::<u64>::from_digits(7, 6, 4, moves)?;
    print!("{board}");
    let n = board.moves_played();
    if board.is_over() {
        match board.winner() {
            Some(Player::First) => println!("game over: ● (first player) has won"),
            Some(Player::Second) => println!("game over: ○ (second player) has won"),
            None => println!("game over: draw (board full)"),
        }
        return Ok(());
    }
    let (mover, symbol) = match board.side_to_move() {
        Player::First => ("first player", "●"),
        Player::Second => ("second player", "○"),
    };
    println!("● first player, ○ second player; {n} stones down, {symbol} ({mover}) to move.");
    println!(
        "Scores (spec §11) are from the view of {symbol}, the side to move: 0 draw; +k a win \
         with its k-th-from-last stone (larger = sooner); -k a loss with the opponent's \
         k-th-from-last stone. A column's score is the score after playing there. W/D/L: only \
         win/draw/loss is known (book); ?: not solved within --secs; -: column full."
    );
    let book = Book::embedded();
    let mut root_score = None;
    if let Some(e) = book.lookup(&board) {
        println!(
            "book: play column {}, score {}",
            e.column + 1,
            book_score(&e, false)
        );
        root_score = Some(book_score(&e, false));
    }
    let mut solver = solver(hash);
    let t = Instant::now();
    let budget = Duration::from_secs(secs);
    let tc = TimeControl::new(budget, budget);
    let mut row = Vec::new();
    for col in 0..board.columns() {
        if !board.can_play(col) {
            row.push("-".to_string());
            continue;
        }
        let mut child = board;
        child.play(col)?;
        let cell = if child.is_over() {
            solver
                .score_move(&board, col, &tc)
                .map(|s| s.to_string())
                .unwrap_or_else(|| "?".into())
        } else if let Some(e) = book.lookup(&child) {
            book_score(&e, true)
        } else {
            solver
                .score_move(&board, col, &tc)
                .map(|s| s.to_string())
                .unwrap_or_else(|| "?".into())
        };
        row.push(cell);
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(
        (1..=board.columns())
            .map(|c| c.to_string())
            .collect::<Vec<_>>(),
    );
    table.add_row(row.clone());
    println!("{table}");
    if root_score.is_none() {
        root_score = solver.solve(&board, &tc).map(|s| s.to_string());
    }
    println!(
        "score {} for {symbol} ({} solver nodes, {})",
        root_score.unwrap_or_else(|| "?".into()),
        solver.nodes(),
        fmt_dur(t.elapsed())
    );
    Ok(())
}

/// `kibitz connect4 play`: the engine's choice after `moves`, as the bot would make it.
pub fn play(
    moves: &str,
    ms: u64,
    (columns, rows, connect): (usize, usize, usize),
    no_book: bool,
    threads: usize,
    params: kibitz_connect4::params::EngineParams,
) -> anyhow::Result<()> {
    let digits = parse_moves(moves)?;
    let board = kibitz_connect4::Position::from_one_based(columns, rows, connect, &digits)
        .with_context(|| format!("moves {moves:?}"))?;
    let history: Vec<usize> = digits.iter().map(|d| d - 1).collect();
    print!("{board}");
    if board.is_over() {
        bail!("game over: no move to choose after {moves:?}");
    }
    let mut engine = Engine::with_threads(columns, rows, connect, 64, threads)?;
    engine.set_params(params);
    if no_book {
        engine.set_book(Book::new());
    }
    let budget = Duration::from_millis(ms);
    let tc = TimeControl::new(budget, budget + budget / 4);
    let choice = engine.choose(&history, &tc, None);
    println!("{choice:?} in {}", fmt_dur(tc.elapsed()));
    Ok(())
}
