//! The handshake of one seat (spec §3, §10): accept a connection, ask for the name, read the
//! name line the way the real server does, and answer it; connections that fail are closed and
//! the seat stays open. While a game waits for its seats, the bots already seated are watched,
//! and one that leaves is let go at once and its seat filled by the next connection.

use crate::conn::{Conn, Wait};
use crate::protocol::{self, NameLine, ServerMsg};
use crate::server::{Seat, ServerConfig};
use crate::translog::TransLog;
use std::future::poll_fn;
use std::task::Poll;
use tokio::net::{TcpListener, TcpStream};
use tracing::{info, warn};

/// Accepts connections until one finishes the handshake for seat `seat`.
pub(crate) async fn handshake(
    listener: &TcpListener,
    seat: usize,
    cfg: &ServerConfig,
    log: &mut TransLog,
) -> std::io::Result<(Conn, String)> {
    loop {
        let (stream, _) = listener.accept().await?;
        if let Some(seated) = greet(stream, seat, cfg, log).await {
            return Ok(seated);
        }
    }
}

/// Fills the next seat like [`handshake`], while watching the bots already seated: returns
/// `None` as soon as one of them has left (it is dropped, and the caller fills seats again).
pub(crate) async fn seat_next(
    listener: &TcpListener,
    seats: &mut Vec<Seat>,
    cfg: &ServerConfig,
    log: &mut TransLog,
    index: u32,
) -> std::io::Result<Option<(Conn, String)>> {
    let seat = seats.len();
    loop {
        // Accepting is cancel-safe and so is the watch; the handshake itself runs unwatched
        // (the check before the deal covers that window).
        let accepted = tokio::select! {
            a = listener.accept() => Ok(a?.0),
            left = first_to_leave(seats) => Err(left),
        };
        match accepted {
            Ok(stream) => {
                if let Some(seated) = greet(stream, seat, cfg, log).await {
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

/// Sends `sendName` on a fresh connection, reads the name line and answers it; `None` when the
/// connection fails or the line leaves the seat open.
async fn greet(
    stream: TcpStream,
    seat: usize,
    cfg: &ServerConfig,
    log: &mut TransLog,
) -> Option<(Conn, String)> {
    let mut conn = Conn::new(stream);
    log.note(seat, &format!("CONNECT {}", conn.peer));
    let hello = ServerMsg::SendName.encode();
    log.out(seat, hello.as_bytes());
    if !conn.send(hello.as_bytes()).await {
        return None;
    }
    conn.awaiting = true;
    let line = match conn.next_line(cfg.turn_timeout.or(cfg.idle_timeout)).await {
        Wait::Line(l) => l,
        Wait::Eof | Wait::Timeout => {
            log.note(seat, "no name line; connection closed, seat stays open");
            conn.close().await;
            return None;
        }
    };
    conn.awaiting = false;
    log.inp(seat, &line);
    let (reply, name) = match protocol::read_name_line(&line) {
        NameLine::Ok(name) => (
            ServerMsg::SetName {
                ok: true,
                name: Some(name.clone()),
            },
            name,
        ),
        NameLine::NoStatus => {
            // The real server sends nothing, closes and waits for another player (§3).
            info!(
                "seat {seat}: name line without status {:?}: connection closed, seat stays free",
                protocol::truncate(&line)
            );
            log.note(
                seat,
                "name line without status: connection closed, seat stays open",
            );
            conn.close().await;
            return None;
        }
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
