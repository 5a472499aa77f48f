//! The bot: registers, joins every season, plays every game, re-registers after
//! `UNREGISTERED`, and answers every request from the socket it registered from with exactly
//! `JOIN;<token>` / `INSERT;<column>;<token>` (no terminator).
//!
//! The board is rebuilt from our own `INSERT`s and the opponent's `TOKEN INSERTED`s,
//! interleaved by colour, so a reordered or duplicated datagram cannot shift the history.
//! A `YOURTURN` that overtakes the opponent's stone waits briefly for it (spec §5.4); if the
//! stone never comes, the bot plays a column with at least two empty cells, legal wherever
//! the stone went. Stones that are illegal on our board (a size mismatch, §10.4) are logged
//! and skipped. The engine ([`crate::thinker`]) keeps its tables for the whole run and
//! ponders on the opponent's time.

use crate::protocol::{check_bot_name, decode_datagram, ClientMsg, GameResult, ServerMsg};
use crate::thinker::Thinker;
use anyhow::{bail, Context};
use kibitz_connect4::Position;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::VecDeque;
use std::future::Future;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::net::UdpSocket;
use tracing::{debug, error, info, warn};

mod settings;
pub use settings::{
    engine_deadlines, BotConfig, BotStats, Brain, FALLBACK_GRACE, REGISTER_RETRY, SHUTDOWN_QUIET,
};

/// One game as the bot sees it.
#[derive(Debug, Default)]
struct Game {
    active: bool,
    opponent: Option<String>,
    /// Whether we moved first; known from the first `YOURTURN`.
    home: Option<bool>,
    own: Vec<i32>,
    opp: Vec<i32>,
    own_confirmed: usize,
    /// Replies sent in this game, by token (a repeated `YOURTURN` gets the same answer).
    replies: Vec<(String, String)>,
}

impl Game {
    /// Stones the opponent must have played when it is our turn.
    fn expected_opp(&self) -> usize {
        match self.home {
            Some(true) => self.own.len(),
            _ => self.own.len() + 1,
        }
    }

    /// All stones in playing order, as far as known without a gap.
    fn interleaved(&self) -> Vec<i32> {
        let (first, second) = if self.home == Some(false) {
            (&self.opp, &self.own)
        } else {
            (&self.own, &self.opp)
        };
        let mut out = Vec::new();
        for i in 0.. {
            let Some(&a) = first.get(i) else { break };
            out.push(a);
            let Some(&b) = second.get(i) else { break };
            out.push(b);
        }
        out
    }
}

/// The bot client. Create with [`Bot::new`], then [`Bot::run`].
pub struct Bot {
    cfg: BotConfig,
    socket: UdpSocket,
    server: SocketAddr,
    thinker: Option<Thinker>,
    rng: StdRng,
    game: Game,
    backlog: VecDeque<ServerMsg>,
    registered: bool,
    stats: BotStats,
    /// `(season, opponent)` of every game begun this season (see [`Bot::reseed`]).
    met: Vec<(u64, String)>,
}

impl Bot {
    /// Checks the config, resolves the server, binds a socket and starts the engine.
    pub async fn new(cfg: BotConfig) -> anyhow::Result<Bot> {
        check_bot_name(&cfg.name).map_err(|e| anyhow::anyhow!("bad name {:?}: {e}", cfg.name))?;
        Position::new(cfg.columns, cfg.rows, cfg.connect).map_err(|e| anyhow::anyhow!("{e}"))?;
        if !kibitz_connect4::line_fits(cfg.columns, cfg.rows, cfg.connect) {
            anyhow::bail!(
                "unsupported board {}×{}, connect {}: no line of {} stones fits on it",
                cfg.columns,
                cfg.rows,
                cfg.connect,
                cfg.connect
            );
        }
        let server = tokio::net::lookup_host((cfg.host.as_str(), cfg.port))
            .await
            .with_context(|| format!("resolving {}", cfg.host))?
            .next()
            .with_context(|| format!("no address for {}", cfg.host))?;
        let local: SocketAddr = if server.is_ipv4() {
            ([0, 0, 0, 0], 0).into()
        } else {
            ([0u16; 8], 0).into()
        };
        let socket = UdpSocket::bind(local).await?;
        let (thinker, seed) = match &cfg.brain {
            Brain::Engine { hash_mb, .. } => (
                Some(Thinker::start_with_limit(
                    cfg.columns,
                    cfg.rows,
                    cfg.connect,
                    *hash_mb,
                    cfg.params,
                    cfg.nodes,
                )?),
                0,
            ),
            Brain::Random { seed } => (None, *seed),
        };
        Ok(Bot {
            cfg,
            socket,
            server,
            thinker,
            rng: StdRng::seed_from_u64(seed),
            game: Game::default(),
            backlog: VecDeque::new(),
            registered: false,
            stats: BotStats::default(),
            met: Vec::new(),
        })
    }

    /// Our socket's address.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// Plays until `shutdown` completes; returns what happened. Fails only when the server
    /// refuses our name.
    pub async fn run(mut self, shutdown: impl Future<Output = ()>) -> anyhow::Result<BotStats> {
        tokio::pin!(shutdown);
        let mut buf = vec![0u8; 65536];
        let mut retry = tokio::time::interval(REGISTER_RETRY);
        loop {
            if let Some(msg) = self.backlog.pop_front() {
                self.handle(msg).await?;
                continue;
            }
            tokio::select! {
                _ = &mut shutdown => break,
                _ = retry.tick(), if !self.registered => {
                    self.send(&ClientMsg::Register(self.cfg.name.clone()).encode()).await;
                }
                r = self.socket.recv_from(&mut buf) => match r {
                    Ok((n, from)) => {
                        if let Some(msg) = self.read(&buf[..n], from) {
                            self.handle(msg).await?;
                        }
                    }
                    Err(e) => {
                        debug!(error = %e, "receive error");
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                }
            }
        }
        // Take in what already arrived (e.g. the last RESULT) so the stats are complete. A
        // short receive rather than a non-blocking one: the reactor may not have seen the
        // datagram's readiness yet.
        while let Ok(Ok((n, from))) =
            tokio::time::timeout(SHUTDOWN_QUIET, self.socket.recv_from(&mut buf)).await
        {
            if let Some(msg) = self.read(&buf[..n], from) {
                self.handle_now_or_later(msg).await?;
            }
        }
        if let Some(t) = self.thinker.as_mut() {
            t.stop_ponder();
        }
        Ok(self.stats)
    }

    fn read(&self, bytes: &[u8], from: SocketAddr) -> Option<ServerMsg> {
        if from.ip() != self.server.ip() {
            debug!(%from, "datagram from a stranger ignored");
            return None;
        }
        let text = decode_datagram(bytes);
        match ServerMsg::parse(&text) {
            Ok(m) => {
                debug!(%text, "recv");
                Some(m)
            }
            Err(e) => {
                warn!(datagram = %text.escape_debug(), error = %e, "unreadable message ignored");
                None
            }
        }
    }

    async fn send(&self, text: &str) {
        debug!(%text, "send");
        if let Err(e) = self.socket.send_to(text.as_bytes(), self.server).await {
            warn!(error = %e, "send failed");
        }
    }

    /// Takes everything already waiting in the socket; `YOURTURN`s go to the backlog.
    async fn drain(&mut self) -> anyhow::Result<()> {
        let mut buf = vec![0u8; 65536];
        while let Ok((n, from)) = self.socket.try_recv_from(&mut buf) {
            if let Some(msg) = self.read(&buf[..n], from) {
                self.handle_now_or_later(msg).await?;
            }
        }
        Ok(())
    }

    async fn handle_now_or_later(&mut self, msg: ServerMsg) -> anyhow::Result<()> {
        match msg {
            ServerMsg::YourTurn(_) => self.backlog.push_back(msg),
            m => self.handle_other(m).await?,
        }
        Ok(())
    }

    async fn handle(&mut self, msg: ServerMsg) -> anyhow::Result<()> {
        match msg {
            ServerMsg::YourTurn(token) => self.on_turn(token).await,
            m => self.handle_other(m).await,
        }
    }

    /// Everything but `YOURTURN` (which may itself need to take in other messages).
    async fn handle_other(&mut self, msg: ServerMsg) -> anyhow::Result<()> {
        match msg {
            ServerMsg::Welcome(name) => {
                if !self.registered {
                    info!(%name, "registered");
                    self.stats.registrations += 1;
                }
                self.registered = true;
            }
            ServerMsg::NoNameGiven | ServerMsg::NameTooLong | ServerMsg::NameAlreadyTaken => {
                bail!(
                    "server refused the name {:?}: {}",
                    self.cfg.name,
                    msg.encode()
                );
            }
            ServerMsg::Unregistered => {
                warn!("unregistered by the server; registering again");
                self.registered = false;
                self.send(&ClientMsg::Register(self.cfg.name.clone()).encode())
                    .await;
            }
            ServerMsg::NewSeason(token) => {
                self.stats.seasons += 1;
                if self.stats.seasons > 1 {
                    if let Some(s) = self.stats.times.summary() {
                        info!("time per move so far: {s}");
                    }
                }
                self.send(&ClientMsg::Join(token).encode()).await;
            }
            ServerMsg::NewGame(opponent) => {
                if let Some(t) = self.thinker.as_mut() {
                    t.stop_ponder();
                }
                let implicit = self.game.active && self.game.opponent.is_none();
                if !implicit {
                    self.game = Game {
                        active: true,
                        ..Game::default()
                    };
                }
                info!(%opponent, "new game");
                self.reseed(&opponent);
                self.game.opponent = Some(opponent);
            }
            ServerMsg::TokenInserted { player, column } => self.on_stone(player, column),
            ServerMsg::YourTurn(_) => self.backlog.push_back(msg),
            ServerMsg::Result(result) => self.on_result(result),
        }
        Ok(())
    }

    /// Gives a random player a generator of its own for the game that starts against
    /// `opponent`: a function of the seed, the season, the opponent and how often we met it in
    /// this season, so a game's random moves never depend on the games played before it.
    fn reseed(&mut self, opponent: &str) {
        let Brain::Random { seed } = self.cfg.brain else {
            return;
        };
        let season = u64::from(self.stats.seasons);
        let key = (season, opponent.to_string());
        let met = self.met.iter().filter(|k| **k == key).count() as u64;
        self.met.retain(|(s, _)| *s == season);
        self.met.push(key);
        let mut h = seed ^ 0x005e_ed0f_9a3e;
        for x in [season, met]
            .into_iter()
            .chain(opponent.bytes().map(u64::from))
        {
            h = (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(17);
        }
        self.rng = StdRng::seed_from_u64(h);
    }

    fn on_stone(&mut self, player: String, column: i32) {
        let g = &mut self.game;
        if player == self.cfg.name {
            match g.own.get(g.own_confirmed) {
                Some(&c) if c == column => {}
                Some(&c) => warn!(
                    sent = c,
                    announced = column,
                    "server announced another column for us"
                ),
                None => warn!(
                    column,
                    "server announced a stone of ours that we did not send"
                ),
            }
            g.own_confirmed += 1;
            return;
        }
        if !g.active {
            debug!(%player, column, "stone outside a game ignored");
            return;
        }
        if g.opp.len() >= g.expected_opp() {
            warn!(%player, column, "unexpected opponent stone ignored (duplicate datagram?)");
            return;
        }
        if g.home.is_none() {
            // The opponent's stone before any turn of ours: it moved first. (Known here and
            // not only at our first YOURTURN, which never comes when its first move ends the
            // game.)
            g.home = Some(false);
        }
        g.opp.push(column);
    }

    fn on_result(&mut self, result: GameResult) {
        if let Some(t) = self.thinker.as_mut() {
            t.stop_ponder();
        }
        let me = &self.cfg.name;
        let text = ServerMsg::Result(result.clone()).encode();
        match &result {
            GameResult::Win { winner, .. } if winner == me => self.stats.wins += 1,
            GameResult::Lose { loser, .. } if loser != me => self.stats.wins += 1,
            GameResult::Draw => self.stats.draws += 1,
            _ => self.stats.losses += 1,
        }
        let opponent = self.game.opponent.clone().unwrap_or_default();
        info!(%opponent, result = %text, stones = self.game.own.len() + self.game.opp.len(), "game over");
        self.stats.results.push((opponent, text));
        self.stats.histories.push(self.game.interleaved());
        self.game.active = false;
    }

    /// Replays the known stones on our board, skipping those that are illegal there.
    fn board(&self) -> (Vec<usize>, Position) {
        let c = &self.cfg;
        let mut pos = Position::new(c.columns, c.rows, c.connect).expect("size checked at start");
        let mut history = Vec::new();
        for col in self.game.interleaved() {
            match usize::try_from(col)
                .ok()
                .filter(|&x| x < c.columns && pos.can_play(x) && !pos.is_over())
            {
                Some(x) if pos.play(x).is_ok() => history.push(x),
                _ => error!(
                    column = col,
                    "size mismatch: a stone that is illegal on our {}x{} board; skipped",
                    c.columns,
                    c.rows
                ),
            }
        }
        (history, pos)
    }

    /// A column with at least two empty cells (legal whatever one missing stone did), as
    /// central as possible; else any legal column; else 0.
    fn fallback(&self, pos: &Position) -> usize {
        let n = self.cfg.columns;
        let mut cols: Vec<usize> = (0..n).collect();
        cols.sort_by_key(|&c| (2 * c).abs_diff(n - 1));
        let room = |c: usize| self.cfg.rows.saturating_sub(pos.height(c));
        cols.iter()
            .copied()
            .find(|&c| room(c) >= 2)
            .or_else(|| cols.iter().copied().find(|&c| pos.can_play(c)))
            .unwrap_or(0)
    }

    async fn on_turn(&mut self, token: String) -> anyhow::Result<()> {
        let started = Instant::now();
        if let Some((_, text)) = self.game.replies.iter().find(|(t, _)| *t == token) {
            let text = text.clone();
            debug!(%token, "repeated YOURTURN: same answer again");
            self.send(&text).await;
            return Ok(());
        }
        // 1. Take whatever already arrived: a reordered stone, RESULT or NEW GAME.
        self.drain().await?;
        if !self.game.active {
            self.game = Game {
                active: true,
                ..Game::default()
            };
        }
        if self.game.home.is_none() {
            self.game.home = Some(self.game.opp.is_empty() && self.game.own.is_empty());
        }
        // 2. Wait briefly for an opponent stone that this YOURTURN overtook.
        let wait = (self.cfg.time / 5).min(Duration::from_millis(30));
        let mut buf = vec![0u8; 65536];
        while self.game.opp.len() < self.game.expected_opp() && started.elapsed() < wait {
            let left = wait.saturating_sub(started.elapsed());
            match tokio::time::timeout(left, self.socket.recv_from(&mut buf)).await {
                Ok(Ok((n, from))) => {
                    if let Some(msg) = self.read(&buf[..n], from) {
                        self.handle_now_or_later(msg).await?;
                    }
                }
                Ok(Err(_)) => {}
                Err(_) => break,
            }
        }
        let missing = self.game.opp.len() < self.game.expected_opp();
        let (history, pos) = self.board();
        // 3. Choose.
        let mut info = String::new();
        let column = if missing {
            error!("the opponent's last stone never arrived: playing a column with room for two");
            self.stats.fallbacks += 1;
            self.fallback(&pos)
        } else if pos.is_over() || pos.legal_moves().is_empty() {
            error!("asked to move in a finished game (size mismatch?)");
            self.stats.fallbacks += 1;
            self.fallback(&pos)
        } else {
            match (&self.cfg.brain, self.thinker.as_mut()) {
                (Brain::Engine { max_depth, .. }, Some(thinker)) => {
                    let (soft, hard, grace) = engine_deadlines(self.cfg.time);
                    match thinker
                        .think(history.clone(), started, soft, hard, grace, *max_depth)
                        .await
                    {
                        Some((ch, queued)) if pos.can_play(ch.column) => {
                            info = format!(
                                "score={:?} exact={} depth={} nodes={} source={} queued={:.1}ms",
                                ch.score,
                                ch.exact,
                                ch.depth,
                                ch.nodes,
                                ch.source,
                                queued.as_secs_f64() * 1000.0
                            );
                            ch.column
                        }
                        other => {
                            error!(?other, "engine gave no usable move in time: fallback");
                            self.stats.fallbacks += 1;
                            self.fallback(&pos)
                        }
                    }
                }
                _ => {
                    let legal = pos.legal_moves();
                    legal[self.rng.random_range(0..legal.len())]
                }
            }
        };
        // 4. Answer: exactly INSERT;<column>;<token>.
        let text = ClientMsg::Insert {
            column: column as i32,
            token: token.clone(),
        }
        .encode();
        self.send(&text).await;
        let spent = started.elapsed();
        self.stats.times.push(spent);
        info!(
            ply = history.len(),
            column,
            ms = format!("{:.1}", spent.as_secs_f64() * 1000.0),
            "move {info}"
        );
        self.game.own.push(column as i32);
        self.game.replies.push((token, text));
        // 5. Ponder on the opponent's time.
        if let (
            Brain::Engine {
                ponder: true,
                max_depth,
                ..
            },
            Some(t),
        ) = (&self.cfg.brain, self.thinker.as_mut())
        {
            let mut next = history;
            next.push(column);
            t.ponder(next, *max_depth);
        }
        Ok(())
    }
}
