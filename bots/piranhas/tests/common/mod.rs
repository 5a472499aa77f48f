//! What several test files of the Piranhas bot share: a raw random player over the real
//! protocol, driven by the client's own [`Session`], for tests that need a well-behaved
//! opponent while they watch the wire or the server.

use kibitz_bots_piranhas::client::{Action, Session};
use kibitz_bots_piranhas::protocol::{ClientMessage, Framer, MoveMsg};
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_search::agent::{Agent, RandomAgent, View};
use kibitz_search::time::TimeControl;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

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
