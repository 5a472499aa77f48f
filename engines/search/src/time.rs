//! Time control: a soft budget, a hard deadline and a shared stop flag.
//!
//! The soft budget answers "may I start another iteration?"; the hard deadline answers "must I
//! abort right now?". Searches poll [`TimeControl::hard_expired`] every N nodes, never per node,
//! and engines read the clock only through this type (see ARCHITECTURE.md).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A search's time budget: soft budget, hard deadline and an external stop flag.
///
/// Cloning shares the stop flag, so a clone handed to another thread can abort the search
/// (pondering, shutdown).
#[derive(Clone, Debug)]
pub struct TimeControl {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    stop: Arc<AtomicBool>,
}

impl TimeControl {
    /// A budget starting now: no new iteration after `soft`, abort at `hard`.
    ///
    /// `hard` is raised to `soft` if it is smaller.
    pub fn new(soft: Duration, hard: Duration) -> Self {
        Self {
            start: Instant::now(),
            soft: Some(soft),
            hard: Some(hard.max(soft)),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// No time limit: the search ends only by depth, node budget or the stop flag.
    pub fn infinite() -> Self {
        Self {
            start: Instant::now(),
            soft: None,
            hard: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Uses `flag` as the stop flag, so that whoever holds it can abort the search.
    pub fn with_stop_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.stop = flag;
        self
    }

    /// The shared stop flag.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Asks every holder of this time control to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the stop flag is set.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// True once the soft budget is used (or on stop): don't start another iteration.
    pub fn soft_expired(&self) -> bool {
        self.stopped() || self.soft.is_some_and(|s| self.start.elapsed() >= s)
    }

    /// True once the hard deadline has passed (or on stop): abort the search now.
    pub fn hard_expired(&self) -> bool {
        self.stopped() || self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Time since this budget started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The soft budget, if any.
    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    /// The hard deadline, if any.
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// Time left before the hard deadline (`None` when unlimited).
    pub fn remaining_hard(&self) -> Option<Duration> {
        self.hard.map(|h| h.saturating_sub(self.start.elapsed()))
    }
}

/// CPU time the calling thread has used so far (`CLOCK_THREAD_CPUTIME_ID`): for measuring a
/// search on a busy machine, where wall time counts other programs too. Zero if the clock
/// cannot be read.
pub fn thread_cpu() -> Duration {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// CPU time the whole process has used so far (`CLOCK_PROCESS_CPUTIME_ID`): all threads of
/// a parallel search. Zero if the clock cannot be read.
pub fn process_cpu() -> Duration {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

fn cpu_clock(id: libc::clockid_t) -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes into it.
    let rc = unsafe { libc::clock_gettime(id, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_flag_expires_both_budgets_and_is_shared() {
        let tc = TimeControl::infinite();
        let clone = tc.clone();
        assert!(!tc.soft_expired() && !tc.hard_expired());
        clone.stop();
        assert!(tc.soft_expired() && tc.hard_expired());
    }

    #[test]
    fn zero_budget_is_expired_and_hard_is_at_least_soft() {
        let tc = TimeControl::new(Duration::ZERO, Duration::ZERO);
        assert!(tc.soft_expired() && tc.hard_expired());
        let tc = TimeControl::new(Duration::from_secs(3600), Duration::from_secs(1));
        assert_eq!(tc.hard(), Some(Duration::from_secs(3600)));
        assert!(!tc.hard_expired());
    }

    #[test]
    fn external_flag_is_used() {
        let flag = Arc::new(AtomicBool::new(true));
        let tc =
            TimeControl::new(Duration::from_secs(60), Duration::from_secs(60)).with_stop_flag(flag);
        assert!(tc.hard_expired());
    }

    #[test]
    fn cpu_clocks_advance_with_work_and_the_process_counts_the_thread() {
        let (t0, p0) = (super::thread_cpu(), super::process_cpu());
        let mut x = 0u64;
        while super::thread_cpu() == t0 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let (t1, p1) = (super::thread_cpu(), super::process_cpu());
        assert!(t1 > t0 && p1 > p0);
        assert!(p1 >= t1, "the process has used at least this thread's time");
    }
}
