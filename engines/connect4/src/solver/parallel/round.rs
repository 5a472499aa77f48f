//! A round of a parallel solve: every thread on the root tests left, from the first test
//! that went parallel to the end of the solve, with no join and no wake-up per test.
//!
//! The first answer to a test narrows the shared score range, picks the next test and stops
//! the threads still on the old one (through that test's stop flag); they go straight on to
//! the new test. Issue 39: a Test_L1_R2 solve makes 3-4 parallel tests, and each one used
//! to begin with a serial start, a wake-up and (when a helper answered) a join.

use super::{narrow, other_window, Answer, ParallelSolver, TABLE_BYTES_PER_NODE};
use crate::bitboard::Bits;
use crate::solver::{choose_probe, Solver};
use kibitz_search::time::TimeControl;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The score range of a solve and the root test on it.
#[derive(Clone, Debug)]
pub(super) struct Range {
    /// The score is in `[min, max]` (`min == max`: solved).
    pub(super) min: i32,
    /// See `min`.
    pub(super) max: i32,
    /// Tests chosen so far (for [`choose_probe`]).
    pub(super) pass: u32,
    /// Whether the last test at the range's probe failed high.
    pub(super) last_high: bool,
    /// The window of the test under way (chosen while `min < max`).
    pub(super) med: i32,
}

/// The test every thread of a round works on.
struct Plan {
    range: Range,
    /// Number of the test under way (one more per answer).
    test: u64,
    /// The window of the second thread ([`crate::SolverConfig::split_windows`]; else `med`).
    alt: i32,
    /// Stops the threads on the test under way.
    stop: Arc<AtomicBool>,
    /// No more tests: the range is closed or the round was ended.
    over: bool,
}

/// One test as a thread sees it: its number, its window and its stop flag.
pub(super) struct Test {
    /// The test's number (to answer it with).
    pub(super) number: u64,
    /// The null window to test.
    pub(super) probe: i32,
    /// Set once the test is answered (or the round ends).
    pub(super) stop: Arc<AtomicBool>,
}

/// The shared state of a round.
pub(super) struct Round {
    plan: Mutex<Plan>,
    /// [`crate::SolverConfig::probe_rule`].
    rule: u32,
    /// Whether the second thread tests another window ([`crate::SolverConfig::split_windows`]).
    split: bool,
    /// Nodes the helpers searched in this round so far (added after each of their tests).
    pub(super) helper_nodes: AtomicU64,
}

impl Round {
    /// A round starting with the test at `range.med`.
    pub(super) fn new(range: Range, rule: u32, split: bool) -> Self {
        let alt = Self::alt_of(&range, split);
        Self {
            plan: Mutex::new(Plan {
                range,
                test: 0,
                alt,
                stop: Arc::new(AtomicBool::new(false)),
                over: false,
            }),
            rule,
            split,
            helper_nodes: AtomicU64::new(0),
        }
    }

    fn alt_of(r: &Range, split: bool) -> i32 {
        if split {
            other_window(r.min, r.max, r.med)
        } else {
            r.med
        }
    }

    /// The plan, also when a thread panicked holding it (every update keeps it whole).
    fn plan(&self) -> MutexGuard<'_, Plan> {
        self.plan.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The test under way (`alt`: the second thread's window), or `None` once the round is
    /// over.
    pub(super) fn current(&self, alt: bool) -> Option<Test> {
        let p = self.plan();
        (!p.over).then(|| Test {
            number: p.test,
            probe: if alt { p.alt } else { p.range.med },
            stop: Arc::clone(&p.stop),
        })
    }

    /// The answer `a` to test `number`: `true` if it is the first, which narrows the range,
    /// stops the threads still on the test and picks the next one (or ends the round when the
    /// range is closed).
    pub(super) fn answer(&self, number: u64, a: Answer) -> bool {
        let mut p = self.plan();
        if p.over || p.test != number {
            return false;
        }
        let (probe, r) = a;
        let range = &mut p.range;
        if probe == range.med {
            range.last_high = r > probe;
        }
        narrow(&mut range.min, &mut range.max, probe, r);
        p.stop.store(true, Ordering::Relaxed);
        if p.range.min >= p.range.max {
            p.over = true;
            return true;
        }
        let r = &mut p.range;
        r.med = choose_probe(r.min, r.max, self.rule, r.pass, r.last_high);
        r.pass += 1;
        p.alt = Self::alt_of(&p.range, self.split);
        p.test += 1;
        p.stop = Arc::new(AtomicBool::new(false));
        true
    }

    /// Ends the round: no more tests, and the threads on the one under way stop.
    pub(super) fn end(&self) {
        let mut p = self.plan();
        p.over = true;
        p.stop.store(true, Ordering::Relaxed);
    }

    /// The range and the test under way.
    pub(super) fn range(&self) -> Range {
        self.plan().range.clone()
    }
}

impl<B: Bits + Send + 'static> ParallelSolver<B> {
    /// Runs `round` on every thread until the range is closed, the main thread gives up
    /// (deadline, the caller's stop flag, the node limit), or the table must grow (the
    /// solve's nodes, `solved` before the round, reach [`TABLE_BYTES_PER_NODE`] per byte of
    /// table in use). The helpers are left away (taken back by [`Self::settle`]).
    pub(super) fn run_round(
        &mut self,
        round: &Arc<Round>,
        root: Root<B>,
        tc: &TimeControl,
        solved: u64,
    ) -> RoundEnd {
        // Helpers still stopping from the last round come back first.
        self.settle();
        let t0 = Instant::now();
        self.rounds += 1;
        self.start_helpers(round, root, tc);
        let limit = self.node_limit;
        let grow_at = if self.grows && self.tt.bytes_in_use() < self.tt.bytes() {
            (self.tt.bytes_in_use() / TABLE_BYTES_PER_NODE) as u64
        } else {
            u64::MAX
        };
        let main0 = self.main.nodes;
        // The main thread also stops at the node limit and on the caller's stop flag (the
        // helpers' clock watches only the test's own flag).
        self.main.node_limit = limit;
        self.main.outer_stop = Some(tc.stop_flag());
        let end = loop {
            let Some(test) = round.current(false) else {
                break RoundEnd::Closed;
            };
            let done =
                solved + (self.main.nodes - main0) + round.helper_nodes.load(Ordering::Relaxed);
            if done >= grow_at {
                round.end();
                break RoundEnd::Grow;
            }
            self.stats.tests += 1;
            self.stats.parallel_tests += 1;
            let n0 = self.main.nodes;
            let ptc = tc.clone().with_stop_flag(Arc::clone(&test.stop));
            let a = root_test(&mut self.main, root, test.probe, &ptc, &test.stop);
            let first = a.is_some_and(|a| round.answer(test.number, a));
            let dn = self.main.nodes - n0;
            if first {
                self.stats.answer_nodes += dn;
                self.stats.main_answered += 1;
            } else {
                self.stats.other_nodes += dn;
            }
            if a.is_none() && (tc.hard_expired() || self.main.nodes >= limit) {
                // The main thread gave up: the helpers stop too, and are not waited for.
                round.end();
                break RoundEnd::Abandoned;
            }
        };
        self.main.node_limit = u64::MAX;
        self.main.outer_stop = None;
        self.stats.parallel_time += t0.elapsed();
        end
    }

    /// Hands every helper at hand its part in `round` (it comes back through
    /// [`Self::settle`] once the round is over).
    fn start_helpers(&mut self, round: &Arc<Round>, root: Root<B>, tc: &TimeControl) {
        for (k, (slot, hand)) in self.helpers.iter_mut().zip(&mut self.hands).enumerate() {
            let Some(mut h) = slot.take() else { continue };
            h.split_root = if h.config.split_root && k % 2 == 0 {
                root.moves
            } else {
                u32::MAX
            };
            let (round, tc) = (Arc::clone(round), tc.clone());
            let ts = Instant::now();
            let started = hand.start(move || {
                let tally = helper_round(&mut h, &round, root, &tc, k == 0, ts.elapsed());
                (h, tally)
            });
            self.stats.spawn_time += ts.elapsed();
            if started {
                self.away.push(k);
            }
        }
    }
}

/// The root of a solve, as the threads search it.
#[derive(Clone, Copy)]
pub(super) struct Root<B: Bits> {
    pub(super) cur: B,
    pub(super) mask: B,
    pub(super) moves: u32,
}

/// Why a round ended.
pub(super) enum RoundEnd {
    /// The range is closed: the score is known.
    Closed,
    /// The table must grow (the next round goes on with the test under way).
    Grow,
    /// The main thread gave up (deadline, stop flag, node limit).
    Abandoned,
}

/// What a helper did in a round.
#[derive(Default)]
pub(super) struct Tally {
    /// Nodes of the tests it answered first.
    pub(super) answer_nodes: u64,
    /// Nodes of the others.
    pub(super) other_nodes: u64,
    /// From the main thread's start call until it began searching.
    pub(super) start_delay: Duration,
}

/// A helper's part in a round: the test under way, again and again, until the round is
/// over (`alt`: the second thread's window). `delay` is its start delay.
fn helper_round<B: Bits>(
    h: &mut Solver<B>,
    round: &Round,
    root: Root<B>,
    tc: &TimeControl,
    alt: bool,
    delay: Duration,
) -> Tally {
    let mut tally = Tally {
        start_delay: delay,
        ..Tally::default()
    };
    while let Some(test) = round.current(alt) {
        let n0 = h.nodes;
        let ptc = tc.clone().with_stop_flag(Arc::clone(&test.stop));
        let a = root_test(h, root, test.probe, &ptc, &test.stop);
        let first = a.is_some_and(|a| round.answer(test.number, a));
        let dn = h.nodes - n0;
        round.helper_nodes.fetch_add(dn, Ordering::Relaxed);
        if first {
            tally.answer_nodes += dn;
        } else {
            tally.other_nodes += dn;
        }
        if a.is_none() && tc.hard_expired() {
            // Past the deadline: the main thread ends the round too.
            break;
        }
    }
    tally
}

/// One thread's part in a root test: the null-window test at `probe`, looking at `stop`
/// every [`SolverConfig::parallel_check_every`] nodes. `Some((probe, score))` when it
/// finished, `None` when it was stopped (or its clock or node limit ran out).
fn root_test<B: Bits>(
    w: &mut Solver<B>,
    root: Root<B>,
    probe: i32,
    ptc: &TimeControl,
    stop: &AtomicBool,
) -> Option<Answer> {
    if stop.load(Ordering::Relaxed) {
        // Answered before this thread got going.
        return None;
    }
    w.tc = ptc.clone();
    w.aborted = false;
    let every = w.config.check_every;
    w.config.check_every = w.config.parallel_check_every.max(1).next_power_of_two();
    let r = w.negamax(root.cur, root.mask, root.moves, probe, probe + 1);
    w.config.check_every = every;
    w.counters.close_dup(w.nodes);
    (!w.aborted).then_some((probe, r))
}

#[cfg(test)]
mod tests {
    use super::{Range, Round};
    use std::sync::atomic::Ordering;

    fn range(min: i32, max: i32, med: i32) -> Range {
        Range {
            min,
            max,
            pass: 1,
            last_high: false,
            med,
        }
    }

    #[test]
    fn the_first_answer_narrows_stops_the_test_and_picks_the_next() {
        let round = Round::new(range(-5, 6, 0), 0, false);
        let t = round.current(false).expect("a test under way");
        let u = round.current(true).expect("the same for the second thread");
        assert_eq!((t.number, t.probe, u.probe), (0, 0, 0));
        assert!(round.answer(t.number, (0, 3)), "the first answer");
        assert!(t.stop.load(Ordering::Relaxed), "the old test is stopped");
        assert!(
            !round.answer(u.number, (0, 1)),
            "a later answer to it counts for nothing"
        );
        let r = round.range();
        assert_eq!((r.min, r.max, r.pass, r.last_high), (3, 6, 2, true));
        let t = round.current(false).expect("the next test");
        assert_eq!(t.number, 1);
        assert!((3..6).contains(&t.probe) && t.probe == r.med);
        assert!(!t.stop.load(Ordering::Relaxed));
        // Answers that close the range end the round.
        assert!(round.answer(1, (t.probe, t.probe)));
        let t = round.current(false).expect("still open");
        assert!(round.answer(t.number, (t.probe, t.probe + 1)));
        let r = round.range();
        assert!(r.min == r.max, "{r:?}");
        assert!(round.current(false).is_none() && t.stop.load(Ordering::Relaxed));
    }

    #[test]
    fn ending_a_round_stops_its_test_and_keeps_the_range() {
        let round = Round::new(range(-2, 3, 1), 0, true);
        let t = round.current(false).unwrap();
        let other = round.current(true).unwrap();
        assert_eq!(
            (t.probe, other.probe),
            (1, 0),
            "the second thread tests zero"
        );
        round.end();
        assert!(t.stop.load(Ordering::Relaxed) && round.current(true).is_none());
        assert!(!round.answer(t.number, (1, 2)), "no answer after the end");
        let r = round.range();
        assert_eq!((r.min, r.max, r.med), (-2, 3, 1));
    }
}
