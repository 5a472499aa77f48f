//! Handshake fidelity and hardening of the Mau-Mau server on loopback (bounded; every wait has a
//! hang guard): name escaping (spec §3), the two handshake cases of §3/§10 (no `status`,
//! non-string name), a bot that left while queued is not seated, the idle timeout that
//! applies when the turn timeout is off, concurrent handshakes (silent connections do not
//! delay a game) and the per-peer connection cap.

use kibitz_bots_maumau::client::{play, BotConfig, BotReport};
use kibitz_bots_maumau::server::{spawn, EndReason, GameReport, ServerConfig};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::thread::JoinHandle;
use std::time::Duration;

const GUARD: Duration = Duration::from_secs(60);

fn random_bot(addr: SocketAddr, name: &str, seed: u64) -> JoinHandle<BotReport> {
    let cfg = BotConfig {
        name: name.into(),
        strategy: "random".into(),
        seed,
        read_timeout: GUARD,
        ..BotConfig::default()
    };
    std::thread::spawn(move || play(addr, &cfg).expect("bot plays"))
}

fn finish(h: JoinHandle<anyhow::Result<Vec<GameReport>>>) -> Vec<GameReport> {
    h.join().expect("server thread").expect("server result")
}

/// Connects, reads `sendName`, sends `line` and returns the stream with a reader.
fn hello(addr: SocketAddr, line: &[u8]) -> (TcpStream, BufReader<TcpStream>) {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(GUARD)).unwrap();
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut first = String::new();
    r.read_line(&mut first).unwrap();
    assert_eq!(first, "{\"sendName\":true,\"status\":\"okay\"}\n");
    (&s).write_all(line).unwrap();
    (s, r)
}

/// Everything until the server closes (bounded by the read timeout).
fn rest(r: &mut BufReader<TcpStream>) -> String {
    let mut all = Vec::new();
    let _ = r.read_to_end(&mut all);
    String::from_utf8_lossy(&all).into_owned()
}

fn two_random_bots_play(addr: SocketAddr) -> [BotReport; 2] {
    let b = random_bot(addr, "Bea", 1);
    let c = random_bot(addr, "Cid", 2);
    [b.join().unwrap(), c.join().unwrap()]
}

/// The seated names in sorted order: the two bots connect from two threads, so which one is
/// seated first is up to the scheduler.
fn seated(names: &[String]) -> Vec<String> {
    let mut v = names.to_vec();
    v.sort();
    v
}

fn cfg() -> ServerConfig {
    ServerConfig {
        turn_timeout: Some(Duration::from_millis(2000)),
        seed: 5,
        ..ServerConfig::default()
    }
}

#[test]
fn names_are_escaped_like_the_real_server() {
    let cfg = ServerConfig {
        turn_timeout: Some(Duration::from_millis(200)),
        ..cfg()
    };
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    // The name a/b"\ DEL € ü, sent with JSON escapes.
    let line = "{\"status\":\"okay\",\"name\":\"a/b\\\"\\\\\\u007f\u{20ac}\u{fc}\"}\n";
    let (s, mut r) = hello(addr, line.as_bytes());
    let mut reply = String::new();
    r.read_line(&mut reply).unwrap();
    let name = "a\\/b\\\"\\\\\\u007F\\u20AC\u{fc}";
    assert_eq!(
        reply,
        format!("{{\"setName\":true,\"name\":\"{name}\",\"status\":\"okay\"}}\n")
    );
    // It stays silent; the other bot plays, and every later message carries the same escapes.
    let c = random_bot(addr, "Cid", 2);
    let text = rest(&mut r);
    assert!(text.contains(&format!("\"turnOf\":\"{name}\"")), "{text}");
    drop(s);
    c.join().unwrap();
    assert_eq!(finish(server)[0].winner_name(), "Cid");
}

/// Whether the server still holds `s` open without having sent anything more: a
/// non-blocking read finds no data and no close.
fn open_and_quiet(s: &TcpStream) -> bool {
    s.set_nonblocking(true).unwrap();
    let quiet = matches!(
        (&*s).read(&mut [0u8; 64]),
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock
    );
    s.set_nonblocking(false).unwrap();
    quiet
}

#[test]
fn name_line_without_status_gets_no_reply_and_the_socket_stays_open() {
    // §3 and §10 item 4: no reply, no seat, the socket is left open (ignored) until the client
    // closes it or T (at least 10 s) has passed. Two games, so the server outlives the first.
    let cfg = ServerConfig { games: 2, ..cfg() };
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    let (s, mut r) = hello(addr, b"{\"name\":\"NoStatus\"}\n");
    (&s).write_all(b"{\"status\":\"skip\"}\n").unwrap(); // ignored as well
    let first = two_random_bots_play(addr);
    assert!(first.iter().all(|b| b.winner.is_some()));
    // A whole game later it is still open and has heard nothing.
    assert!(
        open_and_quiet(&s),
        "the server closed the no-status connection or wrote to it"
    );
    // Then the server closes it, without a word (within the hang guard).
    assert_eq!(rest(&mut r), "", "no reply at all");
    let second = two_random_bots_play(addr);
    assert!(second.iter().all(|b| b.winner.is_some()));
    let reports = finish(server);
    assert_eq!(reports.len(), 2);
    for r in &reports {
        assert_eq!(seated(&r.names), ["Bea", "Cid"]);
    }
}

#[test]
fn silent_connections_do_not_delay_a_game() {
    // Ten connections that never send a name line, opened before the bots. With handshakes
    // one at a time they held the game for ten name timeouts; now the game is played while
    // all ten are still waiting in their own handshakes.
    let cfg = ServerConfig {
        turn_timeout: Some(Duration::from_secs(30)),
        games: 2,
        ..cfg()
    };
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    let silent: Vec<TcpStream> = (0..10).map(|_| TcpStream::connect(addr).unwrap()).collect();
    let bots = two_random_bots_play(addr);
    assert!(bots.iter().all(|b| b.winner.is_some()));
    // Each silent connection got its own sendName and is still open, waiting for its name.
    for s in &silent {
        s.set_read_timeout(Some(GUARD)).unwrap();
        let mut r = BufReader::new(s.try_clone().unwrap());
        let mut first = String::new();
        r.read_line(&mut first).unwrap();
        assert_eq!(first, "{\"sendName\":true,\"status\":\"okay\"}\n");
        assert!(
            open_and_quiet(s),
            "closed or written to before its name timeout"
        );
    }
    drop(silent);
    two_random_bots_play(addr);
    let reports = finish(server);
    assert_eq!(reports.len(), 2);
    assert_eq!(seated(&reports[0].names), ["Bea", "Cid"]);
}

/// A loopback connection from `local` (127.0.0.2 is a peer address of its own).
fn connect_from(local: &str, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let sock = tokio::net::TcpSocket::new_v4()?;
        sock.bind(format!("{local}:0").parse().unwrap())?;
        let s = sock.connect(addr).await?.into_std()?;
        s.set_nonblocking(false)?;
        Ok(s)
    })
}

#[test]
fn a_peer_over_its_connection_cap_is_refused() {
    let cfg = ServerConfig {
        turn_timeout: Some(Duration::from_secs(30)),
        max_connections_per_peer: 3,
        ..cfg()
    };
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    let greeted = |s: &TcpStream| {
        s.set_read_timeout(Some(GUARD)).unwrap();
        let mut line = String::new();
        BufReader::new(s).read_line(&mut line).unwrap();
        line == "{\"sendName\":true,\"status\":\"okay\"}\n"
    };
    let held: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(addr).unwrap()).collect();
    assert!(held.iter().all(greeted), "three within the cap are greeted");
    // The fourth from the same address is closed at once, without a word.
    let mut over = TcpStream::connect(addr).unwrap();
    over.set_read_timeout(Some(GUARD)).unwrap();
    let mut got = Vec::new();
    over.read_to_end(&mut got)
        .expect("closed by the server (not the hang guard)");
    assert_eq!(got, b"", "refused without a word");
    // The cap is per peer: another loopback address is greeted.
    let other = connect_from("127.0.0.2", addr).unwrap();
    assert!(greeted(&other));
    // Two held connections leave; once the server has closed them their slots are free, and
    // two bots from the capped address play a game beside the one still held.
    for s in &held[1..] {
        s.shutdown(Shutdown::Write).unwrap();
        let mut rest = Vec::new();
        (&*s).read_to_end(&mut rest).expect("closed by the server");
    }
    let bots = two_random_bots_play(addr);
    assert!(bots.iter().all(|b| b.winner.is_some()));
    assert_eq!(seated(&finish(server)[0].names), ["Bea", "Cid"]);
}

#[test]
fn non_string_name_and_non_object_json_are_read_like_a_non_json_line() {
    for line in [&b"{\"status\":\"okay\",\"name\":5}\n"[..], b"[1,2]\n"] {
        let cfg = ServerConfig {
            turn_timeout: Some(Duration::from_millis(200)),
            ..cfg()
        };
        let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
        let (s, mut r) = hello(addr, line);
        let mut reply = String::new();
        r.read_line(&mut reply).unwrap();
        assert_eq!(
            reply, "{\"setName\":false,\"name\":\"Bot 0\",\"status\":\"error\"}\n",
            "{line:?}"
        );
        // It stays connected but never answers; the other bot wins when it is dropped.
        let b = random_bot(addr, "Bea", 1);
        let text = rest(&mut r);
        assert!(text.contains("\"gameStart\":true"), "{text:?}");
        drop(s);
        b.join().unwrap();
        let reports = finish(server);
        assert_eq!(reports[0].names, ["Bot 0", "Bea"]);
        assert_eq!(reports[0].winner_name(), "Bea");
    }
}

#[test]
fn a_bot_that_left_while_queued_is_not_seated() {
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg()).unwrap();
    // Finishes the handshake as seat 0, then leaves before the second seat is filled.
    let (s, mut r) = hello(addr, b"{\"status\":\"okay\",\"name\":\"Gone\"}\n");
    let mut reply = String::new();
    r.read_line(&mut reply).unwrap();
    assert!(reply.starts_with("{\"setName\":true"), "{reply}");
    // The server lets it go at once: it closes the connection without another word. Only then
    // do the others connect, so the server has surely seen the leave (no race with the kernel).
    s.shutdown(Shutdown::Write).unwrap();
    let mut after = Vec::new();
    r.read_to_end(&mut after)
        .expect("the server closes the connection (not the hang guard)");
    assert_eq!(after, b"", "closed without a message");
    drop((s, r));
    let bots = two_random_bots_play(addr);
    let reports = finish(server);
    assert_eq!(
        seated(&reports[0].names),
        ["Bea", "Cid"],
        "the vanished bot was seated"
    );
    assert_ne!(reports[0].reason, EndReason::LastOnline);
    assert!(bots.iter().all(|b| b.winner.is_some()));
}

#[test]
fn without_a_turn_timeout_silent_connections_are_closed_after_the_idle_timeout() {
    let cfg = ServerConfig {
        turn_timeout: None,
        idle_timeout: Some(Duration::from_millis(300)),
        ..cfg()
    };
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    let mut silent = TcpStream::connect(addr).unwrap();
    silent.set_read_timeout(Some(GUARD)).unwrap();
    let mut all = Vec::new();
    let _ = silent.read_to_end(&mut all);
    assert_eq!(all, b"{\"sendName\":true,\"status\":\"okay\"}\n");
    // The seat stayed free: an honest pair still plays its game.
    let bots = two_random_bots_play(addr);
    assert_eq!(seated(&finish(server)[0].names), ["Bea", "Cid"]);
    assert!(bots.iter().all(|b| b.winner.is_some()));
}
