//! The admin side over the wire: authentication, `prepare` with paused slots, `pause`,
//! `observe`, and refusals (wrong passphrase, admin requests without authentication,
//! unknown or reused reservation codes).

use kibitz_bots_piranhas::client::{Action, Session};
use kibitz_bots_piranhas::player::{Player, RandomPlayer};
use kibitz_bots_piranhas::protocol::{ClientMessage, Frame, Framer, MoveMsg, ServerMessage};
use kibitz_bots_piranhas::server::{Server, ServerConfig};
use kibitz_piranhas::Color;
use kibitz_search::time::TimeControl;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

const GUARD: Duration = Duration::from_secs(60);

async fn server() -> Server {
    let config = ServerConfig {
        close_grace: Duration::from_millis(100),
        ..ServerConfig::default()
    };
    Server::bind("127.0.0.1:0", config).await.unwrap()
}

/// A player that sends `first`, reports `joined`, and plays random moves via [`Session`].
async fn probe(port: u16, first: String, joined: oneshot::Sender<()>, seed: u64) -> Session {
    let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    s.write_all(format!("<protocol>{first}").as_bytes())
        .await
        .unwrap();
    let mut joined = Some(joined);
    let mut session = Session::new();
    let mut rng = RandomPlayer::new(seed);
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
            if session.room.is_some() {
                if let Some(tx) = joined.take() {
                    let _ = tx.send(());
                }
            }
            match action {
                Action::Move { room, state } => {
                    let mv = rng.choose(&state, &TimeControl::infinite()).mv.unwrap();
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

/// Reads admin messages until one matches.
async fn next_msg(
    s: &mut TcpStream,
    framer: &mut Framer,
    want: impl Fn(&ServerMessage) -> bool,
) -> ServerMessage {
    let mut buf = [0u8; 8192];
    loop {
        while let Some(f) = framer.next_frame().unwrap() {
            if let Frame::Message(m) = f {
                let msg = ServerMessage::parse(&m).unwrap();
                if want(&msg) {
                    return msg;
                }
            }
        }
        let n = s.read(&mut buf).await.unwrap();
        assert!(n > 0, "admin connection closed");
        framer.push(&buf[..n]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paused_prepared_game_waits_for_pause_false() {
    let server = server().await;
    let port = server.local_addr().port();
    let mut admin = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    admin
        .write_all(
            b"<protocol><authenticate passphrase=\"examplepassword\" />\
              <prepare gameType=\"swc_2019_piranhas\">\
              <slot displayName=\"ann\" canTimeout=\"true\" shouldBePaused=\"true\" />\
              <slot displayName=\"bob\" canTimeout=\"false\" shouldBePaused=\"false\" /></prepare>",
        )
        .await
        .unwrap();
    let mut framer = Framer::new(1 << 20);
    let ServerMessage::Prepared { room, codes } = next_msg(&mut admin, &mut framer, |m| {
        matches!(m, ServerMessage::Prepared { .. })
    })
    .await
    else {
        unreachable!()
    };
    assert_eq!(codes.len(), 2);
    let observe = format!("<observe roomId=\"{room}\" />");
    admin.write_all(observe.as_bytes()).await.unwrap();
    next_msg(&mut admin, &mut framer, |m| {
        matches!(m, ServerMessage::Observed { .. })
    })
    .await;

    let mut players = Vec::new();
    let mut joins = Vec::new();
    for (i, code) in codes.iter().enumerate() {
        let (tx, rx) = oneshot::channel();
        let first = format!("<joinPrepared reservationCode=\"{code}\" />");
        players.push(tokio::spawn(probe(port, first, tx, i as u64)));
        joins.push(rx);
    }
    for j in joins {
        j.await.unwrap();
    }
    // Both seats are taken (each join was processed before its `joined` went out), yet the
    // paused room has not started.
    assert!(server.is_waiting(&room));
    let resume = format!("<pause roomId=\"{room}\" pause=\"false\" />");
    admin.write_all(resume.as_bytes()).await.unwrap();
    let ServerMessage::Result { result, .. } = tokio::time::timeout(
        GUARD,
        next_msg(&mut admin, &mut framer, |m| {
            matches!(m, ServerMessage::Result { .. })
        }),
    )
    .await
    .unwrap() else {
        unreachable!()
    };
    assert!(!server.is_waiting(&room));
    let mut colors = Vec::new();
    for p in players {
        let s = p.await.unwrap();
        assert_eq!(s.result.as_ref(), Some(&result));
        colors.push(s.color);
    }
    assert_eq!(
        colors,
        [Some(Color::Red), Some(Color::Blue)],
        "slot 1 is RED"
    );
    if let Some((name, c)) = &result.winner {
        assert_eq!(name, ["ann", "bob"][*c as usize]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals() {
    let server = server().await;
    let port = server.local_addr().port();
    for hello in [
        "<authenticate passphrase=\"wrong\" />",
        "<prepare gameType=\"swc_2019_piranhas\"><slot displayName=\"x\" /><slot displayName=\"y\" /></prepare>",
        "<observe roomId=\"r\" />",
        "<joinPrepared reservationCode=\"no-such-code\" />",
        "<protocol>",
    ] {
        let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        s.write_all(format!("<protocol>{hello}").as_bytes()).await.unwrap();
        let mut all = Vec::new();
        tokio::time::timeout(GUARD, s.read_to_end(&mut all))
            .await
            .unwrap()
            .unwrap();
        let text = String::from_utf8(all).unwrap();
        assert!(
            text.starts_with("<protocol>\n  <error message=\"") && text.ends_with("\n</protocol>"),
            "{hello}: {text:?}"
        );
    }
    // A reservation code is good once.
    let g = server.prepare(
        [0, 1].map(|i| kibitz_bots_piranhas::protocol::Slot {
            display_name: format!("p{i}"),
            can_timeout: true,
            should_be_paused: false,
        }),
        None,
    );
    let (tx, rx) = oneshot::channel();
    let first = format!("<joinPrepared reservationCode=\"{}\" />", g.codes[0]);
    let _seated = tokio::spawn(probe(port, first.clone(), tx, 1));
    // Once the first join is through, the same code is refused.
    rx.await.unwrap();
    let mut again = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let _ = again
        .write_all(format!("<protocol>{first}").as_bytes())
        .await;
    let mut all = Vec::new();
    let _ = tokio::time::timeout(GUARD, again.read_to_end(&mut all))
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&all);
    assert!(text.contains("<error message="), "{text:?}");
}
