//! Hostile HTTP clients against the market's front end (loopback only, bounded): slowloris
//! header trickling, silent sockets and connection floods are cut off by the configured header
//! timeout and connection caps, while an honest request still gets its answer.

use kibitz_bots_koehandel::server::MarketConfig;
use kibitz_bots_koehandel::web;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn cfg(header_ms: u64, total: usize, per_peer: usize) -> MarketConfig {
    MarketConfig {
        header_timeout: Duration::from_millis(header_ms),
        max_connections: total,
        max_connections_per_peer: per_peer,
        ..MarketConfig::default()
    }
}

/// Waits (bounded) until the server closes `s`: true if it did (EOF or reset).
async fn closed_by_server(s: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 1024];
    let until = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(until, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

/// A plain HTTP/1.0 GET; returns the response.
async fn get(addr: std::net::SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.0\r\nHost: x\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).to_string()
}

#[tokio::test]
async fn slowloris_connections_are_closed_by_the_header_timeout() {
    let server = web::spawn("127.0.0.1:0", cfg(400, 1000, 1000))
        .await
        .unwrap();
    let addr = server.addr;
    let mut conns = Vec::new();
    for _ in 0..200 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
        conns.push(s);
    }
    // Keep trickling one header line per connection every 100 ms, well inside the timeout each
    // time, for longer than the timeout: only a deadline on the whole head closes them.
    let mut open = vec![true; conns.len()];
    for round in 0..30 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        for (i, s) in conns.iter_mut().enumerate() {
            if open[i]
                && s.write_all(format!("X-{round}: y\r\n").as_bytes())
                    .await
                    .is_err()
            {
                open[i] = false;
            }
        }
    }
    for (i, s) in conns.iter_mut().enumerate() {
        assert!(
            closed_by_server(s, Duration::from_secs(10)).await,
            "slowloris connection {i} still open"
        );
    }
    assert!(get(addr, "/").await.starts_with("HTTP/1.0 200"));
}

#[tokio::test]
async fn silent_and_idle_keep_alive_connections_are_closed() {
    let server = web::spawn("127.0.0.1:0", cfg(300, 100, 100)).await.unwrap();
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    assert!(closed_by_server(&mut silent, Duration::from_secs(10)).await);
    // A keep-alive connection that got its answer and then says nothing more.
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    idle.write_all(b"GET /?log=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    assert!(closed_by_server(&mut idle, Duration::from_secs(10)).await);
}

#[tokio::test]
async fn connection_caps_per_peer_and_in_total() {
    let server = web::spawn("127.0.0.1:0", cfg(60_000, 8, 3)).await.unwrap();
    let addr = server.addr;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(TcpStream::connect(addr).await.unwrap());
    }
    // The fourth from the same address is closed without a reply.
    let mut fourth = TcpStream::connect(addr).await.unwrap();
    assert!(closed_by_server(&mut fourth, Duration::from_secs(10)).await);
    // Another address of the loopback net is still admitted (Linux routes all of 127/8).
    let other = tokio::net::TcpSocket::new_v4().unwrap();
    if other.bind("127.0.0.2:0".parse().unwrap()).is_ok() {
        let mut s = other.connect(addr).await.unwrap();
        assert!(!closed_by_server(&mut s, Duration::from_millis(300)).await);
    }
    // Freeing a slot admits the next one, which is served.
    held.pop();
    let mut ok = false;
    for _ in 0..100 {
        if get(addr, "/").await.starts_with("HTTP/1.0 200") {
            ok = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(ok, "a freed slot is reused");
}
