//! One game on our reference server for `kibitz match connect4` with an external (`cmd:`)
//! seat: the server runs in process on 127.0.0.1 port 0 in its one-game mode
//! ([`crate::config::OneGame`]: the two seat names [`NAMES`], home first), the caller starts
//! the external programs with [`ExternalGame::invitation`], and built-in players join as
//! in-process UDP clients ([`Chooser`] behind the crate's own codec), so both sides play over
//! the contest's wire protocol.
//!
//! Only external seats are held to the answer time the caller gives (the contest's 250 ms):
//! our in-process players keep their own budgets (node / depth limits stay reproducible on a
//! loaded machine) and get [`BUILTIN_TIMEOUT`] per answer.
//!
//! The protocol has no way to tell a bot an opening, so a game here starts from the empty
//! board, as every game on the contest server does.

use crate::config::{OneGame, ServerConfig};
use crate::protocol::{decode_datagram, ClientMsg, ServerMsg};
use crate::server::{GameRecord, Server};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio::time::Instant;
use tracing::{debug, warn};

/// The names the two seats register with: seat 0 (home, moves first) and seat 1. They are
/// what `{name}` becomes for an external seat.
pub const NAMES: [&str; 2] = ["first", "second"];

/// Answer time of an in-process seat: far beyond any move budget of ours, so only a hung
/// engine meets it.
pub const BUILTIN_TIMEOUT: Duration = Duration::from_secs(120);

/// How often an in-process client repeats `REGISTER` until `WELCOME` comes.
const REGISTER_EVERY: Duration = Duration::from_millis(200);

/// An in-process player: the 0-based column to play after `history` (every stone so far,
/// 0-based columns from the empty board, as the server announced them).
pub trait Chooser: Send {
    /// The column to play; the game is not over after `history`.
    fn choose(&mut self, history: &[usize]) -> usize;
}

/// How to reach the server for one seat: what the placeholders `{host} {port} {name}` become.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// Always `127.0.0.1`.
    pub host: String,
    /// The server's UDP port.
    pub port: u16,
    /// The name the seat must register with ([`NAMES`]).
    pub name: String,
}

/// How an external game ended.
#[derive(Debug)]
pub enum Ended {
    /// The server played the game to its result (faults and timeouts included: the result
    /// says which).
    Played(GameRecord),
    /// The game never started (a seat did not register or did not `JOIN`) or never ended:
    /// `seat` (0 = home) loses.
    Forfeit {
        /// The seat that loses.
        seat: usize,
        /// Why, in words.
        reason: String,
    },
}

/// The server could not be set up.
#[derive(Debug, thiserror::Error)]
#[error("cannot start the connect4 server: {0}")]
pub struct SetupError(String);

/// A one-game server, before and while its game is played.
pub struct ExternalGame {
    rt: tokio::runtime::Runtime,
    server: Server,
    games: tokio::sync::broadcast::Receiver<GameRecord>,
    external: [bool; 2],
    size: (usize, usize, usize),
}

impl ExternalGame {
    /// Starts the server on 127.0.0.1 port 0 for one game on a `columns × rows`, connect
    /// `connect` board; `external` marks the seats that are started commands, held to
    /// `answer_time` per `JOIN` and `INSERT` (the others get [`BUILTIN_TIMEOUT`]).
    pub fn start(
        external: [bool; 2],
        answer_time: Duration,
        (columns, rows, connect): (usize, usize, usize),
    ) -> Result<ExternalGame, SetupError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| SetupError(e.to_string()))?;
        let timeouts = external.map(|e| if e { answer_time } else { BUILTIN_TIMEOUT });
        let config = ServerConfig {
            port: 0,
            timeout: answer_time,
            columns,
            rows,
            connect,
            seasons: Some(1),
            one_game: Some(OneGame {
                names: NAMES.map(String::from),
                timeouts,
            }),
            ..ServerConfig::default()
        };
        let server = rt
            .block_on(Server::start(config))
            .map_err(|e| SetupError(format!("{e:#}")))?;
        let games = server.games();
        Ok(ExternalGame {
            rt,
            server,
            games,
            external,
            size: (columns, rows, connect),
        })
    }

    /// The values of the placeholders for `seat` (0 = home).
    pub fn invitation(&self, seat: usize) -> Invitation {
        Invitation {
            host: "127.0.0.1".into(),
            port: self.server.local_addr().port(),
            name: NAMES[seat % 2].into(),
        }
    }

    /// Plays the game: `players` are the in-process players (`None` on external seats);
    /// `exited(seat)` tells whether that seat's program has ended (and why). A seat that has
    /// not registered within `connect_deadline`, whose program exits before registering, or
    /// that does not `JOIN` in time loses; once the game runs the server's clock and rules
    /// decide; `game_deadline` bounds it all.
    pub fn play(
        self,
        players: [Option<Box<dyn Chooser>>; 2],
        connect_deadline: Duration,
        game_deadline: Duration,
        exited: &mut dyn FnMut(usize) -> Option<String>,
    ) -> Ended {
        let ExternalGame {
            rt,
            server,
            mut games,
            external,
            size,
        } = self;
        let addr = server.local_addr();
        let ended = rt.block_on(async {
            let mut tasks = Vec::new();
            for (seat, p) in players.into_iter().enumerate() {
                let Some(chooser) = p else { continue };
                tasks.push(tokio::spawn(async move {
                    if let Err(e) = run_client(addr, NAMES[seat], size.0, chooser).await {
                        warn!("in-process connect4 player {}: {e:#}", NAMES[seat]);
                    }
                }));
            }
            // The seat to blame when it is not clear who failed: an external one.
            let blame = if external[0] || !external[1] { 0 } else { 1 };
            let started = Instant::now();
            let mut tick = tokio::time::interval(Duration::from_millis(20));
            let ended = loop {
                tokio::select! {
                    r = games.recv() => match r {
                        Ok(rec) => break Ended::Played(rec),
                        Err(RecvError::Lagged(_)) => continue,
                        Err(RecvError::Closed) => break Ended::Forfeit {
                            seat: blame,
                            reason: "the server stopped before the game ended".into(),
                        },
                    },
                    _ = tick.tick() => {}
                }
                let registered = server.registered();
                let missing: Vec<usize> = (0..2)
                    .filter(|&s| !registered.iter().any(|n| n == NAMES[s]))
                    .collect();
                if !missing.is_empty() {
                    // Before the game: a program that ended or the deadline loses.
                    let gone = missing
                        .iter()
                        .filter(|&&s| external[s])
                        .find_map(|&s| exited(s).map(|why| (s, why)));
                    if let Some((seat, why)) = gone {
                        break Ended::Forfeit {
                            seat,
                            reason: format!("{} did not register: its program {why}", NAMES[seat]),
                        };
                    }
                    if started.elapsed() > connect_deadline {
                        let seat = missing
                            .iter()
                            .copied()
                            .find(|&s| external[s])
                            .unwrap_or(missing[0]);
                        let others: Vec<&String> = registered
                            .iter()
                            .filter(|n| !NAMES.contains(&n.as_str()))
                            .collect();
                        let instead = if others.is_empty() {
                            String::new()
                        } else {
                            format!(" (registered instead: {others:?})")
                        };
                        break Ended::Forfeit {
                            seat,
                            reason: format!(
                                "{} did not register within {} s{instead}",
                                NAMES[seat],
                                connect_deadline.as_secs_f64()
                            ),
                        };
                    }
                }
                if server.finished() {
                    // The one season is over: its game, or nobody played because a seat did
                    // not JOIN.
                    match games.try_recv() {
                        Ok(rec) => break Ended::Played(rec),
                        Err(TryRecvError::Lagged(_)) => continue,
                        Err(_) => {}
                    }
                    let joined = server
                        .results()
                        .last()
                        .map(|s| s.participants.clone())
                        .unwrap_or_default();
                    let seat = (0..2)
                        .filter(|&s| !joined.iter().any(|n| n == NAMES[s]))
                        .min_by_key(|&s| !external[s])
                        .unwrap_or(blame);
                    let why = if external[seat] {
                        exited(seat)
                            .map(|w| format!(" (its program {w})"))
                            .unwrap_or_default()
                    } else {
                        String::new()
                    };
                    break Ended::Forfeit {
                        seat,
                        reason: format!(
                            "{} did not answer NEW SEASON with JOIN in time{why}",
                            NAMES[seat]
                        ),
                    };
                }
                if started.elapsed() > game_deadline {
                    break Ended::Forfeit {
                        seat: blame,
                        reason: format!(
                            "the game did not end within {} s",
                            game_deadline.as_secs()
                        ),
                    };
                }
            };
            for t in &tasks {
                t.abort();
            }
            server.shutdown().await;
            ended
        });
        rt.shutdown_timeout(Duration::from_millis(200));
        ended
    }
}

/// An in-process seat: registers as `name` on the server at `addr`, joins the season, plays
/// the game with `chooser` (each move on a blocking thread, so the server keeps running) and
/// returns at the game's `RESULT`.
async fn run_client(
    addr: SocketAddr,
    name: &str,
    columns: usize,
    chooser: Box<dyn Chooser>,
) -> anyhow::Result<()> {
    let socket = UdpSocket::bind("127.0.0.1:0").await?;
    let send = |msg: ClientMsg| {
        let socket = &socket;
        async move {
            let text = msg.encode();
            if let Err(e) = socket.send_to(text.as_bytes(), addr).await {
                warn!(error = %e, "send failed");
            }
        }
    };
    let mut chooser = Some(chooser);
    let mut registered = false;
    let mut history: Vec<usize> = Vec::new();
    let mut buf = vec![0u8; 65536];
    send(ClientMsg::Register(name.into())).await;
    loop {
        let got = tokio::time::timeout(REGISTER_EVERY, socket.recv_from(&mut buf)).await;
        let (n, from) = match got {
            Ok(r) => r?,
            Err(_) => {
                if !registered {
                    send(ClientMsg::Register(name.into())).await;
                }
                continue;
            }
        };
        if from != addr {
            continue;
        }
        let text = decode_datagram(&buf[..n]);
        let Ok(msg) = ServerMsg::parse(&text) else {
            debug!(datagram = %text.escape_debug(), "unreadable datagram ignored");
            continue;
        };
        match msg {
            ServerMsg::Welcome(_) => registered = true,
            ServerMsg::NoNameGiven | ServerMsg::NameTooLong | ServerMsg::NameAlreadyTaken => {
                anyhow::bail!("the server refused the name {name:?}: {text}")
            }
            ServerMsg::Unregistered => {
                registered = false;
                send(ClientMsg::Register(name.into())).await;
            }
            ServerMsg::NewSeason(token) => send(ClientMsg::Join(token)).await,
            ServerMsg::NewGame(_) => history.clear(),
            ServerMsg::TokenInserted { column, .. } => {
                if let Some(c) = usize::try_from(column).ok().filter(|&c| c < columns) {
                    history.push(c);
                }
            }
            ServerMsg::YourTurn(token) => {
                let mut ch = chooser
                    .take()
                    .ok_or_else(|| anyhow::anyhow!("the player was lost"))?;
                let h = history.clone();
                let (ch, column) = tokio::task::spawn_blocking(move || {
                    let c = ch.choose(&h);
                    (ch, c)
                })
                .await?;
                chooser = Some(ch);
                let column = i32::try_from(column).unwrap_or(i32::MAX);
                send(ClientMsg::Insert { column, token }).await;
            }
            ServerMsg::Result(_) => return Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Always the lowest column with room (by the history it was given).
    struct Lowest;

    impl Chooser for Lowest {
        fn choose(&mut self, history: &[usize]) -> usize {
            (0..7)
                .find(|&c| history.iter().filter(|&&x| x == c).count() < 6)
                .unwrap_or(0)
        }
    }

    #[test]
    fn two_in_process_players_play_one_game_home_first() {
        let game =
            ExternalGame::start([false, false], Duration::from_millis(250), (7, 6, 4)).unwrap();
        assert_eq!(game.invitation(1).name, "second");
        let ended = game.play(
            [Some(Box::new(Lowest)), Some(Box::new(Lowest))],
            Duration::from_secs(10),
            Duration::from_secs(60),
            &mut |_| None,
        );
        let Ended::Played(rec) = ended else {
            panic!("{ended:?}")
        };
        assert_eq!((rec.home.as_str(), rec.away.as_str()), ("first", "second"));
        // The chooser's moves: column 0 until it is full, then column 1, ...; colours
        // alternate up each column, so row 0 is all home's and its fourth stone wins.
        assert_eq!(&rec.moves[..7], &[0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(rec.moves.len(), 19);
        assert_eq!(rec.winner(), Some("first"));
    }

    /// [`Lowest`], taking `.0` ms per move.
    struct Slow(u64);

    impl Chooser for Slow {
        fn choose(&mut self, history: &[usize]) -> usize {
            std::thread::sleep(Duration::from_millis(self.0));
            Lowest.choose(history)
        }
    }

    #[test]
    fn in_process_seats_keep_their_own_budget_beyond_the_answer_time() {
        // External seats would get 2 ms per answer; ours take 20 ms and still play it out.
        let game =
            ExternalGame::start([false, false], Duration::from_millis(2), (7, 6, 4)).unwrap();
        let ended = game.play(
            [Some(Box::new(Slow(20))), Some(Box::new(Slow(20)))],
            Duration::from_secs(10),
            Duration::from_secs(60),
            &mut |_| None,
        );
        let Ended::Played(rec) = ended else {
            panic!("{ended:?}")
        };
        assert_eq!(rec.moves.len(), 19, "{rec:?}");
        assert_eq!(rec.winner(), Some("first"));
    }

    #[test]
    fn a_seat_that_never_registers_loses_at_the_deadline() {
        let game =
            ExternalGame::start([false, true], Duration::from_millis(250), (7, 6, 4)).unwrap();
        let ended = game.play(
            [Some(Box::new(Lowest)), None],
            Duration::from_millis(300),
            Duration::from_secs(60),
            &mut |_| None,
        );
        match ended {
            Ended::Forfeit { seat, reason } => {
                assert_eq!(seat, 1);
                assert!(
                    reason.contains("second did not register within"),
                    "{reason}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_one_game_configs_are_refused() {
        let mut c = ServerConfig {
            one_game: Some(OneGame {
                names: ["x".into(), "x".into()],
                timeouts: [Duration::from_millis(1); 2],
            }),
            ..ServerConfig::default()
        };
        assert_eq!(c.validate().unwrap_err().variable, "one_game");
        c.one_game = Some(OneGame {
            names: ["x".into(), "y".into()],
            timeouts: [Duration::ZERO, Duration::from_millis(1)],
        });
        assert_eq!(c.validate().unwrap_err().variable, "one_game");
        c.one_game.as_mut().unwrap().timeouts[0] = Duration::from_millis(7);
        assert!(c.validate().is_ok());
        assert_eq!(c.timeout_for("x"), Duration::from_millis(7));
        assert_eq!(c.timeout_for("z"), c.timeout);
    }
}
