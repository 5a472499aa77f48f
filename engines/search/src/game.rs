//! One game interface every engine implements, so that one conformance test, one match runner
//! and one search can serve them all (OpenSpiel's `State` is the model).
//!
//! A [`Game`] value is a complete position, hidden parts included (the deck order, the other
//! hands): the referee's view. A player sees only [`Game::observation`] for its seat, and a
//! search for a hidden-information game plays on [`Game::determinize`]d copies.
//!
//! # Contract (checked by [`crate::conformance::random_play`] on every game)
//!
//! | item | rule |
//! |---|---|
//! | [`Game::turn`] | [`Turn::Terminal`] exactly when the game is over; a seat is `< seats()` |
//! | [`Game::legal_actions`] | empty exactly when terminal; no duplicates; at a chance node the outcomes of [`Game::chance_outcomes`] |
//! | [`Game::chance_outcomes`] | at a chance node: non-empty, probabilities > 0 summing to 1; elsewhere empty |
//! | [`Game::apply`] | never panics; a legal action is applied, anything else is an `Err` that leaves the position unchanged, or (games whose rules give any answer a default, like Koehandel) applied as the rules say |
//! | [`Game::returns`] | one value per seat; all 0 before the end; within [`Game::return_bounds`]; summing as [`Game::utility`] says |
//! | action strings | `action_from_string(action_to_string(a)) == a` for every legal `a`; non-empty, no whitespace (records join them with spaces) |
//! | `Eq` / `Hash` | positions reached by the same actions are equal and hash equal; `new_game` with the same config and seed is the same position |
//! | [`Game::determinize`] | the sample has the seat's observation, whose turn it is, and (when that seat moves) its legal actions |
//!
//! # Example: a toy game, checked by the conformance test
//!
//! ```
//! use kibitz_search::game::{Game, GameError, Turn, Utility};
//!
//! /// Players alternately take 1 or 2 from a pile of `n`; whoever takes the last wins.
//! #[derive(Clone, Debug, PartialEq, Eq, Hash)]
//! struct Nim { left: u8, mover: usize }
//!
//! impl Game for Nim {
//!     type Action = u8;
//!     type Config = ();
//!     type Observation = Nim;
//!     type Event = kibitz_search::agent::Played<u8>;
//!     const NAME: &'static str = "nim";
//!     const PERFECT_INFORMATION: bool = true;
//!     fn new_game(_: &(), seed: u64) -> Nim { Nim { left: 5 + (seed % 5) as u8, mover: 0 } }
//!     fn seats(&self) -> usize { 2 }
//!     fn turn(&self) -> Turn {
//!         if self.left == 0 { Turn::Terminal } else { Turn::Seat(self.mover) }
//!     }
//!     fn legal_actions(&self) -> Vec<u8> { (1..=self.left.min(2)).collect() }
//!     fn apply(&mut self, a: &u8) -> Result<(), GameError> {
//!         if !self.legal_actions().contains(a) {
//!             return Err(GameError::illegal(a));
//!         }
//!         self.left -= a;
//!         if self.left > 0 { self.mover ^= 1; }
//!         Ok(())
//!     }
//!     fn returns(&self) -> Vec<f64> {
//!         if self.left > 0 { return vec![0.0, 0.0]; }
//!         let mut r = vec![-1.0, -1.0];
//!         r[self.mover] = 1.0; // the last mover took the last one
//!         r
//!     }
//!     fn utility(&self) -> Utility { Utility::ZeroSum }
//!     fn return_bounds(&self) -> (f64, f64) { (-1.0, 1.0) }
//!     fn action_to_string(&self, a: &u8) -> String { a.to_string() }
//!     fn action_from_string(&self, s: &str) -> Result<u8, GameError> {
//!         s.parse().map_err(|_| GameError::decode(s, "not a number"))
//!     }
//!     fn observation(&self, _: usize) -> Nim { self.clone() }
//!     fn determinize<R: rand::Rng + ?Sized>(&self, _: usize, _: &mut R) -> Nim { self.clone() }
//! }
//!
//! let mut g = Nim::new_game(&(), 0); // 5 left
//! g.apply(&2).unwrap();
//! assert_eq!(g.turn(), Turn::Seat(1));
//! assert!(g.apply(&3).is_err());
//! let stats = kibitz_search::conformance::random_play::<Nim>(1, 20).unwrap();
//! assert_eq!(stats.games, 20);
//! ```

use rand::Rng;
use std::fmt::Debug;
use std::hash::Hash;

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// This seat (0-based) chooses one of [`Game::legal_actions`].
    Seat(usize),
    /// Nature picks one of [`Game::chance_outcomes`] (a die roll).
    Chance,
    /// The game is over; [`Game::returns`] holds the result.
    Terminal,
}

/// How the seats' returns at the end relate to each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Utility {
    /// The returns sum to 0 (win +1 / loss −1 / draw 0).
    ZeroSum,
    /// The returns sum to this constant.
    ConstantSum(f64),
    /// No relation (scores).
    GeneralSum,
}

/// What [`Game::apply`] and [`Game::action_from_string`] refuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The action is not legal here (the position is unchanged).
    #[error("illegal action {action} in this position")]
    Illegal {
        /// The action, as `Debug` prints it.
        action: String,
    },
    /// The game is over; nothing can be applied.
    #[error("the game is over")]
    Over,
    /// A string that is no action of this game.
    #[error("cannot read action {text:?}: {reason}")]
    Decode {
        /// The text given.
        text: String,
        /// Why it was refused.
        reason: String,
    },
}

impl GameError {
    /// An [`GameError::Illegal`] naming `action`.
    pub fn illegal(action: &impl Debug) -> GameError {
        GameError::Illegal {
            action: format!("{action:?}"),
        }
    }

    /// A [`GameError::Decode`] of `text` with a reason.
    pub fn decode(text: &str, reason: impl Into<String>) -> GameError {
        GameError::Decode {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// A game position with its rules: the one interface searches, runners and tests see.
///
/// The full contract is the table in the [module docs](self); [`crate::conformance`] checks it.
/// Implementations are thin wrappers over each engine's own rules (`engines/<game>/src/game_impl.rs`).
pub trait Game: Clone + Debug + Eq + Hash {
    /// One move (or one chance outcome).
    type Action: Clone + Debug + Eq + Hash;
    /// Table settings of a new game (board size, number of seats, dice); `Default` is the
    /// contest's setting.
    type Config: Clone + Debug + Default;
    /// What one seat sees. For perfect-information games the position itself.
    type Observation: Clone + Debug + Eq;
    /// What one seat is told when the game moves on, fed to [`crate::agent::Agent::observe`].
    /// For perfect-information games [`crate::agent::Played`] (who did what, seen by all);
    /// for hidden-information games the game's own notices, so a card drawn face down is
    /// told only to its owner, exactly as the contest's server tells it.
    type Event: Clone + Debug;

    /// The game's short name (as the CLI spells it).
    const NAME: &'static str;
    /// Whether every seat sees the whole position (then `observation` is the position and
    /// `determinize` returns a copy).
    const PERFECT_INFORMATION: bool;

    /// The start position under `config`; `seed` picks the random setup (deal, Kraken squares,
    /// hidden chance) where the game has one. Same config and seed, same position.
    fn new_game(config: &Self::Config, seed: u64) -> Self;

    /// Number of seats.
    fn seats(&self) -> usize;

    /// Who acts next, or [`Turn::Terminal`].
    fn turn(&self) -> Turn;

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.turn() == Turn::Terminal
    }

    /// The actions of the mover (at a chance node: the outcomes). Empty exactly when terminal.
    /// For a game whose real answer space is too large to list (Koehandel's money), the list is
    /// a documented menu of it; [`Game::apply`] still takes every answer the rules take.
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// At a chance node: every outcome with its probability (> 0, summing to 1). Empty
    /// elsewhere.
    fn chance_outcomes(&self) -> Vec<(Self::Action, f64)> {
        Vec::new()
    }

    /// Plays `action`. Never panics: an action the rules refuse is an `Err` and the position
    /// is unchanged.
    fn apply(&mut self, action: &Self::Action) -> Result<(), GameError>;

    /// Each seat's return: the result at the end, all zero before it.
    fn returns(&self) -> Vec<f64>;

    /// How the returns relate.
    fn utility(&self) -> Utility;

    /// The smallest and largest return any seat can get.
    fn return_bounds(&self) -> (f64, f64);

    /// A stable text form of `action` in this position (for records): non-empty, no
    /// whitespace, read back by [`Game::action_from_string`].
    fn action_to_string(&self, action: &Self::Action) -> String;

    /// Reads what [`Game::action_to_string`] wrote in this position.
    fn action_from_string(&self, text: &str) -> Result<Self::Action, GameError>;

    /// What `seat` sees of the position.
    fn observation(&self, seat: usize) -> Self::Observation;

    /// A full position consistent with `seat`'s view, hidden parts sampled with `rng` (the
    /// determinization of ISMCTS and PIMC). It has `observation(seat)`, the same [`Turn`], and
    /// when `seat` moves, the same legal actions. Uses only what `seat` sees plus the rules.
    fn determinize<R: Rng + ?Sized>(&self, seat: usize, rng: &mut R) -> Self;
}
