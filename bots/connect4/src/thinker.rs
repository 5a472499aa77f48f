//! The bot's player on its own thread: one [`Agent`] (built from the bot's spec) kept for the
//! whole run — an engine's tables survive between moves and games — choosing on our time and,
//! for pondering, on the opponent's.
//!
//! The async client talks to it through a channel and hands it the game's stones as a
//! history; the thread tells the agent each stone once ([`Agent::observe`]), starts a new
//! game of the agent when a history does not continue the one it was told, and asks it with
//! a [`View::seen`] built from that history. A ponder job is the agent choosing for the
//! opponent's seat until its stop flag is set (the answer is dropped; the tables keep what it
//! found); the client sets that flag before it sends the next job, so jobs never overlap.

use kibitz_connect4::agents;
use kibitz_connect4::game_impl::{C4Config, ConnectFour};
use kibitz_connect4::{Position, TimeControl};
use kibitz_search::agent::{Agent, Decision, Played, Seen, View};
use kibitz_search::game::Turn;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use tracing::debug;

/// The player the thread runs.
pub type BoxedAgent = Box<dyn Agent<ConnectFour> + Send>;

/// What the thinker thread is asked to do.
enum Job {
    /// A new game starts with us at `seat`.
    NewGame { seat: usize, seed: u64 },
    /// Choose a move for `history` within the budget that started at `started`.
    Think {
        history: Vec<usize>,
        started: Instant,
        soft: Duration,
        hard: Duration,
        stop: Arc<AtomicBool>,
        reply: oneshot::Sender<(Decision<usize>, Duration)>,
    },
    /// Search `history` (the opponent to move) until `stop` is set, filling the tables.
    Ponder {
        history: Vec<usize>,
        stop: Arc<AtomicBool>,
    },
}

/// The agent and what it was told, on the thinker thread.
struct Player {
    agent: BoxedAgent,
    config: C4Config,
    /// Search a node budget on an unlimited clock (the stop flag still ends it).
    by_nodes: bool,
    seat: usize,
    seed: u64,
    /// The stones the agent was told this game.
    told: Vec<usize>,
}

impl Player {
    fn new_game(&mut self, seat: usize, seed: u64) {
        self.seat = seat;
        self.seed = seed;
        self.told.clear();
        self.agent.new_game(seat, seed);
    }

    /// Tells the agent the stones of `history` it was not told yet and returns `seat`'s view
    /// of the position (`None` when the history does not fit the board).
    fn view(&mut self, history: &[usize], seat: usize) -> Option<View<'static, ConnectFour>> {
        let c = &self.config;
        let mut pos = Position::new(c.columns, c.rows, c.connect).ok()?;
        for &col in history {
            pos.play(col).ok()?;
        }
        if !history.starts_with(&self.told) {
            debug!(
                told = self.told.len(),
                plies = history.len(),
                "a history that does not continue the game: a new game for the agent"
            );
            self.new_game(self.seat, self.seed);
        }
        for (i, &col) in history.iter().enumerate().skip(self.told.len()) {
            self.agent.observe(&Played {
                actor: Turn::Seat(i % 2),
                action: col,
            });
            self.told.push(col);
        }
        let legal = pos.legal_moves();
        let seen = Seen {
            seats: 2,
            turn: if pos.is_over() {
                Turn::Terminal
            } else {
                Turn::Seat(seat)
            },
            observation: ConnectFour(pos),
            legal,
        };
        Some(View::seen(seat, seen))
    }

    fn run(&mut self, job: Job) {
        match job {
            Job::NewGame { seat, seed } => self.new_game(seat, seed),
            Job::Think {
                history,
                started,
                soft,
                hard,
                stop,
                reply,
            } => {
                let spent = started.elapsed();
                let tc = if self.by_nodes {
                    // The client's timeout sets `stop` if the budget overruns.
                    TimeControl::infinite().with_stop_flag(stop)
                } else {
                    TimeControl::new(soft.saturating_sub(spent), hard.saturating_sub(spent))
                        .with_stop_flag(stop)
                };
                let seat = history.len() % 2;
                let Some(view) = self.view(&history, seat) else {
                    return;
                };
                if view.legal_actions().is_empty() {
                    return;
                }
                let decision = self.agent.choose(&view, &tc);
                let _ = reply.send((decision, spent));
            }
            Job::Ponder { history, stop } => {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let seat = history.len() % 2;
                let Some(view) = self.view(&history, seat) else {
                    return;
                };
                if view.legal_actions().is_empty() {
                    return;
                }
                let tc = TimeControl::infinite().with_stop_flag(stop);
                let d = self.agent.choose(&view, &tc);
                debug!(
                    plies = history.len(),
                    depth = d.depth,
                    nodes = d.nodes,
                    source = agents::source(&d),
                    "ponder ended"
                );
            }
        }
    }
}

/// Handle to the player's thread.
#[derive(Debug)]
pub struct Thinker {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
    ponder_stop: Option<Arc<AtomicBool>>,
}

impl Thinker {
    /// Starts the thread with `agent` for boards of `config`. With `by_nodes` the agent
    /// searches its node budget on an unlimited clock: a move is then a function of the
    /// position and the tables only, never of the clock; the hard deadline of
    /// [`Thinker::think`] only guards against a machine so loaded that the budget would not
    /// fit (the move is then the client's fallback).
    pub fn start(agent: BoxedAgent, config: C4Config, by_nodes: bool) -> anyhow::Result<Self> {
        let mut player = Player {
            agent,
            config,
            by_nodes,
            seat: 0,
            seed: 0,
            told: Vec::new(),
        };
        let (tx, rx) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("connect4-engine".into())
            .spawn(move || {
                while let Ok(job) = rx.recv() {
                    player.run(job);
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

    /// A new game starts with us at `seat` (0 moves first); `seed` seeds the agent's
    /// randomness for it. Stops pondering.
    pub fn new_game(&mut self, seat: usize, seed: u64) {
        self.stop_ponder();
        self.submit(Job::NewGame { seat, seed });
    }

    /// Stops pondering, if any.
    pub fn stop_ponder(&mut self) {
        if let Some(flag) = self.ponder_stop.take() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Starts pondering on `history` (opponent to move) until the next call to this thinker.
    pub fn ponder(&mut self, history: Vec<usize>) {
        self.stop_ponder();
        let stop = Arc::new(AtomicBool::new(false));
        self.ponder_stop = Some(Arc::clone(&stop));
        self.submit(Job::Ponder { history, stop });
    }

    /// The agent's decision for the side to move after `history`: soft budget and hard
    /// deadline count from `started` (when the request arrived). Returns the decision and how
    /// long the job waited before the agent started on it (e.g. for a ponder search to stop),
    /// or `None` if no answer came by `hard` plus `grace` (the search is then told to stop
    /// and its late answer is dropped) or the game is over after `history`.
    pub async fn think(
        &mut self,
        history: Vec<usize>,
        started: Instant,
        soft: Duration,
        hard: Duration,
        grace: Duration,
    ) -> Option<(Decision<usize>, Duration)> {
        self.stop_ponder();
        let stop = Arc::new(AtomicBool::new(false));
        let (reply, rx) = oneshot::channel();
        self.submit(Job::Think {
            history,
            started,
            soft,
            hard,
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Records what it is told; plays the lowest legal column.
    struct Recorder(Arc<Mutex<Vec<String>>>);

    impl Agent<ConnectFour> for Recorder {
        fn name(&self) -> String {
            "recorder".into()
        }
        fn new_game(&mut self, seat: usize, seed: u64) {
            self.0.lock().unwrap().push(format!("new {seat} {seed}"));
        }
        fn observe(&mut self, e: &Played<usize>) {
            self.0
                .lock()
                .unwrap()
                .push(format!("{:?} {}", e.actor, e.action));
        }
        fn choose(&mut self, view: &View<'_, ConnectFour>, _: &TimeControl) -> Decision<usize> {
            let legal = view.legal_actions();
            self.0
                .lock()
                .unwrap()
                .push(format!("choose {} {legal:?}", view.seat()));
            Decision::action(legal[0])
        }
    }

    fn player(log: &Arc<Mutex<Vec<String>>>) -> Player {
        Player {
            agent: Box::new(Recorder(Arc::clone(log))),
            config: C4Config::default(),
            by_nodes: false,
            seat: 0,
            seed: 0,
            told: Vec::new(),
        }
    }

    fn think(p: &mut Player, history: &[usize]) -> Option<usize> {
        let (reply, mut rx) = oneshot::channel();
        let s = Duration::from_secs(5);
        p.run(Job::Think {
            history: history.to_vec(),
            started: Instant::now(),
            soft: s,
            hard: s,
            stop: Arc::new(AtomicBool::new(false)),
            reply,
        });
        rx.try_recv().ok().map(|(d, _)| d.action)
    }

    #[test]
    fn the_agent_is_told_each_stone_once_and_chooses_from_the_seen_view() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut p = player(&log);
        p.run(Job::NewGame { seat: 1, seed: 9 });
        assert_eq!(think(&mut p, &[3]), Some(0));
        // Pondering chooses for the opponent's seat on the history with our move.
        p.run(Job::Ponder {
            history: vec![3, 0],
            stop: Arc::new(AtomicBool::new(false)),
        });
        assert_eq!(think(&mut p, &[3, 0, 6]), Some(0));
        let want = [
            "new 1 9",
            "Seat(0) 3",
            "choose 1 [0, 1, 2, 3, 4, 5, 6]",
            "Seat(1) 0",
            "choose 0 [0, 1, 2, 3, 4, 5, 6]",
            "Seat(0) 6",
            "choose 1 [0, 1, 2, 3, 4, 5, 6]",
        ];
        assert_eq!(*log.lock().unwrap(), want);
        // A history that does not continue the game: a new game, every stone told again.
        log.lock().unwrap().clear();
        assert_eq!(think(&mut p, &[2]), Some(0));
        assert_eq!(
            *log.lock().unwrap(),
            ["new 1 9", "Seat(0) 2", "choose 1 [0, 1, 2, 3, 4, 5, 6]"]
        );
        // An impossible history (a full column) gets no answer instead of a panic.
        assert_eq!(think(&mut p, &[0; 7]), None);
    }
}
