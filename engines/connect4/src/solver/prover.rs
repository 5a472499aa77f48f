//! What the engine's root proofs ([`crate::root`], [`crate::Engine`]) ask of an exact solver,
//! so that they run on the serial [`Solver`] or on the [`ParallelSolver`] alike.
//!
//! | method | serial [`Solver`] | [`ParallelSolver`] |
//! |---|---|---|
//! | [`Prover::nodes`] | its nodes | the **main thread's** nodes |
//! | [`Prover::total_nodes`] | its nodes | all threads' nodes (for reports) |
//! | [`Prover::set_node_limit`] | on its nodes | on the main thread's nodes; the helpers stop when it stops |
//! | [`Prover::move_at_least`], [`Prover::solve`] | one thread | all threads, returning as soon as the answer is in |
//!
//! The node-limit rule of the parallel solver makes a node budget mean "about the same wall
//! time" at any thread count: the helpers search alongside the main thread, and what they
//! finish first (a stored bound, a whole answer) only makes the main thread's count go
//! further. With one thread the engine uses the serial solver itself ([`EngineSolver::One`]),
//! so its choices are bit for bit those of the engine before threads (bench signature).

use super::parallel::ParallelSolver;
use super::{Solver, SolverConfig};
use crate::bitboard::Bits;
use crate::board::Board;
use crate::geometry::Geometry;
use kibitz_search::time::TimeControl;

/// An exact solver as the root proofs use it (see the module doc for the node-count rule).
pub trait Prover<B: Bits> {
    /// Range of possible scores `(min, max)` of a position with `moves` stones down.
    fn score_range(&self, moves: u32) -> (i32, i32);
    /// Bounds `(lower, upper)` finished searches left in the table for `board`, if any.
    fn probe_bounds(&self, board: &Board<B>) -> Option<(i32, i32)>;
    /// Legal columns of `board` in the solver's preferred order (best guess first).
    fn ordered_moves(&self, board: &Board<B>) -> Vec<usize>;
    /// The score of `board` (side to move's view) clamped to `[lo, hi]`, or `None` when out
    /// of time, stopped or out of nodes. The one search every other question is asked with.
    fn solve_window(&mut self, board: &Board<B>, lo: i32, hi: i32, tc: &TimeControl)
        -> Option<i32>;
    /// The exact score of `board` (side to move's view), or `None` when stopped first.
    fn solve(&mut self, board: &Board<B>, tc: &TimeControl) -> Option<i32> {
        let (lo, hi) = self.score_range(board.moves_played() as u32);
        self.solve_window(board, lo, hi, tc)
    }
    /// Whether the side to move scores at least `target` (`None`: out of time, stopped or
    /// out of nodes).
    fn at_least(&mut self, board: &Board<B>, target: i32, tc: &TimeControl) -> Option<bool> {
        let (lo, hi) = self.score_range(board.moves_played() as u32);
        if target <= lo {
            return Some(true);
        }
        if target > hi {
            return Some(false);
        }
        self.solve_window(board, target - 1, target, tc)
            .map(|s| s >= target)
    }
    /// Whether playing `col` scores at least `target` for the mover (`None`: out of time,
    /// stopped or out of nodes).
    fn move_at_least(
        &mut self,
        board: &Board<B>,
        col: usize,
        target: i32,
        tc: &TimeControl,
    ) -> Option<bool> {
        if board.is_winning_move(col) {
            let (_, win_now) = self.score_range(board.moves_played() as u32);
            return Some(win_now >= target);
        }
        let mut child = *board;
        child.play(col).ok()?;
        // Ours ≥ target ⇔ the opponent's ≤ -target ⇔ not (opponent ≥ -target + 1).
        self.at_least(&child, 1 - target, tc).map(|b| !b)
    }
    /// Nodes counted against the node limit since the last [`Self::reset_nodes`].
    fn nodes(&self) -> u64;
    /// Nodes of every thread since the last [`Self::reset_nodes`] (what a move reports).
    fn total_nodes(&self) -> u64;
    /// Sets the node counters to zero.
    fn reset_nodes(&mut self);
    /// The node limit (on [`Self::nodes`]), if any.
    fn node_limit(&self) -> Option<u64>;
    /// Makes searches fail once [`Self::nodes`] reaches `limit`; `None` removes it.
    fn set_node_limit(&mut self, limit: Option<u64>);
    /// Forgets every stored position.
    fn clear(&mut self);
    /// Threads the solver searches with.
    fn threads(&self) -> usize;
}

impl<B: Bits> Prover<B> for Solver<B> {
    fn score_range(&self, moves: u32) -> (i32, i32) {
        Solver::score_range(self, moves)
    }
    fn probe_bounds(&self, board: &Board<B>) -> Option<(i32, i32)> {
        Solver::probe_bounds(self, board)
    }
    fn ordered_moves(&self, board: &Board<B>) -> Vec<usize> {
        Solver::ordered_moves(self, board)
    }
    fn solve_window(
        &mut self,
        board: &Board<B>,
        lo: i32,
        hi: i32,
        tc: &TimeControl,
    ) -> Option<i32> {
        Solver::solve_window(self, board, lo, hi, tc)
    }
    fn nodes(&self) -> u64 {
        Solver::nodes(self)
    }
    fn total_nodes(&self) -> u64 {
        Solver::nodes(self)
    }
    fn reset_nodes(&mut self) {
        Solver::reset_nodes(self)
    }
    fn node_limit(&self) -> Option<u64> {
        Solver::node_limit(self)
    }
    fn set_node_limit(&mut self, limit: Option<u64>) {
        Solver::set_node_limit(self, limit)
    }
    fn clear(&mut self) {
        Solver::clear(self)
    }
    fn threads(&self) -> usize {
        1
    }
}

impl<B: Bits + Send + 'static> Prover<B> for ParallelSolver<B> {
    fn score_range(&self, moves: u32) -> (i32, i32) {
        self.main().score_range(moves)
    }
    fn probe_bounds(&self, board: &Board<B>) -> Option<(i32, i32)> {
        self.main().probe_bounds(board)
    }
    fn ordered_moves(&self, board: &Board<B>) -> Vec<usize> {
        self.main().ordered_moves(board)
    }
    fn solve_window(
        &mut self,
        board: &Board<B>,
        lo: i32,
        hi: i32,
        tc: &TimeControl,
    ) -> Option<i32> {
        self.solve_window_now(board, lo, hi, tc)
    }
    fn nodes(&self) -> u64 {
        self.main_nodes()
    }
    fn total_nodes(&self) -> u64 {
        ParallelSolver::nodes(self)
    }
    fn reset_nodes(&mut self) {
        // Helpers still stopping from the last move come back first, so their counts reset.
        self.take_back_helpers();
        ParallelSolver::reset_nodes(self)
    }
    fn node_limit(&self) -> Option<u64> {
        ParallelSolver::node_limit(self)
    }
    fn set_node_limit(&mut self, limit: Option<u64>) {
        ParallelSolver::set_node_limit(self, limit)
    }
    fn clear(&mut self) {
        ParallelSolver::clear(self)
    }
    fn threads(&self) -> usize {
        ParallelSolver::threads(self)
    }
}

/// The engine's solver: the serial one for one thread (bit for bit the single-threaded
/// engine), the parallel one for more.
// One per engine, inside the engine's boxed core: the variants' sizes cost nothing.
#[allow(clippy::large_enum_variant)]
pub enum EngineSolver<B: Bits> {
    /// One thread: the serial solver.
    One(Solver<B>),
    /// Several threads over one shared table.
    Many(ParallelSolver<B>),
}

impl<B: Bits + Send + 'static> EngineSolver<B> {
    /// A solver for `geo` with `config` on `threads` threads (0 counts as 1).
    pub fn new(geo: Geometry<B>, config: SolverConfig, threads: usize) -> Self {
        if threads <= 1 {
            Self::One(Solver::new(geo, config))
        } else {
            Self::Many(ParallelSolver::new(geo, config, threads))
        }
    }

    /// The solver behind, as a [`Prover`].
    fn get(&self) -> &dyn Prover<B> {
        match self {
            Self::One(s) => s,
            Self::Many(s) => s,
        }
    }

    /// The solver behind, as a mutable [`Prover`].
    fn get_mut(&mut self) -> &mut dyn Prover<B> {
        match self {
            Self::One(s) => s,
            Self::Many(s) => s,
        }
    }
}

impl<B: Bits + Send + 'static> Prover<B> for EngineSolver<B> {
    fn score_range(&self, moves: u32) -> (i32, i32) {
        self.get().score_range(moves)
    }
    fn probe_bounds(&self, board: &Board<B>) -> Option<(i32, i32)> {
        self.get().probe_bounds(board)
    }
    fn ordered_moves(&self, board: &Board<B>) -> Vec<usize> {
        self.get().ordered_moves(board)
    }
    fn solve_window(
        &mut self,
        board: &Board<B>,
        lo: i32,
        hi: i32,
        tc: &TimeControl,
    ) -> Option<i32> {
        self.get_mut().solve_window(board, lo, hi, tc)
    }
    fn nodes(&self) -> u64 {
        self.get().nodes()
    }
    fn total_nodes(&self) -> u64 {
        self.get().total_nodes()
    }
    fn reset_nodes(&mut self) {
        self.get_mut().reset_nodes()
    }
    fn node_limit(&self) -> Option<u64> {
        self.get().node_limit()
    }
    fn set_node_limit(&mut self, limit: Option<u64>) {
        self.get_mut().set_node_limit(limit)
    }
    fn clear(&mut self) {
        self.get_mut().clear()
    }
    fn threads(&self) -> usize {
        self.get().threads()
    }
}
