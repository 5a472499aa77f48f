//! Server fidelity and hardening on loopback (bounded, self-stopping): observers get `<left>`
//! after the result, a move after the end of its game is answered with CloseConnection, idle
//! connections outside running games are closed while a player thinking within the move time
//! limit is not, and connection caps per peer.

use kibitz_bots_piranhas::client::{Action, Session};
use kibitz_bots_piranhas::protocol::{Framer, ScoreCause, ServerMessage, Slot};
use kibitz_bots_piranhas::server::{Server, ServerConfig};
use kibitz_search::agent::RandomAgent;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

mod common;
use common::{drain, read_until, GUARD};

fn slot(name: &str) -> Slot {
    Slot {
        display_name: name.into(),
        can_timeout: true,
        should_be_paused: false,
    }
}

/// A random player joining with `code`; waits `first_delay` before its first move.
async fn player(port: u16, code: String, seed: u64, first_delay: Duration) -> Session {
    let hello = format!("<joinPrepared reservationCode=\"{code}\" />");
    let mut delay = Some(first_delay);
    common::random_player(port, &hello, seed, |_, action| {
        if matches!(action, Action::Move { .. }) {
            delay.take()
        } else {
            None
        }
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observer_gets_left_after_the_result() {
    let config = ServerConfig {
        close_grace: Duration::from_millis(100),
        ..ServerConfig::default()
    };
    let server = Server::bind("127.0.0.1:0", config).await.unwrap();
    let port = server.local_addr().port();
    let g = server.prepare([slot("a"), slot("b")], None);
    let mut admin = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let hello = format!(
        "<protocol><authenticate passphrase=\"examplepassword\" /><observe roomId=\"{}\" />",
        g.room
    );
    admin.write_all(hello.as_bytes()).await.unwrap();
    let mut framer = Framer::new(1 << 20);
    read_until(&mut admin, &mut framer, |m| {
        matches!(m, ServerMessage::Observed { .. })
    })
    .await;
    let players: Vec<_> = g
        .codes
        .iter()
        .enumerate()
        .map(|(i, c)| tokio::spawn(player(port, c.clone(), i as u64, Duration::ZERO)))
        .collect();
    let seen = tokio::time::timeout(
        GUARD,
        read_until(&mut admin, &mut framer, |m| {
            matches!(m, ServerMessage::Result { .. })
        }),
    )
    .await
    .unwrap();
    assert!(matches!(seen.last(), Some(ServerMessage::Result { .. })));
    let next = tokio::time::timeout(GUARD, read_until(&mut admin, &mut framer, |_| true))
        .await
        .unwrap();
    assert_eq!(
        next,
        [ServerMessage::Left {
            room: g.room.clone()
        }]
    );
    for p in players {
        p.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_after_the_end_gets_close_connection() {
    let config = ServerConfig {
        hard_timeout: Duration::from_millis(300),
        close_grace: Duration::from_secs(20),
        ..ServerConfig::default()
    };
    let server = Server::bind("127.0.0.1:0", config).await.unwrap();
    let port = server.local_addr().port();
    let g = server.prepare([slot("late"), slot("b")], None);
    let mut red = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let hello = format!(
        "<protocol><joinPrepared reservationCode=\"{}\" />",
        g.codes[0]
    );
    red.write_all(hello.as_bytes()).await.unwrap();
    let blue = tokio::spawn(player(port, g.codes[1].clone(), 1, Duration::ZERO));
    let mut framer = Framer::new(1 << 20);
    // RED says nothing past the hard limit: it loses, gets the result and `left`.
    let seen = tokio::time::timeout(
        GUARD,
        read_until(&mut red, &mut framer, |m| {
            matches!(m, ServerMessage::Left { .. })
        }),
    )
    .await
    .unwrap();
    let Some(ServerMessage::Result { result, .. }) = seen.iter().rev().nth(1) else {
        panic!("no result before left: {seen:?}")
    };
    assert_eq!(result.scores[0].cause, ScoreCause::HardTimeout);
    // Now the late move: answered with CloseConnection and `</protocol>` (long before the
    // close grace would have closed the connection).
    let mv = format!(
        "<room roomId=\"{}\"><data class=\"move\" x=\"0\" y=\"1\" direction=\"RIGHT\"/></room>",
        g.room
    );
    red.write_all(mv.as_bytes()).await.unwrap();
    let rest = tokio::time::timeout(Duration::from_secs(10), drain(&mut red))
        .await
        .expect("connection not closed after the late move");
    assert!(
        rest.contains("<sc.protocol.responses.CloseConnection/>"),
        "{rest:?}"
    );
    assert!(rest.ends_with("</protocol>"), "{rest:?}");
    blue.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_closed_but_a_thinking_player_is_not() {
    let config = ServerConfig {
        idle_timeout: Some(Duration::from_millis(200)),
        soft_timeout: Duration::from_secs(20),
        hard_timeout: Duration::from_secs(30),
        close_grace: Duration::from_millis(100),
        ..ServerConfig::default()
    };
    let server = Server::bind("127.0.0.1:0", config).await.unwrap();
    let port = server.local_addr().port();
    // A joined player waiting for an opponent that never comes, and a silent admin.
    let mut waiting = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    waiting
        .write_all(b"<protocol><join gameType=\"swc_2019_piranhas\" />")
        .await
        .unwrap();
    let mut admin = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    admin
        .write_all(b"<protocol><authenticate passphrase=\"examplepassword\" />")
        .await
        .unwrap();
    for s in [&mut waiting, &mut admin] {
        let text = drain(s).await;
        assert!(text.contains("idle"), "{text:?}");
        assert!(text.ends_with("</protocol>"), "{text:?}");
    }
    // A player that thinks three idle timeouts long over its first move (within the limits).
    let g = server.prepare([slot("slow"), slot("quick")], None);
    let slow = tokio::spawn(player(
        port,
        g.codes[0].clone(),
        3,
        Duration::from_millis(600),
    ));
    let quick = tokio::spawn(player(port, g.codes[1].clone(), 4, Duration::ZERO));
    let record = tokio::time::timeout(GUARD, g.result)
        .await
        .unwrap()
        .unwrap();
    assert!(
        record
            .result
            .scores
            .iter()
            .all(|s| s.cause == ScoreCause::Regular),
        "{:?}",
        record.result
    );
    slow.await.unwrap();
    quick.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_per_peer_cap_are_closed() {
    let config = ServerConfig {
        max_connections_per_peer: 2,
        ..ServerConfig::default()
    };
    let server = Server::bind("127.0.0.1:0", config).await.unwrap();
    let port = server.local_addr().port();
    // An admitted connection is answered (the server's `<protocol>` comes with its first
    // message, as on 19.2.1): an admin `prepare` gets `<prepared>`.
    let hello = b"<protocol><authenticate passphrase=\"examplepassword\" />\
        <prepare gameType=\"swc_2019_piranhas\"><slot displayName=\"a\" />\
        <slot displayName=\"b\" /></prepare>";
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        s.write_all(hello).await.unwrap();
        let mut open = [0u8; 10];
        s.read_exact(&mut open).await.unwrap();
        assert_eq!(&open, b"<protocol>");
        held.push(s);
    }
    let mut third = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let _ = third.write_all(hello).await;
    assert_eq!(drain(&mut third).await, "", "closed without a word");
    drop(held);
    // Freed slots are reused (the server notices the closes asynchronously).
    let mut admitted = false;
    for _ in 0..200 {
        let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let _ = s.write_all(hello).await;
        let mut open = [0u8; 10];
        if s.read_exact(&mut open).await.is_ok() {
            admitted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(admitted);
}

mod bot {
    //! piranhas-bot against a scripted fake server: garbage in mid-stream is skipped, an early
    //! close or an undecodable stream is reported as an abnormal end (the binary exits non-zero),
    //! a stream cut mid-tag and continued with garbage ends the run whether or not the server
    //! closes, a silent server is given up on, a repeated MoveRequest is answered once.

    use super::*;
    use kibitz_bots_piranhas::client::{self, ClientConfig, MAX_DECODE_ERRORS};
    use kibitz_bots_piranhas::protocol::{Memento, ResultMsg, ScoreMsg};
    use kibitz_piranhas::{Color, State};
    use tokio::net::TcpListener;
    use tokio::sync::oneshot;

    fn result() -> ResultMsg {
        let score = |points| ScoreMsg {
            cause: ScoreCause::Regular,
            reason: Some("Das Rundenlimit wurde erreicht.".into()),
            points,
            swarm: 5,
        };
        ResultMsg {
            scores: [score(0), score(2)],
            winner: Some(("beta".into(), Color::Blue)),
        }
    }

    /// Serves one client with `script` (chunks written in order), then closes.
    async fn fake_server(script: Vec<Vec<u8>>) -> u16 {
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = l.local_addr().unwrap().port();
        tokio::spawn(async move {
            let (mut s, _) = l.accept().await.unwrap();
            for chunk in script {
                if s.write_all(&chunk).await.is_err() {
                    return;
                }
            }
            let _ = s.shutdown().await;
            let mut sink = Vec::new();
            let _ = tokio::time::timeout(GUARD, s.read_to_end(&mut sink)).await;
        });
        port
    }

    /// Serves one client with `script` and keeps the connection open until the client
    /// closes it (bounded by [`GUARD`]); yields everything the client sent.
    async fn fake_server_open(script: Vec<Vec<u8>>) -> (u16, oneshot::Receiver<String>) {
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = l.local_addr().unwrap().port();
        let (tx, rx) = oneshot::channel();
        tokio::spawn(async move {
            let (mut s, _) = l.accept().await.unwrap();
            for chunk in script {
                if s.write_all(&chunk).await.is_err() {
                    break;
                }
            }
            let mut got = Vec::new();
            let _ = tokio::time::timeout(GUARD, s.read_to_end(&mut got)).await;
            let _ = tx.send(String::from_utf8_lossy(&got).into_owned());
        });
        (port, rx)
    }

    fn config(port: u16) -> ClientConfig {
        ClientConfig {
            host: "127.0.0.1".into(),
            port,
            idle_timeout: Some(GUARD),
            ..ClientConfig::default()
        }
    }

    fn memento(turn0: bool) -> Vec<u8> {
        let mut state = State::start([(3, 3), (6, 7)]);
        if !turn0 {
            state = state.apply(state.legal_moves()[0]).unwrap();
        }
        msg(ServerMessage::Memento {
            room: room(),
            state: Box::new(Memento::from_state(
                &state,
                ["alpha".into(), "beta".into()],
                None,
            )),
        })
    }

    /// The start of a game in which we are RED, cut inside the tag of the next message.
    fn cut_mid_tag() -> Vec<Vec<u8>> {
        vec![
            b"<protocol>".to_vec(),
            msg(ServerMessage::Joined { room: room() }),
            msg(ServerMessage::Welcome {
                room: room(),
                color: Color::Red,
            }),
            b"\n  <room roomId=\"r1\">\n    <data cla".to_vec(),
            b"\x00\x01\x02 binary garbage \xff\xfe".to_vec(),
        ]
    }

    #[tokio::test]
    async fn a_repeated_move_request_is_answered_once() {
        let (port, sent) = fake_server_open(vec![
            b"<protocol>".to_vec(),
            msg(ServerMessage::Joined { room: room() }),
            msg(ServerMessage::Welcome {
                room: room(),
                color: Color::Red,
            }),
            memento(true),
            msg(ServerMessage::MoveRequest { room: room() }),
            msg(ServerMessage::MoveRequest { room: room() }),
            msg(ServerMessage::Result {
                room: room(),
                result: result(),
            }),
            msg(ServerMessage::Left { room: room() }),
            b"\n</protocol>".to_vec(),
        ])
        .await;
        let out = tokio::time::timeout(
            GUARD,
            client::run(&config(port), Box::new(RandomAgent::new(1))),
        )
        .await
        .unwrap()
        .unwrap();
        assert!(out.ended_normally(), "{:?}", out.abnormal);
        assert_eq!(out.moves, 1, "one MoveRequest, one move");
        let sent = tokio::time::timeout(GUARD, sent).await.unwrap().unwrap();
        assert_eq!(sent.matches("class=\"move\"").count(), 1, "{sent}");
    }

    #[test]
    fn a_move_request_after_a_new_memento_is_answered_again() {
        let mut s = Session::new();
        let feed = |s: &mut Session, bytes: Vec<u8>| {
            let text = String::from_utf8(bytes).unwrap();
            s.on_message(ServerMessage::parse(text.trim_start()).unwrap())
                .unwrap()
        };
        feed(&mut s, memento(true));
        let ask = || msg(ServerMessage::MoveRequest { room: room() });
        assert!(matches!(feed(&mut s, ask()), Action::Move { .. }));
        assert_eq!(feed(&mut s, ask()), Action::Wait, "a duplicate");
        feed(&mut s, memento(false));
        assert!(matches!(feed(&mut s, ask()), Action::Move { .. }));
    }

    #[tokio::test]
    async fn a_stream_cut_mid_tag_then_garbage_ends_the_run_though_the_server_stays() {
        let (port, _sent) = fake_server_open(cut_mid_tag()).await;
        let cfg = ClientConfig {
            resync_timeout: Duration::from_millis(300),
            ..config(port)
        };
        // Bounded well below the idle timeout: only the garbage may end this run.
        let out = tokio::time::timeout(
            Duration::from_secs(20),
            client::run(&cfg, Box::new(RandomAgent::new(1))),
        )
        .await
        .expect("the client kept waiting on a broken stream")
        .unwrap();
        let why = out.abnormal.as_deref().expect("abnormal");
        assert!(
            why.contains("undecodable server stream: garbage")
                && why.contains("nothing readable followed"),
            "{why}"
        );
    }

    #[tokio::test]
    async fn a_stream_cut_mid_tag_then_garbage_then_closed_names_the_garbage() {
        let out = run(cut_mid_tag()).await;
        let why = out.abnormal.as_deref().expect("abnormal");
        assert!(why.contains("undecodable server stream: garbage"), "{why}");
    }

    #[tokio::test]
    async fn a_stream_that_breaks_off_inside_a_message_says_so() {
        let mut script = cut_mid_tag();
        script.pop();
        let out = run(script).await;
        let why = out.abnormal.as_deref().expect("abnormal");
        assert!(
            why.contains("broke off in the middle of a message"),
            "{why}"
        );
    }

    #[tokio::test]
    async fn a_silent_server_is_given_up_on_with_a_message() {
        let (port, _sent) = fake_server_open(vec![]).await;
        let cfg = ClientConfig {
            idle_timeout: Some(Duration::from_millis(300)),
            ..config(port)
        };
        let out = tokio::time::timeout(GUARD, client::run(&cfg, Box::new(RandomAgent::new(1))))
            .await
            .unwrap()
            .unwrap();
        let why = out.abnormal.as_deref().expect("abnormal");
        assert!(
            why.contains(&format!("the server at 127.0.0.1:{port} sent nothing for")),
            "{why}"
        );
    }

    #[tokio::test]
    async fn an_unreachable_server_is_named_in_the_error() {
        let port = {
            let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
            l.local_addr().unwrap().port()
        };
        let err = client::run(&config(port), Box::new(RandomAgent::new(1)))
            .await
            .unwrap_err();
        let text = format!("{err:#}");
        assert!(
            text.contains(&format!("cannot connect to the server at 127.0.0.1:{port}")),
            "{text}"
        );
    }

    fn msg(m: ServerMessage) -> Vec<u8> {
        m.to_xml().into_bytes()
    }

    async fn run(script: Vec<Vec<u8>>) -> client::ClientOutcome {
        let port = fake_server(script).await;
        let cfg = config(port);
        let out = client::run(&cfg, Box::new(RandomAgent::new(1)));
        tokio::time::timeout(GUARD, out).await.unwrap().unwrap()
    }

    fn room() -> String {
        "r1".into()
    }

    #[tokio::test]
    async fn garbage_in_mid_stream_is_skipped_and_the_game_ends_normally() {
        let out = run(vec![
            b"<protocol>".to_vec(),
            msg(ServerMessage::Joined { room: room() }),
            b"\n  <room roomId=\"r1\">garbage < \xff here".to_vec(),
            msg(ServerMessage::Welcome {
                room: room(),
                color: Color::Blue,
            }),
            b"\n  <room roomId=\"r1\">\n    <data class=\"unclosed\">".to_vec(),
            msg(ServerMessage::Result {
                room: room(),
                result: result(),
            }),
            msg(ServerMessage::Left { room: room() }),
            b"\n</protocol>".to_vec(),
        ])
        .await;
        assert_eq!(out.color, Some(Color::Blue));
        assert_eq!(out.result, Some(result()));
        assert!(out.ended_normally(), "{:?}", out.abnormal);
        let summary = out.summary();
        assert!(
            summary.contains("we played BLUE; BLUE (beta) won"),
            "{summary}"
        );
        assert!(!summary.contains("Some("), "{summary}");
    }

    #[tokio::test]
    async fn a_server_that_closes_mid_game_is_an_abnormal_end() {
        let out = run(vec![
            b"<protocol>".to_vec(),
            msg(ServerMessage::Joined { room: room() }),
            msg(ServerMessage::Welcome {
                room: room(),
                color: Color::Red,
            }),
        ])
        .await;
        let why = out.abnormal.as_deref().expect("abnormal");
        assert!(why.contains("closed the connection"), "{why}");
        assert!(out.summary().contains("we played RED; no result"));
    }

    #[tokio::test]
    async fn an_undecodable_stream_is_an_abnormal_end() {
        let mut script = vec![
            b"<protocol>".to_vec(),
            msg(ServerMessage::Joined { room: room() }),
        ];
        for _ in 0..=MAX_DECODE_ERRORS {
            script.push(b"\n  <room <<< nonsense".to_vec());
        }
        let out = run(script).await;
        let why = out.abnormal.as_deref().expect("abnormal");
        assert!(why.contains("undecodable"), "{why}");
    }
}
