//! Helpers for the end-to-end tests: server start-up and scripted (mis)behaving clients.
#![allow(dead_code)]

use kibitz_bots_connect4::client::{Bot, BotConfig, BotStats};
use kibitz_bots_connect4::config::ServerConfig;
use kibitz_bots_connect4::protocol::ServerMsg;
use kibitz_bots_connect4::server::Server;
use kibitz_connect4::agents::{AgentSpec, EngineSpec};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// A server on 127.0.0.1, any port.
pub async fn server(timeout_ms: u64, min_players: usize, seasons: Option<u32>) -> Server {
    Server::start(ServerConfig {
        port: 0,
        timeout: Duration::from_millis(timeout_ms),
        min_players,
        seasons,
        ..ServerConfig::default()
    })
    .await
    .expect("server starts")
}

/// A player for a test bot: the spec, its seed and whether it ponders.
pub type Who = (AgentSpec, u64, bool);

/// The random baseline seeded with `seed`.
pub fn random(seed: u64) -> Who {
    (AgentSpec::Random, seed, false)
}

/// Our engine with `hash_mb` MiB on the bot's clock, pondering or not.
pub fn engine(hash_mb: usize, ponder: bool) -> Who {
    (AgentSpec::Engine(EngineSpec::engine(hash_mb)), 1, ponder)
}

/// Our bot (or the random baseline) running until `stop` turns true.
pub async fn spawn_bot(
    server: SocketAddr,
    name: &str,
    brain: Who,
    time_ms: u64,
    stop: &watch::Receiver<bool>,
) -> JoinHandle<anyhow::Result<BotStats>> {
    let cfg = BotConfig {
        time: Duration::from_millis(time_ms),
        // The old reply-time semantics: only the hand-off grace is kept.
        overhead: Duration::from_millis(15),
        player: brain.0,
        seed: brain.1,
        ponder: brain.2,
        ..BotConfig::new("127.0.0.1", server.port(), name)
    };
    let bot = Bot::new(cfg).await.expect("bot starts");
    let mut rx = stop.clone();
    tokio::spawn(bot.run(async move {
        let _ = rx.wait_for(|s| *s).await;
    }))
}

/// How a scripted client answers `YOURTURN` (`game` counts its games from 0, `board` is the
/// list of stones announced so far in this game).
pub type Policy = Box<dyn FnMut(usize, &[i32], &str) -> Option<String> + Send>;

/// A scripted client: registers, joins every season, answers YOURTURN with `policy`, and
/// records every datagram it receives.
pub struct Script {
    pub received: Arc<Mutex<Vec<String>>>,
    pub task: JoinHandle<()>,
    pub addr: SocketAddr,
}

pub async fn spawn_script(
    server: SocketAddr,
    name: &str,
    join: bool,
    mut policy: Policy,
    mut stop: watch::Receiver<bool>,
) -> Script {
    let sock = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let addr = sock.local_addr().unwrap();
    let received = Arc::new(Mutex::new(Vec::new()));
    let rec = Arc::clone(&received);
    let name = name.to_string();
    let task = tokio::spawn(async move {
        sock.send_to(format!("REGISTER;{name}").as_bytes(), server)
            .await
            .unwrap();
        let mut buf = [0u8; 2048];
        let mut game: Option<usize> = None;
        let mut games = 0;
        let mut board: Vec<i32> = Vec::new();
        loop {
            // Once stopped, datagrams already delivered (the last RESULT) are still read.
            let n = if *stop.borrow() {
                match tokio::time::timeout(Duration::from_millis(20), sock.recv_from(&mut buf))
                    .await
                {
                    Ok(r) => r.unwrap().0,
                    Err(_) => break,
                }
            } else {
                tokio::select! {
                    r = sock.recv_from(&mut buf) => r.unwrap().0,
                    _ = stop.wait_for(|s| *s) => continue,
                }
            };
            let text = String::from_utf8_lossy(&buf[..n]).into_owned();
            rec.lock().unwrap().push(text.clone());
            match ServerMsg::parse(&text) {
                Ok(ServerMsg::NewSeason(t)) if join => {
                    sock.send_to(format!("JOIN;{t}").as_bytes(), server)
                        .await
                        .unwrap();
                }
                Ok(ServerMsg::NewGame(_)) => {
                    game = Some(games);
                    games += 1;
                    board.clear();
                }
                Ok(ServerMsg::TokenInserted { column, .. }) => board.push(column),
                Ok(ServerMsg::YourTurn(t)) => {
                    if let Some(reply) = policy(game.unwrap_or(0), &board, &t) {
                        sock.send_to(reply.as_bytes(), server).await.unwrap();
                    }
                }
                _ => {}
            }
        }
    });
    Script {
        received,
        task,
        addr,
    }
}

/// Always column 0.
pub fn column_zero() -> Policy {
    Box::new(|_, _, t| Some(format!("INSERT;0;{t}")))
}

/// The lowest column with room on a 7 × 6 board, as a well-behaved fallback.
pub fn first_free(board: &[i32]) -> i32 {
    (0..7)
        .find(|c| board.iter().filter(|&&x| x == *c).count() < 6)
        .unwrap_or(0)
}
