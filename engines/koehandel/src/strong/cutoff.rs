//! Waiting for detached helper threads under a time budget, and for how long.
//!
//! A helper the machine does not run (the other core busy, our two threads sharing one)
//! finishes its play-out only when it is run again, and a caller that joined it waited that
//! long: at a 20 ms budget (soft 10 ms, hard 20 ms) 68 of 10,323 two-thread decisions ran
//! past the hard deadline (up to 33 ms) against 8 of 10,193 on one thread. So under a budget
//! the caller never joins a helper: [`gather`] runs the helpers on detached threads and
//! takes what they send until they finish or until the wait cutoff, halfway from the soft
//! time to the hard deadline ([`wait_left`]); the other half is the caller's own margin to
//! decide, return, and be descheduled itself. It lives apart from [`super::parallel`]
//! (which plays the worlds) because the strong player's timed loop uses it for its sampling
//! batches (`StrongPlayer::run_worlds`).

use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::Duration;

use kibitz_search::time::TimeControl;

/// How much longer the caller of a timed decision may wait for its helper threads: until
/// halfway from `tc`'s soft time to its hard deadline (zero once that is past, or once `tc`
/// is stopped); `None` (wait until they finish) without a soft time or a hard deadline.
/// Helpers start no world after the soft time, so one that has the CPU reports well before
/// the cutoff; the half left after it is for the caller to decide and return by the hard
/// deadline even when it is descheduled itself.
pub(crate) fn wait_left(tc: &TimeControl) -> Option<Duration> {
    if tc.stopped() {
        return Some(Duration::ZERO);
    }
    let (soft, hard) = (tc.soft()?, tc.hard()?);
    let cutoff = soft + (hard.saturating_sub(soft)) / 2;
    Some(cutoff.saturating_sub(tc.elapsed()))
}

/// A job for a detached helper thread of [`gather`]: it sends what it finishes through the
/// sender, and stops when a send fails (the caller no longer listens).
pub(crate) type Helper<T> = Box<dyn FnOnce(Sender<T>) + Send + 'static>;

/// Runs `own` on the calling thread and every one of `helpers` on a detached thread of its
/// own, and returns `own`'s items followed by the helpers' items, those that arrived before
/// every helper had finished or before `tc`'s wait cutoff ([`wait_left`]), whichever came
/// first. A helper still running at the cutoff is left behind: whatever it sends later is
/// dropped (its send fails, which tells it to stop), so the caller returns by the cutoff
/// however the machine schedules the helpers. A helper that cannot be spawned or that
/// panics loses only its own items.
pub(crate) fn gather<T: Send + 'static>(
    tc: &TimeControl,
    helpers: Vec<Helper<T>>,
    own: impl FnOnce() -> Vec<T>,
) -> Vec<T> {
    let (tx, rx) = mpsc::channel();
    for h in helpers {
        let tx = tx.clone();
        // A thread that cannot be spawned leaves its share to the others.
        let _ = std::thread::Builder::new()
            .name("koehandel-worlds".into())
            .spawn(move || h(tx));
    }
    drop(tx);
    let mut all = own();
    loop {
        let got = match wait_left(tc) {
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            // A zero wait still takes what has already arrived.
            Some(left) => rx.recv_timeout(left),
        };
        match got {
            Ok(t) => all.push(t),
            // Every helper finished, or the cutoff passed with one still running.
            Err(RecvTimeoutError::Disconnected | RecvTimeoutError::Timeout) => break,
        }
    }
    all
}

/// A clock past its wait cutoff: a spent budget, or an unbounded one that was stopped.
#[cfg(test)]
pub(super) fn past_cutoff() -> [TimeControl; 2] {
    let stopped = TimeControl::infinite();
    stopped.stop();
    [TimeControl::new(Duration::ZERO, Duration::ZERO), stopped]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`gather`] on `tc` with one helper that first runs `before_block(tx)`, then blocks
    /// until the test releases it, then sends 99 and reports whether that send went through.
    /// The caller's own share is `own()`. Returns what `gather` returned, or `None` if it did
    /// not return within 60 s (a caller that waited for the blocked helper: the bound only
    /// keeps that failing test from hanging), and whether the released helper's send went
    /// through.
    fn with_blocked_helper(
        tc: TimeControl,
        before_block: impl FnOnce(&Sender<u32>) + Send + 'static,
        own: impl FnOnce() -> Vec<u32> + Send + 'static,
    ) -> (Option<Vec<u32>>, Option<bool>) {
        let (release, released) = mpsc::channel::<()>();
        let (sent_tx, sent) = mpsc::channel();
        let (answer_tx, answer) = mpsc::channel();
        std::thread::spawn(move || {
            let helper: Helper<u32> = Box::new(move |tx| {
                before_block(&tx);
                let _ = released.recv();
                let _ = sent_tx.send(tx.send(99).is_ok());
            });
            let _ = answer_tx.send(gather(&tc, vec![helper], own));
        });
        let got = answer.recv_timeout(Duration::from_secs(60)).ok();
        let _ = release.send(());
        (got, sent.recv_timeout(Duration::from_secs(60)).ok())
    }

    #[test]
    fn a_blocked_helper_does_not_hold_the_caller_past_the_cutoff() {
        // The helper blocks (as one the machine does not run) until the test releases it,
        // which the test does only after the caller has answered.
        for tc in past_cutoff() {
            let (got, sent) = with_blocked_helper(tc, |_| {}, || vec![1, 2]);
            assert_eq!(
                got,
                Some(vec![1, 2]),
                "the caller waited for a blocked helper"
            );
            // Released, the helper finds nobody listening (so it stops).
            assert_eq!(sent, Some(false));
        }
    }

    #[test]
    fn what_a_helper_sent_before_the_cutoff_counts() {
        // The helper sends one item, then blocks; the caller's own share ends only after that
        // item was sent. Past the cutoff the caller does not wait, but takes what is there.
        for tc in past_cutoff() {
            let (first_tx, first) = mpsc::channel();
            let (got, sent) = with_blocked_helper(
                tc,
                move |tx| {
                    let _ = tx.send(7);
                    let _ = first_tx.send(());
                },
                move || {
                    let _ = first.recv();
                    vec![1]
                },
            );
            assert_eq!(
                got,
                Some(vec![1, 7]),
                "the caller waited for a blocked helper"
            );
            assert_eq!(sent, Some(false));
        }
    }

    #[test]
    fn helpers_that_finish_in_time_are_all_taken() {
        let hour = Duration::from_secs(3600);
        let tc = TimeControl::new(hour, hour);
        let helpers: Vec<Helper<u32>> = (1..4u32)
            .map(|h| {
                Box::new(move |tx: Sender<u32>| {
                    for i in 0..2 {
                        let _ = tx.send(10 * h + i);
                    }
                }) as Helper<u32>
            })
            .collect();
        let mut got = gather(&tc, helpers, || vec![0]);
        assert_eq!(got[0], 0, "the caller's own items come first");
        got.sort_unstable();
        assert_eq!(got, vec![0, 10, 11, 20, 21, 30, 31]);
        // No helpers: only the caller's own.
        assert_eq!(gather(&tc, Vec::new(), || vec![5]), vec![5]);
    }

    #[test]
    fn the_wait_cutoff_is_halfway_from_soft_to_hard() {
        let hour = Duration::from_secs(3600);
        let left = wait_left(&TimeControl::new(hour, 3 * hour)).expect("bounded");
        // Two hours from now, less the few µs since the clock started.
        assert!(
            left <= 2 * hour && left > 2 * hour - Duration::from_secs(60),
            "{left:?}"
        );
        assert_eq!(wait_left(&TimeControl::infinite()), None);
        for tc in past_cutoff() {
            assert_eq!(wait_left(&tc), Some(Duration::ZERO));
        }
    }
}
