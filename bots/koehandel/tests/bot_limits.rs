//! Our player endpoint's HTTP front end (`client::spawn_with`): silent clients are cut off by
//! the header timeout and cannot use up the connection caps, so the market's requests still get
//! their answers.

use kibitz_bots_koehandel::client::{spawn_with, EndpointLimits};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Waits (bounded) until the server closes `s`: true if it did (EOF or reset).
async fn closed_by_server(s: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 256];
    let until = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(until, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

/// A GET from loopback address `from` (127.0.0.x is one peer per x); returns the response.
async fn get_from(from: [u8; 4], addr: std::net::SocketAddr) -> String {
    let sock = TcpSocket::new_v4().unwrap();
    sock.bind((std::net::Ipv4Addr::from(from), 0).into())
        .unwrap();
    let mut s = sock.connect(addr).await.unwrap();
    let q = "GET /?market=1&id=1&type=start HTTP/1.0\r\nHost: x\r\n\r\n";
    if s.write_all(q.as_bytes()).await.is_err() {
        return String::new();
    }
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).to_string()
}

#[tokio::test]
async fn silent_clients_do_not_block_the_market() {
    let limits = EndpointLimits {
        header_timeout: Duration::from_millis(300),
        max_connections: 8,
        max_connections_per_peer: 4,
        ..EndpointLimits::default()
    };
    let bot = spawn_with("127.0.0.1:0", "heuristic", 1, limits)
        .await
        .unwrap();
    let addr = bot.addr;
    // Four silent connections from 127.0.0.1 fill that peer's slots ...
    let mut silent = Vec::new();
    for _ in 0..4 {
        silent.push(TcpStream::connect(addr).await.unwrap());
    }
    // ... a fifth from the same address is closed at once ...
    let mut fifth = TcpStream::connect(addr).await.unwrap();
    assert!(closed_by_server(&mut fifth, Duration::from_secs(2)).await);
    // ... while another peer (the market) is answered.
    let answer = get_from([127, 0, 0, 2], addr).await;
    assert!(answer.starts_with("HTTP/1.0 200"), "{answer:?}");
    // The header timeout closes the silent ones, and their slots come back.
    for s in &mut silent {
        assert!(closed_by_server(s, Duration::from_secs(5)).await);
    }
    let answer = get_from([127, 0, 0, 1], addr).await;
    assert!(answer.starts_with("HTTP/1.0 200"), "{answer:?}");
}
