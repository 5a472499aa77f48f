//! Piranhas as a [`kibitz_search::game::Game`]: a thin wrapper over [`State`].
//!
//! Seats: 0 = RED, 1 = BLUE. The game ends at [`State::outcome`] (the official evaluation after
//! BLUE's moves, or a side to move without a legal move). Actions are [`Move`]s, written in the
//! data files' `x,y,DIRECTION` notation. Returns: +1 win, −1 loss, 0 each on a draw.
//!
//! The players of Piranhas, as [`kibitz_search::agent::Agent`]s of this game, are in
//! [`crate::agents`].

use crate::kraken::random_pair;
use crate::{Color, Move, State};
use kibitz_search::game::{Game, GameError, Turn, Utility};
use rand::SeedableRng;

/// Setup of a [`Piranhas`] game: the Kraken squares, or `None` to draw them from the seed with
/// the official procedure ([`random_pair`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PiranhasConfig {
    /// Fixed Kraken squares `[(x, y), (x, y)]`.
    pub krakens: Option<[(u8, u8); 2]>,
}

/// A Piranhas position seen through the [`Game`] trait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piranhas(pub State);

impl Game for Piranhas {
    type Action = Move;
    type Config = PiranhasConfig;
    type Observation = Piranhas;
    type Event = kibitz_search::agent::Played<Move>;
    const NAME: &'static str = "piranhas";
    const PERFECT_INFORMATION: bool = true;

    fn new_game(config: &PiranhasConfig, seed: u64) -> Self {
        let krakens = config
            .krakens
            .unwrap_or_else(|| random_pair(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)));
        Piranhas(State::start(krakens))
    }

    fn seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.0.outcome().is_some() {
            Turn::Terminal
        } else {
            Turn::Seat(self.0.current() as usize)
        }
    }

    fn legal_actions(&self) -> Vec<Move> {
        if self.0.outcome().is_some() {
            return Vec::new();
        }
        self.0.legal_moves()
    }

    fn apply(&mut self, action: &Move) -> Result<(), GameError> {
        if self.0.outcome().is_some() {
            return Err(GameError::Over);
        }
        self.0 = self
            .0
            .apply(*action)
            .map_err(|_| GameError::illegal(action))?;
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        match self.0.outcome() {
            None => vec![0.0, 0.0],
            Some(r) => Color::BOTH
                .iter()
                .map(|&c| r.points(c) as f64 - 1.0)
                .collect(),
        }
    }

    fn utility(&self) -> Utility {
        Utility::ZeroSum
    }

    fn return_bounds(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }

    fn action_to_string(&self, action: &Move) -> String {
        action.to_string()
    }

    fn action_from_string(&self, text: &str) -> Result<Move, GameError> {
        text.parse()
            .map_err(|e: crate::ParseError| GameError::decode(text, e.to_string()))
    }

    fn observation(&self, _seat: usize) -> Piranhas {
        *self
    }

    fn determinize<R: rand::Rng + ?Sized>(&self, _seat: usize, _rng: &mut R) -> Piranhas {
        *self
    }
}
