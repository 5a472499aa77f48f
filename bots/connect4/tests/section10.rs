//! Our server's two documented choices where it differs from the original (crate docs,
//! "Differences from the original server"): a player re-registering in mid-season is served on
//! its new socket at once, and the JOINs of a season start are awaited at the same time, not one
//! after another. Loopback only; every wait is bounded.

use kibitz_bots_connect4::config::ServerConfig;
use kibitz_bots_connect4::server::Server;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio::sync::oneshot;

const GUARD: Duration = Duration::from_secs(30);

async fn server(timeout_ms: u64, min_players: usize, seasons: u32) -> Server {
    let cfg = ServerConfig {
        port: 0,
        timeout: Duration::from_millis(timeout_ms),
        min_players,
        seasons: Some(seasons),
        ..ServerConfig::default()
    };
    Server::start(cfg).await.unwrap()
}

async fn recv(s: &UdpSocket) -> String {
    let mut buf = [0u8; 512];
    let n = tokio::time::timeout(GUARD, s.recv(&mut buf))
        .await
        .expect("no datagram")
        .unwrap();
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

async fn register(addr: SocketAddr, name: &str) -> UdpSocket {
    let s = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    s.send_to(format!("REGISTER;{name}").as_bytes(), addr)
        .await
        .unwrap();
    assert_eq!(recv(&s).await, format!("WELCOME;{name}"));
    s
}

/// Joins and always plays `column` until the socket has been silent for a while.
async fn play_on(s: UdpSocket, addr: SocketAddr, column: u8) {
    let mut buf = [0u8; 512];
    while let Ok(Ok(n)) = tokio::time::timeout(GUARD, s.recv(&mut buf)).await {
        let msg = String::from_utf8_lossy(&buf[..n]).into_owned();
        let reply = if let Some(t) = msg.strip_prefix("NEW SEASON;") {
            format!("JOIN;{t}")
        } else if let Some(t) = msg.strip_prefix("YOURTURN;") {
            format!("INSERT;{column};{t}")
        } else {
            continue;
        };
        let _ = s.send_to(reply.as_bytes(), addr).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_waits_run_at_the_same_time() {
    // TIMEOUT 3 s. `slow` gets NEW SEASON first and answers only after `quick` has received its
    // own NEW SEASON. Waiting one after another (the original) would send quick's NEW SEASON
    // only after slow's wait ended, so slow would never answer in time; waiting at the same
    // time, slow's JOIN is in time and it takes part.
    let server = server(3000, 2, 1).await;
    let addr = server.local_addr();
    let slow = register(addr, "slow").await;
    let quick = register(addr, "quick").await;
    let (seen_tx, seen_rx) = oneshot::channel::<()>();
    let slow_task = tokio::spawn(async move {
        let first = recv(&slow).await;
        let token = first
            .strip_prefix("NEW SEASON;")
            .expect("NEW SEASON")
            .to_string();
        let _ = tokio::time::timeout(GUARD, seen_rx).await;
        slow.send_to(format!("JOIN;{token}").as_bytes(), addr)
            .await
            .unwrap();
        play_on(slow, addr, 0).await;
    });
    let quick_task = tokio::spawn(async move {
        let first = recv(&quick).await;
        let token = first
            .strip_prefix("NEW SEASON;")
            .expect("NEW SEASON")
            .to_string();
        let _ = seen_tx.send(());
        quick
            .send_to(format!("JOIN;{token}").as_bytes(), addr)
            .await
            .unwrap();
        play_on(quick, addr, 1).await;
    });
    assert!(server.wait_seasons(1, GUARD).await);
    assert_eq!(server.results()[0].participants, ["slow", "quick"]);
    slow_task.abort();
    quick_task.abort();
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn re_registration_in_mid_season_moves_the_game_to_the_new_socket() {
    let server = server(3000, 2, 1).await;
    let addr = server.local_addr();
    let old = register(addr, "ann").await;
    let bob = register(addr, "bob").await;
    let bob_task = tokio::spawn(play_on(bob, addr, 1));
    // ann joins on its old socket, then restarts when its first YOURTURN arrives.
    let token = loop {
        let msg = recv(&old).await;
        if let Some(t) = msg.strip_prefix("NEW SEASON;") {
            old.send_to(format!("JOIN;{t}").as_bytes(), addr)
                .await
                .unwrap();
        } else if let Some(t) = msg.strip_prefix("YOURTURN;") {
            break t.to_string();
        }
    };
    let new = register(addr, "ann").await;
    // The answer to the pending YOURTURN comes from the new socket and counts.
    new.send_to(format!("INSERT;0;{token}").as_bytes(), addr)
        .await
        .unwrap();
    assert_eq!(recv(&new).await, "TOKEN INSERTED;ann;0");
    // Everything else of the season goes to the new socket; ann keeps playing there.
    let new_task = tokio::spawn(play_on(new, addr, 0));
    assert!(server.wait_seasons(1, GUARD).await);
    let season = &server.results()[0];
    assert_eq!(season.participants, ["ann", "bob"]);
    for g in &season.games {
        assert!(
            !format!("{:?}", g.result).contains("Timeout"),
            "a game was lost by timeout: {g:?}"
        );
    }
    // Nothing more reached the old socket after the re-registration's WELCOME.
    let mut buf = [0u8; 512];
    let stray = tokio::time::timeout(Duration::from_millis(100), old.recv(&mut buf)).await;
    assert!(stray.is_err(), "old socket still served");
    bob_task.abort();
    new_task.abort();
    server.shutdown().await;
}
