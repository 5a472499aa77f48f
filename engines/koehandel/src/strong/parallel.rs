//! Playing the sampled worlds out on several threads.
//!
//! # Determinism
//! Worlds are sampled on the calling thread from the player's one random stream, exactly as
//! with one thread, and a play-out is a pure function of its world and candidate (the
//! heuristic roll-out policy draws no random numbers). Each world's utilities are kept by its
//! index and the per-candidate sums are added up in index order afterwards, so the floating
//! point sums, and hence the decision, are bit for bit the same at any thread count when the
//! work is fixed (no time budget). Under a time budget on several threads the player does
//! not use [`play_worlds`] on shared batches: each thread samples and plays its own (see
//! `StrongPlayer::run_worlds`), since joining the threads after every batch made each batch
//! wait for the slowest thread's last world; the batches that arrive in time ([`gather`])
//! are summed in the order their worlds were claimed (the split turn, `start_split`, runs
//! two such loops one after the other).
//!
//! # Threads
//! OS threads, not the rayon pool: the arena and the tournament run games on rayon pools,
//! and a rayon worker that waits for another pool steals that pool's jobs meanwhile, so a
//! decision could end up waiting for a whole other game (and miss its deadline). The calling
//! thread works as one of the `threads`; the others are spawned per call (tens of µs,
//! against milliseconds per batch of worlds). If a thread cannot be spawned the caller plays
//! the remaining worlds alone. Without a time budget ([`play_worlds`]) they are scoped
//! threads, all joined. Under a time budget ([`gather`], for the sampling batches) they are detached: the caller waits for them only until the
//! wait cutoff ([`wait_left`](super::cutoff::wait_left)), then decides on what has arrived
//! and returns; a helper still in a play-out then finishes it unobserved and stops.
//!
//! # Time
//! Every worker takes the next unplayed world from a shared counter and starts it only while
//! the soft time is not up; between two candidates' play-outs it looks at the clock again
//! and drops the world unfinished once the soft time is up (a world counts with all its
//! candidates or not at all, so every candidate is still compared on the same worlds). The
//! first world is always played to the end when `first_free`, so there is an answer. So a
//! thread that has the CPU stops at most one play-out (about 0.1 ms of CPU) after the soft
//! time. A thread the machine does not run is another matter: a helper descheduled in the
//! middle of a play-out finishes it only when it is run again, so under a budget the caller
//! never joins a helper but takes what arrived by the wait cutoff (see [`super::cutoff`]).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use kibitz_search::time::TimeControl;

/// What [`play_worlds`] measured: each candidate's utility summed over the worlds played
/// (added in world order) and how many worlds were played.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Played {
    /// Per candidate, the sum of its utilities over the played worlds.
    pub sums: Vec<f64>,
    /// Worlds played (every candidate in each).
    pub worlds: usize,
}

/// One world's result: its index and its utility per candidate.
type WorldResult = (usize, Vec<f64>);

/// One worker's share: takes the next world index from `next` and plays every candidate in
/// it, until the worlds run out, `stop` is set, `out` returns false, or the soft time of
/// `tc` is up (no world is started after it, and one still running then is dropped whole,
/// except world 0 when `first_free`); each finished world goes to `out`. A worker that sees
/// the soft time sets `stop` for the others.
#[allow(clippy::too_many_arguments)]
fn work_on<W>(
    worlds: &[W],
    n: usize,
    tc: Option<&TimeControl>,
    first_free: bool,
    next: &AtomicUsize,
    stop: &AtomicBool,
    value: &(dyn Fn(&W, usize) -> f64 + Sync),
    out: &mut dyn FnMut(WorldResult) -> bool,
) {
    let bound = |i: usize| i > 0 || !first_free;
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= worlds.len() {
            break;
        }
        if bound(i) && tc.is_some_and(|t| t.soft_expired()) {
            stop.store(true, Ordering::Relaxed);
            break;
        }
        let mut us = Vec::with_capacity(n);
        for c in 0..n {
            // A world still running at the soft time is dropped (all its candidates or
            // none), except the first.
            if bound(i) && c > 0 && tc.is_some_and(|t| t.soft_expired()) {
                stop.store(true, Ordering::Relaxed);
                return;
            }
            us.push(value(&worlds[i], c));
        }
        if !out((i, us)) {
            break;
        }
    }
}

/// Each candidate's utilities of `results` summed in world order (so the sums do not depend
/// on which thread played which world, nor on the order they finished in).
fn sum_in_order(mut results: Vec<WorldResult>, n: usize) -> Played {
    results.sort_unstable_by_key(|r| r.0);
    let mut sums = vec![0.0; n];
    for (_, us) in &results {
        for (sum, u) in sums.iter_mut().zip(us) {
            *sum += u;
        }
    }
    Played {
        sums,
        worlds: results.len(),
    }
}

/// Plays candidates `0..n` in every world of `worlds` with `value(world, candidate)` (a
/// utility) on `threads` threads, starting no world after `tc`'s soft time and dropping one
/// still running then, except the first world when `first_free` (see the module docs). The
/// result does not depend on `threads` when `tc` is `None`. The threads are joined: under a
/// time budget on several threads the player samples and plays per thread instead
/// (`StrongPlayer::run_worlds`).
pub(crate) fn play_worlds<W: Sync>(
    worlds: &[W],
    n: usize,
    threads: usize,
    tc: Option<&TimeControl>,
    first_free: bool,
    value: &(dyn Fn(&W, usize) -> f64 + Sync),
) -> Played {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // One worker: (world index, that world's utility per candidate) for each world it played.
    let work = || -> Vec<WorldResult> {
        let mut out = Vec::new();
        work_on(worlds, n, tc, first_free, &next, &stop, value, &mut |r| {
            out.push(r);
            true
        });
        out
    };
    let helpers = threads.max(1).min(worlds.len()).saturating_sub(1);
    let results: Vec<WorldResult> = if helpers == 0 {
        work()
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..helpers)
                .filter_map(|_| std::thread::Builder::new().spawn_scoped(s, work).ok())
                .collect();
            let mut all = work();
            for h in handles {
                // A worker that panicked lost only its own worlds' results; a play-out never
                // panics on a legal world, and the others' worlds still count.
                if let Ok(v) = h.join() {
                    all.extend(v);
                }
            }
            all
        })
    };
    sum_in_order(results, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Utilities whose float sum depends on the order they are added in.
    fn value(w: &u64, c: usize) -> f64 {
        let x = (*w as f64 + 1.0) * 0.1 + c as f64 * 1e-7;
        if w.is_multiple_of(3) {
            x * 1e12
        } else {
            x.sqrt()
        }
    }

    #[test]
    fn sums_are_the_same_bits_at_every_thread_count() {
        let worlds: Vec<u64> = (0..257).collect();
        let one = play_worlds(&worlds, 5, 1, None, true, &value);
        assert_eq!(one.worlds, 257);
        for threads in [2, 3, 8, 1000] {
            let many = play_worlds(&worlds, 5, threads, None, true, &value);
            assert_eq!(many.worlds, 257);
            let bits = |p: &Played| p.sums.iter().map(|s| s.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&one), bits(&many), "{threads} threads");
        }
        // The order matters for these utilities: reversed, the sums differ in the last bits,
        // so the test would see an unordered reduction.
        let mut rev = worlds.clone();
        rev.reverse();
        let r = play_worlds(&rev, 5, 1, None, true, &value);
        assert_ne!(
            one.sums.iter().map(|s| s.to_bits()).collect::<Vec<_>>(),
            r.sums.iter().map(|s| s.to_bits()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn an_expired_clock_plays_only_the_first_world() {
        let tc = TimeControl::new(Duration::ZERO, Duration::ZERO);
        let worlds: Vec<u64> = (0..64).collect();
        for threads in [1, 2, 4] {
            let p = play_worlds(&worlds, 3, threads, Some(&tc), true, &value);
            assert!(p.worlds >= 1, "{threads} threads: always an answer");
            // Only world 0 may start after the soft time (others may have taken an index
            // but they check the clock before playing it).
            assert_eq!(p.worlds, 1, "{threads} threads");
            assert_eq!(p.sums[2], value(&0, 2));
        }
    }

    #[test]
    fn a_world_running_at_the_soft_time_is_dropped_whole() {
        // The clock runs out (the stop flag counts as out) while world 2 plays candidate 1:
        // world 2 is dropped, worlds 0 and 1 count with every candidate.
        let tc = TimeControl::infinite();
        let worlds: Vec<u64> = (0..10).collect();
        let p = play_worlds(&worlds, 3, 1, Some(&tc), true, &|w, c| {
            if *w == 2 && c == 1 {
                tc.stop();
            }
            value(w, c)
        });
        assert_eq!(p.worlds, 2);
        for c in 0..3 {
            assert_eq!(p.sums[c], value(&0, c) + value(&1, c));
        }
        // The first world is always finished.
        let tc = TimeControl::infinite();
        let p = play_worlds(&worlds, 3, 1, Some(&tc), true, &|w, c| {
            tc.stop();
            value(w, c)
        });
        assert_eq!(p.worlds, 1);
        assert_eq!(p.sums[2], value(&0, 2));
    }

    #[test]
    fn no_worlds_or_no_candidates_is_no_work() {
        let none: Vec<u64> = Vec::new();
        let p = play_worlds(&none, 3, 2, None, true, &value);
        assert_eq!((p.worlds, p.sums), (0, vec![0.0; 3]));
        let worlds: Vec<u64> = (0..4).collect();
        let p = play_worlds(&worlds, 0, 2, None, true, &value);
        assert_eq!((p.worlds, p.sums.len()), (4, 0));
    }

    #[test]
    fn two_threads_share_the_worlds() {
        // Each world records which thread played it; with two threads and slow worlds, both
        // take part (not a timing assertion: the second worker blocks until it has a world).
        use std::sync::Barrier;
        let barrier = Barrier::new(2);
        let ids = std::sync::Mutex::new(std::collections::HashSet::new());
        let worlds: Vec<u64> = (0..2).collect();
        let p = play_worlds(&worlds, 1, 2, None, true, &|_, _| {
            ids.lock().unwrap().insert(std::thread::current().id());
            // Both worlds must be in progress at once to pass the barrier.
            barrier.wait();
            1.0
        });
        assert_eq!(p.worlds, 2);
        assert_eq!(ids.lock().unwrap().len(), 2);
    }
}
