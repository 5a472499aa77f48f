//! Mensch ärgere dich nicht (BwInf Würfelglück) as a [`kibitz_search::game::Game`]: a thin
//! wrapper over [`Position::apply`] and the end tests of [`crate::game::play`].
//!
//! Nobody chooses anything in this game (spec §5 fixes which piece moves), so every turn is a
//! [`Turn::Chance`] node: the outcomes are the distinct faces of the mover's die, each with its
//! share of the faces. A roll of 6 lets the same side roll again. The game ends when a side has
//! all four pieces in the goal (+1 / −1), when no face of either die can change the position
//! (a draw, 0 / 0), or after [`ROLL_CAP`] rolls (a draw). Actions are the rolled numbers.

use crate::game::{GameResult, Position, Variant, ROLL_CAP};
use kibitz_search::game::{Game, GameError, Turn, Utility};
use std::hash::{Hash, Hasher};

/// The two dice, who rolls first and the rules reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MadnConfig {
    /// Faces of side 0's and side 1's die (each at least one face; an empty list is read as
    /// the standard 1-6 die).
    pub dice: [Vec<u32>; 2],
    /// Who rolls first; `None` = `seed % 2`.
    pub first: Option<usize>,
    /// The reading of the rules (spec §6).
    pub variant: Variant,
}

impl Default for MadnConfig {
    fn default() -> Self {
        MadnConfig {
            dice: [vec![1, 2, 3, 4, 5, 6], vec![1, 2, 3, 4, 5, 6]],
            first: None,
            variant: Variant::Default,
        }
    }
}

/// A game of two dice seen through the [`Game`] trait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Madn {
    position: Position,
    side: usize,
    faces: [Vec<u32>; 2],
    distinct: [Vec<u32>; 2],
    variant: Variant,
    rolls: u64,
    result: Option<GameResult>,
}

impl Madn {
    /// The position on the board.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// How the game ended, once over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }
}

impl Hash for Madn {
    fn hash<H: Hasher>(&self, h: &mut H) {
        for s in &self.position.sides {
            (s.board, s.home).hash(h);
        }
        (self.side, &self.faces, self.variant as u8, self.rolls).hash(h);
        self.result
            .map(|r| match r {
                GameResult::Win(s) => s as u8,
                GameResult::Draw => 2,
                GameResult::Capped => 3,
            })
            .hash(h);
    }
}

fn distinct(faces: &[u32]) -> Vec<u32> {
    let mut f = faces.to_vec();
    f.sort_unstable();
    f.dedup();
    f
}

impl Game for Madn {
    type Action = u32;
    type Config = MadnConfig;
    type Observation = Madn;
    type Event = kibitz_search::agent::Played<u32>;
    const NAME: &'static str = "madn";
    const PERFECT_INFORMATION: bool = true;

    fn new_game(config: &MadnConfig, seed: u64) -> Self {
        let faces = config.dice.clone().map(|f| {
            if f.is_empty() {
                vec![1, 2, 3, 4, 5, 6]
            } else {
                f
            }
        });
        Madn {
            position: Position::default(),
            side: config.first.unwrap_or((seed % 2) as usize).min(1),
            distinct: [distinct(&faces[0]), distinct(&faces[1])],
            faces,
            variant: config.variant,
            rolls: 0,
            result: None,
        }
    }

    fn seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.result.is_some() {
            Turn::Terminal
        } else {
            Turn::Chance
        }
    }

    fn legal_actions(&self) -> Vec<u32> {
        if self.result.is_some() {
            return Vec::new();
        }
        self.distinct[self.side].clone()
    }

    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        if self.result.is_some() {
            return Vec::new();
        }
        let faces = &self.faces[self.side];
        let n = faces.len() as f64;
        self.distinct[self.side]
            .iter()
            .map(|&d| (d, faces.iter().filter(|&&f| f == d).count() as f64 / n))
            .collect()
    }

    /// Rolls `action` for the side to move (it must be a face of its die), as
    /// [`crate::game::play`] does.
    fn apply(&mut self, action: &u32) -> Result<(), GameError> {
        if self.result.is_some() {
            return Err(GameError::Over);
        }
        if !self.distinct[self.side].contains(action) {
            return Err(GameError::illegal(action));
        }
        let r = *action;
        self.rolls += 1;
        if self.position.apply(self.side, r, self.variant) {
            if self.position.won(self.side) {
                self.result = Some(GameResult::Win(self.side));
                return Ok(());
            }
        } else if self
            .position
            .deadlocked([&self.distinct[0], &self.distinct[1]], self.variant)
        {
            self.result = Some(GameResult::Draw);
            return Ok(());
        }
        if self.rolls >= ROLL_CAP {
            self.result = Some(GameResult::Capped);
        } else if r != 6 {
            self.side ^= 1;
        }
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        match self.result {
            Some(GameResult::Win(s)) => {
                let mut r = vec![-1.0, -1.0];
                r[s] = 1.0;
                r
            }
            _ => vec![0.0, 0.0],
        }
    }

    fn utility(&self) -> Utility {
        Utility::ZeroSum
    }

    fn return_bounds(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }

    fn action_to_string(&self, action: &u32) -> String {
        action.to_string()
    }

    fn action_from_string(&self, text: &str) -> Result<u32, GameError> {
        text.parse()
            .map_err(|_| GameError::decode(text, "not a roll (a number)"))
    }

    fn observation(&self, _seat: usize) -> Madn {
        self.clone()
    }

    fn determinize<R: kibitz_search::rand::Rng + ?Sized>(
        &self,
        _seat: usize,
        _rng: &mut R,
    ) -> Madn {
        self.clone()
    }
}
