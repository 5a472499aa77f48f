//! The parallel solver's side of the engine's root proofs: node limits counted on the main
//! thread and answers without waiting for helpers (the per-move questions are
//! [`crate::solver::prover::Prover`]'s, asked through `solve_window_now`).

use super::ParallelSolver;
use crate::bitboard::Bits;
use crate::board::Board;
use crate::solver::Solver;
use kibitz_search::time::TimeControl;

/// What the engine's root proofs ask of the parallel solver ([`crate::solver::prover::Prover`]).
///
/// Node limit rule: a limit counts the **main thread's** nodes only ([`Self::main_nodes`]);
/// the helpers stop when the main thread stops. A node budget so means about the same wall
/// time at any thread count (the helpers search alongside, not instead), and a limit that
/// ends a test mid-way leaves the helpers stopping, not waited for.
impl<B: Bits + Send + 'static> ParallelSolver<B> {
    /// Makes searches fail (return `None`) once the main thread's node count
    /// ([`Self::main_nodes`]) reaches `limit`; `None` removes the limit.
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_limit = limit.unwrap_or(u64::MAX);
    }

    /// The node limit set by [`Self::set_node_limit`], if any.
    pub fn node_limit(&self) -> Option<u64> {
        (self.node_limit != u64::MAX).then_some(self.node_limit)
    }

    /// Nodes the main thread searched since the last [`Self::reset_nodes`]: what
    /// [`Self::set_node_limit`] counts.
    pub fn main_nodes(&self) -> u64 {
        self.main.nodes
    }

    /// Takes back the helpers still stopping from an abandoned or answered test (waits for
    /// them), so that [`Self::nodes`] and [`Self::reset_nodes`] see every thread.
    pub fn take_back_helpers(&mut self) {
        self.settle();
    }

    /// The main solver: what every thread shares (the table, the geometry, the order).
    pub fn main(&self) -> &Solver<B> {
        &self.main
    }

    /// The score of `board` clamped to `[lo, hi]` like [`Self::solve_window`], but returning
    /// as soon as the answer is in: helpers still stopping are taken back later (before the
    /// next round, a table change or [`Self::take_back_helpers`]). Watches `tc`'s
    /// deadline, its stop flag and the node limit.
    pub fn solve_window_now(
        &mut self,
        board: &Board<B>,
        lo: i32,
        hi: i32,
        tc: &TimeControl,
    ) -> Option<i32> {
        self.narrow_window(board, lo, hi, tc)
    }
}
