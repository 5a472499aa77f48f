//! The bot's brain on its own thread: one [`Engine`] per board size, kept for the whole run
//! (tables survive between moves and games), thinking on our time and pondering on the
//! opponent's.
//!
//! The async client talks to it through a channel. A ponder job runs until its stop flag is
//! set; the client sets that flag before it sends the next job, so jobs never overlap.

use kibitz_connect4::params::EngineParams;
use kibitz_connect4::{Choice, Engine, TimeControl};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use tracing::debug;

/// What the thinker thread is asked to do.
enum Job {
    /// Choose a move for `history` within the budget that started at `started`.
    Think {
        history: Vec<usize>,
        started: Instant,
        soft: Duration,
        hard: Duration,
        max_depth: Option<u32>,
        stop: Arc<AtomicBool>,
        reply: oneshot::Sender<(Choice, Duration)>,
    },
    /// Search `history` (the opponent to move) until `stop` is set, filling the tables.
    Ponder {
        history: Vec<usize>,
        max_depth: Option<u32>,
        stop: Arc<AtomicBool>,
    },
}

/// Handle to the engine thread.
#[derive(Debug)]
pub struct Thinker {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
    ponder_stop: Option<Arc<AtomicBool>>,
}

impl Thinker {
    /// Starts the thread with an engine for `columns × rows`, connect `connect`.
    pub fn start(
        columns: usize,
        rows: usize,
        connect: usize,
        hash_mb: usize,
    ) -> anyhow::Result<Self> {
        Self::start_with_params(columns, rows, connect, hash_mb, Default::default())
    }

    /// Like [`Self::start`], with engine tunables.
    pub fn start_with_params(
        columns: usize,
        rows: usize,
        connect: usize,
        hash_mb: usize,
        params: EngineParams,
    ) -> anyhow::Result<Self> {
        Self::start_with_limit(columns, rows, connect, hash_mb, params, None)
    }

    /// Like [`Self::start_with_params`], with an optional node budget per move (solver and
    /// heuristic search each get `nodes`). Under a budget a move is a function of the position
    /// and the tables only, never of the clock: the soft budget is ignored and the hard
    /// deadline only guards against a machine so loaded that the budget would not fit (the
    /// move is then the client's fallback).
    pub fn start_with_limit(
        columns: usize,
        rows: usize,
        connect: usize,
        hash_mb: usize,
        params: EngineParams,
        nodes: Option<u64>,
    ) -> anyhow::Result<Self> {
        let mut engine = Engine::new(columns, rows, connect, hash_mb)?;
        engine.set_params(params);
        engine.set_node_limit(nodes);
        let (tx, rx) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("connect4-engine".into())
            .spawn(move || {
                while let Ok(job) = rx.recv() {
                    match job {
                        Job::Think {
                            history,
                            started,
                            soft,
                            hard,
                            max_depth,
                            stop,
                            reply,
                        } => {
                            let spent = started.elapsed();
                            let tc = if nodes.is_some() {
                                // The client's timeout sets `stop` if the budget overruns.
                                TimeControl::infinite().with_stop_flag(stop)
                            } else {
                                TimeControl::new(
                                    soft.saturating_sub(spent),
                                    hard.saturating_sub(spent),
                                )
                                .with_stop_flag(stop)
                            };
                            let choice = engine.choose(&history, &tc, max_depth);
                            let _ = reply.send((choice, spent));
                        }
                        Job::Ponder {
                            history,
                            max_depth,
                            stop,
                        } => {
                            if stop.load(Ordering::Relaxed) {
                                continue;
                            }
                            let tc = TimeControl::infinite().with_stop_flag(stop);
                            let c = engine.choose(&history, &tc, max_depth);
                            debug!(
                                plies = history.len(),
                                depth = c.depth,
                                nodes = c.nodes,
                                source = c.source,
                                "ponder ended"
                            );
                        }
                    }
                }
            })?;
        Ok(Self {
            jobs: Some(tx),
            thread: Some(thread),
            ponder_stop: None,
        })
    }

    fn submit(&self, job: Job) {
        if let Some(tx) = &self.jobs {
            let _ = tx.send(job);
        }
    }

    /// Stops pondering, if any.
    pub fn stop_ponder(&mut self) {
        if let Some(flag) = self.ponder_stop.take() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Starts pondering on `history` (opponent to move) until the next call to this thinker.
    pub fn ponder(&mut self, history: Vec<usize>, max_depth: Option<u32>) {
        self.stop_ponder();
        let stop = Arc::new(AtomicBool::new(false));
        self.ponder_stop = Some(Arc::clone(&stop));
        self.submit(Job::Ponder {
            history,
            max_depth,
            stop,
        });
    }

    /// Chooses a move: soft budget and hard deadline count from `started` (when the request
    /// arrived). Returns the choice and how long the job waited before the engine started on
    /// it (e.g. for a ponder search to stop), or `None` if no answer came by `hard` plus
    /// `grace` (the search is then told to stop and its late answer is dropped).
    pub async fn think(
        &mut self,
        history: Vec<usize>,
        started: Instant,
        soft: Duration,
        hard: Duration,
        grace: Duration,
        max_depth: Option<u32>,
    ) -> Option<(Choice, Duration)> {
        self.stop_ponder();
        let stop = Arc::new(AtomicBool::new(false));
        let (reply, rx) = oneshot::channel();
        self.submit(Job::Think {
            history,
            started,
            soft,
            hard,
            max_depth,
            stop: Arc::clone(&stop),
            reply,
        });
        let limit = (hard + grace).saturating_sub(started.elapsed());
        match tokio::time::timeout(limit, rx).await {
            Ok(Ok(answer)) => Some(answer),
            _ => {
                stop.store(true, Ordering::Relaxed);
                None
            }
        }
    }
}

impl Drop for Thinker {
    fn drop(&mut self) {
        self.stop_ponder();
        self.jobs.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
