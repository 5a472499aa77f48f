//! Connect Four as a [`kibitz_search::game::Game`]: a thin wrapper over [`crate::Position`].
//!
//! Seats: 0 = [`Player::First`], 1 = [`Player::Second`]. Actions are 0-based columns, written
//! 1-based as in the test sets (`"4"` is the middle column of a 7-wide board). Returns: +1 for
//! the player with a line, −1 for the other, 0 each on a full board.

use crate::board::Player;
use crate::{Error, Position};
use kibitz_search::game::{Game, GameError, Turn, Utility};
use std::hash::{Hash, Hasher};

/// Board size and line length of a [`ConnectFour`] game; the default is the contest's 7 × 6,
/// connect 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct C4Config {
    /// Columns.
    pub columns: usize,
    /// Rows.
    pub rows: usize,
    /// Stones in a line that win.
    pub connect: usize,
}

impl Default for C4Config {
    fn default() -> Self {
        C4Config {
            columns: 7,
            rows: 6,
            connect: 4,
        }
    }
}

/// A Connect Four position seen through the [`Game`] trait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectFour(pub Position);

impl ConnectFour {
    /// The empty board of `config`, or why the size is refused.
    pub fn new(config: &C4Config) -> Result<ConnectFour, Error> {
        Ok(ConnectFour(Position::new(
            config.columns,
            config.rows,
            config.connect,
        )?))
    }
}

impl Hash for ConnectFour {
    fn hash<H: Hasher>(&self, h: &mut H) {
        let b = &self.0;
        (b.columns(), b.rows(), b.connect(), b.key()).hash(h);
    }
}

fn seat(p: Player) -> usize {
    match p {
        Player::First => 0,
        Player::Second => 1,
    }
}

impl Game for ConnectFour {
    type Action = usize;
    type Config = C4Config;
    type Observation = ConnectFour;
    type Event = kibitz_search::agent::Played<usize>;
    const NAME: &'static str = "connect4";
    const PERFECT_INFORMATION: bool = true;

    /// The empty board (no random setup: `seed` is unused). An unsupported size falls back to
    /// the default 7 × 6 board; use [`ConnectFour::new`] to see the error.
    fn new_game(config: &C4Config, _seed: u64) -> Self {
        ConnectFour::new(config)
            .or_else(|_| ConnectFour::new(&C4Config::default()))
            .expect("the default board is supported")
    }

    fn seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.0.is_over() {
            Turn::Terminal
        } else {
            Turn::Seat(seat(self.0.side_to_move()))
        }
    }

    fn legal_actions(&self) -> Vec<usize> {
        self.0.legal_moves()
    }

    fn apply(&mut self, action: &usize) -> Result<(), GameError> {
        self.0.play(*action).map_err(|e| match e {
            Error::GameOver => GameError::Over,
            _ => GameError::illegal(action),
        })
    }

    fn returns(&self) -> Vec<f64> {
        match self.0.winner() {
            None => vec![0.0, 0.0],
            Some(w) => {
                let mut r = vec![-1.0, -1.0];
                r[seat(w)] = 1.0;
                r
            }
        }
    }

    fn utility(&self) -> Utility {
        Utility::ZeroSum
    }

    fn return_bounds(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }

    fn action_to_string(&self, action: &usize) -> String {
        (action + 1).to_string()
    }

    fn action_from_string(&self, text: &str) -> Result<usize, GameError> {
        match text.parse::<usize>() {
            Ok(c) if (1..=self.0.columns()).contains(&c) => Ok(c - 1),
            _ => Err(GameError::decode(
                text,
                format!("not a column 1-{}", self.0.columns()),
            )),
        }
    }

    fn observation(&self, _seat: usize) -> ConnectFour {
        *self
    }

    fn determinize<R: rand::Rng + ?Sized>(&self, _seat: usize, _rng: &mut R) -> ConnectFour {
        *self
    }
}
