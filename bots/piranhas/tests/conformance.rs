//! Our server against the recordings of the official 19.2.1 server: replaying each recorded
//! game (same Kraken pair, the clients' recorded bytes, the recorded late move delayed past the
//! soft limit) must give every participant the same byte stream, up to room ids, reservation
//! codes and the stray `<line>` element (spec §10).

use kibitz_bots_piranhas::protocol::{ClientMessage, Frame, Framer, ServerMessage};
use kibitz_bots_piranhas::server::{Server, ServerConfig};
use kibitz_piranhas::Field;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

fn dir(name: &str) -> PathBuf {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/piranhas/transcripts"
    ))
    .join(name)
}

fn read(p: &Path) -> String {
    String::from_utf8(std::fs::read(p).unwrap()).unwrap()
}

fn messages(stream: &str) -> Vec<String> {
    let mut f = Framer::new(1 << 20);
    f.push(stream.as_bytes());
    let mut out = Vec::new();
    while let Some(fr) = f.next_frame().unwrap() {
        if let Frame::Message(m) = fr {
            out.push(m);
        }
    }
    out
}

/// Replaces every UUID (room ids, reservation codes) by `ID` and drops the stray `<line>`.
fn normalize(s: &str) -> String {
    let s = s.replace("\n          <line>------------</line>", "");
    let b = s.as_bytes();
    let is_uuid = |w: &[u8]| {
        w.len() == 36
            && w.iter().enumerate().all(|(i, c)| {
                if [8, 13, 18, 23].contains(&i) {
                    *c == b'-'
                } else {
                    c.is_ascii_hexdigit()
                }
            })
    };
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if i + 36 <= b.len() && is_uuid(&b[i..i + 36]) {
            out.push_str("ID");
            i += 36;
        } else {
            let ch = s[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Moves answered later than 2 s after the last server bytes in a `*.raw.txt`: the indices
/// (among the client's moves) to delay past the soft limit.
fn late_moves(raw: &str) -> Vec<usize> {
    let mut last_recv = 0.0f64;
    let mut moves = 0;
    let mut late = Vec::new();
    let mut lines = raw.lines().peekable();
    while let Some(l) = lines.next() {
        let t = l
            .split_once('[')
            .and_then(|(_, r)| r.split_once(']'))
            .and_then(|(t, _)| t.parse::<f64>().ok());
        if l.starts_with("<<< [") && l.contains("RECV") {
            last_recv = t.unwrap_or(last_recv);
        } else if l.starts_with(">>> [") && lines.peek().is_some_and(|n| n.starts_with("<room")) {
            if t.unwrap_or(0.0) - last_recv > 2.0 {
                late.push(moves);
            }
            moves += 1;
        }
    }
    late
}

/// A client that replays recorded bytes: `first` after `<protocol>`, then one recorded move per
/// MoveRequest (room id replaced), `</protocol>` after `left`/CloseConnection. Returns all bytes
/// received. Sends its room id on `joined_tx` once joined.
async fn scripted(
    port: u16,
    first: String,
    moves: Vec<String>,
    late: Vec<usize>,
    joined_tx: Option<oneshot::Sender<()>>,
) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    s.write_all(format!("<protocol>{first}").as_bytes())
        .await
        .unwrap();
    let mut joined_tx = joined_tx;
    let mut framer = Framer::new(1 << 20);
    let mut got = Vec::new();
    let mut room = String::new();
    let mut next = 0;
    let mut buf = [0u8; 4096];
    loop {
        let n = s.read(&mut buf).await.unwrap_or(0);
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
        framer.push(&buf[..n]);
        while let Some(f) = framer.next_frame().unwrap() {
            let Frame::Message(m) = f else { continue };
            match ServerMessage::parse(&m).unwrap() {
                ServerMessage::Joined { room: r } => {
                    room = r;
                    if let Some(tx) = joined_tx.take() {
                        let _ = tx.send(());
                    }
                }
                ServerMessage::MoveRequest { .. } => {
                    let mv = &moves[next];
                    if late.contains(&next) {
                        tokio::time::sleep(Duration::from_millis(2300)).await;
                    }
                    let recorded_room = match ClientMessage::parse(mv).unwrap() {
                        ClientMessage::Move { room, .. } => room,
                        other => panic!("not a move: {other:?}"),
                    };
                    s.write_all(mv.replace(&recorded_room, &room).as_bytes())
                        .await
                        .unwrap();
                    next += 1;
                }
                ServerMessage::Left { .. } | ServerMessage::CloseConnection => {
                    let _ = s.write_all(b"</protocol>").await;
                }
                _ => {}
            }
        }
    }
    String::from_utf8(got).unwrap()
}

fn krakens_of(stream: &str) -> [(u8, u8); 2] {
    for m in messages(stream) {
        if let ServerMessage::Memento { state, .. } = ServerMessage::parse(&m).unwrap() {
            let mut k = Vec::new();
            for y in 0..10 {
                for x in 0..10 {
                    if state.board.get(x, y) == Field::Obstructed {
                        k.push((x as u8, y as u8));
                    }
                }
            }
            return [k[0], k[1]];
        }
    }
    panic!("no memento")
}

/// The recorded client stream of a player: (first message, moves).
fn script(name: &str, who: &str) -> (String, Vec<String>, Vec<usize>) {
    let msgs = messages(&read(
        &dir(name).join(format!("{who}.client_to_server.xml")),
    ));
    let late = late_moves(&read(&dir(name).join(format!("{who}.raw.txt"))));
    (msgs[0].clone(), msgs[1..].to_vec(), late)
}

fn assert_same(name: &str, who: &str, ours: &str) {
    let theirs = read(&dir(name).join(format!("{who}.server_to_client.xml")));
    let (a, b) = (normalize(ours), normalize(&theirs));
    if a != b {
        let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
        panic!(
            "{name}/{who}: stream differs at byte {at}:\nours:   {:?}\ntheirs: {:?}",
            &a[at.saturating_sub(200)..(at + 200).min(a.len())],
            &b[at.saturating_sub(200)..(at + 200).min(b.len())]
        );
    }
}

async fn server_for(name: &str) -> Server {
    let k = krakens_of(&read(&dir(name).join("p1.server_to_client.xml")));
    let config = ServerConfig {
        krakens: Some(k),
        close_grace: Duration::from_millis(200),
        ..ServerConfig::default()
    };
    Server::bind("127.0.0.1:0", config).await.unwrap()
}

/// Two `join` clients; p1 joins first (RED).
async fn join_game(name: &str) {
    let server = server_for(name).await;
    let port = server.local_addr().port();
    let (f1, m1, l1) = script(name, "p1");
    let (f2, m2, l2) = script(name, "p2");
    let (tx, rx) = oneshot::channel();
    let p1 = tokio::spawn(scripted(port, f1, m1, l1, Some(tx)));
    rx.await.unwrap();
    let p2 = tokio::spawn(scripted(port, f2, m2, l2, None));
    let (a, b) = (p1.await.unwrap(), p2.await.unwrap());
    assert_same(name, "p1", &a);
    assert_same(name, "p2", &b);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_transcript() {
    join_game("join").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_transcript() {
    join_game("invalid").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeout_transcript() {
    join_game("timeout").await;
}

/// Admin prepares and observes; players join with the reservation codes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prepared_transcript() {
    let name = "prepared";
    let server = server_for(name).await;
    let port = server.local_addr().port();
    let admin_script = messages(&read(&dir(name).join("admin.client_to_server.xml")));
    let mut admin = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let hello = format!("<protocol>{}{}", admin_script[0], admin_script[1]);
    admin.write_all(hello.as_bytes()).await.unwrap();
    let mut framer = Framer::new(1 << 20);
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let mut players = Vec::new();
    'read: loop {
        let n = admin.read(&mut buf).await.unwrap();
        assert!(n > 0, "server closed the admin connection");
        got.extend_from_slice(&buf[..n]);
        framer.push(&buf[..n]);
        while let Some(f) = framer.next_frame().unwrap() {
            let Frame::Message(m) = f else { continue };
            match ServerMessage::parse(&m).unwrap() {
                ServerMessage::Prepared { room, codes } => {
                    admin
                        .write_all(format!("<observe roomId=\"{room}\" />").as_bytes())
                        .await
                        .unwrap();
                    for (who, code) in ["p1", "p2"].into_iter().zip(codes) {
                        let (first, moves, late) = script(name, who);
                        let ClientMessage::JoinPrepared { code: old } =
                            ClientMessage::parse(&first).unwrap()
                        else {
                            panic!("not joinPrepared")
                        };
                        let first = first.replace(&old, &code);
                        players.push(tokio::spawn(scripted(port, first, moves, late, None)));
                    }
                }
                // The recording stops at the result; spec §7.3 (checked on the official
                // server): an observer then also gets `<left>`.
                ServerMessage::Left { .. } => break 'read,
                _ => {}
            }
        }
    }
    let got = String::from_utf8(got).unwrap();
    let left = "\n  <left roomId=\"ID\"/>";
    let ours = normalize(&got);
    assert!(ours.ends_with(left), "observer: no <left> after the result");
    assert_same(name, "admin", &ours[..ours.len() - left.len()]);
    for (who, p) in ["p1", "p2"].into_iter().zip(players) {
        assert_same(name, who, &p.await.unwrap());
    }
}
