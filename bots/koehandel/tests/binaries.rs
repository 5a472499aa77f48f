//! The two binaries: start both on free ports, play a game through the server's front door.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts a binary and returns it with the URL it logs on startup.
fn start(bin: &str, args: &[&str]) -> (Proc, String) {
    let mut child = Command::new(bin)
        .args(args)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary starts");
    let out = child.stdout.take().unwrap();
    let proc = Proc(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if let Some(i) = line.find("http://") {
                let url: String = line[i..]
                    .chars()
                    .take_while(|c| !c.is_whitespace() && *c != '\u{1b}')
                    .collect();
                let _ = tx.send(url);
            }
        }
    });
    let url = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("startup line with URL");
    (proc, url)
}

fn get(url: &str) -> String {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let caller =
            kibitz_bots_koehandel::caller::Caller::with_limit(Duration::from_secs(10), 1 << 24);
        let (url, q) = url.split_once('?').unwrap_or((url, ""));
        caller.call(url, q).await.0.unwrap()
    })
}

#[test]
fn server_and_bot_binaries_play_a_game() {
    let (_bot, bot_url) = start(
        env!("CARGO_BIN_EXE_koehandel-bot"),
        &["--listen", "127.0.0.1:0", "--strategy", "heuristic"],
    );
    let (_srv, srv_url) = start(
        env!("CARGO_BIN_EXE_koehandel-server"),
        &["--listen", "127.0.0.1:0", "--deadline-ms", "3000"],
    );
    let reply = get(&format!("{srv_url}?connect&url1={bot_url}&url2={bot_url}"));
    assert!(
        reply.starts_with("?market=1&id1=1&id2=2&id3=3&id4=4"),
        "{reply}"
    );
    let mut log = String::new();
    for _ in 0..600 {
        log = get(&format!("{srv_url}?log=2"));
        if log.contains("&type=end&") {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(log.contains("&type=end&"), "game did not finish: {log}");
    assert!(!log.contains("no answer"), "{log}");
}
