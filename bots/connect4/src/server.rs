//! The reference server: faithful to the original contest server (spec §§1-9) plus our
//! extensions (§10), runnable in-process for tests and the tournament.
//!
//! Structure: one UDP socket. The *receiver* task reads every datagram, answers `REGISTER;`
//! at once and puts any other datagram from a registered socket into that player's queue (at
//! most [`QUEUE_LEN`]). The *season* task (module `season`) runs seasons forever (or
//! `SEASONS` times) and, whenever it waits for a reply, takes datagrams from the player's
//! queue until one carries the current token. Nothing a client sends can panic either task:
//! every datagram is decoded lossily and read with the total functions of [`crate::protocol`].

use crate::config::ServerConfig;
use crate::protocol::{
    decode_datagram, log_safe, match_reply, read_register, Registration, ServerMsg, QUEUE_LEN,
};
use crate::standings::Scoreboard;
use kibitz_search::stats::Standing;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio::sync::{watch, Notify};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tracing::{debug, info, warn};

pub use crate::season::{GameRecord, SeasonResult};

/// Consecutive timeouts a player may have; the next one unregisters it (spec §7.3).
pub const MAX_TIMEOUTS: u32 = 10;

/// Finished seasons kept in memory for [`Server::results`]; older ones are dropped so that a
/// server playing seasons forever runs in constant memory (the scoreboard keeps the totals).
pub const KEPT_SEASONS: usize = 32;

/// Most players registered at once; a `REGISTER` for a new name beyond this is ignored (logged),
/// so a flood of names cannot grow the player list without bound.
pub const MAX_PLAYERS: usize = 1000;

/// The standings table is printed after every this many seasons (and after the last one); the
/// one-line-per-player ranking after every season (spec §10.5).
pub const TABLE_EVERY: u32 = 100;

/// One registered player.
#[derive(Debug)]
pub(crate) struct Player {
    pub(crate) name: String,
    pub(crate) addr: SocketAddr,
    queue: VecDeque<String>,
    timeouts: u32,
    notify: Arc<Notify>,
}

/// State shared by the receiver, the season task and the handle.
#[derive(Debug, Default)]
pub(crate) struct State {
    /// Registered players in registration order.
    pub(crate) players: Vec<Player>,
    pub(crate) scores: Scoreboard,
    /// The last [`KEPT_SEASONS`] finished seasons, oldest first.
    pub(crate) seasons: VecDeque<SeasonResult>,
    /// Seasons finished since the start (also those no longer kept).
    pub(crate) seasons_played: usize,
    pub(crate) finished: bool,
}

impl State {
    /// Records a finished season, forgetting the oldest beyond [`KEPT_SEASONS`].
    pub(crate) fn push_season(&mut self, result: SeasonResult) {
        self.seasons.push_back(result);
        while self.seasons.len() > KEPT_SEASONS {
            self.seasons.pop_front();
        }
        self.seasons_played += 1;
    }

    fn by_addr(&mut self, addr: SocketAddr) -> Option<&mut Player> {
        self.players.iter_mut().find(|p| p.addr == addr)
    }

    pub(crate) fn by_name(&mut self, name: &str) -> Option<&mut Player> {
        self.players.iter_mut().find(|p| p.name == name)
    }
}

/// The part of the server that the tasks share.
#[derive(Debug)]
pub(crate) struct Inner {
    pub(crate) config: ServerConfig,
    pub(crate) socket: UdpSocket,
    pub(crate) state: Mutex<State>,
    /// Signalled on every successful registration (the season task waits for players).
    pub(crate) registered: Notify,
    /// Signalled when a season ends.
    pub(crate) season_done: Notify,
    pub(crate) shutdown: watch::Receiver<bool>,
    /// Where the games go (`--records`).
    pub(crate) records: Option<kibitz_net::record::RecordWriter>,
    /// Every finished game, for in-process watchers ([`Server::games`]).
    pub(crate) games: tokio::sync::broadcast::Sender<GameRecord>,
    /// Games recorded so far (the `index` of the next record).
    pub(crate) recorded: std::sync::atomic::AtomicU64,
}

impl Inner {
    pub(crate) fn state(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock must not take the server down with it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends one datagram; errors are logged, never fatal (UDP gives no guarantees anyway).
    pub(crate) async fn send(&self, msg: &ServerMsg, addr: SocketAddr) {
        let text = msg.encode();
        debug!(%addr, text = %log_safe(&text), "send");
        if let Err(e) = self.socket.send_to(text.as_bytes(), addr).await {
            warn!(%addr, error = %e, "send failed");
        }
    }

    /// The current address of a registered player.
    pub(crate) fn addr_of(&self, name: &str) -> Option<SocketAddr> {
        self.state().by_name(name).map(|p| p.addr)
    }

    /// Waits until `deadline` for a reply from `name` whose last field is `token` and returns
    /// the answer (the reply without its last field). Non-matching datagrams are discarded.
    /// On timeout the player's timeout counter is advanced; the 11th timeout in a row removes
    /// the player and sends `UNREGISTERED` (spec §7).
    pub(crate) async fn await_reply(
        &self,
        name: &str,
        token: &str,
        deadline: Instant,
    ) -> Option<String> {
        loop {
            let notify = {
                let mut st = self.state();
                let Some(p) = st.by_name(name) else { break };
                while let Some(d) = p.queue.pop_front() {
                    p.timeouts = 0;
                    if let Some(answer) = match_reply(&d, token) {
                        return Some(answer);
                    }
                    debug!(player = %log_safe(name), datagram = %log_safe(&d), "discarded: token does not match");
                }
                Arc::clone(&p.notify)
            };
            if tokio::time::timeout_at(deadline, notify.notified())
                .await
                .is_err()
            {
                break;
            }
        }
        // Not registered (any more) or nothing matched in time.
        tokio::time::sleep_until(deadline).await;
        let removed = {
            let mut st = self.state();
            match st.players.iter().position(|p| p.name == name) {
                Some(i) if st.players[i].timeouts >= MAX_TIMEOUTS => {
                    Some(st.players.remove(i).addr)
                }
                Some(i) => {
                    st.players[i].timeouts += 1;
                    None
                }
                None => None,
            }
        };
        if let Some(addr) = removed {
            info!(
                player = %log_safe(name),
                "removed after {} consecutive timeouts",
                MAX_TIMEOUTS + 1
            );
            self.send(&ServerMsg::Unregistered, addr).await;
        }
        None
    }

    /// Handles one received datagram.
    async fn on_datagram(&self, bytes: &[u8], from: SocketAddr) {
        let text = decode_datagram(bytes);
        match read_register(&text) {
            Some(Registration::Refused(reply)) => self.send(&reply, from).await,
            Some(Registration::Name(name)) => {
                if let Some(reply) = self.register(name, from) {
                    self.send(&reply, from).await;
                }
            }
            None => {
                let mut st = self.state();
                match st.by_addr(from) {
                    Some(p) if p.queue.len() < QUEUE_LEN => {
                        p.queue.push_back(text);
                        p.notify.notify_one();
                    }
                    Some(p) => debug!(player = %log_safe(&p.name), "queue full: datagram dropped"),
                    None => {
                        debug!(%from, datagram = %log_safe(&text), "ignored: not registered")
                    }
                }
            }
        }
    }

    /// Registers `name` for `from` (spec §4.4-4.6, 4.10) and returns the reply (`None`: the
    /// server is full, see [`MAX_PLAYERS`]; nothing is sent).
    fn register(&self, name: String, from: SocketAddr) -> Option<ServerMsg> {
        let mut st = self.state();
        if let Some(p) = st.players.iter().find(|p| p.name == name) {
            if p.addr.ip() != from.ip() {
                return Some(ServerMsg::NameAlreadyTaken);
            }
        }
        // One socket, one name: a socket registering a new name gives up its old one.
        st.players.retain(|p| p.addr != from || p.name == name);
        let full = st.players.len() >= MAX_PLAYERS;
        match st.by_name(&name) {
            Some(p) => p.addr = from,
            None if full => {
                warn!(%from, "registration of {name:?} ignored: {MAX_PLAYERS} players registered");
                return None;
            }
            None => st.players.push(Player {
                name: name.clone(),
                addr: from,
                queue: VecDeque::new(),
                timeouts: 0,
                notify: Arc::new(Notify::new()),
            }),
        }
        info!(
            "Player {} registered, we now have {} player(s)",
            log_safe(&name),
            st.players.len()
        );
        drop(st);
        self.registered.notify_waiters();
        Some(ServerMsg::Welcome(name))
    }
}

async fn receive_loop(inner: Arc<Inner>) {
    let mut buf = vec![0u8; 65536];
    let mut shutdown = inner.shutdown.clone();
    loop {
        tokio::select! {
            _ = shutdown.changed() => break,
            r = inner.socket.recv_from(&mut buf) => match r {
                Ok((n, from)) => inner.on_datagram(&buf[..n], from).await,
                Err(e) => {
                    // E.g. ICMP port unreachable reported on some platforms: keep serving.
                    debug!(error = %e, "receive error");
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            }
        }
    }
}

/// A running server. Dropping it stops it (as [`Server::shutdown`] does, without waiting).
#[derive(Debug)]
pub struct Server {
    inner: Arc<Inner>,
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl Server {
    /// Validates `config`, binds `config.bind:config.port` and starts serving (needs a Tokio
    /// runtime). Port 0 picks a free port; see [`Server::local_addr`].
    pub async fn start(config: ServerConfig) -> anyhow::Result<Server> {
        config.validate()?;
        let socket = UdpSocket::bind((config.bind, config.port)).await?;
        let addr = socket.local_addr()?;
        let (stop, shutdown) = watch::channel(false);
        let records = match &config.records {
            Some(dir) => Some(
                kibitz_net::record::RecordWriter::create(dir, crate::record::GAME)
                    .map_err(|e| anyhow::anyhow!("--records {}: {e}", dir.display()))?,
            ),
            None => None,
        };
        let inner = Arc::new(Inner {
            config,
            socket,
            state: Mutex::new(State::default()),
            registered: Notify::new(),
            season_done: Notify::new(),
            shutdown,
            records,
            games: tokio::sync::broadcast::channel(256).0,
            recorded: std::sync::atomic::AtomicU64::new(0),
        });
        info!(%addr, "Listening");
        let tasks = vec![
            tokio::spawn(receive_loop(Arc::clone(&inner))),
            tokio::spawn(crate::season::run_seasons(Arc::clone(&inner))),
        ];
        Ok(Server {
            inner,
            addr,
            stop,
            tasks,
        })
    }

    /// Every game finished from now on, as it ends (a slow receiver may miss games: it then
    /// gets `Lagged` from the channel).
    pub fn games(&self) -> tokio::sync::broadcast::Receiver<GameRecord> {
        self.inner.games.subscribe()
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The configuration in use.
    pub fn config(&self) -> &ServerConfig {
        &self.inner.config
    }

    /// The last [`KEPT_SEASONS`] finished seasons, oldest first (older ones are forgotten; see
    /// [`Server::seasons_played`] and [`Server::scoreboard`] for totals).
    pub fn results(&self) -> Vec<SeasonResult> {
        self.inner.state().seasons.iter().cloned().collect()
    }

    /// Seasons finished since the start.
    pub fn seasons_played(&self) -> usize {
        self.inner.state().seasons_played
    }

    /// Scores over all finished seasons, best first.
    pub fn standings(&self) -> Vec<Standing> {
        self.inner.state().scores.standings()
    }

    /// The accumulated scoreboard (for tables).
    pub fn scoreboard(&self) -> Scoreboard {
        self.inner.state().scores.clone()
    }

    /// Names currently registered, in registration order.
    pub fn registered(&self) -> Vec<String> {
        self.inner
            .state()
            .players
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    /// True once the configured number of seasons (`SEASONS`) has been played.
    pub fn finished(&self) -> bool {
        self.inner.state().finished
    }

    /// Waits until at least `n` seasons are finished, or `limit` passes; returns whether they are.
    pub async fn wait_seasons(&self, n: usize, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            let notified = self.inner.season_done.notified();
            if self.inner.state().seasons_played >= n {
                return true;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return self.inner.state().seasons_played >= n;
            }
        }
    }

    /// Stops both tasks and waits for them.
    pub async fn shutdown(mut self) {
        let _ = self.stop.send(true);
        for t in self.tasks.drain(..) {
            let _ = t.await;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        for t in &self.tasks {
            t.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn queue_holds_ten_and_waiting_discards_until_the_token() {
        // MINPLAYERS 100: no season starts, so nobody else takes from the queue.
        let cfg = ServerConfig {
            port: 0,
            min_players: 100,
            ..ServerConfig::default()
        };
        let server = Server::start(cfg).await.unwrap();
        let addr = server.local_addr();
        let c = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let mut buf = [0u8; 64];
        c.send_to(b"REGISTER;q", addr).await.unwrap();
        let n = c.recv(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"WELCOME;q");
        for i in 0..15 {
            c.send_to(format!("x;tok{i:05}").as_bytes(), addr)
                .await
                .unwrap();
        }
        // The receiver handles datagrams in order: once this is answered, all 15 were seen.
        c.send_to(b"REGISTER;q", addr).await.unwrap();
        let n = c.recv(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"WELCOME;q");
        let queued = |s: &Server| {
            s.inner.state().players[0]
                .queue
                .iter()
                .cloned()
                .collect::<Vec<_>>()
        };
        let q = queued(&server);
        assert_eq!(q.len(), QUEUE_LEN);
        assert_eq!(q[0], "x;tok00000");
        assert_eq!(q[9], "x;tok00009");
        server.inner.state().players[0].timeouts = 5;
        let soon = Instant::now() + Duration::from_millis(50);
        assert_eq!(
            server
                .inner
                .await_reply("q", "tok00003", soon)
                .await
                .as_deref(),
            Some("x")
        );
        assert_eq!(queued(&server).len(), 6);
        assert_eq!(
            server.inner.state().players[0].timeouts,
            0,
            "any datagram taken resets the counter"
        );
        let soon = Instant::now() + Duration::from_millis(20);
        assert_eq!(
            server.inner.await_reply("q", "tok00012", soon).await,
            None,
            "dropped when the queue was full"
        );
        assert!(queued(&server).is_empty());
        assert_eq!(server.inner.state().players[0].timeouts, 1);
        server.shutdown().await;
    }

    /// A minimal honest client: joins every season and always plays `column` (so every game
    /// ends within a few moves by a vertical line or a full column).
    async fn stacker(addr: SocketAddr, name: &str, column: u8) -> JoinHandle<()> {
        let c = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        c.send_to(format!("REGISTER;{name}").as_bytes(), addr)
            .await
            .unwrap();
        tokio::spawn(async move {
            let mut buf = [0u8; 256];
            while let Ok(n) = c.recv(&mut buf).await {
                let msg = String::from_utf8_lossy(&buf[..n]).to_string();
                let reply = if let Some(t) = msg.strip_prefix("NEW SEASON;") {
                    format!("JOIN;{t}")
                } else if let Some(t) = msg.strip_prefix("YOURTURN;") {
                    format!("INSERT;{column};{t}")
                } else {
                    continue;
                };
                let _ = c.send_to(reply.as_bytes(), addr).await;
            }
        })
    }

    #[tokio::test]
    async fn memory_stays_bounded_over_many_seasons() {
        let cfg = ServerConfig {
            port: 0,
            min_players: 2,
            timeout: Duration::from_millis(2000),
            ..ServerConfig::default()
        };
        let server = Server::start(cfg).await.unwrap();
        let addr = server.local_addr();
        let a = stacker(addr, "a", 0).await;
        let b = stacker(addr, "b", 1).await;
        let seasons = 3 * KEPT_SEASONS + 5;
        assert!(server.wait_seasons(seasons, Duration::from_secs(120)).await);
        {
            let st = server.inner.state();
            assert!(st.seasons_played >= seasons);
            assert!(
                st.seasons.len() <= KEPT_SEASONS,
                "{} seasons kept",
                st.seasons.len()
            );
            assert_eq!(st.players.len(), 2);
            assert!(st.players.iter().all(|p| p.queue.len() <= QUEUE_LEN));
            assert_eq!(st.scores.ranking().len(), 2);
            let games: u32 = st.scores.ranking().iter().map(|r| r.games).sum();
            assert!(games as usize >= 2 * 2 * seasons, "totals survive: {games}");
        }
        assert_eq!(server.results().len(), KEPT_SEASONS);
        assert!(server.results()[0].number > 1, "the oldest were forgotten");
        a.abort();
        b.abort();
        server.shutdown().await;
    }

    #[tokio::test]
    async fn registrations_beyond_the_cap_are_ignored() {
        let cfg = ServerConfig {
            port: 0,
            min_players: usize::MAX,
            ..ServerConfig::default()
        };
        let server = Server::start(cfg).await.unwrap();
        let from: SocketAddr = "127.0.0.1:9".parse().unwrap();
        for i in 0..MAX_PLAYERS + 50 {
            let reply = server.inner.register(
                format!("p{i}"),
                SocketAddr::new(from.ip(), 10_000 + i as u16),
            );
            assert_eq!(reply.is_some(), i < MAX_PLAYERS, "registration {i}");
        }
        // A known name still re-registers.
        assert!(server.inner.register("p0".into(), from).is_some());
        assert_eq!(server.registered().len(), MAX_PLAYERS);
        server.shutdown().await;
    }
}
