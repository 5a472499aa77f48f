//! The handshake of one seat (spec §3, §10): accept a connection, ask for the name, read the
//! name line the way the real server does, and answer it; connections that fail are closed and
//! the seat stays open.

use crate::conn::{Conn, Wait};
use crate::protocol::{self, NameLine, ServerMsg};
use crate::server::{Seat, ServerConfig};
use crate::translog::TransLog;
use tokio::net::TcpListener;
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
        let mut conn = Conn::new(stream);
        log.note(seat, &format!("CONNECT {}", conn.peer));
        let hello = ServerMsg::SendName.encode();
        log.out(seat, hello.as_bytes());
        if !conn.send(hello.as_bytes()).await {
            continue;
        }
        conn.awaiting = true;
        let line = match conn.next_line(cfg.turn_timeout.or(cfg.idle_timeout)).await {
            Wait::Line(l) => l,
            Wait::Eof | Wait::Timeout => {
                log.note(seat, "no name line; connection closed, seat stays open");
                conn.close().await;
                continue;
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
                continue;
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
            return Ok((conn, name));
        }
    }
}

/// Drops the seated bots whose connection is already closed; returns whether any was.
pub(crate) async fn drop_vanished(seats: &mut Vec<Seat>, log: &mut TransLog, index: u32) -> bool {
    let before = seats.len();
    let mut kept = Vec::with_capacity(before);
    for (i, mut s) in std::mem::take(seats).into_iter().enumerate() {
        s.conn.poll();
        if s.conn.saw_eof() {
            info!(
                "game {index}: {} ({}) left before the game started; seat {i} is filled again",
                s.name, s.conn.peer
            );
            log.note(i, "DISCONNECTED while waiting for the game: not seated");
            s.conn.close().await;
        } else {
            kept.push(s);
        }
    }
    *seats = kept;
    seats.len() < before
}
