//! Byte identity: our server replays each recorded real-server game (same deal, same draws, the
//! same bot lines in the same order) and must write exactly the bytes the real server wrote to
//! each bot. Where §10 makes ours differ (turn timeout, no crash on a bad handshake) the test
//! checks the documented difference.

use kibitz_bots_maumau::protocol::ServerMsg;
use kibitz_bots_maumau::server::{self, Draws, Replay, ServerConfig};
use kibitz_bots_maumau::transcript::{parse, Event, Kind};
use kibitz_maumau::Card;
use std::collections::HashMap;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/maumau/transcripts");
/// Hang guard only (never a speed assertion): no single read should take anywhere near this.
const GUARD: Duration = Duration::from_secs(20);

fn load(file: &str) -> Vec<Event> {
    let text = std::fs::read_to_string(format!("{DIR}/{file}")).expect("transcript");
    parse(&text).expect("parsable transcript")
}

/// Bot columns in connection order.
fn bots(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e.kind == Kind::Connect)
        .map(|e| e.bot.clone())
        .collect()
}

fn received(events: &[Event], bot: &str) -> Vec<Vec<u8>> {
    events
        .iter()
        .filter(|e| e.bot == bot)
        .filter_map(|e| match &e.kind {
            Kind::ServerToBot(b) => Some(b.clone()),
            _ => None,
        })
        .collect()
}

/// The deal and the draws, reconstructed from what the bots received.
fn replay(events: &[Event], per_seat: bool) -> Option<Replay> {
    let msgs: Vec<(&str, ServerMsg)> = events
        .iter()
        .filter_map(|e| match &e.kind {
            Kind::ServerToBot(b) => Some((e.bot.as_str(), ServerMsg::decode(b).ok()?)),
            _ => None,
        })
        .collect();
    let top = msgs.iter().find_map(|(_, m)| match m {
        ServerMsg::Broadcast(b) => Some(b.top),
        _ => None,
    })?;
    let mut deck = vec![top];
    for (_, m) in &msgs {
        if let ServerMsg::Request(r) = m {
            if let Some(h) = &r.hand {
                deck.extend(&h[..7]);
            }
        }
    }
    let card = |c: i32| Card::from_wire(c as i64).expect("card");
    let rest: Vec<i32> = (0..32).filter(|c| !deck.contains(c)).collect();
    deck.extend(rest);
    let cols = bots(events);
    let mut lists = vec![Vec::new(); cols.len()];
    let mut all = Vec::new();
    for (bot, m) in &msgs {
        let seat = cols.iter().position(|c| c == bot).unwrap_or(0);
        let drawn: Vec<i32> = match m {
            ServerMsg::Request(r) => r.drawn.clone().unwrap_or_default(),
            ServerMsg::Drawn { card, .. } if *card >= 0 => vec![*card],
            _ => vec![],
        };
        for c in drawn {
            lists[seat].push(card(c));
            all.push(card(c));
        }
    }
    let draws = if per_seat {
        Draws::PerSeat(lists)
    } else {
        Draws::InOrder(all)
    };
    Some(Replay {
        deck: deck.into_iter().map(card).collect(),
        draws,
    })
}

enum Action {
    Send(Vec<u8>),
    Quit,
    Silent,
}

/// Drives the recorded bots' lines against our server; returns what each connection received.
async fn drive(events: &[Event], cfg: ServerConfig) -> Vec<Vec<Vec<u8>>> {
    drive_until(events, cfg, |_| true).await
}

/// As [`drive`], but when the recorded actions run out, keeps reading (without answering) until
/// `done` holds for what every seat received so far (or [`GUARD`] passes): a line the server
/// sent to another seat in the same turn may still be on its way through the other socket.
async fn drive_until(
    events: &[Event],
    cfg: ServerConfig,
    done: impl Fn(&[Vec<Vec<u8>>]) -> bool,
) -> Vec<Vec<Vec<u8>>> {
    let cols = bots(events);
    let mut actions: Vec<Action> = events
        .iter()
        .filter_map(|e| match &e.kind {
            Kind::BotToServer(l) => Some(Action::Send(l.clone())),
            Kind::Quit => Some(Action::Quit),
            Kind::Silent => Some(Action::Silent),
            _ => None,
        })
        .collect();
    actions.reverse();
    let (addr, handle) = server::spawn("127.0.0.1:0".parse().unwrap(), cfg).expect("server");
    let (tx, mut rx) = mpsc::unbounded_channel::<(usize, Option<Vec<u8>>)>();
    let mut writers = Vec::new();
    let mut readers = Vec::new();
    let mut got: Vec<Vec<Vec<u8>>> = vec![Vec::new(); cols.len()];
    for seat in 0..cols.len() {
        let stream = TcpStream::connect(addr).await.expect("connect");
        let (rd, wr) = stream.into_split();
        writers.push(Some(wr));
        let tx = tx.clone();
        readers.push(tokio::spawn(async move {
            let mut rd = BufReader::new(rd);
            loop {
                let mut line = Vec::new();
                match rd.read_until(b'\n', &mut line).await {
                    Ok(0) | Err(_) => {
                        let _ = tx.send((seat, None));
                        return;
                    }
                    Ok(_) => {
                        let _ = tx.send((seat, Some(line)));
                    }
                }
            }
        }));
        // Handshake of this seat before the next one connects, as the recording harness did.
        for _ in 0..2 {
            let Ok(Some((s, Some(line)))) = tokio::time::timeout(GUARD, rx.recv()).await else {
                panic!("handshake of seat {seat} stalled");
            };
            assert_eq!(s, seat);
            got[seat].push(line.clone());
            if line.starts_with(br#"{"sendName""#) {
                if let Some(Action::Send(l)) = actions.pop() {
                    let w = writers[seat].as_mut().unwrap();
                    w.write_all(&[l.as_slice(), b"\n"].concat()).await.unwrap();
                }
            }
        }
    }
    let mut open = cols.len();
    let mut silent = vec![false; cols.len()];
    let mut exhausted = false;
    while open > 0 {
        let Ok(Some((seat, line))) = tokio::time::timeout(GUARD, rx.recv()).await else {
            break;
        };
        let Some(line) = line else {
            open -= 1;
            continue;
        };
        got[seat].push(line.clone());
        if exhausted {
            if done(&got) {
                break;
            }
            continue;
        }
        let is_request = line.starts_with(br#"{"topcard""#);
        if !is_request || silent[seat] {
            continue;
        }
        match actions.pop() {
            Some(Action::Send(l)) => {
                if let Some(w) = writers[seat].as_mut() {
                    let _ = w.write_all(&[l.as_slice(), b"\n"].concat()).await;
                }
            }
            Some(Action::Quit) => {
                // Close the socket completely, as the recorded bot did.
                if let Some(mut w) = writers[seat].take() {
                    let _ = w.shutdown().await;
                }
                readers[seat].abort();
                open -= 1;
            }
            Some(Action::Silent) => silent[seat] = true,
            // The recording ends here (e.g. the real server crashed).
            None if done(&got) => break,
            None => exhausted = true,
        }
    }
    // Close our side completely so that a server still waiting for an answer sees EOF.
    drop(writers);
    for r in readers {
        r.abort();
        let _ = r.await;
    }
    drop(rx);
    let _ = tokio::task::spawn_blocking(move || handle.join()).await;
    got
}

fn show(lines: &[Vec<u8>]) -> String {
    lines
        .iter()
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect()
}

fn faithful() -> ServerConfig {
    ServerConfig {
        turn_timeout: None,
        ..ServerConfig::default()
    }
}

async fn identical(file: &str) {
    let events = load(file);
    let cfg = ServerConfig {
        replay: replay(&events, true),
        ..faithful()
    };
    let got = drive(&events, cfg).await;
    for (seat, bot) in bots(&events).iter().enumerate() {
        let want = received(&events, bot);
        assert_eq!(
            show(&got[seat]),
            show(&want),
            "{file}: bytes to {bot} (seat {seat}) differ"
        );
        assert_eq!(got[seat], want);
    }
}

#[tokio::test]
async fn explore_23_is_byte_identical() {
    identical("explore_23.log").await;
}
#[tokio::test]
async fn g_random_1_is_byte_identical() {
    identical("g_random_1.log").await;
}
#[tokio::test]
async fn hoard_hoard_is_byte_identical() {
    identical("hoard_hoard.log").await;
}
#[tokio::test]
async fn play2_hoard_1_is_byte_identical() {
    identical("play2_hoard_1.log").await;
}
#[tokio::test]
async fn quit3_is_byte_identical() {
    identical("quit3.log").await;
}
#[tokio::test]
async fn rawname_is_byte_identical() {
    identical("rawname.log").await;
}

/// Both bots are called `Same`, so the log does not say which connection got which line: the
/// recorded sequence must be an interleaving of the two streams our server wrote.
#[tokio::test]
async fn samename_is_an_interleaving_of_our_streams() {
    let events = load("samename.log");
    let cfg = ServerConfig {
        replay: replay(&events, false),
        ..faithful()
    };
    let got = drive(&events, cfg).await;
    let want = received(&events, "Same");
    let (a, b) = (&got[0], &got[1]);
    assert_eq!(a.len() + b.len(), want.len(), "line count");
    // reach[i][j]: the first i lines of a and j lines of b can form the first i+j recorded lines.
    let mut reach = vec![vec![false; b.len() + 1]; a.len() + 1];
    reach[0][0] = true;
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            if i + j == 0 {
                continue;
            }
            let k = i + j - 1;
            reach[i][j] = (i > 0 && reach[i - 1][j] && a[i - 1] == want[k])
                || (j > 0 && reach[i][j - 1] && b[j - 1] == want[k]);
        }
    }
    assert!(
        reach[a.len()][b.len()],
        "recorded lines are not an interleaving of ours"
    );
    // Same-name effects: both seats drew two after a single 7 at least once.
    let draws_two = |s: &[Vec<u8>]| {
        s.iter()
            .filter(|l| l.windows(19).any(|w| w == br#""drawTwoCards":true"#))
            .count()
    };
    assert!(draws_two(a) > 0 && draws_two(b) > 0);
}

/// The real server waits forever for a silent bot; ours repeats the request three times after
/// the turn timeout, then drops the bot and declares the other the winner.
#[tokio::test]
async fn silent_bot_is_repeated_three_times_then_dropped() {
    let events = load("silent.log");
    let cfg = ServerConfig {
        replay: replay(&events, true),
        turn_timeout: Some(Duration::from_millis(300)),
        ..ServerConfig::default()
    };
    let got = drive(&events, cfg).await;
    let cols = bots(&events);
    let mut last_request = HashMap::new();
    for (seat, bot) in cols.iter().enumerate() {
        let want = received(&events, bot);
        assert_eq!(
            show(&got[seat][..want.len()]),
            show(&want),
            "prefix to {bot}"
        );
        last_request.insert(seat, want.last().cloned().unwrap());
    }
    // Seat 1 (Beta) went silent after its last request: three identical repeats, nothing else.
    let extra: Vec<_> = got[1][received(&events, &cols[1]).len()..].to_vec();
    assert_eq!(extra, vec![last_request[&1].clone(); 3]);
    let extra0: Vec<_> = got[0][received(&events, &cols[0]).len()..].to_vec();
    assert_eq!(
        show(&extra0),
        "{\"won\":true,\"nameOfWinner\":\"Alpha\",\"status\":\"okay\"}\n"
    );
}

/// The real server answers a name line with a bad status by `"name":null` and crashes; ours
/// treats it like a non-JSON name (`setName:false`, `Bot 0`) and plays on.
#[tokio::test]
async fn bad_status_handshake_does_not_crash() {
    let events = load("badstatus.log");
    // Seat 1's first broadcast travels on its own socket: wait for it, not for a clock.
    let got = drive_until(&events, faithful(), |got| got[1].len() >= 4).await;
    let want_alpha = received(&events, "Alpha");
    assert_eq!(got[0][0], want_alpha[0]);
    assert_eq!(
        show(&got[0][1..2]),
        "{\"setName\":false,\"name\":\"Bot 0\",\"status\":\"error\"}\n"
    );
    assert_eq!(got[0][2], want_alpha[2], "gameStart follows");
    let want_beta = received(&events, "Beta");
    assert_eq!(got[1][..3], want_beta[..3]);
    // The game goes on: the first broadcast names the renamed seat 0.
    assert!(String::from_utf8_lossy(&got[1][3]).contains(r#""turnOf":"Bot 0""#));
}
