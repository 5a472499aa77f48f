//! Research counters of the ABDADA part of a parallel solve (issue 39): how often a thread
//! meets a child another thread is searching, and how many nodes it searches inside such
//! children (work likely done twice at the same time).
//!
//! Counted only with the crate's `research` feature (the `par_bench` example); without it
//! [`Counters`] is empty and every method does nothing, so the product's search pays
//! nothing for them and [`ParStats`] shows zeros for these fields. [`ParStats`] itself (per
//! root test: counts, node shares and the wall time of the fixed costs) is always kept.

use std::time::Duration;

/// Research counters of a parallel solve since the last
/// [`ParallelSolver::reset_stats`](super::parallel::ParallelSolver::reset_stats) (counted
/// per root test, and the deferrals only in the parallel search): where the work of the
/// threads goes (issue 39).
#[derive(Clone, Debug, Default)]
pub struct ParStats {
    /// Root null-window tests.
    pub tests: u64,
    /// Tests still open after the serial start, that the helpers joined.
    pub parallel_tests: u64,
    /// Wall time of the serial starts (all tests).
    pub serial_time: Duration,
    /// Wall time of the parallel parts (thread starts and joins included).
    pub parallel_time: Duration,
    /// Nodes of the serial starts.
    pub serial_nodes: u64,
    /// Nodes of the parallel parts searched by the thread that answered first.
    pub answer_nodes: u64,
    /// Nodes of the parallel parts searched by the other threads.
    pub other_nodes: u64,
    /// Wall time from the first answer of a parallel test until every thread had stopped.
    pub stop_wait: Duration,
    /// Parallel tests the main thread answered first.
    pub main_answered: u64,
    /// Children deferred because another thread was searching them (ABDADA). This and the
    /// next four are counted only with the crate's `research` feature (zero without).
    pub defers: u64,
    /// Nodes that checked their children against the busy table (ABDADA).
    pub busy_nodes: u64,
    /// Of those, nodes whose first child another thread was searching.
    pub first_busy: u64,
    /// Children found busy (another thread in them) at those nodes.
    pub busy_seen: u64,
    /// Nodes searched inside children entered while another thread was in them (work
    /// likely done twice at the same time).
    pub dup_nodes: u64,
    /// Wall time spent growing the shared table between root tests.
    pub grow_time: Duration,
    /// Wall time the main thread spent starting (or waking) helpers.
    pub spawn_time: Duration,
    /// Summed over helper starts: wall time from the main thread's start call until the
    /// helper began searching (thread start plus the wait for a core).
    pub start_delay: Duration,
}

/// One thread's ABDADA counters since the last reset.
#[cfg(feature = "research")]
#[derive(Clone, Debug)]
pub(super) struct Counters {
    /// Children deferred because another thread was searching them.
    pub(super) defers: u64,
    /// Nodes that checked their children against the busy table.
    pub(super) busy_nodes: u64,
    /// Nodes whose first child another thread was searching.
    pub(super) first_busy: u64,
    /// Children found busy (another thread in them).
    pub(super) busy_seen: u64,
    /// Nodes searched inside children entered while another thread was in them.
    pub(super) dup_nodes: u64,
    /// Stones of the busy child being searched (`u32::MAX`: none), its key and the node
    /// count on entry ([`Self::dup_nodes`], outermost such child only).
    dup_moves: u32,
    dup_key: u64,
    dup_n0: u64,
}

/// One thread's ABDADA counters: nothing without the `research` feature.
#[cfg(not(feature = "research"))]
#[derive(Clone, Debug)]
pub(super) struct Counters;

#[cfg(feature = "research")]
impl Counters {
    /// Zero counters, no busy child open.
    pub(super) fn new() -> Self {
        Self {
            defers: 0,
            busy_nodes: 0,
            first_busy: 0,
            busy_seen: 0,
            dup_nodes: 0,
            dup_moves: u32::MAX,
            dup_key: 0,
            dup_n0: 0,
        }
    }

    /// An ABDADA node (`moves` stones, `key`) is searched, `nodes` counted so far: a busy
    /// child opened earlier is over if the search is back above it or beside it.
    #[inline(always)]
    pub(super) fn busy_node(&mut self, moves: u32, key: u64, nodes: u64) {
        self.busy_nodes += 1;
        if self.dup_moves != u32::MAX
            && (moves < self.dup_moves || (moves == self.dup_moves && key != self.dup_key))
        {
            self.close_dup(nodes);
        }
    }

    /// A busy child was found (`first`: the first in the move order), and deferred or not.
    #[inline(always)]
    pub(super) fn busy_child(&mut self, first: bool, deferred: bool) {
        self.busy_seen += 1;
        self.first_busy += u64::from(first);
        self.defers += u64::from(deferred);
    }

    /// The search enters the child of `key` (`moves` stones) while another thread is in
    /// it; its nodes count as [`Self::dup_nodes`] (outermost only).
    #[inline(always)]
    pub(super) fn open_dup(&mut self, moves: u32, key: u64, nodes: u64) {
        if self.dup_moves == u32::MAX {
            (self.dup_moves, self.dup_key, self.dup_n0) = (moves, key, nodes);
        }
    }

    /// The search left the child of `key` (`moves` stones): ends its busy subtree if it
    /// is the one open.
    #[inline(always)]
    pub(super) fn left_child(&mut self, moves: u32, key: u64, nodes: u64) {
        if self.dup_moves == moves && self.dup_key == key {
            self.close_dup(nodes);
        }
    }

    /// Ends the busy subtree [`Self::open_dup`] opened, if any (`nodes` counted so far).
    #[inline(always)]
    pub(super) fn close_dup(&mut self, nodes: u64) {
        if self.dup_moves != u32::MAX {
            self.dup_nodes += nodes - self.dup_n0;
            self.dup_moves = u32::MAX;
        }
    }

    /// Adds these counters into `s`.
    pub(super) fn add_to(&self, s: &mut ParStats) {
        s.defers += self.defers;
        s.busy_nodes += self.busy_nodes;
        s.first_busy += self.first_busy;
        s.busy_seen += self.busy_seen;
        s.dup_nodes += self.dup_nodes;
    }
}

#[cfg(not(feature = "research"))]
impl Counters {
    /// Nothing to count.
    pub(super) fn new() -> Self {
        Self
    }

    /// Does nothing (see the `research` version).
    #[inline(always)]
    pub(super) fn busy_node(&mut self, _moves: u32, _key: u64, _nodes: u64) {}

    /// Does nothing (see the `research` version).
    #[inline(always)]
    pub(super) fn busy_child(&mut self, _first: bool, _deferred: bool) {}

    /// Does nothing (see the `research` version).
    #[inline(always)]
    pub(super) fn open_dup(&mut self, _moves: u32, _key: u64, _nodes: u64) {}

    /// Does nothing (see the `research` version).
    #[inline(always)]
    pub(super) fn left_child(&mut self, _moves: u32, _key: u64, _nodes: u64) {}

    /// Does nothing (see the `research` version).
    #[inline(always)]
    pub(super) fn close_dup(&mut self, _nodes: u64) {}

    /// Adds nothing.
    pub(super) fn add_to(&self, _s: &mut ParStats) {}
}
