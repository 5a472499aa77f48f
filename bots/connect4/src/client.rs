//! The bot: registers, joins every season, plays every game, re-registers after
//! `UNREGISTERED`, and answers every request from the socket it registered from with exactly
//! `JOIN;<token>` / `INSERT;<column>;<token>` (no terminator), once per token. A request
//! without a usable token (`YOURTURN;`) gets no answer: no reply could match it (spec §3.3).
//!
//! Silence: another client on our IP address can take our name with a single `REGISTER`
//! (spec §4.5), after which the server talks to that client instead. So after
//! [`BotConfig::reregister_after`] without a datagram the bot sends `REGISTER` again (a
//! server that still knows us just answers `WELCOME`), with a warning. `NAME_ALREADY_TAKEN`
//! is asked again too (the holder may be removed, spec §7). When nothing at all came for
//! [`BotConfig::give_up_after`] (the server finished its last season or stopped), or the
//! name stayed taken that long, the bot stops with a message.
//!
//! The board is rebuilt from our own `INSERT`s and the opponent's `TOKEN INSERTED`s,
//! interleaved by colour, so a reordered or duplicated datagram cannot shift the history.
//! A `YOURTURN` that overtakes the opponent's stone waits briefly for it (spec §5.4); if the
//! stone never comes, the bot plays a column with at least two empty cells, legal wherever
//! the stone went. Stones that are illegal on our board (a size mismatch, §10.4) are logged
//! and skipped. The player is the config's agent ([`BotConfig::player`], one of
//! [`kibitz_connect4::agents`]) on its own thread ([`crate::thinker`]): it is told every
//! stone once, the move sent is its `Decision`, an engine keeps its tables for the whole run
//! and ponders on the opponent's time.

use crate::protocol::{check_bot_name, decode_datagram, ClientMsg, ServerMsg};
use crate::thinker::Thinker;
use anyhow::{bail, Context};
use kibitz_connect4::game_impl::C4Config;
use kibitz_connect4::Position;
use std::collections::VecDeque;
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio::time::Instant;
use tracing::{debug, info, warn};

mod game;
mod settings;
use game::Game;
pub use settings::{
    engine_deadlines, BotConfig, BotStats, Ending, DEFAULT_THREADS, FALLBACK_GRACE, GIVE_UP_AFTER,
    REGISTER_RETRY, REREGISTER_AFTER, SHUTDOWN_QUIET,
};

/// How many answered tokens the bot remembers to answer each request once.
const ANSWERED_KEPT: usize = 64;

/// Whether a reply echoing `token` as its last field could ever match (spec §3.3): the
/// server splits the reply on `;` and drops trailing empty fields, so an empty token or one
/// holding a `;` can never be the last field. Such a request gets no answer.
fn answerable(token: &str) -> bool {
    !token.is_empty() && !token.contains(';')
}

/// The bot client. Create with [`Bot::new`], then [`Bot::run`].
pub struct Bot {
    cfg: BotConfig,
    socket: UdpSocket,
    server: SocketAddr,
    thinker: Thinker,
    /// Seed of the player's randomness in the current game (see [`Bot::reseed`]).
    game_seed: u64,
    game: Game,
    backlog: VecDeque<ServerMsg>,
    registered: bool,
    stats: BotStats,
    /// `(season, opponent)` of every game begun this season (see [`Bot::reseed`]).
    met: Vec<(u64, String)>,
    /// When the last datagram from the server arrived.
    heard: Instant,
    /// When we last sent `REGISTER`.
    last_register: Option<Instant>,
    /// Since when we have not been registered.
    unregistered_since: Instant,
    /// The last refusal was `NAME_ALREADY_TAKEN` (ask again, but slowly).
    taken: bool,
    /// When the next "no answer" warning is due while we are not registered.
    next_warn: Instant,
    /// Tokens answered lately, newest last: each request is answered once.
    answered: VecDeque<String>,
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
        let config = C4Config {
            columns: cfg.columns,
            rows: cfg.rows,
            connect: cfg.connect,
        };
        let agent = cfg.player.build(&config)?;
        let thinker = Thinker::start(agent, config, cfg.by_nodes())?;
        let game_seed = cfg.seed;
        Ok(Bot {
            cfg,
            socket,
            server,
            thinker,
            game_seed,
            game: Game::default(),
            backlog: VecDeque::new(),
            registered: false,
            stats: BotStats::default(),
            met: Vec::new(),
            heard: Instant::now(),
            last_register: None,
            unregistered_since: Instant::now(),
            taken: false,
            next_warn: Instant::now(),
            answered: VecDeque::new(),
        })
    }

    /// Our socket's address.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// Plays until `shutdown` completes, or until the server has been silent for
    /// [`BotConfig::give_up_after`] after accepting us ([`Ending::ServerSilent`]); returns
    /// what happened. Fails when the server refuses our name for good (`NO_NAME_GIVEN`,
    /// `NAME_TOO_LONG`; `NAME_ALREADY_TAKEN` for the whole idle limit) or never answered.
    pub async fn run(mut self, shutdown: impl Future<Output = ()>) -> anyhow::Result<BotStats> {
        tokio::pin!(shutdown);
        let mut buf = vec![0u8; 65536];
        let start = Instant::now();
        self.heard = start;
        self.unregistered_since = start;
        self.next_warn = start + self.cfg.reregister_after;
        loop {
            if let Some(msg) = self.backlog.pop_front() {
                self.handle(msg).await?;
                continue;
            }
            if self.give_up(Instant::now())? {
                self.stats.ending = Ending::ServerSilent;
                self.thinker.stop_ponder();
                return Ok(self.stats);
            }
            let wake = self.register_due().min(self.give_up_due());
            tokio::select! {
                _ = &mut shutdown => break,
                _ = tokio::time::sleep_until(wake) => self.on_quiet().await,
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
        self.thinker.stop_ponder();
        Ok(self.stats)
    }

    /// When the next `REGISTER` is due: while unregistered every [`REGISTER_RETRY`] (every
    /// [`BotConfig::reregister_after`] while the name is taken); while registered once the
    /// server has been silent for [`BotConfig::reregister_after`].
    fn register_due(&self) -> Instant {
        let Some(last) = self.last_register else {
            // Never sent: due since the start (a fixed instant, so `on_quiet` sees it due).
            return self.unregistered_since.min(self.heard);
        };
        if self.registered {
            self.heard.max(last) + self.cfg.reregister_after
        } else if self.taken {
            last + self.cfg.reregister_after
        } else {
            last + REGISTER_RETRY
        }
    }

    /// When [`Bot::give_up`] would next say yes (far away without a limit).
    fn give_up_due(&self) -> Instant {
        let Some(limit) = self.cfg.give_up_after else {
            return Instant::now() + Duration::from_secs(86_400);
        };
        let mut due = self.heard + limit;
        if !self.registered && self.taken {
            due = due.min(self.unregistered_since + limit);
        }
        due
    }

    /// Whether to stop now because the server is silent (`Ok(true)`), or an error when it
    /// never accepted us: no answer at all, or the name refused for the whole limit.
    fn give_up(&self, now: Instant) -> anyhow::Result<bool> {
        let Some(limit) = self.cfg.give_up_after else {
            return Ok(false);
        };
        let secs = limit.as_secs_f64();
        let c = &self.cfg;
        if !self.registered && self.taken && now >= self.unregistered_since + limit {
            bail!(
                "the server at {}:{} refused the name {:?} with NAME_ALREADY_TAKEN for {secs:.0} s \
                 (another client on another address holds it): giving up",
                c.host,
                c.port,
                c.name
            );
        }
        if now < self.heard + limit {
            return Ok(false);
        }
        if self.stats.registrations == 0 {
            bail!(
                "no answer from the server at {}:{} ({}) for {secs:.0} s although REGISTER was \
                 sent every {} s: is it running, and on this port?",
                c.host,
                c.port,
                self.server,
                REGISTER_RETRY.as_secs()
            );
        }
        warn!(
            "nothing from the server at {}:{} for {secs:.0} s (its last season is over, or it \
             stopped): stopping",
            c.host, c.port
        );
        Ok(true)
    }

    /// Called when nothing arrived until a `REGISTER` (or a give-up check) was due.
    async fn on_quiet(&mut self) {
        let now = Instant::now();
        if now < self.register_due() {
            return;
        }
        let silent = now.saturating_duration_since(self.heard).as_secs_f64();
        if self.registered {
            let game = match (&self.game.opponent, self.game.active) {
                (Some(o), true) => format!(" (in a game against {})", o.escape_debug()),
                _ => String::new(),
            };
            warn!(
                "no datagram from the server for {silent:.1} s{game}; registering again in case \
                 another client took our name"
            );
            self.stats.reregistrations += 1;
        } else if !self.taken && now >= self.next_warn {
            warn!(
                "no answer from the server at {}:{} for {silent:.1} s; still sending REGISTER{}",
                self.cfg.host,
                self.cfg.port,
                match self.cfg.give_up_after {
                    Some(g) => format!(" (giving up after {:.0} s)", g.as_secs_f64()),
                    None => String::new(),
                }
            );
            self.next_warn = now + self.cfg.reregister_after;
        }
        self.register().await;
    }

    async fn register(&mut self) {
        self.last_register = Some(Instant::now());
        self.send(&ClientMsg::Register(self.cfg.name.clone()).encode())
            .await;
    }

    fn set_unregistered(&mut self) {
        if self.registered {
            self.unregistered_since = Instant::now();
        }
        self.registered = false;
    }

    /// Whether `token` was answered already (a duplicated request); otherwise remembers it.
    fn first_time(&mut self, token: &str) -> bool {
        if self.answered.iter().any(|t| t == token) {
            return false;
        }
        if self.answered.len() >= ANSWERED_KEPT {
            self.answered.pop_front();
        }
        self.answered.push_back(token.to_string());
        true
    }

    fn read(&mut self, bytes: &[u8], from: SocketAddr) -> Option<ServerMsg> {
        if from.ip() != self.server.ip() {
            debug!(%from, "datagram from a stranger ignored");
            return None;
        }
        self.heard = Instant::now();
        let text = decode_datagram(bytes);
        match ServerMsg::parse(&text) {
            Ok(m) => {
                debug!(text = %text.escape_debug(), "recv");
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
                    info!(name = %name.escape_debug(), "registered");
                    self.stats.registrations += 1;
                } else {
                    debug!("registration confirmed");
                }
                self.registered = true;
                self.taken = false;
            }
            ServerMsg::NoNameGiven | ServerMsg::NameTooLong => {
                bail!(
                    "server refused the name {:?}: {}",
                    self.cfg.name,
                    msg.encode()
                );
            }
            ServerMsg::NameAlreadyTaken => {
                warn!(
                    name = %self.cfg.name.escape_debug(),
                    "the server says NAME_ALREADY_TAKEN (a client on another address holds the \
                     name); asking again every {:.0} s",
                    self.cfg.reregister_after.as_secs_f64()
                );
                self.set_unregistered();
                self.taken = true;
            }
            ServerMsg::Unregistered => {
                warn!("unregistered by the server; registering again");
                self.set_unregistered();
                self.register().await;
            }
            ServerMsg::NewSeason(token) => {
                if !answerable(&token) {
                    warn!(token = %token.escape_debug(), "NEW SEASON without a usable token: no reply could match it, none sent");
                    return Ok(());
                }
                if !self.first_time(&token) {
                    debug!(%token, "repeated NEW SEASON: answered once already");
                    return Ok(());
                }
                self.stats.seasons += 1;
                if self.stats.seasons > 1 {
                    if let Some(s) = self.stats.times.summary() {
                        info!("time per move so far: {s}");
                    }
                }
                self.send(&ClientMsg::Join(token).encode()).await;
            }
            ServerMsg::NewGame(opponent) => {
                self.thinker.stop_ponder();
                let implicit = self.game.active && self.game.opponent.is_none();
                if !implicit {
                    self.game = Game {
                        active: true,
                        ..Game::default()
                    };
                }
                info!(opponent = %opponent.escape_debug(), "new game");
                self.reseed(&opponent);
                self.game.opponent = Some(opponent);
            }
            ServerMsg::TokenInserted { player, column } => self.on_stone(player, column),
            ServerMsg::YourTurn(_) => self.backlog.push_back(msg),
            ServerMsg::Result(result) => self.on_result(result),
        }
        Ok(())
    }
}
