//! Issue 37 (Connect Four): the bot survives a name hijack and a server that stops, and the
//! server never writes a client's bytes raw into its log. Real UDP on 127.0.0.1, every wait
//! bounded.

mod common;

use common::*;
use kibitz_bots_connect4::client::{Bot, BotConfig, Ending};
use kibitz_bots_connect4::config::ServerConfig;
use kibitz_bots_connect4::protocol::{GameResult, LoseReason};
use kibitz_bots_connect4::server::Server;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio::sync::watch;

fn quick_bot(port: u16, name: &str) -> BotConfig {
    BotConfig {
        time: Duration::from_millis(60),
        // The old reply-time semantics: only the hand-off grace is kept.
        overhead: Duration::from_millis(15),
        player: random(9).0,
        seed: random(9).1,
        ponder: random(9).2,
        reregister_after: Duration::from_millis(300),
        give_up_after: Some(Duration::from_millis(1500)),
        ..BotConfig::new("127.0.0.1", port, name)
    }
}

/// A [`quick_bot`] named `kibitz`, running until `stop` turns true; the task yields its run's
/// result.
async fn spawn_quick_bot(
    port: u16,
    mut stop: watch::Receiver<bool>,
) -> tokio::task::JoinHandle<anyhow::Result<kibitz_bots_connect4::client::BotStats>> {
    let bot = Bot::new(quick_bot(port, "kibitz")).await.unwrap();
    tokio::spawn(bot.run(async move {
        let _ = stop.wait_for(|s| *s).await;
    }))
}

/// Item 1: another socket on our IP sends one `REGISTER;kibitz` and so takes over our
/// registration (spec §4.5). The server stops talking to us; the bot must notice the silence,
/// register again and play on (it used to stay silent forever).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_takes_its_name_back_after_a_hijack() {
    let server = server(250, 2, None).await;
    let addr = server.local_addr();
    let (stop_tx, stop) = watch::channel(false);
    let bot = spawn_quick_bot(addr.port(), stop.clone()).await;
    let zero = spawn_script(addr, "zero", true, column_zero(), stop.clone()).await;
    assert!(server.wait_seasons(1, Duration::from_secs(20)).await);

    // The hijack: one datagram from a socket that then never answers anything.
    let thief = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    thief.send_to(b"REGISTER;kibitz", addr).await.unwrap();
    let mut buf = [0u8; 256];
    let n = tokio::time::timeout(Duration::from_secs(5), thief.recv(&mut buf))
        .await
        .expect("the server answers the thief")
        .unwrap();
    assert_eq!(&buf[..n], b"WELCOME;kibitz");

    // A game of kibitz's in a season that began after the hijack, and that kibitz does not
    // lose on time, proves it is back (a game already running at the hijack may still end
    // without kibitz, e.g. by zero's line).
    let hijacked_in = server.seasons_played() as u32 + 1;
    let mut games = server.games();
    let back = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let g = games.recv().await.expect("games go on");
            if g.season <= hijacked_in || (g.home != "kibitz" && g.away != "kibitz") {
                continue;
            }
            let timed_out = matches!(&g.result,
                GameResult::Lose { loser, reason: LoseReason::Timeout(_) } if loser == "kibitz");
            if !timed_out {
                return g;
            }
        }
    })
    .await;
    let _ = stop_tx.send(true);
    let stats = bot.await.unwrap().unwrap();
    zero.task.abort();
    let g = back.expect("kibitz plays again after the hijack");
    assert!(!g.moves.is_empty());
    assert!(stats.reregistrations >= 1, "{stats:?}");
    server.shutdown().await;
}

/// Item 2: after the server's last season (SEASONS=1) nothing arrives any more; the bot warns,
/// tries to register again, then stops by itself with `Ending::ServerSilent` (it used to run
/// forever).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_stops_after_the_last_season() {
    let server = server(250, 2, Some(1)).await;
    let addr = server.local_addr();
    let (_stop_tx, stop) = watch::channel(false);
    let bot = spawn_quick_bot(addr.port(), stop.clone()).await;
    let zero = spawn_script(addr, "zero", true, column_zero(), stop.clone()).await;
    assert!(server.wait_seasons(1, Duration::from_secs(20)).await);
    server.shutdown().await;
    let stats = tokio::time::timeout(Duration::from_secs(20), bot)
        .await
        .expect("the bot stops by itself")
        .unwrap()
        .unwrap();
    zero.task.abort();
    assert_eq!(stats.ending, Ending::ServerSilent);
    assert_eq!(stats.wins + stats.draws + stats.losses, 2, "{stats:?}");
}

/// A `tracing` writer into a shared buffer.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Capture {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Item 4: names and answers from clients reach the server's log escaped: a newline cannot
/// forge a log line, NUL and U+202E (right-to-left override) never appear raw.
#[tokio::test(flavor = "current_thread")]
async fn server_log_escapes_client_strings() {
    let log = Capture::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::DEBUG)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let server = Server::start(ServerConfig {
        port: 0,
        timeout: Duration::from_millis(100),
        min_players: 3,
        seasons: Some(1),
        ..ServerConfig::default()
    })
    .await
    .unwrap();
    let addr = server.local_addr();
    let (stop_tx, stop) = watch::channel(false);
    let forger = spawn_script(
        addr,
        "evil\nFORGED name line",
        true,
        Box::new(|_, _, t| Some(format!("NOPE\nFORGED answer line;{t}"))),
        stop.clone(),
    )
    .await;
    let nul = spawn_script(addr, "nul\0byte", true, column_zero(), stop.clone()).await;
    let rtl = spawn_script(addr, "rtl\u{202e}txt", true, column_zero(), stop.clone()).await;
    assert!(server.wait_seasons(1, Duration::from_secs(20)).await);
    let _ = stop_tx.send(true);
    for s in [forger, nul, rtl] {
        let _ = tokio::time::timeout(Duration::from_secs(2), s.task).await;
    }
    server.shutdown().await;

    let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    assert!(
        text.contains("registered"),
        "the log holds the registrations:\n{text}"
    );
    assert!(
        text.contains("Unexpected response"),
        "and the faulty answer:\n{text}"
    );
    for line in text.lines() {
        assert!(
            !line.starts_with("FORGED"),
            "forged log line {line:?} in\n{text}"
        );
    }
    assert!(!text.contains('\0'), "raw NUL in\n{text}");
    assert!(!text.contains('\u{202e}'), "raw U+202E in\n{text}");
    assert!(text.contains(r"evil\nFORGED name line"), "{text}");
    assert!(text.contains(r"rtl\u{202e}txt"), "{text}");
}

/// Item 6: a server started by hand has no seed and its games no opening; its records leave
/// both keys out instead of writing `"seed": null` and `"opening": ""`, and keep the size.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hand_started_server_records_leave_out_seed_and_opening() {
    let dir = kibitz_testkit::fresh_dir("c4-records-noseed");
    let server = Server::start(ServerConfig {
        port: 0,
        timeout: Duration::from_millis(200),
        min_players: 2,
        seasons: Some(1),
        columns: 8,
        rows: 7,
        records: Some(dir.clone()),
        ..ServerConfig::default()
    })
    .await
    .unwrap();
    let addr = server.local_addr();
    let (stop_tx, stop) = watch::channel(false);
    let a = spawn_script(addr, "a", true, column_zero(), stop.clone()).await;
    let b = spawn_script(addr, "b", true, column_zero(), stop.clone()).await;
    assert!(server.wait_seasons(1, Duration::from_secs(20)).await);
    let _ = stop_tx.send(true);
    a.task.abort();
    b.task.abort();
    server.shutdown().await;
    let lines = kibitz_testkit::json_lines(&dir.join("connect4.jsonl"));
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert!(l.get("seed").is_none(), "{l}");
        assert!(l["setup"].get("opening").is_none(), "{l}");
        assert_eq!(
            (&l["setup"]["columns"], &l["setup"]["rows"]),
            (&8.into(), &7.into())
        );
        // Column 0 seven times: the seventh stone fits only on the 7-row board.
        assert!(l["moves"].as_array().unwrap().len() >= 7, "{l}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
