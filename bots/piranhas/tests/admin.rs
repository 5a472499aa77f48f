//! The admin side over the wire: authentication, `prepare` with paused slots, `pause`,
//! `observe`; the error paths of spec §9 R8 answered like the official 19.2.1 server, one
//! test per case (wrong password, unknown game type in `join` and `prepare`, unknown
//! element, a move out of turn, unknown or reused reservation codes), and our own refusals
//! (admin requests without authentication, a nested `<protocol>`).

use kibitz_bots_piranhas::client::Session;
use kibitz_bots_piranhas::protocol::{Framer, ScoreCause, ServerMessage};
use kibitz_bots_piranhas::server::{Server, ServerConfig};
use kibitz_piranhas::Color;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

mod common;
use common::GUARD;

async fn server() -> Server {
    let config = ServerConfig {
        close_grace: Duration::from_millis(100),
        ..ServerConfig::default()
    };
    Server::bind("127.0.0.1:0", config).await.unwrap()
}

/// A player that sends `first`, reports `joined` once seated, and plays random moves.
async fn probe(port: u16, first: String, joined: oneshot::Sender<()>, seed: u64) -> Session {
    let mut joined = Some(joined);
    common::random_player(port, &first, seed, |session, _| {
        if session.room.is_some() {
            if let Some(tx) = joined.take() {
                let _ = tx.send(());
            }
        }
        None
    })
    .await
}

/// Reads admin messages until one matches.
async fn next_msg(
    s: &mut TcpStream,
    framer: &mut Framer,
    want: impl Fn(&ServerMessage) -> bool,
) -> ServerMessage {
    let seen = common::read_until(s, framer, want).await;
    seen.into_iter().last().expect("the match comes last")
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

/// Sends `<protocol>` and `hello`, returns everything the server sends until it closes.
async fn exchange(port: u16, hello: &str, bound: Duration) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    s.write_all(format!("<protocol>{hello}").as_bytes())
        .await
        .unwrap();
    let mut all = Vec::new();
    tokio::time::timeout(bound, s.read_to_end(&mut all))
        .await
        .unwrap_or_else(|_| panic!("{hello}: connection still open after {bound:?}"))
        .unwrap();
    String::from_utf8(all).unwrap()
}

/// What 19.2.1 answers to the requests it refuses (spec §9 R8).
const CLOSE_CONNECTION: &str =
    "<protocol>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r8_a_wrong_admin_password_gets_close_connection() {
    let server = server().await;
    let port = server.local_addr().port();
    let got = exchange(port, "<authenticate passphrase=\"wrong\" />", GUARD).await;
    assert_eq!(got, CLOSE_CONNECTION);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r8_a_join_of_an_unknown_game_type_gets_close_connection() {
    let server = server().await;
    let port = server.local_addr().port();
    let hello = "<join gameType=\"swc_2018_hase_und_igel\" />";
    assert_eq!(exchange(port, hello, GUARD).await, CLOSE_CONNECTION);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r8_an_unknown_element_gets_an_empty_stream_and_is_closed() {
    let server = server().await;
    let port = server.local_addr().port();
    // Bounded far below the login timeout (60 s): only the unknown element may close it.
    let bound = Duration::from_secs(20);
    let hello = "<thisIsNotAKnownElement foo=\"1\"/>";
    assert_eq!(exchange(port, hello, bound).await, "<protocol/>");
    // After an admin login too (nothing was sent to it either).
    let hello = "<authenticate passphrase=\"examplepassword\" /><thisIsNotAKnownElement/>";
    assert_eq!(exchange(port, hello, bound).await, "<protocol/>");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r8_a_prepare_of_an_unknown_game_type_gets_close_connection() {
    let server = server().await;
    let port = server.local_addr().port();
    let hello = "<authenticate passphrase=\"examplepassword\" />\
        <prepare gameType=\"nope\"><slot displayName=\"x\" /><slot displayName=\"y\" /></prepare>";
    assert_eq!(exchange(port, hello, GUARD).await, CLOSE_CONNECTION);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r8_an_unknown_reservation_code_gets_close_connection() {
    let server = server().await;
    let port = server.local_addr().port();
    let hello = "<joinPrepared reservationCode=\"does-not-exist\" />";
    assert_eq!(exchange(port, hello, GUARD).await, CLOSE_CONNECTION);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r8_a_move_out_of_turn_is_refused_and_the_mover_loses_with_left() {
    let server = server().await;
    let port = server.local_addr().port();
    let g = server.prepare(
        [0, 1].map(|i| kibitz_bots_piranhas::protocol::Slot {
            display_name: ["ann", "bob"][i].into(),
            can_timeout: true,
            should_be_paused: false,
        }),
        Some([(3, 3), (6, 7)]),
    );
    let mut conns = Vec::new();
    for code in &g.codes {
        let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let hello = format!("<protocol><joinPrepared reservationCode=\"{code}\" />");
        s.write_all(hello.as_bytes()).await.unwrap();
        conns.push((s, Framer::new(1 << 20)));
    }
    let [(mut red, mut red_framer), (mut blue, mut blue_framer)] =
        <[_; 2]>::try_from(conns).unwrap();
    // Turn 0: RED is asked, BLUE has the first memento.
    tokio::time::timeout(
        GUARD,
        next_msg(&mut red, &mut red_framer, |m| {
            matches!(m, ServerMessage::MoveRequest { .. })
        }),
    )
    .await
    .unwrap();
    tokio::time::timeout(
        GUARD,
        next_msg(&mut blue, &mut blue_framer, |m| {
            matches!(m, ServerMessage::Memento { .. })
        }),
    )
    .await
    .unwrap();
    // BLUE moves anyway.
    let room = &g.room;
    let mv = format!(
        "<room roomId=\"{room}\"><data class=\"move\" x=\"1\" y=\"0\" direction=\"UP\" /></room>"
    );
    blue.write_all(mv.as_bytes()).await.unwrap();
    let mut rest = Vec::new();
    tokio::time::timeout(GUARD, blue.read_to_end(&mut rest))
        .await
        .expect("BLUE's connection is closed")
        .unwrap();
    let rest = String::from_utf8(rest).unwrap();
    assert_eq!(
        rest,
        format!(
            "\n  <room roomId=\"{room}\">\
             \n    <data class=\"error\" message=\"It&apos;s not your turn yet.\">\
             \n      <originalRequest class=\"move\" x=\"1\" y=\"0\" direction=\"UP\"/>\
             \n    </data>\
             \n  </room>\
             \n  <sc.protocol.responses.CloseConnection/>\
             \n</protocol>"
        ),
        "BLUE gets the error, no result"
    );
    // RED wins: BLUE has left.
    let ServerMessage::Result { result, .. } = tokio::time::timeout(
        GUARD,
        next_msg(&mut red, &mut red_framer, |m| {
            matches!(m, ServerMessage::Result { .. })
        }),
    )
    .await
    .unwrap() else {
        unreachable!()
    };
    assert_eq!(result.scores[1].cause, ScoreCause::Left);
    assert_eq!(
        result.scores[1].reason.as_deref(),
        Some("Der Spieler hat das Spiel verlassen")
    );
    assert_eq!(result.scores[0].cause, ScoreCause::Regular);
    assert_eq!(result.winner, Some(("ann".to_string(), Color::Red)));
    let left = tokio::time::timeout(GUARD, next_msg(&mut red, &mut red_framer, |_| true))
        .await
        .unwrap();
    assert_eq!(left, ServerMessage::Left { room: room.clone() });
    let record = tokio::time::timeout(GUARD, g.result)
        .await
        .unwrap()
        .unwrap();
    assert!(record.moves.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_own_refusals_say_why() {
    let server = server().await;
    let port = server.local_addr().port();
    for hello in [
        "<prepare gameType=\"swc_2019_piranhas\"><slot displayName=\"x\" /><slot displayName=\"y\" /></prepare>",
        "<observe roomId=\"r\" />",
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
    assert_eq!(text, CLOSE_CONNECTION, "a used code is unknown");
}
