//! What the search asks of a game: [`Game`], the position interface every perfect-information
//! engine implements, and [`Outcome`], how a finished game ended.

use super::Score;
use std::fmt::Debug;

/// How a finished game ended, from the view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Nobody won.
    Draw,
}

/// A two-player zero-sum game with perfect information, as the search sees it.
pub trait Game: Clone {
    /// A move; `Default` is used as "no move" in tables.
    type Move: Copy + Eq + Default + Debug + Send + Sync + 'static;
    /// A hash of the position (Zobrist or similar), equal for equal positions.
    fn hash(&self) -> u64;
    /// Appends every legal move to `out` (the caller clears it).
    ///
    /// If the game is not over but there is no legal move, the search scores the position as a
    /// loss for the side to move; games where that is wrong must report it through
    /// [`Game::outcome`].
    fn moves(&self, out: &mut Vec<Self::Move>);
    /// The position after `m` (copy-make).
    fn play(&self, m: Self::Move) -> Self;
    /// `Some` iff the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Static evaluation from the side to move's view, with `|score| < WIN - 1000`.
    fn evaluate(&self) -> Score;
    /// A small index for `m` (below [`HISTORY_SIZE`](super::HISTORY_SIZE)), e.g. from-square
    /// × direction.
    fn move_key(&self, m: Self::Move) -> usize;
    /// Static ordering bonus for `m` (threats, captures); history is added to it.
    fn order_hint(&self, _m: Self::Move) -> i32 {
        0
    }
    /// Whether `m` is searched in quiescence (captures and the like).
    fn is_noisy(&self, _m: Self::Move) -> bool {
        false
    }
    /// Appends the noisy moves (those [`Game::is_noisy`] accepts) to `out`, for quiescence.
    /// The default generates every move and filters; games override it with a cheaper
    /// generator.
    fn noisy_moves(&self, out: &mut Vec<Self::Move>) {
        self.moves(out);
        out.retain(|&m| self.is_noisy(m));
    }
    /// The position after passing, where passing is a sound null-move test.
    fn null_move(&self) -> Option<Self> {
        None
    }
    /// Check-like threats in this position as a small bit set (e.g. one bit per side that
    /// threatens to win next move). With
    /// [`SearchConfig::extensions`](super::SearchConfig::extensions) on, a move whose child has
    /// a threat bit its parent lacked is searched one ply deeper. Default: none.
    fn threats(&self) -> u8 {
        0
    }
}
