//! One game on our reference server for `kibitz match` with an external (`cmd:`) seat: the
//! server runs in process on 127.0.0.1 port 0 with the official time limits, the game is
//! prepared with a reservation code per seat, the caller starts the external programs with
//! [`ExternalGame::invitation`], and built-in players join as in-process clients, so both
//! sides play over TCP XML.
//!
//! Only external seats are clocked (`canTimeout`): our in-process players keep their own
//! budgets (node / depth limits stay reproducible on a loaded machine), the entrant's bot is
//! held to the contest's 2 s soft / 10 s hard limits.

use crate::client::{self, ClientConfig};
use crate::protocol::Slot;
use crate::server::{GameRecord, PreparedGame, Server, ServerConfig};
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_piranhas::Color;
use kibitz_search::agent::Agent;
use std::time::{Duration, Instant};

/// An in-process agent for one seat and the seed it is given ([`Agent::new_game`]).
pub type SeatAgent = (Box<dyn Agent<Piranhas> + Send>, u64);

/// How to reach the server for one seat: what the placeholders `{host} {port} {reservation}`
/// become.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// Always `127.0.0.1`.
    pub host: String,
    /// The server's port.
    pub port: u16,
    /// The seat's reservation code (`joinPrepared`).
    pub reservation: String,
}

/// How an external game ended.
#[derive(Debug)]
pub enum Ended {
    /// The server played the game to its result (forfeits by time, rule violation or leaving
    /// included: the result says which).
    Played(GameRecord),
    /// The game never started (a seat did not join) or never ended: `seat` loses.
    Forfeit {
        /// The seat that loses.
        seat: Color,
        /// Why, in words.
        reason: String,
    },
}

/// A server with one prepared game, before and while it is played.
pub struct ExternalGame {
    rt: tokio::runtime::Runtime,
    server: Server,
    prepared: PreparedGame,
    external: [bool; 2],
}

/// The server and a game could not be set up.
#[derive(Debug, thiserror::Error)]
#[error("cannot start the piranhas server: {0}")]
pub struct SetupError(#[from] std::io::Error);

impl ExternalGame {
    /// Starts the server on 127.0.0.1 port 0 and prepares one game (`names` RED then BLUE;
    /// `external` marks the seats that are started commands and so held to the time limits).
    pub fn start(
        names: [String; 2],
        krakens: [(u8, u8); 2],
        external: [bool; 2],
    ) -> Result<ExternalGame, SetupError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()?;
        let server = rt.block_on(Server::bind(
            "127.0.0.1:0",
            ServerConfig {
                krakens: Some(krakens),
                seed: Some(0),
                ..ServerConfig::default()
            },
        ))?;
        let [r, b] = names;
        let slot = |display_name: String, clocked: bool| Slot {
            display_name,
            can_timeout: clocked,
            should_be_paused: false,
        };
        let prepared = server.prepare([slot(r, external[0]), slot(b, external[1])], Some(krakens));
        Ok(ExternalGame {
            rt,
            server,
            prepared,
            external,
        })
    }

    /// The values of the placeholders for `seat`.
    pub fn invitation(&self, seat: Color) -> Invitation {
        Invitation {
            host: "127.0.0.1".into(),
            port: self.server.local_addr().port(),
            reservation: self.prepared.codes[seat as usize].clone(),
        }
    }

    /// Plays the game: `players` are the in-process agents with their seeds (`None` on
    /// external seats);
    /// `exited(seat)` tells whether that seat's program has ended (and why). A seat that has
    /// not joined within `connect_deadline`, or whose program exits before joining, loses;
    /// once the game runs the server's clock and rules decide; `game_deadline` bounds it all.
    pub fn play(
        self,
        players: [Option<SeatAgent>; 2],
        connect_deadline: Duration,
        game_deadline: Duration,
        exited: &mut dyn FnMut(Color) -> Option<String>,
    ) -> Ended {
        let ExternalGame {
            rt,
            server,
            prepared,
            external,
        } = self;
        let port = server.local_addr().port();
        let ended = rt.block_on(async {
            let mut tasks = Vec::new();
            for (i, p) in players.into_iter().enumerate() {
                let Some((player, seed)) = p else { continue };
                let config = ClientConfig {
                    host: "127.0.0.1".into(),
                    port,
                    reservation: Some(prepared.codes[i].clone()),
                    // The player keeps its own budget; the client must not cut it short.
                    soft: game_deadline,
                    hard: game_deadline,
                    send_by: game_deadline,
                    idle_timeout: Some(game_deadline),
                    seed,
                    // Games run side by side here: the cores are not free for pondering.
                    ponder: false,
                    ..ClientConfig::default()
                };
                tasks.push(tokio::spawn(
                    async move { client::run(&config, player).await },
                ));
            }
            let started = Instant::now();
            let mut result = prepared.result;
            let mut tick = tokio::time::interval(Duration::from_millis(20));
            let mut joined = false;
            let ended = loop {
                tokio::select! {
                    r = &mut result => break match r {
                        Ok(rec) => Ended::Played(rec),
                        Err(_) => Ended::Forfeit {
                            seat: Color::Red,
                            reason: "the server dropped the game".into(),
                        },
                    },
                    _ = tick.tick() => {}
                }
                if !joined && !server.is_waiting(&prepared.room) {
                    joined = true;
                }
                if !joined {
                    // Before the game starts: a program that ended or the deadline loses.
                    let gone = Color::BOTH
                        .into_iter()
                        .filter(|c| external[*c as usize])
                        .find_map(|c| exited(c).map(|why| (c, why)));
                    if let Some((seat, why)) = gone {
                        break Ended::Forfeit {
                            seat,
                            reason: format!(
                                "{} did not join the game: its program {why}",
                                seat.name()
                            ),
                        };
                    }
                    if started.elapsed() > connect_deadline {
                        let seat = Color::BOTH
                            .into_iter()
                            .find(|c| external[*c as usize])
                            .unwrap_or(Color::Red);
                        break Ended::Forfeit {
                            seat,
                            reason: format!(
                                "{} did not join the game within {} s",
                                seat.name(),
                                connect_deadline.as_secs_f64()
                            ),
                        };
                    }
                }
                if started.elapsed() > game_deadline {
                    break Ended::Forfeit {
                        seat: Color::BOTH
                            .into_iter()
                            .find(|c| external[*c as usize])
                            .unwrap_or(Color::Red),
                        reason: format!(
                            "the game did not end within {} s",
                            game_deadline.as_secs()
                        ),
                    };
                }
            };
            server.shutdown();
            for t in tasks {
                t.abort();
            }
            ended
        });
        rt.shutdown_timeout(Duration::from_millis(200));
        ended
    }
}
