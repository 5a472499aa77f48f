//! The parallel solve: Lazy SMP over one shared table.
//!
//! Every thread runs the same null-window test of the root with its own [`Solver`] (own node
//! count, clock, history and near table), all storing into one table of atomic 8-byte
//! entries ([`crate::tt::Tt::store_shared`]). A thread that finishes a subtree first leaves
//! its bound in the table and the others pick it up instead of searching it again, so they
//! spread over the tree by themselves; where two meet at a node near the root, ABDADA sends
//! the later one to another child first. All threads order the moves alike (breaking ties in
//! the mirrored order, [`SolverConfig::helper_mirror`], cost 3-6 % more nodes). The first
//! thread to answer a test answers it for all (every stored bound is a true bound, so any
//! finished answer is exact); the others are stopped through a per-test stop flag and keep
//! nothing of their unfinished part.
//!
//! With [`SolverConfig::split_windows`] (off by default: measured worse) the second thread
//! does not repeat the main thread's test but tests another null window at the same time
//! (zero, or the neighbour of the main's), so that a root test costing more than its share
//! no longer holds both threads: every finished answer of either narrows the score range.
//!
//! Each test first runs on the main thread alone for [`SolverConfig::serial_nodes`] nodes
//! (default [`SERIAL_NODES`]); the first test still open then starts a round
//! (module `round`): every thread on the tests left until the score is known, the first answer to
//! a test picking the next one and stopping the threads still on the old one, which go
//! straight on to the new one (no join and no wake-up per test). Threads come only from the
//! count given ([`ParallelSolver::new`]): each helper has a thread of its own, started at
//! the first round and parked between rounds (waking a parked thread takes far less than
//! starting one on a busy machine); each round moves the helper's solver into its thread and
//! back. The main thread does not wait for the helpers to stop at the end of a round; they
//! come back before the next round, a table change, or the end of the solve (on a busy
//! machine a stopped thread may wait a millisecond for a core before it notices). With one
//! thread the search is the serial one on a full-size table (deterministic); with more,
//! which thread answers first varies, so node counts do too, but scores never.
//!
//! The shared table cannot grow during a search (no store may move entries under another
//! thread), so with [`SolverConfig::grow_table`] it grows between root tests, when no helper
//! runs (a round ends for it): to [`TABLE_BYTES_PER_NODE`] per node the solve has searched, and to at least
//! [`PARALLEL_START_BYTES`] once a test goes parallel. A short solve so stays in the caches.
//!
//! Where two threads stand (issue 39, `kibitz connect4 bench`, one and two threads
//! alternated, idle machine): all 1,000 positions of Test_L1_R2 in 0.617×–0.651× of one
//! thread's wall time over four runs (84–92 → 53–58 ms per position); the first 400 of
//! Test_L1_R3 in 0.574× (3.15 → 1.81 s per position; runs of 50 or 100 positions in
//! 0.53–0.62×). Two threads search 12 % more nodes than one on both sets. On Test_L1_R2's
//! solves of about 85 ms they keep 1.93 cores busy and run 7 % fewer nodes per CPU second
//! than one thread (whose table is smaller); on Test_L1_R3's of about 3 s 1.98 cores and
//! 1 % fewer (positions 101–400). Ten single changes to the parallel settings around the
//! defaults (first 200 of Test_L1_R2, three runs each) measured none clearly faster.
//!
//! Young brothers wait in its simplest form (a prototype, not kept: the main thread hands
//! one child at a time to the idle helper, at the node it is at, once the first child
//! failed to cut off) took 1.15–1.24× the wall time of this scheme on the first 200 of
//! Test_L1_R2 (1.19–1.49× when handing from 16, 24 or 28 empty cells instead of 20), with
//! 4–6 % more nodes when the main thread waits for the helper's child and 15–18 % more
//! when it races it: most of the loss is time a thread waits, not nodes.

use super::crew::Hand;
pub use super::research::ParStats;
use super::{choose_probe, Solver, SolverConfig, Table};
use crate::bitboard::Bits;
use crate::board::Board;
use crate::book::Book;
use crate::geometry::Geometry;
use crate::tt::Tt;
use kibitz_search::time::TimeControl;
use std::sync::Arc;
use std::time::Instant;

mod busy;
mod limits;
mod round;
pub use busy::Busy;
use round::{Range, Root, Round, RoundEnd, Tally};

/// Default of [`SolverConfig::serial_nodes`]: nodes the main thread searches a root test
/// alone before the helpers join (the finished part stays in the table). Issue 39, Test_L1_R2
/// (first 100, 2 threads): at 65,536 the serial starts were 26 % of the nodes and 28 % of
/// the wall time, and the nodes on the critical path (serial ones plus the answering
/// thread's) 0.71 of one thread's; at 4,096 they are 5 % and 0.62 (2,048: 0.62, 8,192:
/// 0.635), for 3-4 parallel tests per position instead of 1.2.
pub const SERIAL_NODES: u64 = 1 << 12;

/// Bytes of shared table per node searched so far in a solve: the part of the table in use
/// is grown to this before each root test (a shared table cannot grow during a search).
/// Issue 39, Test_L1_R2 (first 100, 2 threads, with [`PARALLEL_START_BYTES`] 8 MiB): 16
/// took 36.9 ms per position (growth 1.3 ms of it), 8 35.4 ms (0.57), 4 34.8 ms (0.2).
pub const TABLE_BYTES_PER_NODE: usize = 8;

/// Bytes of shared table in use, at least, once a root test goes parallel. Issue 39,
/// Test_L1_R2 (first 100, 2 threads, means of 2 runs): 2 MiB 39.5 ms per position and
/// 687 k nodes, 4 MiB 37.8 ms / 653 k, 8 MiB 35.4 ms / 640 k, 16 MiB 33.6 ms / 618 k,
/// 32 MiB 35.5 ms / 613 k, 64 MiB 43.5 ms / 608 k (fewer nodes, but most probes miss the
/// caches). Cheap since the table grows in one pass ([`Tt::grow_to`]).
pub const PARALLEL_START_BYTES: usize = 16 << 20;

/// A worker on cache lines of its own: its node counter, written at every node, shares no
/// line (nor the pair of lines the CPU fetches together) with the next worker's fields.
#[repr(align(128))]
struct Padded<T> {
    inner: T,
    _pad: [u8; 128],
}

impl<T> Padded<T> {
    fn new(inner: T) -> Self {
        Self {
            inner,
            _pad: [0; 128],
        }
    }
}

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> std::ops::DerefMut for Padded<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.inner
    }
}

/// A finished null-window test of a parallel solve: the window and the fail-soft score.
type Answer = (i32, i32);

/// A helper's solver, on cache lines of its own.
type Worker<B> = Box<Padded<Solver<B>>>;

/// What a helper thread hands back after a round: its solver and what it did.
type Report<B> = (Worker<B>, Tally);

/// An exact solver searching with several threads over one shared table.
pub struct ParallelSolver<B: Bits> {
    /// The main thread's solver (the calling thread's).
    main: Padded<Solver<B>>,
    /// The helpers' solvers; `None` while a helper is away (in a round, [`Self::away`]) or after its thread
    /// panicked.
    helpers: Vec<Option<Worker<B>>>,
    /// Helpers still in a round or winding it down (indices into [`Self::helpers`] and
    /// [`Self::hands`]): the main thread does not wait for them at the end of a solve.
    away: Vec<usize>,
    /// One thread per helper, parked between root tests.
    hands: Vec<Hand<Report<B>>>,
    /// The shared table (every worker holds a clone).
    tt: Arc<Tt>,
    /// A tiny table the workers hold while [`Self::with_table`] has the shared one.
    spare: Arc<Tt>,
    /// Whether the shared table starts small and grows with the work of a solve
    /// ([`SolverConfig::grow_table`], with more than one thread).
    grows: bool,
    /// Research counters ([`Self::stats`]).
    stats: ParStats,
    /// Node limit on the main thread's count ([`Self::set_node_limit`]; `u64::MAX`: none).
    node_limit: u64,
    /// Rounds started since the last [`Self::reset_stats`] ([`Self::rounds`]).
    rounds: u64,
}

impl<B: Bits + Send + 'static> ParallelSolver<B> {
    /// A solver for `geo` using `threads` threads (at least one) and one table of
    /// `config.hash_mb` MiB. With one thread, or without [`SolverConfig::grow_table`], the
    /// whole table is in use from the start. Otherwise it starts small after every clear and
    /// grows between root tests with the nodes the solve has searched (at least
    /// [`PARALLEL_START_BYTES`] once a test goes parallel): a short solve stays in the CPU
    /// caches, as the serial solver's growing table does (issue 39: on Test_L1_R2 two
    /// threads over a full 64 MiB table were no faster than one thread).
    pub fn new(geo: Geometry<B>, config: SolverConfig, threads: usize) -> Self {
        let key_bits = (geo.columns() * (geo.rows() + 1)).min(64) as u32;
        let grows = threads > 1 && config.grow_table;
        let tt = Arc::new(if grows {
            Tt::new(config.hash_mb, key_bits)
        } else {
            Tt::new_full(config.hash_mb, key_bits)
        });
        let spare = Arc::new(Tt::with_bytes(0, key_bits));
        let mut busy = if threads > 1 && config.abdada_min_empty != u32::MAX {
            Busy::crew(threads)
        } else {
            Vec::new()
        }
        .into_iter();
        let mut worker = |k: usize| {
            let mut s = Solver::new(
                geo,
                SolverConfig {
                    // The own table is replaced by the shared one below: keep it tiny.
                    hash_mb: 1,
                    grow_table: true,
                    ..config.clone()
                },
            );
            s.config.hash_mb = config.hash_mb;
            s.tt = Table::Shared(Arc::clone(&tt));
            s.busy = busy.next().map(Arc::new);
            if k % 2 == 1 && config.helper_mirror {
                // Ties between equally threatening moves go right of centre first.
                let w = geo.columns() as i64;
                s.order
                    .sort_by_key(|&c| ((2 * c as i64 - (w - 1)).abs(), -(c as i64)));
            }
            Padded::new(s)
        };
        let main = worker(0);
        let helpers = (1..threads.max(1))
            .map(|k| Some(Box::new(worker(k))))
            .collect();
        let hands = (1..threads.max(1)).map(|_| Hand::new()).collect();
        Self {
            main,
            helpers,
            hands,
            away: Vec::new(),
            tt,
            spare,
            grows,
            stats: ParStats::default(),
            node_limit: u64::MAX,
            rounds: 0,
        }
    }

    /// Every solver at hand: the main one, then the helpers not away.
    fn all(&self) -> impl Iterator<Item = &Solver<B>> {
        std::iter::once(&*self.main).chain(self.helpers.iter().flatten().map(|h| &***h))
    }

    /// [`Self::all`], mutably.
    fn all_mut(&mut self) -> impl Iterator<Item = &mut Solver<B>> {
        std::iter::once(&mut *self.main).chain(self.helpers.iter_mut().flatten().map(|h| &mut ***h))
    }

    /// Waits for the helpers still winding down a test and takes them back; the time
    /// waited counts as [`ParStats::stop_wait`]. A helper whose thread panicked is gone.
    fn settle(&mut self) {
        if self.away.is_empty() {
            return;
        }
        let t0 = Instant::now();
        for k in std::mem::take(&mut self.away) {
            if let Some((h, tally)) = self.hands[k].wait() {
                self.stats.start_delay += tally.start_delay;
                self.stats.answer_nodes += tally.answer_nodes;
                self.stats.other_nodes += tally.other_nodes;
                self.helpers[k] = Some(h);
            }
        }
        self.stats.stop_wait += t0.elapsed();
    }

    /// Runs `f` on the shared table while no worker holds it (between searches only);
    /// `None` if some other owner still does.
    fn with_table<R>(&mut self, f: impl FnOnce(&mut Tt) -> R) -> Option<R> {
        self.settle();
        let spare = Arc::clone(&self.spare);
        for w in self.all_mut() {
            w.tt = Table::Shared(Arc::clone(&spare));
        }
        let r = Arc::get_mut(&mut self.tt).map(f);
        let tt = Arc::clone(&self.tt);
        for w in self.all_mut() {
            w.tt = Table::Shared(Arc::clone(&tt));
        }
        r
    }

    /// Grows the part of a growing shared table in use to at least `bytes`.
    fn grow_table(&mut self, bytes: usize) {
        if self.grows && self.tt.bytes_in_use() < bytes {
            // Helpers still stopping come back first (their wait is `stop_wait`).
            self.settle();
            let t0 = Instant::now();
            self.with_table(|t| t.grow_to(bytes));
            self.stats.grow_time += t0.elapsed();
        }
    }

    /// Bytes of the shared table in use (all of it unless it grows).
    pub fn table_bytes_in_use(&self) -> usize {
        self.tt.bytes_in_use()
    }

    /// Number of threads.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Consults `book` inside the tree in every thread (see [`Solver::set_book`]).
    pub fn set_book(&mut self, book: Option<&Book>) {
        for w in self.all_mut() {
            w.set_book(book);
        }
    }

    /// Nodes searched by all threads since the last [`Self::reset_nodes`].
    pub fn nodes(&self) -> u64 {
        self.all().map(|w| w.nodes).sum()
    }

    /// Sets every thread's node counter to zero.
    pub fn reset_nodes(&mut self) {
        for w in self.all_mut() {
            w.reset_nodes();
        }
    }

    /// The research counters since the last [`Self::reset_stats`].
    pub fn stats(&self) -> ParStats {
        let mut s = self.stats.clone();
        for w in self.all() {
            w.counters.add_to(&mut s);
        }
        s
    }

    /// Rounds (every thread on the root tests left, module `round`) started since the last
    /// [`Self::reset_stats`]: one per solve that goes parallel, unless the table grows in
    /// the middle of it.
    pub fn rounds(&self) -> u64 {
        self.rounds
    }

    /// Sets the research counters to zero.
    pub fn reset_stats(&mut self) {
        self.stats = ParStats::default();
        self.rounds = 0;
        for w in self.all_mut() {
            w.counters = super::research::Counters::new();
        }
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        if self.grows {
            // The table starts small again (only its part in use is rewritten).
            self.with_table(Tt::clear);
            for w in self.all_mut() {
                w.near.clear();
            }
            return;
        }
        self.settle();
        self.main.clear();
        for w in self.helpers.iter_mut().flatten() {
            w.near.clear();
        }
    }

    /// The exact score of `board` (side to move's view), or `None` when `tc`'s deadline
    /// passed first.
    pub fn solve(&mut self, board: &Board<B>, tc: &TimeControl) -> Option<i32> {
        let (lo, hi) = self.main.score_range(board.moves_played() as u32);
        self.solve_window(board, lo, hi, tc)
    }

    /// [`Solver::solve_window`] with all threads: the score clamped to `[lo, hi]`
    /// (`(-1, 1)`: the weak solve). `tc`'s deadlines apply; its stop flag is not watched.
    /// Every helper is back when it returns.
    pub fn solve_window(
        &mut self,
        board: &Board<B>,
        lo: i32,
        hi: i32,
        tc: &TimeControl,
    ) -> Option<i32> {
        let r = self.narrow_window(board, lo, hi, tc);
        self.settle();
        r
    }

    /// [`Self::solve_window`], possibly leaving helpers away. A test the main thread
    /// abandons (deadline, stop flag, node limit) stops the helpers without waiting for them.
    ///
    /// Each root test runs on the main thread alone first ([`SolverConfig::serial_nodes`]);
    /// the first one still open then starts a [`Round`]: every thread on the tests left
    /// until the range is closed (or the table must grow, which ends the round and starts
    /// another on the same test once it has grown).
    fn narrow_window(
        &mut self,
        board: &Board<B>,
        lo: i32,
        hi: i32,
        tc: &TimeControl,
    ) -> Option<i32> {
        let (cur, mask, moves, min, max) = match self.main.root_window(board, lo, hi) {
            Ok(w) => w,
            Err(score) => return Some(score),
        };
        let rule = self.main.config.probe_rule;
        let split = self.main.config.split_windows && !self.helpers.is_empty();
        let start_nodes = self.nodes();
        let root = Root { cur, mask, moves };
        let mut range = Range {
            min,
            max,
            pass: 0,
            last_high: false,
            med: 0,
        };
        let limit = self.node_limit;
        let mut parallel = false;
        while range.min < range.max {
            if parallel {
                // Helpers still stopping count their nodes when back.
                self.settle();
                let solved = self.nodes() - start_nodes;
                // The rest of the solve in rounds (one unless the table grows meanwhile).
                self.grow_table(solved.saturating_mul(TABLE_BYTES_PER_NODE as u64) as usize);
                let round = Arc::new(Round::new(range, rule, split));
                let ended = self.run_round(&round, root, tc, solved);
                range = round.range();
                match ended {
                    RoundEnd::Closed | RoundEnd::Grow => continue,
                    RoundEnd::Abandoned => return None,
                }
            }
            let solved = self.nodes() - start_nodes;
            range.med = choose_probe(range.min, range.max, rule, range.pass, range.last_high);
            range.pass += 1;
            self.grow_table(solved.saturating_mul(TABLE_BYTES_PER_NODE as u64) as usize);
            // Most tests are small: the main thread alone first, so that they cost no
            // thread start (which on a busy machine waits for a core).
            let main = &mut self.main;
            main.tc = tc.clone();
            main.aborted = false;
            main.node_limit = main
                .nodes
                .saturating_add(main.config.serial_nodes)
                .min(limit);
            let (t0, n0) = (Instant::now(), main.nodes);
            let r = main.negamax(cur, mask, moves, range.med, range.med + 1);
            let nodes = main.nodes;
            main.counters.close_dup(nodes);
            main.node_limit = u64::MAX;
            self.stats.serial_time += t0.elapsed();
            self.stats.serial_nodes += nodes - n0;
            if !self.main.aborted {
                self.stats.tests += 1;
                range.last_high = r > range.med;
                narrow(&mut range.min, &mut range.max, range.med, r);
                continue;
            }
            if tc.hard_expired() || self.main.nodes >= limit {
                self.stats.tests += 1;
                return None;
            }
            // This test goes on in a round, with every thread.
            self.grow_table(
                (solved.saturating_mul(TABLE_BYTES_PER_NODE as u64) as usize)
                    .max(PARALLEL_START_BYTES),
            );
            parallel = true;
        }
        Some(range.min)
    }
}

/// Narrows the score range `[min, max)` (as in the serial `narrow_root`) with the fail-soft
/// answer `r` of the null-window test at `probe`.
fn narrow(min: &mut i32, max: &mut i32, probe: i32, r: i32) {
    if r <= probe {
        *max = (*max).min(r.max(*min));
    } else {
        *min = (*min).max(r.min(*max));
    }
}

/// The window the second thread tests while the main one tests `med` in `[min, max)`: zero
/// (the draw line, where most hard positions lie) when the main thread tests elsewhere,
/// else the neighbour of `med` on the side where the range is wider; `med` itself when the
/// range holds nothing else.
fn other_window(min: i32, max: i32, med: i32) -> i32 {
    if med != 0 && min <= 0 && 0 < max {
        0
    } else if med - min >= max - 1 - med && med > min {
        med - 1
    } else if med + 1 < max {
        med + 1
    } else {
        med
    }
}

#[cfg(test)]
mod tests {
    use super::{narrow, other_window};

    #[test]
    fn the_second_window_differs_while_the_range_allows() {
        assert_eq!(other_window(-1, 1, 0), -1);
        assert_eq!(other_window(-18, 19, 9), 0);
        assert_eq!(other_window(0, 1, 0), 0);
        assert_eq!(other_window(2, 5, 3), 2);
        let (mut lo, mut hi) = (-5, 6);
        narrow(&mut lo, &mut hi, 0, 3); // fail high with 3: score ≥ 3
        assert_eq!((lo, hi), (3, 6));
        narrow(&mut lo, &mut hi, 4, 4); // fail low with 4: score ≤ 4
        assert_eq!((lo, hi), (3, 4));
    }
}
