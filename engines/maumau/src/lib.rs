//! kibitz-maumau: Mau-Mau exactly as the Free-Hack 2017 contest server plays it.
//!
//! - [`cards`]: cards, suits, ranks and card sets in the wire's numbering.
//! - [`game`]: the server's state machine (deal, 7/8/Jack effects, wishes, reshuffle, talon
//!   exhaustion and its buggy winner rule), driven turn by turn.
#![warn(missing_docs)]

pub mod arena;
pub mod cards;
pub mod game;
pub mod knowledge;
pub mod mcts;
pub mod player;

pub use cards::{Card, CardSet, Rank, Suit};
pub use game::{
    Action, Config, DrawTwo, ExhaustionWinner, Game, GameEnd, Phase, RawAnswer, Reaction, TurnStart,
};
pub use mcts::bench;
