//! Our reference server for the 2019 protocol (spec §9): `join` and prepared games, admin
//! `authenticate`/`prepare`/`observe`/`pause`, soft and hard time limits, rule violations,
//! `<left>`, proper closing; every game an independent task so that a misbehaving client ends
//! only its own game.
//!
//! In-process use (tests, tournaments): [`Server::bind`] on port 0, [`Server::prepare`] a game,
//! hand the reservation codes to clients, await [`PreparedGame::result`].
//!
//! Choices where the spec is silent (documented here, tested in `tests/`):
//! - Undecodable input from a seated player (not XML, invalid UTF-8, a message over
//!   [`ServerConfig::max_message`], a nested `<protocol>`): the player gets
//!   `<error message>` and `\n</protocol>`, its connection is closed, and it loses with cause
//!   `LEFT` (as if it had disconnected). Before joining, such a connection is just refused.
//! - Error paths follow the official 19.2.1 server (spec §9 R8): a wrong admin password, a
//!   `join` or `prepare` of an unknown game type, an unknown reservation code get
//!   `<sc.protocol.responses.CloseConnection/>` and the closing tag; an element (or data class)
//!   we do not know gets only the closing tag (`<protocol/>` when nothing was sent yet: like
//!   19.2.1, the stream's `<protocol>` goes out with the first message). A seated player's
//!   move out of turn gets `<data class="error" message="It's not your turn yet.">` with the
//!   move echoed as `<originalRequest>`, CloseConnection, the closing tag, and loses with cause
//!   `LEFT` (the opponent gets the result and `<left>`). A move only ever reaches the game its
//!   sender is seated in, whatever its `roomId` says.
//! - Our own refusals where 19.2.1 was not measured (login or idle timeout, an admin request
//!   without authentication, a `prepare` without two slots) send `<error message>` and close.
//! - After `result` and `left`, a player has [`ServerConfig::close_grace`] to send
//!   `</protocol>` (answered with `\n</protocol>`); then the server closes the connection.
//! - A player whose `join` is still waiting for an opponent and who disconnects is forgotten.
//! - A move that arrives after the sender's game ended (e.g. after a hard timeout) is answered
//!   with `<sc.protocol.responses.CloseConnection/>` and `</protocol>` (spec §7.3).
//! - Connection limits ([`ServerConfig`]): login timeout, idle timeout outside running games,
//!   caps on connections in total and per peer address (over the cap: closed at once).
//! - Not implemented: the admin notice `<joinedGameRoom>` (documented, never recorded), and
//!   pausing a game that is already running (`pause` only releases rooms that wait).

mod conn;
mod game;
pub use kibitz_net::limits;
mod lobby;

pub use lobby::PreparedGame;

use crate::protocol::{ResultMsg, Slot, DEFAULT_PASSWORD};
use kibitz_piranhas::Move;
use lobby::Lobby;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, ToSocketAddrs};
use tokio::sync::mpsc;

/// Server settings; [`Default`] gives the official values.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Soft limit: a move later than this after the MoveRequest loses (`SOFT_TIMEOUT`).
    pub soft_timeout: Duration,
    /// Hard limit: no move within this loses at once (`HARD_TIMEOUT`).
    pub hard_timeout: Duration,
    /// Admin password.
    pub password: String,
    /// Largest client message accepted; longer ones end the connection.
    pub max_message: usize,
    /// A connection that neither joins nor authenticates within this is closed.
    pub login_timeout: Duration,
    /// A joined or admin connection that is not playing a running game and sends nothing for
    /// this long is closed (a seated player in a running game is governed by the move time
    /// limits instead, so a bot thinking within them is never idle). `None`: never.
    pub idle_timeout: Option<Duration>,
    /// Connections open at once; further ones are closed at once.
    pub max_connections: usize,
    /// Connections open at once from one peer IP address.
    pub max_connections_per_peer: usize,
    /// After `<left>`, how long we wait for the client's `</protocol>` before closing ourselves.
    pub close_grace: Duration,
    /// Seed for Kraken placement (random when `None`).
    pub seed: Option<u64>,
    /// Fixed Kraken pair for every game (else random per game).
    pub krakens: Option<[(u8, u8); 2]>,
    /// Record every connection's two byte streams into this directory.
    pub record_dir: Option<PathBuf>,
    /// `--records DIR`: append every game to `DIR/piranhas.jsonl` (`kibitz-record/1`) and
    /// write its Software-Challenge replay as `DIR/piranhas-<index>.xml` (see
    /// [`crate::record`]).
    pub records: Option<PathBuf>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            soft_timeout: Duration::from_secs(2),
            hard_timeout: Duration::from_secs(10),
            password: DEFAULT_PASSWORD.into(),
            max_message: 64 * 1024,
            login_timeout: Duration::from_secs(60),
            idle_timeout: Some(Duration::from_secs(600)),
            max_connections: 512,
            max_connections_per_peer: 128,
            close_grace: Duration::from_secs(5),
            seed: None,
            krakens: None,
            record_dir: None,
            records: None,
        }
    }
}

/// One finished game, as the server saw it.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// Room id.
    pub room: String,
    /// Display names, RED then BLUE.
    pub names: [String; 2],
    /// The Kraken squares.
    pub krakens: [(u8, u8); 2],
    /// The moves applied, in order.
    pub moves: Vec<Move>,
    /// The result message sent.
    pub result: ResultMsg,
    /// The game's number on this server: rooms are numbered from 0 in the order they were
    /// prepared (or opened by a first `join`).
    pub index: u64,
}

impl GameRecord {
    /// One line in words: `room R: alpha (RED) vs beta (BLUE), 36 moves, BLUE (beta) won`.
    pub fn summary(&self) -> String {
        let winner = match &self.result.winner {
            Some((name, c)) => format!("{} ({name}) won", c.name()),
            None => "draw".to_string(),
        };
        format!(
            "room {}: {} (RED) vs {} (BLUE), {} moves, {winner}",
            self.room,
            self.names[0],
            self.names[1],
            self.moves.len()
        )
    }
}

pub(crate) struct Shared {
    pub config: ServerConfig,
    pub lobby: Mutex<Lobby>,
    pub rng: Mutex<ChaCha8Rng>,
    pub finished: mpsc::UnboundedSender<GameRecord>,
    pub next_conn: AtomicU64,
    pub records: Option<kibitz_net::record::RecordWriter>,
}

impl Shared {
    pub fn krakens(&self) -> [(u8, u8); 2] {
        match self.config.krakens {
            Some(k) => k,
            None => {
                let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
                kibitz_piranhas::kraken::random_pair(&mut *rng)
            }
        }
    }

    pub fn lobby(&self) -> std::sync::MutexGuard<'_, Lobby> {
        self.lobby.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A running server: its address, game preparation and finished games.
pub struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
    finished: tokio::sync::Mutex<mpsc::UnboundedReceiver<GameRecord>>,
    accept: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Binds (port 0 picks a free port) and starts accepting connections.
    pub async fn bind(addr: impl ToSocketAddrs, config: ServerConfig) -> std::io::Result<Server> {
        let listener = TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let rng = match config.seed {
            Some(s) => ChaCha8Rng::seed_from_u64(s),
            None => ChaCha8Rng::from_os_rng(),
        };
        if let Some(dir) = &config.record_dir {
            std::fs::create_dir_all(dir)?;
        }
        let records = match &config.records {
            Some(dir) => Some(kibitz_net::record::RecordWriter::create(
                dir,
                crate::record::GAME,
            )?),
            None => None,
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            config,
            lobby: Mutex::new(Lobby::default()),
            rng: Mutex::new(rng),
            finished: tx,
            next_conn: AtomicU64::new(1),
            records,
        });
        let sh = Arc::clone(&shared);
        let limits = limits::Limits::new(
            shared.config.max_connections,
            shared.config.max_connections_per_peer,
        );
        let accept = tokio::spawn(async move {
            loop {
                match listener.accept().await {
                    Ok((stream, peer)) => {
                        let Some(permit) = limits.admit(peer.ip()) else {
                            tracing::info!("connection from {peer} refused: too many connections");
                            drop(stream);
                            continue;
                        };
                        let id = sh.next_conn.fetch_add(1, Ordering::Relaxed);
                        tracing::debug!("connection {id} from {peer}");
                        let sh = Arc::clone(&sh);
                        tokio::spawn(async move {
                            conn::serve(stream, sh, id).await;
                            drop(permit);
                        });
                    }
                    Err(e) => {
                        tracing::warn!("accept failed: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
            }
        });
        Ok(Server {
            addr,
            shared,
            finished: tokio::sync::Mutex::new(rx),
            accept,
        })
    }

    /// The bound address (with the real port when bound to port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Reserves a game like an admin `prepare` would (slot 1 RED, slot 2 BLUE), optionally with a
    /// fixed Kraken pair; the returned handle yields the result when the game ends.
    pub fn prepare(&self, slots: [Slot; 2], krakens: Option<[(u8, u8); 2]>) -> PreparedGame {
        let krakens = krakens.unwrap_or_else(|| self.shared.krakens());
        self.shared.lobby().prepare(slots, krakens, true)
    }

    /// Whether `room` is reserved but has not started (a seat is empty or it is paused).
    pub fn is_waiting(&self, room: &str) -> bool {
        self.shared.lobby().is_waiting(room)
    }

    /// The next finished game of any kind (join or prepared), in order of finishing.
    pub async fn next_finished(&self) -> Option<GameRecord> {
        self.finished.lock().await.recv().await
    }

    /// Stops accepting connections (running games finish on their own tasks).
    pub fn shutdown(&self) {
        self.accept.abort();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.accept.abort();
    }
}
