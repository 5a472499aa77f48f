//! One client connection: a writer task fed by an outbox, and a reader that decodes the stream
//! and routes messages (lobby requests, moves to the game, admin commands).

use super::game;
use super::lobby::{JoinError, Out, Outbox, PlayerEvent, Seat, StartGame};
use super::Shared;
use crate::protocol::{
    ClientMessage, Frame, Framer, ServerMessage, EMPTY_STREAM, GAME_TYPE, OPEN, SERVER_CLOSE,
};
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, watch};

fn recorder(shared: &Shared, id: u64, dir: &str) -> Option<File> {
    let root = shared.config.record_dir.as_ref()?;
    File::create(root.join(format!("conn{id:04}.{dir}.xml"))).ok()
}

/// Sends a message to a connection's outbox (a closed outbox means the peer is gone: fine).
pub(crate) fn send(out: &Outbox, msg: &ServerMessage) {
    let _ = out.send(Out::Data(msg.to_xml()));
}

/// Serves one connection until it closes; never panics on input.
pub(crate) async fn serve(stream: TcpStream, shared: Arc<Shared>, id: u64) {
    let _ = stream.set_nodelay(true);
    let (mut rd, mut wr) = stream.into_split();
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Out>();
    let (kill_tx, mut kill_rx) = watch::channel(false);
    let mut rec_out = recorder(&shared, id, "server_to_client");
    let mut rec_in = recorder(&shared, id, "client_to_server");

    // Writer: like 19.2.1, the stream's `<protocol>` goes out with the first message (the
    // recorded servers send both in one read); Close writes the closing tag (`<protocol/>`
    // when nothing was written), shuts down and stops the reader.
    let writer = tokio::spawn(async move {
        let mut opened = false;
        while let Some(o) = out_rx.recv().await {
            let (bytes, last) = match o {
                Out::Data(s) if opened => (s, false),
                Out::Data(s) => {
                    opened = true;
                    (format!("{OPEN}{s}"), false)
                }
                Out::Close if opened => (SERVER_CLOSE.to_string(), true),
                Out::Close => (EMPTY_STREAM.to_string(), true),
            };
            if let Some(f) = &mut rec_out {
                let _ = f.write_all(bytes.as_bytes());
            }
            if wr.write_all(bytes.as_bytes()).await.is_err() || last {
                break;
            }
        }
        let _ = wr.shutdown().await;
        let _ = kill_tx.send(true);
    });

    let (ev_tx, ev_rx) = mpsc::unbounded_channel::<PlayerEvent>();
    let mut ev_rx = Some(ev_rx);
    let mut joined = false;
    let mut admin = false;
    let mut framer = Framer::new(shared.config.max_message);
    let mut buf = vec![0u8; 8192];
    let deadline = tokio::time::Instant::now() + shared.config.login_timeout;
    let playing = Arc::new(AtomicBool::new(false));
    let idle = shared.config.idle_timeout;
    let far = Duration::from_secs(86_400 * 365);
    let mut idle_at = tokio::time::Instant::now() + idle.unwrap_or(far);
    // Why the server ends this connection (`None`: the peer ended it).
    let mut gone: Option<Ending> = None;
    'conn: loop {
        let n = tokio::select! {
            r = rd.read(&mut buf) => r.unwrap_or(0),
            _ = kill_rx.changed() => break 'conn,
            _ = tokio::time::sleep_until(deadline), if !joined && !admin => {
                gone = Some(Ending::Refuse("no join within the login timeout".into()));
                break 'conn;
            }
            _ = tokio::time::sleep_until(idle_at), if (joined || admin) && idle.is_some() => {
                if playing.load(Ordering::Relaxed) {
                    // In a running game the move time limits apply, never the idle timeout.
                    idle_at = tokio::time::Instant::now() + idle.unwrap_or(far);
                    continue;
                }
                let why = format!(
                    "idle: nothing received for {:.1} s outside a running game",
                    idle.unwrap_or(far).as_secs_f64()
                );
                // Not in a running game: the common path below refuses with this reason.
                gone = Some(Ending::Refuse(why));
                break 'conn;
            }
        };
        if n == 0 {
            break;
        }
        idle_at = tokio::time::Instant::now() + idle.unwrap_or(far);
        if let Some(f) = &mut rec_in {
            let _ = f.write_all(&buf[..n]);
        }
        framer.push(&buf[..n]);
        loop {
            let frame = match framer.next_frame() {
                Ok(Some(f)) => f,
                Ok(None) => break,
                Err(e) => {
                    gone = Some(Ending::Refuse(e.to_string()));
                    break 'conn;
                }
            };
            let text = match frame {
                Frame::Open => continue,
                Frame::Close => {
                    let _ = out_tx.send(Out::Close);
                    break 'conn;
                }
                Frame::Message(t) => t,
            };
            let msg = match ClientMessage::parse(&text) {
                Ok(m) => m,
                Err(e) => {
                    gone = Some(Ending::Refuse(e.to_string()));
                    break 'conn;
                }
            };
            let received = Instant::now();
            let mut start: Option<StartGame> = None;
            match msg {
                ClientMessage::Move { mv, .. } if joined => {
                    if ev_tx.send(PlayerEvent::Move(mv, received)).is_err() {
                        // The game is over (its task stopped listening): spec §7.3.
                        tracing::info!("connection {id}: move after the end of its game; closing");
                        send(&out_tx, &ServerMessage::CloseConnection);
                        let _ = out_tx.send(Out::Close);
                        break 'conn;
                    }
                }
                ClientMessage::Join { .. } | ClientMessage::JoinPrepared { .. } if joined => {
                    tracing::warn!("connection {id}: second join ignored");
                }
                ClientMessage::Join { game_type } if game_type != GAME_TYPE => {
                    gone = Some(close_connection(
                        &out_tx,
                        format!("join of the unknown game type {game_type:?}"),
                    ));
                    break 'conn;
                }
                ClientMessage::Join { .. } => {
                    let Some(events) = ev_rx.take() else { continue };
                    let seat = Seat {
                        out: out_tx.clone(),
                        events,
                        playing: Arc::clone(&playing),
                    };
                    let krakens = shared.krakens();
                    let (room, s) = shared.lobby().join(seat, krakens);
                    send(&out_tx, &ServerMessage::Joined { room });
                    joined = true;
                    start = s;
                }
                ClientMessage::JoinPrepared { code } => {
                    let Some(events) = ev_rx.take() else { continue };
                    let seat = Seat {
                        out: out_tx.clone(),
                        events,
                        playing: Arc::clone(&playing),
                    };
                    let r = shared.lobby().join_prepared(&code, seat);
                    match r {
                        Ok((room, s)) => {
                            send(&out_tx, &ServerMessage::Joined { room });
                            joined = true;
                            start = s;
                        }
                        Err(e) => {
                            let why = match e {
                                JoinError::UnknownCode => "unknown reservation code",
                                JoinError::SlotTaken => "reservation already used",
                            };
                            gone = Some(close_connection(&out_tx, format!("{why} {code:?}")));
                            break 'conn;
                        }
                    }
                }
                ClientMessage::Authenticate { passphrase } => {
                    if passphrase == shared.config.password {
                        admin = true;
                    } else {
                        gone = Some(close_connection(&out_tx, "wrong admin password".into()));
                        break 'conn;
                    }
                }
                ClientMessage::Prepare { game_type, .. } if admin && game_type != GAME_TYPE => {
                    gone = Some(close_connection(
                        &out_tx,
                        format!("prepare of the unknown game type {game_type:?}"),
                    ));
                    break 'conn;
                }
                ClientMessage::Prepare { slots, .. } if admin => {
                    let slots = match <[_; 2]>::try_from(slots) {
                        Ok(s) => s,
                        Err(v) => {
                            let why = format!("prepare needs 2 slots, got {}", v.len());
                            gone = Some(Ending::Refuse(why));
                            break 'conn;
                        }
                    };
                    let krakens = shared.krakens();
                    let p = shared.lobby().prepare(slots, krakens, true);
                    send(
                        &out_tx,
                        &ServerMessage::Prepared {
                            room: p.room,
                            codes: p.codes.to_vec(),
                        },
                    );
                }
                ClientMessage::Observe { room } if admin => {
                    shared.lobby().observe(&room, out_tx.clone());
                    send(&out_tx, &ServerMessage::Observed { room });
                }
                ClientMessage::Pause { room, pause } if admin => {
                    start = shared.lobby().set_paused(&room, pause);
                }
                ClientMessage::Prepare { .. }
                | ClientMessage::Observe { .. }
                | ClientMessage::Pause { .. } => {
                    let why = "administrative request without authentication".to_string();
                    gone = Some(Ending::Refuse(why));
                    break 'conn;
                }
                ClientMessage::Move { .. } => {
                    tracing::warn!("connection {id}: move outside a game ignored");
                }
                ClientMessage::Unknown(what) => {
                    // 19.2.1 cannot read it and closes the stream without a word (spec §9 R8).
                    let _ = out_tx.send(Out::Close);
                    gone = Some(Ending::Closed(format!("unknown element or class {what:?}")));
                    break 'conn;
                }
            }
            if let Some(s) = start {
                tokio::spawn(game::run(Arc::clone(&shared), s));
            }
        }
    }
    // In a running game the game decides what a leaving player gets (it loses, `LEFT`);
    // elsewhere this connection ends here.
    let in_game = joined && playing.load(Ordering::Relaxed);
    let event = match gone {
        Some(Ending::Refuse(why)) => {
            tracing::info!("connection {id} dropped: {why}");
            if in_game {
                // The game sends the error inside its room, then closes.
                Some(why)
            } else {
                refuse(&out_tx, &why);
                None
            }
        }
        Some(Ending::Closed(why)) => {
            tracing::info!("connection {id} closed: {why}");
            None
        }
        None => {
            if !in_game {
                let _ = out_tx.send(Out::Close);
            }
            None
        }
    };
    // Tell the game (if any) that this player is gone.
    let _ = ev_tx.send(PlayerEvent::Gone(event));
    drop(ev_tx);
    drop(out_tx);
    let _ = writer.await;
}

/// How the server ends a connection.
enum Ending {
    /// Our own refusal (login or idle timeout, undecodable or oversized input, an admin
    /// request without authentication): `<error message>`, then the closing tag.
    Refuse(String),
    /// Already answered the official way (spec §9 R8) and closed; the text is for the log.
    Closed(String),
}

/// The official answer to a request 19.2.1 refuses (spec §9 R8): CloseConnection, then the
/// closing tag; `why` is for our log only, the peer learns nothing more.
fn close_connection(out: &Outbox, why: String) -> Ending {
    send(out, &ServerMessage::CloseConnection);
    let _ = out.send(Out::Close);
    Ending::Closed(why)
}

fn refuse(out: &Outbox, why: &str) {
    send(
        out,
        &ServerMessage::Error {
            room: None,
            message: why.to_string(),
            original: None,
        },
    );
    let _ = out.send(Out::Close);
}
