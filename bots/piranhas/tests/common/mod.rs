//! What several test files of the Piranhas bot share: the hang guard, reading server
//! messages off a raw connection, and a raw random player over the real protocol, driven by
//! the client's own [`Session`], for tests that need a well-behaved opponent while they watch
//! the wire or the server.

// Each test file compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use kibitz_bots_piranhas::client::{Action, Session};
use kibitz_bots_piranhas::protocol::{ClientMessage, Frame, Framer, MoveMsg, ServerMessage};
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_search::agent::{Agent, RandomAgent, View};
use kibitz_search::time::TimeControl;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A hang guard, not a speed assertion.
pub const GUARD: Duration = Duration::from_secs(60);

/// Reads server messages from `s` (through `framer`, which keeps what arrived past the match
/// for the next call) until `stop` matches one; returns every message seen, the match last.
/// Panics when the connection closes first.
pub async fn read_until(
    s: &mut TcpStream,
    framer: &mut Framer,
    stop: impl Fn(&ServerMessage) -> bool,
) -> Vec<ServerMessage> {
    let mut seen = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        while let Some(f) = framer.next_frame().unwrap() {
            if let Frame::Message(m) = f {
                let msg = ServerMessage::parse(&m).unwrap();
                let done = stop(&msg);
                seen.push(msg);
                if done {
                    return seen;
                }
            }
        }
        let n = s.read(&mut buf).await.unwrap();
        assert!(n > 0, "connection closed early");
        framer.push(&buf[..n]);
    }
}

/// Everything until the server closes the connection (bounded by [`GUARD`]).
pub async fn drain(s: &mut TcpStream) -> String {
    let mut all = Vec::new();
    let _ = tokio::time::timeout(GUARD, s.read_to_end(&mut all))
        .await
        .expect("server never closed");
    String::from_utf8_lossy(&all).into_owned()
}

/// A random player on `port`: opens with `<protocol>` and `hello` (a `join`, a
/// `joinPrepared` or anything a test wants to send first), then answers every move request
/// with a random legal move (seeded by `seed`) until the server closes the connection.
/// `hook` sees the session after every frame and the action it asks for, and may ask to wait
/// that long before acting. Returns the session as the game left it.
pub async fn random_player(
    port: u16,
    hello: &str,
    seed: u64,
    mut hook: impl FnMut(&Session, &Action) -> Option<Duration>,
) -> Session {
    let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    s.write_all(format!("<protocol>{hello}").as_bytes())
        .await
        .unwrap();
    let mut session = Session::new();
    let mut rng = RandomAgent::new(seed);
    let mut framer = Framer::new(1 << 20);
    let mut buf = [0u8; 8192];
    loop {
        let n = s.read(&mut buf).await.unwrap_or(0);
        if n == 0 {
            return session;
        }
        framer.push(&buf[..n]);
        while let Some(f) = framer.next_frame().unwrap() {
            let action = session.on_frame(f).unwrap();
            if let Some(wait) = hook(&session, &action) {
                tokio::time::sleep(wait).await;
            }
            match action {
                Action::Move { room, state } => {
                    let mv = Agent::<Piranhas>::choose(
                        &mut rng,
                        &View::new(&Piranhas(state), state.current() as usize),
                        &TimeControl::infinite(),
                    )
                    .action;
                    let msg = ClientMessage::Move {
                        room,
                        mv: MoveMsg { mv, hints: vec![] },
                    };
                    s.write_all(msg.to_xml().as_bytes()).await.unwrap();
                }
                Action::Finish => {
                    let _ = s.write_all(b"</protocol>").await;
                }
                Action::Wait => {}
            }
        }
    }
}
