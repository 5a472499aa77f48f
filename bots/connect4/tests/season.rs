//! End-to-end seasons on loopback: our bot, the random baseline and scripted faulty clients
//! against our reference server, over real UDP sockets.

mod common;

use common::*;
use kibitz_bots_connect4::protocol::{GameResult, LoseReason, ServerMsg};
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio::sync::watch;

/// The faulty client's misbehaviour in its `game`-th game, on its first move.
fn faulty_reply(game: usize, board: &[i32], token: &str) -> Option<String> {
    let col = first_free(board);
    match game {
        0 => {
            // Wrong token: the last character changed.
            let mut t = token.to_string();
            let last = if t.ends_with('0') { '1' } else { '0' };
            t.pop();
            t.push(last);
            Some(format!("INSERT;{col};{t}"))
        }
        1 => Some(format!("INSERT;{col};{token}\n")),
        2 => Some(format!("INSERT;7;{token}")),
        3 => None,
        4 => Some(format!("INSERT;x;{token}")),
        _ => Some(format!("HELLO;{token}")),
    }
}

fn expected_reason(game: usize, token_of_game: Option<&str>) -> LoseReason {
    match game {
        0 | 1 | 3 => LoseReason::Timeout(token_of_game.unwrap_or("?").to_string()),
        2 => LoseReason::IllegalColumn,
        4 => LoseReason::NotANumber("x".into()),
        _ => LoseReason::UnexpectedResponse("HELLO".into()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn season_with_our_bot_random_zero_and_faulty() {
    let server = server(250, 4, Some(1)).await;
    let addr = server.local_addr();
    let (stop_tx, stop) = watch::channel(false);
    let ours = spawn_bot(addr, "kibitz", engine(8, true), 100, &stop).await;
    let random = spawn_bot(addr, "random", random(7), 40, &stop).await;
    let zero = spawn_script(addr, "zero", true, column_zero(), stop.clone()).await;
    let faulty = spawn_script(addr, "faulty", true, Box::new(faulty_reply), stop.clone()).await;

    // A stranger sends garbage all season long: none of it may disturb anything.
    let chaos_stop = stop.clone();
    let chaos = tokio::spawn(async move {
        let s = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let junk: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"HELLO".to_vec(),
            vec![0xff, 0xfe, b';', 0xc3],
            vec![b'x'; 5000],
            b"INSERT;3;deadbeef".to_vec(),
            b"JOIN;00000000".to_vec(),
            b"REGISTER".to_vec(),
            b";;;;".to_vec(),
        ];
        let mut i = 0;
        while !*chaos_stop.borrow() {
            for _ in 0..20 {
                let _ = s.send_to(&junk[i % junk.len()], addr).await;
                i += 1;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    });

    assert!(
        server.wait_seasons(1, Duration::from_secs(120)).await,
        "season did not finish"
    );
    let _ = stop_tx.send(true);
    let ours = ours.await.unwrap().unwrap();
    let random = random.await.unwrap().unwrap();
    let _ = chaos.await;
    let _ = zero.task.await;
    let _ = faulty.task.await;
    let season = &server.results()[0];
    let mut participants = season.participants.clone();
    participants.sort();
    assert_eq!(participants, ["faulty", "kibitz", "random", "zero"]);
    assert_eq!(season.games.len(), 12);
    assert!(season.byes.is_empty());

    // The faulty client lost every game, each for the reason its misbehaviour deserves.
    let faulty_msgs = faulty.received.lock().unwrap().clone();
    let mut game = 0;
    let mut token: Option<String> = None;
    let mut checked = 0;
    for (i, m) in faulty_msgs.iter().enumerate() {
        match ServerMsg::parse(m).unwrap() {
            ServerMsg::NewGame(_) => token = None,
            ServerMsg::YourTurn(t) if token.is_none() => token = Some(t),
            ServerMsg::Result(r) => {
                let want = GameResult::Lose {
                    loser: "faulty".into(),
                    reason: expected_reason(game, token.as_deref()),
                };
                assert_eq!(r, want, "faulty game {game}");
                if game == 2 {
                    assert_eq!(faulty_msgs[i - 1], "TOKEN INSERTED;faulty;7");
                }
                game += 1;
                checked += 1;
            }
            _ => {}
        }
    }
    assert_eq!(checked, 6);
    for g in season
        .games
        .iter()
        .filter(|g| g.home == "faulty" || g.away == "faulty")
    {
        assert!(
            matches!(&g.result, GameResult::Lose { loser, .. } if loser == "faulty"),
            "{g:?}"
        );
    }

    // Our bot never loses to random or zero and wins against the faulty client; its view of
    // every game equals the server's record.
    for g in season
        .games
        .iter()
        .filter(|g| g.home == "kibitz" || g.away == "kibitz")
    {
        assert_eq!(g.winner(), Some("kibitz"), "{g:?}");
    }
    assert_eq!((ours.wins, ours.draws, ours.losses), (6, 0, 0));
    let our_games: Vec<_> = season
        .games
        .iter()
        .filter(|g| g.home == "kibitz" || g.away == "kibitz")
        .collect();
    assert_eq!(ours.histories.len(), our_games.len());
    for (h, g) in ours.histories.iter().zip(&our_games) {
        if !matches!(
            &g.result,
            GameResult::Lose {
                reason: LoseReason::Timeout(_)
                    | LoseReason::NotANumber(_)
                    | LoseReason::UnexpectedResponse(_),
                ..
            }
        ) {
            assert_eq!(h, &g.moves, "{g:?}");
        }
    }
    // (Fallback moves are not asserted: they depend on the machine's load, not on the code.)
    assert_eq!(random.wins + random.draws + random.losses, 6);

    // Standings: points add up (12 games, 1 point each).
    let total: f64 = server.standings().iter().map(|s| s.points).sum();
    assert_eq!(total, 12.0);
    let faulty_row = server
        .standings()
        .into_iter()
        .find(|s| s.player == "faulty")
        .unwrap();
    assert_eq!(
        (faulty_row.games, faulty_row.losses, faulty_row.points),
        (6, 6, 0.0)
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seventh_stone_in_a_column_loses_with_column_is_full() {
    let server = server(250, 2, Some(1)).await;
    let addr = server.local_addr();
    let (stop_tx, stop) = watch::channel(false);
    let a = spawn_script(addr, "a", true, column_zero(), stop.clone()).await;
    let b = spawn_script(addr, "b", true, column_zero(), stop.clone()).await;
    assert!(server.wait_seasons(1, Duration::from_secs(30)).await);
    let _ = stop_tx.send(true);
    let (ra, rb) = (a.received.clone(), b.received.clone());
    let _ = (a.task.await, b.task.await);
    let season = &server.results()[0];
    assert_eq!(season.games.len(), 2);
    for g in &season.games {
        assert_eq!(g.moves, vec![0; 7]);
        assert_eq!(
            g.result,
            GameResult::Lose {
                loser: g.home.clone(),
                reason: LoseReason::ColumnIsFull
            }
        );
    }
    // The illegal stone was announced to both before the result (spec §5.4).
    for rec in [&ra, &rb] {
        let got = rec.lock().unwrap().clone();
        let i = got
            .iter()
            .position(|m| m == "RESULT;LOSE;a;COLUMN_IS_FULL")
            .unwrap_or_else(|| panic!("no COLUMN_IS_FULL result for a in {got:?}"));
        assert_eq!(got[i - 1], "TOKEN INSERTED;a;0");
    }
    let standings = server.standings();
    assert!(standings
        .iter()
        .all(|s| s.wins == 1 && s.losses == 1 && s.points == 1.0));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_player_is_unregistered_on_the_eleventh_timeout_and_can_come_back() {
    let server = server(20, 1, None).await;
    let addr = server.local_addr();
    let s = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    s.send_to(b"REGISTER;mute", addr).await.unwrap();
    let mut buf = [0u8; 1024];
    let mut seasons = 0;
    loop {
        let n = tokio::time::timeout(Duration::from_secs(10), s.recv(&mut buf))
            .await
            .expect("server talks")
            .unwrap();
        match &buf[..n] {
            b"WELCOME;mute" => {}
            b"UNREGISTERED" => break,
            m if m.starts_with(b"NEW SEASON;") => seasons += 1,
            m => panic!("unexpected {:?}", String::from_utf8_lossy(m)),
        }
    }
    assert_eq!(seasons, 11, "removed on the 11th consecutive timeout");
    assert!(server.registered().is_empty());
    // Unregistered datagrams are ignored; REGISTER works again.
    s.send_to(b"JOIN;00000000", addr).await.unwrap();
    s.send_to(b"REGISTER;mute", addr).await.unwrap();
    let n = tokio::time::timeout(Duration::from_secs(5), s.recv(&mut buf))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(&buf[..n], b"WELCOME;mute");
    server.shutdown().await;
}

async fn ask(s: &UdpSocket, to: std::net::SocketAddr, msg: &[u8]) -> Option<String> {
    s.send_to(msg, to).await.unwrap();
    let mut buf = [0u8; 2048];
    match tokio::time::timeout(Duration::from_millis(300), s.recv(&mut buf)).await {
        Ok(Ok(n)) => Some(String::from_utf8_lossy(&buf[..n]).into_owned()),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_rules() {
    // MINPLAYERS high: no season starts, so every datagram we get is a registration answer.
    let server = server(250, 100, None).await;
    let addr = server.local_addr();
    let p = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    assert_eq!(
        ask(&p, addr, b"REGISTER;").await.as_deref(),
        Some("NO_NAME_GIVEN")
    );
    assert_eq!(
        ask(&p, addr, b"REGISTER;;").await.as_deref(),
        Some("NO_NAME_GIVEN")
    );
    assert_eq!(
        ask(
            &p,
            addr,
            "REGISTER;xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx".as_bytes()
        )
        .await
        .as_deref(),
        Some("NAME_TOO_LONG")
    );
    assert_eq!(
        ask(
            &p,
            addr,
            "REGISTER;😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀".as_bytes()
        )
        .await
        .as_deref(),
        Some("NAME_TOO_LONG")
    );
    assert_eq!(ask(&p, addr, b"HELLO").await, None);
    assert_eq!(
        ask(&p, addr, b"REGISTER;  alice \t;x").await.as_deref(),
        Some("WELCOME;alice")
    );
    // Invalid UTF-8 in a name is replaced, not fatal.
    let q = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    assert_eq!(
        ask(&q, addr, b"REGISTER;b\xffb").await.as_deref(),
        Some("WELCOME;b\u{fffd}b")
    );
    // Same name from another IP address: taken (127.0.0.2 is loopback too on Linux).
    if let Ok(other) = UdpSocket::bind("127.0.0.2:0").await {
        assert_eq!(
            ask(&other, addr, b"REGISTER;alice").await.as_deref(),
            Some("NAME_ALREADY_TAKEN")
        );
    }
    // Same name, same IP, new port: re-registration moves the player to the new socket.
    let r = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    assert_eq!(
        ask(&r, addr, b"REGISTER;alice").await.as_deref(),
        Some("WELCOME;alice")
    );
    // A socket registering a second name gives up its first.
    assert_eq!(
        ask(&q, addr, b"REGISTER;carl").await.as_deref(),
        Some("WELCOME;carl")
    );
    assert_eq!(server.registered(), ["alice", "carl"]);
    server.shutdown().await;
}
