//! Same-name fidelity over the wire (spec §7 item 2): two bots called `Same`, a 7 that hits
//! both, then an 8 that skips both. Seat 0 is skipped while the 7 is still pending for it: the
//! real server draws the two cards silently during the skipped turn, so seat 0's next
//! broadcast shows two cards more and its next private message has `drawTwoCards:false`.

use kibitz_bots_maumau::server::{spawn, Draws, Replay, ServerConfig};
use kibitz_maumau::Card;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread::JoinHandle;
use std::time::Duration;

const GUARD: Duration = Duration::from_secs(60);

/// Connects as `Same` and finishes the handshake here (so seats follow call order), then
/// plays `first` on its first request and draws on every later one, in a thread that returns
/// every line received after the handshake, up to `won` or the close.
fn same(addr: SocketAddr, first: i32) -> JoinHandle<Vec<String>> {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(GUARD)).unwrap();
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    assert_eq!(line, "{\"sendName\":true,\"status\":\"okay\"}\n");
    (&s).write_all(b"{\"status\":\"okay\",\"name\":\"Same\"}\n")
        .unwrap();
    line.clear();
    r.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        "{\"setName\":true,\"name\":\"Same\",\"status\":\"okay\"}\n"
    );
    std::thread::spawn(move || {
        let mut got = Vec::new();
        let mut requests = 0;
        loop {
            let mut line = String::new();
            if r.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            got.push(line.clone());
            if line.starts_with("{\"topcard\"") {
                requests += 1;
                let answer = if requests == 1 {
                    format!(
                        "{{\"status\":\"turn\",\"selectedCard\":{first},\"wishedColor\":-1,\"skipped\":false}}\n"
                    )
                } else {
                    "{\"status\":\"skip\"}\n".to_string()
                };
                if (&s).write_all(answer.as_bytes()).is_err() {
                    break;
                }
            }
            if line.contains("\"won\":true") {
                break;
            }
        }
        got
    })
}

#[test]
fn a_pending_seven_is_drawn_silently_during_a_skipped_turn() {
    // Top Herz 10; seat 0 holds Herz 7 and six Aces/Kings, seat 1 Herz 8 and six others; the
    // talon is drawn in deck order: Pik 7, Karo 7 (seat 1's draw), then Kreuz 7, Pik 8.
    let top = [14];
    let seat0 = [2, 28, 29, 31, 24, 25, 27];
    let seat1 = [6, 20, 21, 23, 8, 9, 11];
    let talon = [0, 1, 3, 4, 5, 7, 10, 12, 13, 15, 16, 17, 18, 19, 22, 26, 30];
    let deck: Vec<Card> = top
        .iter()
        .chain(&seat0)
        .chain(&seat1)
        .chain(&talon)
        .map(|&i| Card::from_wire(i).unwrap())
        .collect();
    let cfg = ServerConfig {
        turn_timeout: Some(Duration::from_secs(5)),
        max_turns: 12,
        replay: Some(Replay {
            deck,
            draws: Draws::InOrder(Vec::new()),
        }),
        ..ServerConfig::default()
    };
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    let a = same(addr, 2); // Herz 7: both seats (one name) must draw two
    let b = same(addr, 6); // Herz 8 on it: both seats are skipped
    let (a, b) = (a.join().unwrap(), b.join().unwrap());
    let reports = server.join().unwrap().unwrap();
    assert_eq!(reports[0].names, ["Same", "Same"]);
    let bc = |top: i32, left: i32, skipped: bool| {
        format!("{{\"topCard\":{top},\"cardsLeft\":{left},\"turnOf\":\"Same\",\"status\":\"okay\",\"skipped\":{skipped}}}\n")
    };
    let want = [
        "{\"gameStart\":true,\"status\":\"okay\"}\n".to_string(),
        bc(14, 7, false),
        "{\"topcard\":14,\"drawTwoCards\":false,\"cardsLeft\":7,\"wishedColor\":-1,\"status\":\"okay\",\"skipped\":false,\"hand\":[2,28,29,31,24,25,27]}\n".to_string(),
        bc(2, 7, false),
        // Seat 0 is skipped with the 7 pending: the broadcast shows its hand before the draw.
        bc(6, 6, true),
        bc(6, 8, true),
        // Two cards more, drawn silently; no draw-two in the private message.
        bc(6, 8, false),
        "{\"topcard\":6,\"drawTwoCards\":false,\"cardsLeft\":8,\"wishedColor\":-1,\"status\":\"okay\",\"skipped\":false}\n".to_string(),
    ];
    assert_eq!(a[..want.len()], want, "seat 0's stream");
    // Seat 1 drew its two for the 7 the ordinary way (and saw the same broadcasts).
    assert!(
        b.iter().any(|l| l.starts_with(
            "{\"topcard\":2,\"drawTwoCards\":true,\"cardsLeft\":9,\"wishedColor\":-1,\"drawedCards\":[0,1]"
        )),
        "{b:?}"
    );
    assert!(
        a.iter()
            .chain(&b)
            .all(|l| !l.contains("\"drawedCards\":[3,4]")),
        "the silent draw is listed nowhere"
    );
}
