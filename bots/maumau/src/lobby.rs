//! The server's front door (spec §3, §10 item 4): one task accepts every connection at once,
//! caps connections in total and per peer address ([`kibitz_net::limits::Limits`], as the
//! other servers do), and runs each handshake in a task of its own with its own name-line
//! timeout. A silent or slow connection therefore never delays another connection's handshake
//! or a running game, and held connections never fill the listen backlog: beyond a cap they
//! are closed at once.
//!
//! A connection whose name line arrived waits in the lobby, in arrival order, until a game
//! takes it for a seat (`Lobby::next`); the `setName` reply is sent then, because it carries
//! the seat (`Bot <seat>` for an unreadable name). A name line without a `status` key gets no
//! reply at all and never a seat, as on the real server; that connection is left open but
//! ignored until the client closes it or the name timeout (at least
//! [`NO_STATUS_LINGER_MIN`]) has passed.

use crate::conn::{Conn, Wait};
use crate::protocol::{self, NameLine, ServerMsg};
use crate::server::ServerConfig;
use kibitz_net::limits::{Limits, Permit};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::{JoinHandle, JoinSet};
use tracing::{debug, info, warn};

/// Shortest time a connection whose name line had no `status` key is kept open (spec §10
/// item 4: "T (at least 10 s)").
pub const NO_STATUS_LINGER_MIN: Duration = Duration::from_secs(10);

/// A connection that finished its half of the handshake: its name line arrived and asks for
/// a seat.
pub(crate) struct Greeted {
    /// The connection (it holds its cap slot).
    pub(crate) conn: Conn,
    /// The name line as received.
    pub(crate) line: Vec<u8>,
    /// How the real server reads it (never [`NameLine::NoStatus`]).
    pub(crate) name: NameLine,
}

/// Connections accepted and greeted in the background, waiting for seats.
pub struct Lobby {
    greeted: mpsc::UnboundedReceiver<Greeted>,
    acceptor: JoinHandle<()>,
    addr: SocketAddr,
}

impl Lobby {
    /// Starts accepting on `listener` with `cfg`'s name-line timeout and connection caps.
    /// Must be called inside a Tokio runtime; accepting stops when the lobby is dropped.
    pub fn open(listener: TcpListener, cfg: &ServerConfig) -> std::io::Result<Lobby> {
        let addr = listener.local_addr()?;
        let (tx, greeted) = mpsc::unbounded_channel();
        let limits = Limits::new(cfg.max_connections, cfg.max_connections_per_peer);
        let timing = Timing {
            name: cfg.turn_timeout.or(cfg.idle_timeout),
        };
        let acceptor = tokio::spawn(accept_loop(listener, limits, timing, tx));
        Ok(Lobby {
            greeted,
            acceptor,
            addr,
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The next greeted connection, in the order the name lines arrived. Cancel-safe.
    pub(crate) async fn next(&mut self) -> Option<Greeted> {
        self.greeted.recv().await
    }
}

impl Drop for Lobby {
    fn drop(&mut self) {
        // Ends the accept loop and, with its task set, every handshake still running.
        self.acceptor.abort();
    }
}

#[derive(Clone, Copy)]
struct Timing {
    /// Wait for the name line; `None` = forever.
    name: Option<Duration>,
}

async fn accept_loop(
    listener: TcpListener,
    limits: Limits,
    timing: Timing,
    tx: mpsc::UnboundedSender<Greeted>,
) {
    let mut greeters = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let Some(permit) = limits.admit(peer.ip()) else {
                        info!("connection from {peer} refused: too many connections");
                        drop(stream);
                        continue;
                    };
                    greeters.spawn(greet(stream, permit, timing, tx.clone()));
                }
                Err(e) => {
                    // E.g. out of file descriptors: back off instead of spinning.
                    warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
            Some(_) = greeters.join_next(), if !greeters.is_empty() => {}
        }
    }
}

/// Sends `sendName`, reads the name line within the timeout and passes the connection on;
/// closes it when it fails, and keeps a name line without `status` open but ignored.
async fn greet(
    stream: TcpStream,
    permit: Permit,
    timing: Timing,
    tx: mpsc::UnboundedSender<Greeted>,
) {
    let mut conn = Conn::new(stream);
    conn.hold(permit);
    debug!("connection from {}", conn.peer);
    if !conn.send(ServerMsg::SendName.encode().as_bytes()).await {
        conn.close().await;
        return;
    }
    conn.awaiting = true;
    let line = match conn.next_line(timing.name).await {
        Wait::Line(l) => l,
        Wait::Eof | Wait::Timeout => {
            info!(
                "{}: no name line; connection closed, no seat taken",
                conn.peer
            );
            conn.close().await;
            return;
        }
    };
    conn.awaiting = false;
    let name = protocol::read_name_line(&line);
    if name == NameLine::NoStatus {
        linger(conn, &line, timing).await;
        return;
    }
    if let Err(mpsc::error::SendError(mut g)) = tx.send(Greeted { conn, line, name }) {
        g.conn.close().await;
    }
}

/// A name line without `status`: no reply and no seat, as on the real server; the connection
/// stays open, its lines ignored, until the client closes it or the name timeout (at least
/// [`NO_STATUS_LINGER_MIN`]) has passed.
async fn linger(mut conn: Conn, line: &[u8], timing: Timing) {
    let limit = timing.name.map(|t| t.max(NO_STATUS_LINGER_MIN));
    info!(
        "{}: name line without status {:?}: no reply, no seat; the connection is ignored{}",
        conn.peer,
        protocol::truncate(line),
        limit.map_or(String::new(), |t| format!(
            " and closed after {} s",
            t.as_secs_f64()
        ))
    );
    let until = limit.map(|t| tokio::time::Instant::now() + t);
    conn.awaiting = true; // what it sends is not a protocol warning: it is not read at all
    loop {
        let left = until.map(|u| u.saturating_duration_since(tokio::time::Instant::now()));
        if left == Some(Duration::ZERO) {
            break;
        }
        match conn.next_line(left).await {
            Wait::Line(_) => {}
            Wait::Eof | Wait::Timeout => break,
        }
    }
    conn.close().await;
}
