//! The seating half of the handshake (spec §3, §10): take the next connection whose name line
//! has arrived ([`crate::lobby`] accepts and greets them concurrently) and answer its name line
//! with the seat it gets. While a game waits for its seats, the bots already seated are watched,
//! and one that leaves is let go at once and its seat filled by the next connection.

use crate::conn::Conn;
use crate::lobby::{Greeted, Lobby};
use crate::protocol::{self, NameLine, ServerMsg};
use crate::server::Seat;
use crate::translog::TransLog;
use std::future::poll_fn;
use std::task::Poll;
use tracing::{info, warn};

/// The lobby stopped handing out connections (its accept task ended).
fn lobby_closed() -> std::io::Error {
    std::io::Error::other("the server stopped accepting connections")
}

/// Takes greeted connections from the lobby, in the order their name lines arrived, until
/// one is seated as seat `seat`.
pub(crate) async fn handshake(
    lobby: &mut Lobby,
    seat: usize,
    log: &mut TransLog,
) -> std::io::Result<(Conn, String)> {
    loop {
        let greeted = lobby.next().await.ok_or_else(lobby_closed)?;
        if let Some(seated) = answer(greeted, seat, log).await {
            return Ok(seated);
        }
    }
}

/// Fills the next seat like [`handshake`], while watching the bots already seated: returns
/// `None` as soon as one of them has left (it is dropped, and the caller fills seats again).
pub(crate) async fn seat_next(
    lobby: &mut Lobby,
    seats: &mut Vec<Seat>,
    log: &mut TransLog,
    index: u32,
) -> std::io::Result<Option<(Conn, String)>> {
    let seat = seats.len();
    loop {
        // Both are cancel-safe: a greeted connection stays in the lobby, a seated bot's
        // lines stay queued.
        let next = tokio::select! {
            g = lobby.next() => Ok(g.ok_or_else(lobby_closed)?),
            left = first_to_leave(seats) => Err(left),
        };
        match next {
            Ok(greeted) => {
                if let Some(seated) = answer(greeted, seat, log).await {
                    return Ok(Some(seated));
                }
            }
            Err(i) => {
                let mut gone = seats.remove(i);
                let_go(&mut gone, i, log, index).await;
                return Ok(None);
            }
        }
    }
}

/// The index of the first seated bot seen to have closed its connection.
async fn first_to_leave(seats: &mut [Seat]) -> usize {
    poll_fn(|cx| {
        for (i, s) in seats.iter_mut().enumerate() {
            if s.conn.poll_closed(cx).is_ready() {
                return Poll::Ready(i);
            }
        }
        Poll::Pending
    })
    .await
}

/// Seats a greeted connection as `seat`: answers its name line the way the real server does
/// (§3; a line the real server would crash on is read like a non-JSON line, §10 item 1).
/// `None` when it has left meanwhile or the reply cannot be written.
async fn answer(greeted: Greeted, seat: usize, log: &mut TransLog) -> Option<(Conn, String)> {
    let Greeted {
        mut conn,
        line,
        name,
    } = greeted;
    conn.poll();
    if conn.saw_eof() {
        info!("{}: left while waiting for a seat; not seated", conn.peer);
        conn.close().await;
        return None;
    }
    log.note(seat, &format!("CONNECT {}", conn.peer));
    log.out(seat, ServerMsg::SendName.encode().as_bytes());
    log.inp(seat, &line);
    let (reply, name) = match name {
        NameLine::Ok(name) => (
            ServerMsg::SetName {
                ok: true,
                name: Some(name.clone()),
            },
            name,
        ),
        other => {
            if matches!(other, NameLine::Bad | NameLine::Crash) {
                warn!(
                    "seat {seat}: name line {:?} would crash the real server",
                    protocol::truncate(&line)
                );
            }
            let name = format!("Bot {seat}");
            (
                ServerMsg::SetName {
                    ok: false,
                    name: Some(name.clone()),
                },
                name,
            )
        }
    };
    let bytes = reply.encode();
    log.out(seat, bytes.as_bytes());
    if conn.send(bytes.as_bytes()).await {
        Some((conn, name))
    } else {
        conn.close().await;
        None
    }
}

/// Drops the seated bots whose connection is already closed; returns whether any was.
pub(crate) async fn drop_vanished(seats: &mut Vec<Seat>, log: &mut TransLog, index: u32) -> bool {
    // Let the reader tasks take in what the socket already holds (a yield polls the I/O driver).
    tokio::task::yield_now().await;
    let before = seats.len();
    let mut kept = Vec::with_capacity(before);
    for (i, mut s) in std::mem::take(seats).into_iter().enumerate() {
        s.conn.poll();
        if s.conn.saw_eof() {
            let_go(&mut s, i, log, index).await;
        } else {
            kept.push(s);
        }
    }
    *seats = kept;
    seats.len() < before
}

/// Logs and closes a seated bot that left before its game started.
async fn let_go(s: &mut Seat, i: usize, log: &mut TransLog, index: u32) {
    info!(
        "game {index}: {} ({}) left before the game started; seat {i} is filled again",
        s.name, s.conn.peer
    );
    log.note(i, "DISCONNECTED while waiting for the game: not seated");
    s.conn.close().await;
}
