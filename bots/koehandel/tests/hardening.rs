//! The market's front door against hostile input (kibitz issue 37): only well-formed
//! `http://HOST:PORT/...` URLs become players, wherever they enter, and methods other than GET
//! and HEAD get `405 Method Not Allowed`.

use kibitz_bots_koehandel::server::{Entrant, Market, MarketConfig, MarketError};
use kibitz_bots_koehandel::web;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn enc(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// Sends `head` (a request head without its final blank line) on a fresh connection with
/// `Connection: close` and returns the whole answer, bounded to 10 s.
async fn raw(addr: SocketAddr, head: &str) -> String {
    let io = async {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let req = format!("{head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).await.unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).await.unwrap();
        String::from_utf8_lossy(&out).into_owned()
    };
    tokio::time::timeout(Duration::from_secs(10), io)
        .await
        .expect("answer within 10 s")
}

fn status(answer: &str) -> u16 {
    answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {answer:?}"))
}

fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    let head = answer.split("\r\n\r\n").next()?;
    head.lines().skip(1).find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

fn body(answer: &str) -> &str {
    answer.split_once("\r\n\r\n").map_or("", |(_, b)| b)
}

const BAD_URLS: [&str; 7] = [
    "javascript:alert(1)",
    "file:///etc/passwd",
    "http://[::1",
    "ftp://127.0.0.1:21/",
    "http://127.0.0.1/",
    "http://user@127.0.0.1:80/",
    "http://127.0.0.1:80/\"><script>alert(1)</script>",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connect_refuses_urls_that_are_not_http_host_port() {
    let server = web::spawn("127.0.0.1:0", MarketConfig::default())
        .await
        .unwrap();
    for (i, bad) in BAD_URLS.iter().enumerate() {
        let seat = i % 4 + 1;
        let a = raw(
            server.addr,
            &format!("GET /?connect&url{seat}={} HTTP/1.1", enc(bad)),
        )
        .await;
        assert_eq!(status(&a), 400, "{bad}: {a}");
        let b = body(&a);
        assert!(
            b.contains(&format!("url{seat} is not a player URL")) && b.contains("http://HOST:PORT"),
            "{bad}: {b}"
        );
    }
    assert!(server.market.markets().is_empty(), "a game was started");
    // A good URL next to a bad one: still refused, nothing started.
    let a = raw(
        server.addr,
        &format!(
            "GET /?connect&url1={}&url2={} HTTP/1.1",
            enc("http://127.0.0.1:9/"),
            enc("file:///etc/passwd")
        ),
    )
    .await;
    assert_eq!(status(&a), 400, "{a}");
    assert!(body(&a).contains("url2 "), "{a}");
    assert!(server.market.markets().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_form_shows_why_a_url_was_refused() {
    let server = web::spawn("127.0.0.1:0", MarketConfig::default())
        .await
        .unwrap();
    let bad = "http://127.0.0.1:80/\"><script>alert(1)</script>";
    let a = raw(
        server.addr,
        &format!("GET /?start=&url1={}&url2= HTTP/1.1", enc(bad)),
    )
    .await;
    assert_eq!(status(&a), 400, "{a}");
    assert!(header(&a, "content-type").unwrap().starts_with("text/html"));
    let b = body(&a);
    assert!(b.contains("<p id=\"error\"><b>Not started:</b> url1 is not a player URL"));
    assert!(b.contains("<form id=\"start\""), "the form again");
    assert!(!b.contains("<script>"), "escaped: {b}");
    assert!(server.market.markets().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_library_refuses_bad_urls_too() {
    let market = Market::new(MarketConfig::default());
    for bad in BAD_URLS {
        let e = vec![Entrant::Passive, Entrant::Url(bad.into())];
        assert!(
            matches!(
                market.start(e.clone()),
                Err(MarketError::BadUrl { seat: 2, .. })
            ),
            "start {bad}"
        );
        assert!(
            matches!(
                market.play(e).await,
                Err(MarketError::BadUrl { seat: 2, .. })
            ),
            "play {bad}"
        );
    }
    let long = format!("http://127.0.0.1:9/{}", "x".repeat(3000));
    let err = market.start(vec![Entrant::Url(long)]).unwrap_err();
    assert!(
        matches!(err, MarketError::BadUrl { too_long: true, .. }),
        "{err}"
    );
    assert!(market.markets().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn methods_other_than_get_and_head_get_405() {
    let server = web::spawn("127.0.0.1:0", MarketConfig::default())
        .await
        .unwrap();
    let start = format!("/?connect&url1={}", enc("http://127.0.0.1:9/"));
    for method in ["POST", "DELETE", "TRACE", "PUT", "PATCH", "OPTIONS", "BREW"] {
        for target in ["/", start.as_str()] {
            let a = raw(server.addr, &format!("{method} {target} HTTP/1.1")).await;
            assert_eq!(status(&a), 405, "{method} {target}: {a}");
            assert_eq!(header(&a, "allow"), Some("GET, HEAD"), "{a}");
            assert!(body(&a).contains("not allowed"), "{a}");
        }
    }
    assert!(server.market.markets().is_empty(), "POST started a game");
    // GET and HEAD: the same status and headers, HEAD without the body.
    let get = raw(server.addr, "GET / HTTP/1.1").await;
    let head = raw(server.addr, "HEAD / HTTP/1.1").await;
    assert_eq!((status(&get), status(&head)), (200, 200));
    assert!(body(&get).contains("<form id=\"start\""));
    assert_eq!(body(&head), "");
    assert_eq!(
        header(&get, "content-length"),
        header(&head, "content-length")
    );
}
