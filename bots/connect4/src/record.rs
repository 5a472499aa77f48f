//! Connect Four game records in `kibitz-record/1` (the format is described once, in the root
//! crate's `arena::record`): the one place that turns a game into a record line, called by the
//! reference server (`connect4-server --records DIR`, and so `kibitz tournament --records`)
//! and by the arena adapter (`kibitz match connect4 --records`), so the two cannot drift.
//!
//! Notation: `moves` are 1-based columns after the opening; `setup.opening` and `native` are
//! strings of 1-based column digits (the solver's and the book's notation; `native` only on
//! boards of at most 9 columns). `setup.opening` is left out when there is none (the server's
//! games start from the empty board), and a server record carries `seed` only when the server
//! was given one (a tournament's); absent means "none", never `""` or `null`. Readers take a
//! missing opening as the empty one. A game lost by a fault keeps only the legal moves in `moves`;
//! the faulty announcement goes to `result.illegal` (as announced, 0-based like the wire).

use crate::protocol::{GameResult, ServerMsg};
use crate::season::GameRecord;
use serde_json::{json, Value};

/// The `game` key of a Connect Four record.
pub const GAME: &str = "connect4";

/// What a game starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Board width.
    pub columns: usize,
    /// Board height.
    pub rows: usize,
    /// Stones in a line that win.
    pub connect: usize,
    /// Opening moves (0-based columns) played before the players took over.
    pub opening: Vec<usize>,
}

/// How a game ended, from the record's point of view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// Winning seat (0 = the side that moved first), `None` for a draw.
    pub winner: Option<usize>,
    /// Why: `CONNECTED_LINE`, `BOARD_FULL` or the server's fault text.
    pub reason: String,
    /// A faulty last announcement (not in `moves`), as announced.
    pub illegal: Option<i32>,
}

/// 1-based column digits (`None` if a column does not fit one digit).
pub fn digits(cols: &[usize]) -> Option<String> {
    cols.iter()
        .map(|&c| char::from_digit(c as u32 + 1, 10).filter(|_| c < 9))
        .collect()
}

/// The game-specific part of a record line: `game`, `players` (seat 0 first), `setup`,
/// `moves`, `result` and `native`. Callers add `seed` and `index` (and may add more keys).
pub fn game(players: [&str; 2], setup: &Setup, moves: &[usize], end: &Ending) -> Value {
    let mut all = setup.opening.clone();
    all.extend_from_slice(moves);
    let mut result = json!({"winner": end.winner, "reason": end.reason});
    if let Some(col) = end.illegal {
        result["illegal"] = json!(col);
    }
    let mut setup_v = json!({
        "columns": setup.columns,
        "rows": setup.rows,
        "connect": setup.connect,
    });
    if !setup.opening.is_empty() {
        setup_v["opening"] = json!(digits(&setup.opening).unwrap_or_default());
    }
    let mut v = json!({
        "game": GAME,
        "players": players,
        "setup": setup_v,
        "moves": moves.iter().map(|c| c + 1).collect::<Vec<_>>(),
        "result": result,
    });
    if let Some(native) = digits(&all) {
        v["native"] = json!(native);
    }
    v
}

/// The record of a game the reference server played on a `columns × rows`, connect `connect`
/// board: seat 0 is the home player (who moved first), no opening.
pub fn from_server(rec: &GameRecord, columns: usize, rows: usize, connect: usize) -> Value {
    let seat = |name: &str| usize::from(name != rec.home);
    let (winner, reason) = match &rec.result {
        GameResult::Win { winner, reason } => (Some(seat(winner)), reason.clone()),
        GameResult::Lose { loser, reason } => (Some(1 - seat(loser)), reason.to_string()),
        GameResult::Draw => (None, "BOARD_FULL".to_string()),
    };
    // The stones the server accepted: every announcement but a faulty last one.
    let legal = |c: i32| usize::try_from(c).ok().filter(|&c| c < columns);
    let fault = matches!(rec.result, GameResult::Lose { .. });
    let mut moves: Vec<usize> = Vec::with_capacity(rec.moves.len());
    let mut illegal = None;
    for (i, &c) in rec.moves.iter().enumerate() {
        match legal(c) {
            Some(col) if !(fault && i + 1 == rec.moves.len() && is_full(&moves, col, rows)) => {
                moves.push(col)
            }
            _ => illegal = Some(c),
        }
    }
    let setup = Setup {
        columns,
        rows,
        connect,
        opening: Vec::new(),
    };
    let end = Ending {
        winner,
        reason,
        illegal,
    };
    let mut v = game([&rec.home, &rec.away], &setup, &moves, &end);
    v["season"] = json!(rec.season);
    v["server_result"] = json!(ServerMsg::Result(rec.result.clone()).encode());
    v
}

/// Whether `col` is already full after `moves`.
fn is_full(moves: &[usize], col: usize, rows: usize) -> bool {
    moves.iter().filter(|&&c| c == col).count() >= rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::LoseReason;

    #[test]
    fn server_games_keep_legal_moves_and_name_the_fault() {
        let rec = GameRecord {
            season: 2,
            home: "a".into(),
            away: "b".into(),
            moves: vec![3, 3, 3, 3, 3, 3, 3],
            result: GameResult::Lose {
                loser: "a".into(),
                reason: LoseReason::ColumnIsFull,
            },
        };
        let v = from_server(&rec, 7, 6, 4);
        assert_eq!(v["moves"], json!([4, 4, 4, 4, 4, 4]));
        assert_eq!(v["result"]["winner"], json!(1));
        assert_eq!(v["result"]["illegal"], json!(3));
        assert_eq!(v["result"]["reason"], "COLUMN_IS_FULL");
        assert_eq!(v["native"], "444444");
        assert_eq!(v["players"], json!(["a", "b"]));
        // Issue 37 item 6: no opening, so no `opening` key (it used to be `""`).
        assert_eq!(v["setup"], json!({"columns": 7, "rows": 6, "connect": 4}));
        let opened = game(
            ["a", "b"],
            &Setup {
                columns: 7,
                rows: 6,
                connect: 4,
                opening: vec![3, 2],
            },
            &[0],
            &Ending {
                winner: None,
                reason: "BOARD_FULL".into(),
                illegal: None,
            },
        );
        assert_eq!(opened["setup"]["opening"], "43");
        assert_eq!(opened["native"], "431");
        let won = GameRecord {
            moves: vec![0, 1, 0, 1, 0, 1, 0],
            result: GameResult::Win {
                winner: "a".into(),
                reason: "CONNECTED_LINE".into(),
            },
            ..rec
        };
        let v = from_server(&won, 7, 6, 4);
        assert_eq!(v["moves"], json!([1, 2, 1, 2, 1, 2, 1]));
        assert_eq!(v["result"]["winner"], json!(0));
        assert!(v["result"].get("illegal").is_none());
    }
}
