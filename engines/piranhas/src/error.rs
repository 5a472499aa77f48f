//! Error types: rule violations (with the official server's texts) and parse errors.

use thiserror::Error;

/// Why a move is illegal. `Display` gives the official 19.2.1 server text, in the order the
/// server checks (spec §3, rule M2).
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq, Hash)]
pub enum RuleError {
    /// The start square is off the board.
    #[error("x or y are not within the field range")]
    OutOfRange,
    /// The start square holds no fish of the side to move.
    #[error("Field does not belong to the current player")]
    NotOwnFish,
    /// The target square is off the board.
    #[error("Move in that direction would not be on the board")]
    OffBoard,
    /// An opponent fish sits on the start square or a jumped square.
    #[error("Path to the new position is not clear")]
    PathBlocked,
    /// The target holds one of the mover's own fish.
    #[error("Field obstructed with own piranha")]
    OwnFish,
    /// The target is a Kraken.
    #[error("Field is obstructed")]
    Kraken,
}

/// A malformed board string, move, colour or position description.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// Board string of the wrong length.
    #[error("board string must have 100 characters, got {0}")]
    BoardLength(usize),
    /// Unknown board character.
    #[error("unknown board character {0:?} (expected R, B, O or -)")]
    BoardChar(char),
    /// Unknown colour.
    #[error("unknown colour {0:?}")]
    Color(String),
    /// Unknown direction.
    #[error("unknown direction {0:?}")]
    Direction(String),
    /// Unknown field state.
    #[error("unknown field state {0:?}")]
    Field(String),
    /// Malformed move.
    #[error("malformed move {0:?} (expected x,y,DIRECTION)")]
    Move(String),
    /// Turn out of range.
    #[error("turn {0} is outside 0..=60")]
    Turn(u32),
    /// Malformed Kraken list.
    #[error("malformed Kraken squares {0:?} (expected x,y,x,y with 2 <= x,y <= 7)")]
    Kraken(String),
    /// Inconsistent board (overlapping pieces).
    #[error("inconsistent board")]
    Inconsistent,
}
