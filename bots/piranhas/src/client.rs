//! The contest client: [`Session`] holds the protocol logic (pure, replayable against recorded
//! transcripts), [`run`] drives it over TCP with an [`Agent`] of [`Piranhas`] and the time
//! limits.
//!
//! The agent sees only what the server said: [`Session::view`] builds its [`View::seen`] from
//! the latest memento, it is told [`Agent::new_game`] when the server welcomes us (our seat,
//! [`ClientConfig::seed`]), and every move the mementos report ([`Session::take_events`]) is
//! told to it with [`Agent::observe`], once and in order, before it next chooses.
//!
//! Timing: the [`TimeControl`] starts the moment the MoveRequest is decoded. The agent gets the
//! soft budget (stop starting iterations) and the hard deadline (abort); if it still has not
//! answered by the `send_by` limit (default 1.75 s, the one clock rule for the contest's 2 s: [`PIRANHAS`]), the client sends a legal fallback move
//! itself, so the server's 2 s soft limit is never crossed by thinking.

use crate::protocol::{
    ClientMessage, Frame, Framer, MoveMsg, ResultMsg, CLIENT_CLOSE, DEFAULT_PORT, GAME_TYPE, OPEN,
};
use kibitz_piranhas::agents::{Progress, SearchAgent};
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_piranhas::EngineConfig;
use kibitz_piranhas::{Color, Move, State};
use kibitz_search::agent::{Agent, Decision, Played, View};
use kibitz_search::clock::{MoveBudget, PIRANHAS};
use kibitz_search::time::TimeControl;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Largest server message the client accepts (a memento is about 6 KB).
pub const MAX_SERVER_MESSAGE: usize = 1 << 20;

/// Unreadable stretches of the server's stream the client skips (logging each) before it gives
/// up on the game as undecodable.
pub const MAX_DECODE_ERRORS: u32 = 20;

mod ponder;
mod session;
pub use ponder::{PONDER_CAP, STOP_WAIT};
pub use session::{Action, Session, SessionError};

/// How the client connects and how much time it may think.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Server host.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// Reservation code: `joinPrepared` when given, else `join`.
    pub reservation: Option<String>,
    /// Soft thinking budget per move (no new iteration after it).
    pub soft: Duration,
    /// Hard deadline per move (abort); a fallback move is sent shortly after it.
    pub hard: Duration,
    /// Last moment (after the MoveRequest) to send a move: if the player has not answered by
    /// then, a legal fallback move goes out. Keep it well inside the server's 2 s soft limit.
    pub send_by: Duration,
    /// Give up if the server says nothing for this long (`None`: never). Keep it long: before
    /// the game starts the server may legitimately wait for the other player (or for an
    /// admin to unpause a prepared game); once it runs, the server speaks at least every
    /// hard limit (10 s). A warning is logged every [`WARN_EVERY`] of silence (or every half
    /// of the timeout, if shorter) until then.
    pub idle_timeout: Option<Duration>,
    /// After an unreadable stretch of the server's stream, how long to wait for the next
    /// readable message before giving up on the stream (capped by `idle_timeout`). In a running
    /// game the server speaks at least every 10 s, so this only ends broken streams.
    pub resync_timeout: Duration,
    /// The seed the agent is given with [`Agent::new_game`] when the game starts (random
    /// agents draw from it).
    pub seed: u64,
    /// Think on the opponent's time ([`Agent::ponder`], on one thread): after each of our
    /// moves the agent searches on until the next request arrives.
    pub ponder: bool,
}

/// Default of [`ClientConfig::ponder`] (and of `piranhas-bot --ponder`).
pub const DEFAULT_PONDER: bool = true;

/// Silence after which the client warns that the server has said nothing (again and again).
pub const WARN_EVERY: Duration = Duration::from_secs(60);

/// Default of [`ClientConfig::idle_timeout`] (and of `piranhas-bot --idle-timeout-s`).
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(600);

/// Default of [`ClientConfig::resync_timeout`]: three official hard limits.
pub const DEFAULT_RESYNC_TIMEOUT: Duration = Duration::from_secs(30);

impl ClientConfig {
    /// This config with its soft, hard and send-by times from `clock` (the one clock rule,
    /// [`MoveBudget::for_move`]).
    pub fn with_clock(self, clock: MoveBudget) -> Self {
        Self {
            soft: clock.soft,
            hard: clock.hard,
            send_by: clock.send_by,
            ..self
        }
    }
}

/// The default clock is the contest's: [`PIRANHAS`] (2 s budget, 250 ms overhead → soft
/// 1,300 ms, hard 1,500 ms, send-by 1,750 ms).
impl Default for ClientConfig {
    fn default() -> Self {
        Self {
            host: "localhost".into(),
            port: DEFAULT_PORT,
            reservation: None,
            soft: PIRANHAS.move_budget().soft,
            hard: PIRANHAS.move_budget().hard,
            send_by: PIRANHAS.move_budget().send_by,
            idle_timeout: Some(DEFAULT_IDLE_TIMEOUT),
            resync_timeout: DEFAULT_RESYNC_TIMEOUT,
            seed: 1,
            ponder: DEFAULT_PONDER,
        }
    }
}

/// What a finished client run saw.
#[derive(Debug, Clone)]
pub struct ClientOutcome {
    /// Our colour (if the game started).
    pub color: Option<Color>,
    /// The result message (if any arrived).
    pub result: Option<ResultMsg>,
    /// Error text the server sent us, if any.
    pub error: Option<String>,
    /// Moves we sent.
    pub moves: u32,
    /// Longest time from MoveRequest to our move being written.
    pub max_reply: Duration,
    /// Why the game did not end normally (no result received), in words; `None` on a normal end.
    pub abnormal: Option<String>,
}

impl ClientOutcome {
    /// Whether the game ended normally: a result arrived.
    pub fn ended_normally(&self) -> bool {
        self.abnormal.is_none()
    }

    /// One line for the log, colours and winner in words: `we played RED; BLUE (beta) won;
    /// scores RED 0 (swarm 11), BLUE 2 (swarm 11); 30 moves, slowest reply 812 ms`.
    pub fn summary(&self) -> String {
        let us = self.color.map_or("no colour", |c| c.name());
        let Some(r) = &self.result else {
            return format!(
                "we played {us}; no result: {}",
                self.abnormal.as_deref().unwrap_or("unknown")
            );
        };
        let winner = match &r.winner {
            Some((name, c)) => format!("{} ({name}) won", c.name()),
            None => "draw".to_string(),
        };
        let scores: Vec<String> = Color::BOTH
            .iter()
            .map(|&c| {
                let s = &r.scores[c as usize];
                format!("{} {} (swarm {})", c.name(), s.points, s.swarm)
            })
            .collect();
        format!(
            "we played {us}; {winner}; scores {}; {} moves, slowest reply {} ms",
            scores.join(", "),
            self.moves,
            self.max_reply.as_millis()
        )
    }
}

/// The engine's search as the bot's agent: it logs every completed iteration (depth, score,
/// nodes, time) at debug level.
pub fn search_agent(config: EngineConfig) -> SearchAgent {
    let log: Progress = Box::new(|it, elapsed| {
        tracing::debug!(
            "depth {} score {} nodes {} time {} ms",
            it.depth,
            it.score,
            it.nodes,
            elapsed.as_millis()
        );
    });
    SearchAgent::new(config).with_progress(log)
}

/// The agent as the client holds it: locked by the thinking thread while it chooses.
type Shared = Arc<Mutex<Box<dyn Agent<Piranhas> + Send>>>;

/// Events waiting to be told to the agent (only ever locked for a moment).
type Pending = Arc<Mutex<Vec<Played<Move>>>>;

/// The pending events, even if a thread panicked while holding them.
fn lock(p: &Pending) -> std::sync::MutexGuard<'_, Vec<Played<Move>>> {
    p.lock().unwrap_or_else(|e| e.into_inner())
}

/// Connects, plays one game with `agent`, closes the protocol; returns what happened.
///
/// An error comes back only when the connection cannot be opened (the message names the
/// address) or the join cannot be sent; everything that goes wrong later (the server falls
/// silent, the connection is lost, the stream cannot be read) ends the run with
/// [`ClientOutcome::abnormal`] saying why, after logging it.
pub async fn run(
    config: &ClientConfig,
    agent: Box<dyn Agent<Piranhas> + Send>,
) -> anyhow::Result<ClientOutcome> {
    use anyhow::Context as _;
    let addr = format!("{}:{}", config.host, config.port);
    let mut stream = TcpStream::connect((config.host.as_str(), config.port))
        .await
        .with_context(|| format!("cannot connect to the server at {addr}"))?;
    stream.set_nodelay(true)?;
    let join = match &config.reservation {
        Some(code) => ClientMessage::JoinPrepared { code: code.clone() },
        None => ClientMessage::Join {
            game_type: GAME_TYPE.into(),
        },
    };
    stream
        .write_all(format!("{OPEN}{}", join.to_xml()).as_bytes())
        .await
        .with_context(|| format!("cannot send the join to the server at {addr}"))?;
    let agent: Shared = Arc::new(Mutex::new(agent));
    // Events not yet told to the agent (it may still be held by an overrunning search).
    let pending: Pending = Arc::default();
    let mut seated = false;
    let mut framer = Framer::new(MAX_SERVER_MESSAGE);
    framer.set_pretty(true);
    let mut decode_errors = 0u32;
    // The latest unreadable stretch, until a readable message follows it.
    let mut resyncing: Option<String> = None;
    let mut last_decode_error: Option<String> = None;
    // Why reading stopped early (silence, a lost connection, a stream beyond repair).
    let mut stopped: Option<String> = None;
    let mut session = Session::new();
    let mut ponder = ponder::Ponder::default();
    let mut buf = vec![0u8; 16 * 1024];
    let mut out = ClientOutcome {
        color: None,
        result: None,
        error: None,
        moves: 0,
        max_reply: Duration::ZERO,
        abnormal: None,
    };
    let mut sent_close = false;
    let mut silent_since = tokio::time::Instant::now();
    let mut warned = Duration::ZERO;
    'read: loop {
        // After our `</protocol>` the server should close at once; don't wait long for it.
        let limit = if sent_close {
            Some(
                config
                    .idle_timeout
                    .map_or(CLOSE_WAIT, |t| t.min(CLOSE_WAIT)),
            )
        } else if resyncing.is_some() {
            Some(
                config
                    .idle_timeout
                    .map_or(config.resync_timeout, |t| t.min(config.resync_timeout)),
            )
        } else {
            config.idle_timeout
        };
        let warn_every = limit.map_or(WARN_EVERY, |t| (t / 2).min(WARN_EVERY));
        let silent = silent_since.elapsed();
        // Wake up for the next warning or the limit, whichever comes first.
        let next_warning = (warned + warn_every).saturating_sub(silent);
        let wait = limit.map_or(next_warning, |t| next_warning.min(t.saturating_sub(silent)));
        let n = match tokio::time::timeout(wait, stream.read(&mut buf)).await {
            Err(_) => {
                let silent = silent_since.elapsed();
                if limit.is_some_and(|t| silent >= t) {
                    if sent_close {
                        break;
                    }
                    let why = match &resyncing {
                        Some(e) => format!(
                            "undecodable server stream: {e}; nothing readable followed for {} s",
                            secs(silent)
                        ),
                        None => format!(
                            "the server at {addr} sent nothing for {} s (--idle-timeout-s); \
                             gave up",
                            secs(silent)
                        ),
                    };
                    tracing::error!("{why}");
                    stopped = Some(why);
                    break;
                }
                if !sent_close {
                    warned = silent;
                    let until = limit.map_or("no time limit".to_string(), |t| {
                        format!("giving up after {} s", secs(t))
                    });
                    tracing::warn!(
                        "no message from the server at {addr} for {} s; still waiting ({until})",
                        secs(silent)
                    );
                }
                continue;
            }
            Ok(Ok(n)) => n,
            Ok(Err(e)) => {
                if !sent_close {
                    let why = format!("lost the connection to the server at {addr}: {e}");
                    tracing::error!("{why}");
                    stopped = Some(why);
                }
                break;
            }
        };
        if n == 0 {
            if framer.has_partial() && resyncing.is_none() && !framer.is_closed() {
                let why = "the server's stream broke off in the middle of a message".to_string();
                tracing::error!("{why}");
                stopped = Some(why);
            }
            break;
        }
        silent_since = tokio::time::Instant::now();
        warned = Duration::ZERO;
        framer.push(&buf[..n]);
        loop {
            let frame = match framer.next_frame() {
                Ok(Some(f)) => f,
                Ok(None) => break,
                Err(e) => {
                    decode_errors += 1;
                    last_decode_error = Some(e.to_string());
                    if decode_errors > MAX_DECODE_ERRORS {
                        let why = format!("undecodable server stream: {e}; giving up");
                        tracing::error!("{why}");
                        stopped = Some(why);
                        break 'read;
                    }
                    tracing::error!(
                        "could not read the server's stream: {e}; skipping to the next message"
                    );
                    resyncing = Some(e.to_string());
                    framer.recover();
                    continue;
                }
            };
            resyncing = None;
            let closed = frame == Frame::Close;
            let action = match session.on_frame(frame) {
                Ok(a) => a,
                Err(e) => {
                    // Survive odd messages: log and keep going.
                    tracing::warn!("could not read a server message ({e}); ignored");
                    Action::Wait
                }
            };
            if !seated {
                if let Some(c) = session.color {
                    seated = true;
                    if let Ok(mut a) = agent.try_lock() {
                        a.new_game(c as usize, config.seed);
                    }
                }
            }
            lock(&pending).extend(session.take_events());
            match action {
                Action::Wait => {}
                Action::Move { room, state } => {
                    let tc = TimeControl::new(config.soft, config.hard);
                    ponder.stop().await;
                    let view = session.view(&state);
                    let decision = think(&agent, view, &pending, tc.clone(), config.send_by).await;
                    let Some(mv) = decision
                        .as_ref()
                        .map(|d| d.action)
                        .filter(|&m| state.is_legal(m))
                        .or_else(|| fallback(&state))
                    else {
                        tracing::warn!("no move to send");
                        continue;
                    };
                    let msg = ClientMessage::Move {
                        room,
                        mv: MoveMsg { mv, hints: vec![] },
                    };
                    if let Err(e) = stream.write_all(msg.to_xml().as_bytes()).await {
                        let why = format!("lost the connection to the server at {addr}: {e}");
                        tracing::error!("{why}");
                        stopped = Some(why);
                        break 'read;
                    }
                    let took = tc.elapsed();
                    out.moves += 1;
                    out.max_reply = out.max_reply.max(took);
                    log_decision(&state, mv, decision.as_ref(), took);
                    // Thinking is not the server's silence.
                    silent_since = tokio::time::Instant::now();
                    if let (true, Some(c), Ok(next)) =
                        (config.ponder, session.color, state.apply(mv))
                    {
                        ponder.start(&agent, next, c as usize);
                    }
                }
                Action::Finish => {
                    ponder.stop().await;
                    if !sent_close {
                        sent_close = true;
                        // The peer may already be gone; closing is best effort.
                        let _ = stream.write_all(CLIENT_CLOSE.as_bytes()).await;
                    }
                    if closed {
                        break 'read;
                    }
                }
            }
        }
    }
    ponder.stop().await;
    if !sent_close {
        let _ = stream.write_all(CLIENT_CLOSE.as_bytes()).await;
    }
    let _ = stream.shutdown().await;
    // The moves after our last one, unless a search still holds the agent.
    lock(&pending).extend(session.take_events());
    if let Ok(mut a) = agent.try_lock() {
        lock(&pending).drain(..).for_each(|e| a.observe(&e));
    }
    out.color = session.color;
    out.abnormal = match (&session.result, stopped, &session.error, last_decode_error) {
        (Some(_), _, _, _) => None,
        (None, Some(why), _, Some(e)) if !why.contains(&e) => {
            Some(format!("{why} (after an undecodable server stream: {e})"))
        }
        (None, Some(why), _, _) => Some(why),
        (None, None, Some(msg), _) => Some(format!("the server reported an error: {msg}")),
        (None, None, None, Some(e)) => Some(format!(
            "undecodable server stream: {e}; then the server closed the connection"
        )),
        (None, None, None, None) => {
            Some("the server closed the connection before the game ended".into())
        }
    };
    out.result = session.result;
    out.error = session.error;
    Ok(out)
}

/// How long the client waits for the server to close after our `</protocol>`.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// Whole seconds for messages, at least one decimal below ten seconds.
fn secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 10.0 {
        format!("{s:.1}")
    } else {
        format!("{s:.0}")
    }
}

/// Runs the agent on a blocking thread: tells it the `pending` events (the moves since it
/// was last told), then asks it to choose in `view`. Returns `None` (the caller sends a fallback move) when
/// there is no view, the agent still runs from an earlier overrun, it proposes an illegal
/// move, panics, or has not answered by `send_by` (then its clock is stopped).
async fn think(
    agent: &Shared,
    view: Option<View<'static, Piranhas>>,
    pending: &Pending,
    tc: TimeControl,
    send_by: Duration,
) -> Option<Decision<Move>> {
    let Some(view) = view else {
        tracing::error!("a MoveRequest before the server named our colour; using fallback");
        return None;
    };
    let legal = view.legal_actions();
    let a = Arc::clone(agent);
    let pending = Arc::clone(pending);
    let tc2 = tc.clone();
    let task = tokio::task::spawn_blocking(move || match a.try_lock() {
        Ok(mut a) => {
            lock(&pending).drain(..).for_each(|e| a.observe(&e));
            Some(a.choose(&view, &tc2))
        }
        // A previous search overran and still holds the agent: answer with the fallback.
        Err(_) => None,
    });
    let left = send_by.saturating_sub(tc.elapsed());
    match tokio::time::timeout(left, task).await {
        Ok(Ok(Some(d))) if legal.contains(&d.action) => Some(d),
        Ok(Ok(Some(d))) => {
            tracing::error!(
                "the agent proposed an illegal move ({}); using fallback",
                d.action
            );
            None
        }
        Ok(Ok(None)) => {
            tracing::warn!("the agent is still busy with an earlier move; using fallback");
            None
        }
        Ok(Err(e)) => {
            tracing::error!("the agent crashed: {e}; using fallback");
            None
        }
        Err(_) => {
            tc.stop();
            tracing::warn!("the agent overran the hard deadline; using fallback");
            None
        }
    }
}

/// A legal move when the player had none to offer: prefer one that does not lose at once.
fn fallback(state: &State) -> Option<Move> {
    let moves = state.legal_moves();
    let me = state.current();
    moves
        .iter()
        .copied()
        .find(|&m| {
            state
                .apply(m)
                .map(|s| s.result().is_none_or(|r| r.winner != Some(me.other())))
                .unwrap_or(false)
        })
        .or_else(|| moves.first().copied())
}

/// One info line per move sent, from the agent's [`Decision`] (`-` for what it does not
/// know; `fallback` when the client chose).
fn log_decision(state: &State, mv: Move, d: Option<&Decision<Move>>, took: Duration) {
    let Some(d) = d else {
        tracing::info!(
            turn = state.turn(),
            "move {mv} (fallback) time {} ms",
            took.as_millis()
        );
        return;
    };
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    let pv: Vec<String> = d.pv.iter().map(|m| m.to_string()).collect();
    let stats: String = d.stats.iter().map(|(k, v)| format!(" {k} {v}")).collect();
    tracing::info!(
        turn = state.turn(),
        "move {mv} depth {} score {} nodes {} time {} ms pv [{}]{stats}",
        opt(d.depth.map(|v| v.to_string())),
        opt(d.score.map(|v| format!("{v:.0}"))),
        d.nodes,
        took.as_millis(),
        pv.join(" ")
    );
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn default_clock_is_the_contest_rule() {
        // Old default: soft 900, hard 1500, send-by 1650 (and the binary's 1300 / 1600 / 1750).
        // New: the 2 s budget with 250 ms overhead, soft at the contest's share (0.65).
        let c = ClientConfig::default();
        assert_eq!((c.soft, c.hard, c.send_by), (ms(1300), ms(1500), ms(1750)));
    }

    #[test]
    fn with_clock_takes_all_three_times() {
        let c = ClientConfig::default().with_clock(MoveBudget::for_move(ms(1000), ms(100)));
        assert_eq!((c.soft, c.hard, c.send_by), (ms(500), ms(800), ms(900)));
    }
}
