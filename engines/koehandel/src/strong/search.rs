//! The Monte-Carlo loop every searched decision of the strong player runs: sample worlds,
//! play each candidate out in every one of them, pick the best mean (with the [`Think`]
//! it leaves for the decision's report).
//!
//! It lives apart from the decisions (`candidates`, `bidding`) because it is where the
//! clock and the threads are handled: without a time budget all `worlds` are sampled at
//! once and played by [`super::parallel::play_worlds`] (the same sums at any thread
//! count); under a budget every thread samples and plays its own batches ([`Timed`]) and
//! the calling thread gathers what arrives by the wait cutoff ([`gather`]). The thread
//! machinery itself (and why it is built this way) is in [`super::parallel`].

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;

use kibitz_search::time::TimeControl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::cutoff::{gather, Helper};
use super::parallel::{play_worlds, Played};
use super::{StrongPlayer, Think};

/// Worlds sampled at a time under a time budget on one thread (see
/// [`StrongPlayer::set_budget`]).
pub const WORLD_BATCH: usize = 64;

/// Worlds each thread samples at a time under a time budget on several threads: small, so
/// that little sampling is wasted when the soft time comes.
pub const THREAD_BATCH: usize = 16;

/// Draws `count` worlds for a decision from a player (the calling thread's, or a helper's
/// copy with a stream of its own); owned, so that detached helper threads can hold it.
pub(super) type Sampler<W> = Arc<dyn Fn(&mut StrongPlayer, usize) -> Vec<W> + Send + Sync>;

/// A candidate's utility in a world (`value(world, candidate)`); owned like [`Sampler`].
pub(super) type Valuer<W> = Arc<dyn Fn(&W, usize) -> f64 + Send + Sync>;

/// One timed Monte-Carlo loop, shared by the calling thread and its helpers (see
/// [`StrongPlayer::run_worlds`]).
struct Timed<W> {
    /// Worlds sampled and played at a time.
    batch: usize,
    /// At most this many worlds in all threads together.
    cap: usize,
    /// Worlds claimed so far by all threads (a batch's start index).
    claimed: Arc<AtomicUsize>,
    /// Candidates.
    n: usize,
    /// The decision's clock.
    tc: TimeControl,
    sample: Sampler<W>,
    value: Valuer<W>,
}

impl<W> Clone for Timed<W> {
    fn clone(&self) -> Self {
        Timed {
            batch: self.batch,
            cap: self.cap,
            claimed: Arc::clone(&self.claimed),
            n: self.n,
            tc: self.tc.clone(),
            sample: Arc::clone(&self.sample),
            value: Arc::clone(&self.value),
        }
    }
}

impl<W: Sync> Timed<W> {
    /// One thread's share: batches sampled by `pl` and played until the soft time is up or
    /// the cap is reached, each handed to `out` with its start index as it is finished (a
    /// batch cut by the soft time holds its whole worlds only, and is the last). `out`
    /// returns false to stop. Only the calling thread's (`first`) first world is always
    /// finished.
    fn run(
        &self,
        pl: &mut StrongPlayer,
        first: bool,
        out: &mut dyn FnMut((usize, Played)) -> bool,
    ) {
        let mut played = false;
        loop {
            let free = first && !played;
            if !free && self.tc.soft_expired() {
                break;
            }
            let start = self.claimed.fetch_add(self.batch, Ordering::Relaxed);
            if start >= self.cap {
                break;
            }
            let worlds = (self.sample)(pl, self.batch.min(self.cap - start));
            let p = play_worlds(&worlds, self.n, 1, Some(&self.tc), free, &*self.value);
            let whole = p.worlds == worlds.len();
            played |= p.worlds > 0;
            if !out((start, p)) || !whole {
                break;
            }
        }
    }
}

impl StrongPlayer {
    /// The clock of the decision under way (see `StrongPlayer::begin_decision`): the bounded
    /// clock it was given, else one of the spec's budget started with the decision, else
    /// none (deterministic).
    pub(super) fn time_control(&self) -> Option<TimeControl> {
        self.clock.clone()
    }

    /// Plays candidates `0..n` in every world of `worlds` with `value` (a utility) on the
    /// player's threads, all joined ([`play_worlds`]: the same sums at any thread count), and
    /// counts the play-outs. For decisions without a time budget; under one,
    /// [`Self::run_worlds`] samples and plays in batches while the time lasts.
    pub(super) fn play<W: Sync>(&self, worlds: Vec<W>, n: usize, value: Valuer<W>) -> Played {
        let p = play_worlds(&worlds, n, self.params.threads, None, true, &*value);
        self.rollouts
            .set(self.rollouts.get() + (p.worlds * n) as u64);
        p
    }

    /// Samples worlds with `sample(player, count)` and plays candidates `0..n` in them. Without
    /// a time budget: all `worlds` in one batch ([`Self::play`]; the same worlds, sums and
    /// decision at any thread count). Under a budget (see [`Self::set_budget`]), up to
    /// `worlds` worlds while the soft time allows: every thread samples its own batches
    /// ([`WORLD_BATCH`] worlds on one thread, [`THREAD_BATCH`] on several) from its own copy
    /// of the player with its own random stream (seeded from the player's) and plays them.
    /// The helper threads are detached and send each finished batch; the calling thread,
    /// after its own share, takes what they sent until they finish or until the wait cutoff
    /// (`cutoff::gather`), so a descheduled helper cannot hold the decision past the hard
    /// deadline. Batches are summed in the order they were claimed. Play-outs are counted.
    pub(super) fn run_worlds<W: Send + Sync + 'static>(
        &mut self,
        sample: Sampler<W>,
        n: usize,
        value: Valuer<W>,
    ) -> Played {
        let (tc, cap) = (self.time_control(), self.params.worlds);
        self.run_worlds_on(sample, n, value, tc, cap)
    }

    /// [`Self::run_worlds`] on the clock `tc` (none: deterministic) with at most `cap`
    /// worlds: for a decision that runs two Monte-Carlo loops one after the other on shares
    /// of its clock and of its worlds (the split turn).
    pub(super) fn run_worlds_on<W: Send + Sync + 'static>(
        &mut self,
        sample: Sampler<W>,
        n: usize,
        value: Valuer<W>,
        tc: Option<TimeControl>,
        cap: usize,
    ) -> Played {
        let Some(tc) = tc else {
            let worlds = sample(self, cap);
            return self.play(worlds, n, value);
        };
        let threads = self.params.threads.max(1);
        let job = Timed {
            batch: if threads == 1 {
                WORLD_BATCH
            } else {
                THREAD_BATCH
            },
            cap,
            claimed: Arc::new(AtomicUsize::new(0)),
            n,
            tc,
            sample,
            value,
        };
        let helpers: Vec<Helper<(usize, Played)>> = (1..threads)
            .map(|_| {
                let mut h = self.clone();
                h.rng = ChaCha8Rng::seed_from_u64(self.rng.random());
                let job = job.clone();
                Box::new(move |tx: Sender<(usize, Played)>| {
                    job.run(&mut h, false, &mut |batch| tx.send(batch).is_ok())
                }) as Helper<(usize, Played)>
            })
            .collect();
        let mut batches = gather(&job.tc, helpers, || {
            let mut own = Vec::new();
            job.run(self, true, &mut |batch| {
                own.push(batch);
                true
            });
            own
        });
        batches.sort_unstable_by_key(|b| b.0);
        let mut total = Played {
            sums: vec![0.0; n],
            worlds: 0,
        };
        for (_, p) in &batches {
            for (t, s) in total.sums.iter_mut().zip(&p.sums) {
                *t += s;
            }
            total.worlds += p.worlds;
        }
        self.rollouts
            .set(self.rollouts.get() + (total.worlds * n) as u64);
        total
    }

    /// Index of the candidate with the best mean utility in `p` (the first of equals); the
    /// decision's [`Think`] is recorded.
    pub(super) fn best_of(&self, p: &Played, n: usize) -> usize {
        let mut best = (0, f64::MIN);
        for (c, &u) in p.sums.iter().enumerate() {
            if u > best.1 {
                best = (c, u);
            }
        }
        self.last.set(Some(Think {
            worlds: p.worlds as u32,
            candidates: n as u32,
            estimate: best.1 / (p.worlds.max(1) as f64),
        }));
        best.0
    }
}

/// The clock of the first of two Monte-Carlo loops that share the decision's clock `tc`
/// one after the other: its soft time is `share` of what is left of `tc`'s soft time, and
/// its hard deadline is `tc`'s soft time, so that its wait for helper threads ends by then
/// and the second loop (on `tc` itself) starts by `tc`'s soft time at the latest. It shares
/// `tc`'s stop flag. Without a soft time, `tc` itself.
pub(super) fn first_share(tc: &TimeControl, share: f64) -> TimeControl {
    let Some(soft) = tc.soft() else {
        return tc.clone();
    };
    let left = soft.saturating_sub(tc.elapsed());
    TimeControl::new(left.mul_f64(share.clamp(0.0, 1.0)), left).with_stop_flag(tc.stop_flag())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_first_loop_gets_its_share_of_the_soft_time_and_ends_by_it() {
        let hour = Duration::from_secs(3600);
        let tc = TimeControl::new(4 * hour, 8 * hour);
        let first = first_share(&tc, 0.75);
        // Three of the four hours left (less the few µs since the clocks started).
        let near = |d: Option<Duration>, want: Duration| {
            d.is_some_and(|d| d <= want && d > want - Duration::from_secs(60))
        };
        assert!(near(first.soft(), 3 * hour), "{:?}", first.soft());
        assert!(near(first.hard(), 4 * hour), "{:?}", first.hard());
        // An out-of-range share is clamped; a stop of the decision stops the first loop.
        assert!(near(first_share(&tc, 7.0).soft(), 4 * hour));
        assert_eq!(first_share(&tc, -1.0).soft(), Some(Duration::ZERO));
        tc.stop();
        assert!(first.stopped());
        // A spent clock leaves nothing; a clock without a soft time is used as it is.
        let spent = first_share(&TimeControl::new(Duration::ZERO, Duration::ZERO), 0.5);
        assert_eq!(
            (spent.soft(), spent.hard()),
            (Some(Duration::ZERO), Some(Duration::ZERO))
        );
        assert_eq!(first_share(&TimeControl::infinite(), 0.5).soft(), None);
    }
}
