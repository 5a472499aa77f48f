//! Simple opponents that audits, matches and tests play the engine against, and the one game
//! loop they share: rules of thumb and turn order, not search, so they live beside the rules
//! rather than in each tool that uses them.

use crate::board::{Board, Player};
use crate::engine::{Choice, Engine};
use crate::Error;
use kibitz_search::time::TimeControl;
use rand::Rng;
use std::time::Duration;

/// Who the engine plays against in [`play_game`].
pub enum Opponent {
    /// Uniformly random legal moves.
    Random,
    /// [`weak_move`]: takes wins, blocks single threats, else random.
    Weak,
    /// Another engine with its own tables and the same budget (a random first move, so
    /// self-play games differ).
    Engine(Box<Engine>),
}

impl Opponent {
    /// The opponent named `random`, `weak` or `self` (a fresh 7 × 6 engine, `hash_mb` MiB).
    pub fn named(name: &str, hash_mb: usize) -> Result<Self, Error> {
        Ok(match name {
            "random" => Self::Random,
            "weak" => Self::Weak,
            "self" | "engine" => Self::Engine(Box::new(Engine::new(7, 6, 4, hash_mb)?)),
            _ => return Err(Error::BadOpponent(name.to_string())),
        })
    }
}

/// The end of a game from the engine's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The engine connected four.
    Win,
    /// The board filled up.
    Draw,
    /// The opponent connected four.
    Loss,
}

/// One move of the engine, as [`play_game`] reports it.
pub struct EngineMove<'a> {
    /// The position before the move.
    pub board: &'a Board<u64>,
    /// The moves (0-based columns) that led to it.
    pub history: &'a [usize],
    /// What the engine chose, and why.
    pub choice: Choice,
    /// Wall time of the choice.
    pub time: Duration,
}

/// Plays one 7 × 6 game from the empty board: `engine` (first when `engine_first`) chooses
/// each move within the soft budget and hard deadline `(soft, hard)` (its tables kept
/// between moves, unless `fresh_tables`), and `on_move` sees every engine move. An engine
/// opponent gets the same clock.
/// An error of `on_move` ends the game early and is returned.
pub fn play_game<E: From<Error>>(
    engine: &mut Engine,
    opponent: &mut Opponent,
    engine_first: bool,
    (soft, hard): (Duration, Duration),
    fresh_tables: bool,
    rng: &mut impl Rng,
    mut on_move: impl FnMut(EngineMove<'_>) -> Result<(), E>,
) -> Result<Outcome, E> {
    let mut b = Board::<u64>::new(7, 6, 4)?;
    let mut history = Vec::new();
    let clock = || TimeControl::new(soft, hard);
    while !b.is_over() {
        let our_turn = (b.moves_played() % 2 == 0) == engine_first;
        let col = if our_turn {
            if fresh_tables {
                engine.clear();
            }
            let tc = clock();
            let choice = engine.choose(&history, &tc, None);
            let time = tc.elapsed();
            let col = choice.column;
            on_move(EngineMove {
                board: &b,
                history: &history,
                choice,
                time,
            })?;
            col
        } else {
            match opponent {
                Opponent::Engine(e) if b.moves_played() > 1 => {
                    e.choose(&history, &clock(), None).column
                }
                Opponent::Weak => weak_move(&b, rng),
                _ => {
                    let legal = b.legal_moves();
                    legal[rng.random_range(0..legal.len())]
                }
            }
        };
        b.play(col)?;
        history.push(col);
    }
    Ok(match b.winner() {
        None => Outcome::Draw,
        Some(p) if (p == Player::First) == engine_first => Outcome::Win,
        Some(_) => Outcome::Loss,
    })
}

/// The weak opponent: wins if it can, blocks a single threat, else a random move that does
/// not hand over an immediate win (if there is one).
pub fn weak_move(b: &Board<u64>, rng: &mut impl Rng) -> usize {
    let legal = b.legal_moves();
    if let Some(&c) = legal.iter().find(|&&c| b.is_winning_move(c)) {
        return c;
    }
    // Moves after which the opponent wins at once (not blocking, or playing under a threat).
    let threats: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&c| {
            let mut t = *b;
            t.play(c).is_ok() && t.legal_moves().iter().any(|&o| t.is_winning_move(o))
        })
        .collect();
    let safe: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|c| !threats.contains(c))
        .collect();
    let pool = if safe.is_empty() { &legal } else { &safe };
    pool[rng.random_range(0..pool.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn board(digits: &str) -> Board<u64> {
        Board::from_digits(7, 6, 4, digits).unwrap()
    }

    #[test]
    fn a_game_reports_every_engine_move_and_ends_with_the_board() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut engine = Engine::new(7, 6, 4, 16).unwrap();
        engine.set_node_limit(Some(2_000));
        for first in [true, false] {
            let mut opponent = Opponent::named("weak", 16).unwrap();
            let mut plies = Vec::new();
            let outcome = play_game(
                &mut engine,
                &mut opponent,
                first,
                (Duration::from_secs(5), Duration::from_secs(5)),
                false,
                &mut rng,
                |m| {
                    assert!(m.board.can_play(m.choice.column));
                    assert_eq!(m.history.len(), m.board.moves_played());
                    plies.push(m.board.moves_played());
                    Ok::<(), Error>(())
                },
            )
            .unwrap();
            // The engine moves on every other ply, starting with its colour's first.
            assert_eq!(plies[0], usize::from(!first));
            assert!(plies.windows(2).all(|w| w[1] == w[0] + 2));
            assert_ne!(
                outcome,
                Outcome::Loss,
                "the book and solver beat a weak player"
            );
        }
        assert!(Opponent::named("nobody", 16).is_err());
    }

    #[test]
    fn takes_a_win_and_never_hands_one_over_when_it_can_avoid_it() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        // First to move has three in column 1 (0-based 0): the win.
        for _ in 0..20 {
            assert_eq!(weak_move(&board("121212"), &mut rng), 0);
        }
        // Second to move must block column 1 (0-based 0); any other move loses at once.
        for _ in 0..20 {
            assert_eq!(weak_move(&board("12121"), &mut rng), 0);
        }
    }
}
