//! kibitz-piranhas: rules, bitboard move generation, evaluation and alpha-beta player for
//! Piranhas (Software-Challenge Germany 2019), exactly as the official 19.2.1 server plays it.
//!
//! - [`board`]: colours, directions, moves, the board (two `u128` fish bitboards + Kraken).
//! - [`state`]: a position with turn counter and Zobrist hash; move validation with the
//!   server's error texts ([`RuleError`]).
//! - [`movegen`]: legal moves by line popcounts, perft.
//! - [`swarm`] / [`result`]: swarms by bitwise flood fill, the official win evaluation.
//! - [`kraken`]: the 340 Kraken pairs and the official random placement.
//!
//! Coordinates are the official ones: x = column, y = row, UP = y + 1.
#![warn(missing_docs)]

pub mod bitboard;
pub mod board;
pub mod error;
pub mod kraken;
pub mod movegen;
pub mod result;
pub mod state;
pub mod swarm;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, Color, Direction, Field, Move};
pub use error::{ParseError, RuleError};
pub use movegen::perft;
pub use result::{EndReason, GameResult};
pub use state::{State, MAX_TURN};
