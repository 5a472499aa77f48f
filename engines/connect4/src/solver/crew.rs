//! Helper threads that live as long as the parallel solver: started at the first parallel
//! root test, parked between tests, woken for the next one.
//!
//! Issue 39: a root test of a Test_L1_R2 position takes a few milliseconds, and a thread
//! started for it (as before, one `std::thread::spawn` per parallel test) began searching
//! 2.1 ms after the spawn on average on the busy 2-core test machine (a new thread queues
//! behind the running ones); a parked thread woken through a channel began after 0.1-0.4
//! ms (`ParStats::start_delay` over `ParStats::parallel_tests`, `par_bench`). Spinning a
//! while before parking (0.3-3 ms) gained nothing measurable and cost CPU time.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

/// A job for a helper thread: it runs once and its result goes back to the caller.
type Job<R> = Box<dyn FnOnce() -> R + Send>;

/// One helper thread running jobs one after another, parked while it has none.
pub(super) struct Hand<R: Send + 'static> {
    /// Where jobs go, and where their results come back; `None` until the first job (the
    /// thread is started then) or after the thread died.
    chan: Option<(Sender<Job<R>>, Receiver<R>)>,
    /// The thread, joined on drop (unless it still has a job).
    thread: Option<JoinHandle<()>>,
    /// Whether a job was given whose result [`Self::wait`] has not taken yet.
    out: bool,
}

impl<R: Send + 'static> Hand<R> {
    /// A hand without a thread yet (it starts with the first job).
    pub(super) fn new() -> Self {
        Self {
            chan: None,
            thread: None,
            out: false,
        }
    }

    /// Hands `job` to the thread (starting the thread if there is none yet); its result
    /// comes from [`Self::wait`]. `false` if no thread could take it (it could not be
    /// started); the job is dropped then.
    pub(super) fn start(&mut self, job: impl FnOnce() -> R + Send + 'static) -> bool {
        if self.chan.is_none() {
            let (job_tx, job_rx) = channel::<Job<R>>();
            let (done_tx, done_rx) = channel::<R>();
            let spawned = std::thread::Builder::new()
                .name("c4-solver-helper".into())
                .spawn(move || {
                    // Ends when the solver drops its sender (or the result cannot be sent
                    // back any more); a panicking job ends it too, and the caller's
                    // `wait` then sees the result channel closed.
                    while let Ok(job) = job_rx.recv() {
                        if done_tx.send(job()).is_err() {
                            break;
                        }
                    }
                });
            match spawned {
                Ok(t) => {
                    self.thread = Some(t);
                    self.chan = Some((job_tx, done_rx));
                }
                Err(_) => return false,
            }
        }
        let sent = self
            .chan
            .as_ref()
            .is_some_and(|(tx, _)| tx.send(Box::new(job)).is_ok());
        if !sent {
            self.chan = None;
        }
        self.out = sent;
        sent
    }

    /// The result of the job last given to [`Self::start`], waiting for it; `None` if the
    /// thread died (its job panicked) — the next job starts a new thread.
    pub(super) fn wait(&mut self) -> Option<R> {
        let r = self.chan.as_ref()?.1.recv().ok();
        self.out = false;
        if r.is_none() {
            self.chan = None;
            if let Some(t) = self.thread.take() {
                let _ = t.join();
            }
        }
        r
    }
}

impl<R: Send + 'static> Drop for Hand<R> {
    fn drop(&mut self) {
        // Closing the job channel ends the thread's loop. A thread still on a job (the
        // solver is dropped in the middle of a search, e.g. while a panic unwinds) is left
        // to finish it and end by itself: waiting for a search nobody stopped could block.
        self.chan = None;
        if let Some(t) = self.thread.take() {
            if !self.out {
                let _ = t.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Hand;

    #[test]
    fn one_thread_runs_every_job_and_a_panic_starts_a_new_one() {
        let mut h = Hand::<(u32, std::thread::ThreadId)>::new();
        assert!(h.start(|| (1, std::thread::current().id())));
        let (a, t1) = h.wait().unwrap();
        assert!(h.start(|| (2, std::thread::current().id())));
        let (b, t2) = h.wait().unwrap();
        assert_eq!((a, b), (1, 2));
        assert_eq!(t1, t2, "the same thread, parked in between");
        assert_ne!(t1, std::thread::current().id());
        assert!(h.start(|| panic!("a job that panics")));
        assert!(h.wait().is_none(), "the dead thread answers nothing");
        assert!(h.start(|| (3, std::thread::current().id())));
        let (c, t3) = h.wait().unwrap();
        assert_eq!(c, 3);
        assert_ne!(t3, t1, "a new thread after the panic");
    }

    #[test]
    fn dropping_a_hand_with_a_job_out_does_not_wait_for_it() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::{mpsc, Arc};
        let (go, wait_go) = mpsc::channel::<()>();
        let done = Arc::new(AtomicBool::new(false));
        let mut h = Hand::<()>::new();
        let d = Arc::clone(&done);
        assert!(h.start(move || {
            // Held until the test lets it go (bounded, should the drop wait after all).
            let _ = wait_go.recv_timeout(std::time::Duration::from_secs(20));
            d.store(true, Ordering::SeqCst);
        }));
        drop(h);
        assert!(!done.load(Ordering::SeqCst), "the drop waited for the job");
        let _ = go.send(());
    }
}
