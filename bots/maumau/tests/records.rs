//! `ServerConfig::records` (`maumau-server --records DIR`): every game the server plays becomes
//! one `kibitz-record/1` line that replays, move by move, to the end the server reported —
//! penalties, out-of-range cards and dropped seats included.

use kibitz_bots_maumau::client::{play, BotConfig};
use kibitz_bots_maumau::server::{spawn, ServerConfig};
use kibitz_net::record::RecordWriter;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// A client that answers every request with the next of a cycle of bad or odd lines, and
/// leaves after `leave_after` requests (0 = never).
fn odd_client(
    addr: SocketAddr,
    name: &'static str,
    leave_after: u32,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let Ok(mut s) = TcpStream::connect(addr) else {
            return;
        };
        let _ = s.set_read_timeout(Some(Duration::from_secs(60)));
        let mut r = BufReader::new(s.try_clone().expect("clone"));
        let mut n = 0u32;
        loop {
            let mut line = Vec::new();
            match r.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let reply: Vec<u8> = if line.starts_with(br#"{"sendName""#) {
                format!("{{\"status\":\"okay\",\"name\":\"{name}\"}}").into_bytes()
            } else if line.starts_with(br#"{"topcard""#) {
                n += 1;
                if leave_after > 0 && n >= leave_after {
                    let _ = s.shutdown(std::net::Shutdown::Both);
                    return;
                }
                match n % 5 {
                    0 => b"not json".to_vec(),
                    1 => br#"{"status":"skip"}"#.to_vec(),
                    2 => br#"{"status":"turn","selectedCard":99,"wishedColor":2}"#.to_vec(),
                    3 => br#"{"status":"turn","selectedCard":12}"#.to_vec(),
                    _ => br#"{"status":"skip"}"#.to_vec(),
                }
            } else {
                continue;
            };
            if s.write_all(&[reply.as_slice(), b"\n"].concat()).is_err() {
                return;
            }
        }
    })
}

#[test]
fn server_records_replay_to_the_reported_end() {
    let dir = std::env::temp_dir().join(format!("mm-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let writer = Arc::new(RecordWriter::create(&dir, "maumau").unwrap());
    let cfg = ServerConfig {
        games: 3,
        seed: 99,
        max_turns: 300,
        records: Some(writer.clone()),
        ..ServerConfig::default()
    };
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    for leave_after in [0, 6, 0] {
        let odd = odd_client(addr, "Odd", leave_after);
        std::thread::sleep(Duration::from_millis(50));
        let ours = BotConfig {
            name: "Ours".into(),
            iterations: Some(200),
            time: Duration::from_secs(2),
            read_timeout: Duration::from_secs(60),
            ..BotConfig::default()
        };
        play(addr, &ours).expect("our bot plays");
        odd.join().unwrap();
    }
    let reports = server.join().unwrap().unwrap();
    assert_eq!(reports.len(), 3);
    let text = std::fs::read_to_string(writer.path()).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "one record per game");
    let mut penalties = 0;
    for (l, r) in lines.iter().zip(&reports) {
        assert_eq!(l["index"], r.index);
        assert_eq!(l["setup"]["deal_seed"], r.seed);
        assert_eq!(l["players"][r.winner], r.winner_name());
        assert_eq!(l["result"]["winner"], r.winner);
        penalties += r.faults.iter().map(|f| f.penalties).sum::<u32>();
        let positions = kibitz_bots_maumau::record::replay(l).expect("replays");
        let last = &positions.last().unwrap().0;
        assert!(last.contains(&format!("seat {} wins", r.winner)), "{last}");
    }
    assert!(
        penalties > 0,
        "the odd client's penalties are in the records"
    );
    assert!(
        text.contains("\"dropped\""),
        "the leaver's drop is recorded"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
