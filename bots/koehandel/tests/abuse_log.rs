//! Abuse shows in the market's log (kibitz issue 37): rejected requests are logged at warn,
//! escaped, and a flood is summarised instead of filling the log. One test in this file: it
//! installs the process-wide tracing subscriber that captures the log.

use kibitz_bots_koehandel::guard::REJECT_BURST;
use kibitz_bots_koehandel::server::MarketConfig;
use kibitz_bots_koehandel::web;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// One request on its own connection; returns the status (0 if the connection was cut).
async fn send(addr: SocketAddr, head: &str) -> u16 {
    let io = async {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let req = format!("{head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).await.unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out).await;
        String::from_utf8_lossy(&out)
            .split(' ')
            .nth(1)
            .and_then(|x| x.parse().ok())
            .unwrap_or(0)
    };
    tokio::time::timeout(Duration::from_secs(10), io)
        .await
        .expect("answer within 10 s")
}

/// Rejections the log accounts for: single lines plus the counts of the summary lines.
fn accounted(log: &str) -> (u64, usize) {
    let mut n = 0;
    let mut lines = 0;
    for l in log.lines() {
        if l.contains("rejected request (") {
            n += 1;
            lines += 1;
        } else if let Some(i) = l.find("rejected ") {
            let count = l[i + 9..].split(' ').next().unwrap();
            n += count
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("summary: {l}"));
            lines += 1;
        }
    }
    (n, lines)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rejected_requests_are_logged_escaped_and_a_flood_is_summarised() {
    let cap = Capture::default();
    let writer = cap.clone();
    tracing_subscriber::fmt()
        .with_env_filter("kibitz_bots_koehandel=warn")
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .init();
    let window = Duration::from_millis(500);
    let server = web::spawn(
        "127.0.0.1:0",
        MarketConfig {
            reject_window: window,
            ..MarketConfig::default()
        },
    )
    .await
    .unwrap();
    let t0 = Instant::now();
    // First: a URL that tries to forge a log line and colour the terminal.
    let forged = "%0Afake+INFO+line%1B%5B31m";
    assert_eq!(
        send(
            server.addr,
            &format!("GET /?connect&url1={forged} HTTP/1.1")
        )
        .await,
        400
    );
    let long = "x".repeat(3000);
    let mut sent = 1u64;
    for i in 0..100 {
        let (head, want) = match i % 4 {
            0 => ("POST / HTTP/1.1".to_string(), 405),
            1 => (
                "GET /?connect&url1=javascript:alert(1) HTTP/1.1".to_string(),
                400,
            ),
            2 => (
                format!("GET /?connect&url1=http://127.0.0.1:9/{long} HTTP/1.1"),
                400,
            ),
            _ => ("GET /?log=abc HTTP/1.1".to_string(), 404),
        };
        assert_eq!(send(server.addr, &head).await, want, "{head}");
        sent += 1;
    }
    let flood_time = t0.elapsed();
    // Every rejection is logged or counted once the last window is flushed.
    let until = Instant::now() + Duration::from_secs(20);
    let (mut n, mut lines) = accounted(&cap.text());
    while n < sent && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
        (n, lines) = accounted(&cap.text());
    }
    let log = cap.text();
    assert_eq!(n, sent, "every rejection accounted for:\n{log}");
    for kind in ["bad method", "bad url", "oversize", "bad query"] {
        assert!(log.contains(kind), "{kind} missing:\n{log}");
    }
    assert!(
        log.contains(r#"\nfake INFO line\u{1b}[31m"#),
        "escaped:\n{log}"
    );
    assert!(!log.contains('\u{1b}'), "raw escape byte in the log");
    assert!(!log.lines().any(|l| l.starts_with("fake")), "forged line");
    // At most burst + 1 lines per window that passed (plus the one in progress at each end).
    let windows = (flood_time.as_millis() / window.as_millis()) as usize + 2;
    assert!(
        lines <= windows * (REJECT_BURST as usize + 1),
        "{lines} lines for {sent} rejections in {flood_time:?}:\n{log}"
    );
    assert!(lines < sent as usize / 2, "{lines} lines for {sent}");
}
