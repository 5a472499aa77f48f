//! Our bot: connects, plays one whole game, never breaks the protocol.
//!
//! Guarantees (each one costs a penalty card or a stalled game on the real server):
//! - answers only private requests that follow a broadcast naming us, once per turn (a repeated
//!   request after a turn timeout is not answered twice, §10);
//! - never sends a card it does not hold or that is illegal: the player's choice is checked
//!   against the tracker and replaced by a legal one (or a draw) if needed;
//! - always sends an integer `wishedColor`;
//! - survives any odd line (logged and skipped) and uses the name the server assigned to it.
//!
//! The client is synchronous (std TCP, one thread per bot): a bot has one connection and spends
//! its time thinking.

use crate::protocol::{BotMsg, Request, ServerMsg, MAX_LINE};
use kibitz_maumau::agents::{most_held_suit, parse_agent, seen, AgentOptions, MauMauAgent};
use kibitz_maumau::game_impl::MauMau;
use kibitz_maumau::knowledge::{Knowledge, Notice};
use kibitz_maumau::mcts::IsmctsParams;
use kibitz_maumau::{Action, Card, CardSet, Config, DrawTwo, Suit};
use kibitz_search::agent::{Agent, View};
use kibitz_search::clock::{MoveBudget, MAUMAU};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};
use tracing::{debug, info, warn};

/// How our bot plays.
#[derive(Debug, Clone)]
pub struct BotConfig {
    /// Name sent in the handshake.
    pub name: String,
    /// An agent spec ([`kibitz_maumau::agents::parse_agent`]): `ismcts`, `heuristic`,
    /// `greedy`, `first`, `random`, ...
    pub strategy: String,
    /// The move budget: time from the server's request until our answer should have reached
    /// it (default 1 s, our own limit: the contest has none). See [`BotConfig::move_budget`].
    pub time: Duration,
    /// What is kept from [`Self::time`] for the network and the process (default 100 ms).
    pub overhead: Duration,
    /// Fixed ISMCTS iterations per move instead of a time budget.
    pub iterations: Option<u64>,
    /// Seed of the player's randomness.
    pub seed: u64,
    /// Seats at the table (2 for the contest).
    pub players: usize,
    /// Inactivity timeout: after half of it without a byte from the server a warning is
    /// logged, after all of it [`play`] gives up with an error (a server that never speaks
    /// must not hold the bot forever). Zero: wait forever.
    pub read_timeout: Duration,
    /// ISMCTS tunables as `NAME=VALUE` (`kibitz maumau params` lists them); only for the
    /// `ismcts` strategy.
    pub params: Vec<String>,
}

impl BotConfig {
    /// The times of one move by the one clock rule ([`MoveBudget::for_move`]): no new
    /// iteration after `min(time / 2, hard)`, abort at `hard = time − 2·overhead`. (The bot
    /// thinks on its own thread and answers right after, so `send_by` is not needed.)
    pub fn move_budget(&self) -> MoveBudget {
        MoveBudget::for_move(self.time, self.overhead)
    }
}

/// The defaults: ISMCTS on the contest clock [`MAUMAU`] (1 s budget, 100 ms overhead → soft
/// 500 ms, hard 800 ms), seed 1, two seats, 300 s inactivity timeout.
impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            name: "kibitz".into(),
            strategy: "ismcts".into(),
            time: MAUMAU.budget,
            overhead: MAUMAU.overhead,
            iterations: None,
            seed: 1,
            players: 2,
            read_timeout: Duration::from_secs(300),
            params: Vec::new(),
        }
    }
}

/// What happened in a game, from our bot's side.
#[derive(Debug, Clone, Default)]
pub struct BotReport {
    /// The name the server gave us.
    pub name: String,
    /// Our seat, once known.
    pub seat: Option<usize>,
    /// Name of the winner, if the game ended with `won`.
    pub winner: Option<String>,
    /// Penalty cards we received (should stay 0).
    pub penalties: u32,
    /// Answers we sent.
    pub moves: u32,
    /// Lines we could not read or that made no sense (logged and skipped).
    pub odd_lines: u32,
}

impl BotReport {
    /// True if we were declared the winner.
    pub fn won(&self) -> bool {
        self.winner.as_deref() == Some(self.name.as_str())
    }
}

/// A name with a random suffix, so two copies of our bot never share one (§7.2).
pub fn unique_name(base: &str) -> String {
    format!("{base}-{:04x}", rand::random::<u16>())
}

/// The server closed the connection before announcing a winner.
#[derive(Debug, thiserror::Error)]
#[error("{name}: the server closed the connection mid-game (before announcing a winner, after {moves} of our moves)")]
pub struct Disconnected {
    /// Our name at the time.
    pub name: String,
    /// Answers we had sent.
    pub moves: u32,
}

/// The server sent nothing for the whole inactivity timeout ([`BotConfig::read_timeout`]).
#[derive(Debug, thiserror::Error)]
#[error("{name}: the server sent nothing for {:.1} s (inactivity timeout); giving up", .silent.as_secs_f64())]
pub struct ServerSilent {
    /// Our name at the time.
    pub name: String,
    /// How long the server had been silent.
    pub silent: Duration,
}

/// Plays one game against the server at `addr`.
///
/// Returns the report only on a normal end (the server announced a winner); a connection the
/// server closes before that is a [`Disconnected`] error, a server silent for the whole
/// inactivity timeout (`cfg.read_timeout`, with a warning at half of it) a [`ServerSilent`]
/// error, and an I/O error is returned as it is.
pub fn play(addr: impl ToSocketAddrs, cfg: &BotConfig) -> anyhow::Result<BotReport> {
    let addrs: Vec<SocketAddr> = addr.to_socket_addrs()?.collect();
    let stream = addrs
        .iter()
        .find_map(|a| TcpStream::connect_timeout(a, Duration::from_secs(10)).ok())
        .ok_or_else(|| anyhow::anyhow!("cannot connect to {addrs:?}"))?;
    stream.set_nodelay(true)?;
    let idle = (!cfg.read_timeout.is_zero()).then_some(cfg.read_timeout);
    // Reads wake up at half the timeout (to warn) and again at the end (to give up).
    stream.set_read_timeout(idle.map(|t| (t / 2).max(Duration::from_millis(1))))?;
    let mut bot = Bot::for_config(cfg)?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let mut line = Vec::with_capacity(256);
    let mut heard = Instant::now();
    let mut warned = false;
    loop {
        // A line cut by a read timeout is continued, not restarted.
        let had = line.len();
        let room = (MAX_LINE as u64 + 1).saturating_sub(had as u64);
        let read = (&mut reader).take(room).read_until(b'\n', &mut line);
        if line.len() > had {
            heard = Instant::now();
            warned = false;
        }
        let n = match read {
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                let (Some(limit), silent) = (idle, heard.elapsed()) else {
                    continue;
                };
                if silent >= limit {
                    return Err(ServerSilent {
                        name: bot.report.name.clone(),
                        silent,
                    }
                    .into());
                }
                if !warned {
                    warned = true;
                    warn!(
                        "{}: nothing from the server for {:.1} s; giving up after {:.1} s",
                        bot.report.name,
                        silent.as_secs_f64(),
                        limit.as_secs_f64()
                    );
                }
                continue;
            }
            Err(e) => anyhow::bail!("{}: reading from the server: {e}", bot.report.name),
        };
        if n == 0 && line.is_empty() {
            // A normal game ends with `won` (the loop stops there); a close before it is an
            // abnormal end the caller must see (maumau-bot exits non-zero on it).
            return Err(Disconnected {
                name: bot.report.name.clone(),
                moves: bot.report.moves,
            }
            .into());
        }
        if line.last() != Some(&b'\n') {
            bot.odd(&line, "line too long or unterminated");
            if line.len() > MAX_LINE {
                // Skip the rest of the oversized line.
                let mut sink = Vec::new();
                let _ = (&mut reader).take(u64::MAX).read_until(b'\n', &mut sink);
            }
            line.clear();
            continue;
        }
        let reply = bot.on_line(&line);
        line.clear();
        if let Some(reply) = reply {
            writer.write_all(reply.encode().as_bytes())?;
            writer.flush()?;
        }
        if bot.report.winner.is_some() {
            break;
        }
    }
    Ok(bot.report)
}

/// The bot's protocol state machine, independent of the socket (testable line by line).
pub struct Bot {
    cfg: BotConfig,
    /// The player: told every notice once our seat is known, asked at each private request.
    agent: Box<dyn Agent<MauMau> + Send>,
    /// What the bot has seen and done.
    pub report: BotReport,
    /// Names in seat order, learned from the first round of broadcasts.
    seats: Vec<String>,
    /// The client's own tracker: the agent's [`View`] and the legality check come from it.
    know: Option<Knowledge>,
    /// Broadcasts received (turns begun).
    turns: u32,
    /// Notices received before our seat was known.
    early: Vec<Notice>,
    last_seat: Option<usize>,
    turn_open: bool,
}

impl Bot {
    /// The table `cfg` describes (its number of seats, the contest's rules).
    pub fn table(cfg: &BotConfig) -> Config {
        Config {
            players: cfg.players,
            ..Config::default()
        }
    }

    /// The bot `cfg` describes (strategy, iterations, `--param`s, seed).
    pub fn for_config(cfg: &BotConfig) -> anyhow::Result<Bot> {
        let table = Bot::table(cfg);
        if cfg.strategy == "ismcts" {
            use kibitz_search::params::Tunable;
            let mut p = IsmctsParams::default();
            for a in &cfg.params {
                p.apply(a)
                    .map_err(|e| anyhow::anyhow!("--param {a}: {e}"))?;
            }
            if let Some(k) = cfg.iterations {
                p.search.max_iterations = k;
            }
            let agent = MauMauAgent::ismcts(p).at_table(table);
            return Ok(Bot::new(cfg, Box::new(agent)));
        }
        anyhow::ensure!(
            cfg.params.is_empty(),
            "--param applies to the ismcts strategy only, not {:?}",
            cfg.strategy
        );
        let opts = AgentOptions {
            table,
            iterations: cfg.iterations,
            threads: 1,
        };
        Ok(Bot::new(cfg, Box::new(parse_agent(&cfg.strategy, &opts)?)))
    }

    /// A bot that will play with `agent` (built for a table of `cfg.players` seats); the bot
    /// seats it ([`Agent::new_game`] with `cfg.seed`) once the broadcasts show our seat.
    pub fn new(cfg: &BotConfig, agent: Box<dyn Agent<MauMau> + Send>) -> Bot {
        Bot {
            report: BotReport {
                name: cfg.name.clone(),
                ..Default::default()
            },
            cfg: cfg.clone(),
            agent,
            seats: Vec::new(),
            know: None,
            turns: 0,
            early: Vec::new(),
            last_seat: None,
            turn_open: false,
        }
    }

    fn odd(&mut self, line: &[u8], why: &str) {
        self.report.odd_lines += 1;
        warn!(
            "{}: odd line ({why}): {}",
            self.report.name,
            crate::protocol::truncate(line)
        );
    }

    /// Handles one line from the server; returns what to send back, if anything.
    pub fn on_line(&mut self, line: &[u8]) -> Option<BotMsg> {
        let msg = match ServerMsg::decode(line) {
            Ok(m) => m,
            Err(e) => {
                self.odd(line, &e.to_string());
                return None;
            }
        };
        debug!("{} <- {msg:?}", self.report.name);
        match msg {
            ServerMsg::SendName => return Some(BotMsg::Name(self.cfg.name.clone())),
            ServerMsg::SetName { name, ok } => {
                if let Some(n) = name {
                    if n != self.report.name {
                        warn!("{}: the server named us {n:?} (ok={ok})", self.report.name);
                    }
                    self.report.name = n;
                }
            }
            ServerMsg::GameStart => info!("{}: game starts", self.report.name),
            ServerMsg::Broadcast(b) => {
                let seat = self.seat_of(&b.turn_of);
                let Some(top) = card(b.top) else {
                    self.odd(line, "bad topCard");
                    return None;
                };
                self.turn_open = b.turn_of == self.report.name && !b.skipped;
                self.turns = self.turns.saturating_add(1);
                self.notice(Notice::Broadcast {
                    seat,
                    top,
                    cards_left: b.cards_left.max(0) as usize,
                    skipped: b.skipped,
                });
            }
            ServerMsg::Request(r) => {
                if !self.turn_open {
                    // A repeat after a timeout whose answer crossed it, or a stray: never answer twice.
                    self.odd(
                        line,
                        "request without a broadcast naming us (repeat?): not answered",
                    );
                    return None;
                }
                self.turn_open = false;
                return Some(self.on_request(&r));
            }
            ServerMsg::Drawn { card: c, ok } => {
                if !ok {
                    self.report.penalties += 1;
                    warn!("{}: PENALTY card {c}", self.report.name);
                }
                self.notice(Notice::DrawReply {
                    card: card(c),
                    penalty: !ok,
                });
            }
            ServerMsg::Won { winner } => {
                let seat = self.seat_of(&winner);
                info!("{}: game over, {winner} wins", self.report.name);
                self.notice(Notice::Won { seat });
                self.report.winner = Some(winner);
            }
        }
        None
    }

    /// Seat of a name: seats are numbered in the order names first appear in broadcasts.
    fn seat_of(&mut self, name: &str) -> usize {
        if let Some(i) = self.seats.iter().position(|n| n == name) {
            self.last_seat = Some(i);
            return i;
        }
        if self.seats.len() < self.cfg.players {
            self.seats.push(name.to_owned());
        }
        let i = self.seats.len() - 1;
        if name == self.report.name && self.report.seat.is_none() {
            self.report.seat = Some(i);
        }
        self.last_seat = Some(i);
        i
    }

    fn notice(&mut self, n: Notice) {
        if self.know.is_none() {
            self.early.push(n);
            let Some(me) = self.report.seat else { return };
            let mut k = Knowledge::new(Bot::table(&self.cfg), me);
            info!("{}: we are seat {me}", self.report.name);
            self.agent.new_game(me, self.cfg.seed);
            for e in self.early.drain(..) {
                k.observe(&e);
                self.agent.observe(&e);
            }
            self.know = Some(k);
            return;
        }
        if let Some(k) = self.know.as_mut() {
            k.observe(&n);
            self.agent.observe(&n);
        }
    }

    fn on_request(&mut self, r: &Request) -> BotMsg {
        self.report.moves += 1;
        let top = card(r.top);
        let draw_two = match (r.draw_two, r.drawn.as_deref()) {
            (Some(true), Some(&[a, b])) => match (card(a), card(b)) {
                (Some(a), Some(b)) => DrawTwo::Drawn([a, b]),
                _ => DrawTwo::None,
            },
            (None, _) => DrawTwo::Failed,
            _ => DrawTwo::None,
        };
        let hand = r
            .hand
            .as_ref()
            .map(|h| h.iter().filter_map(|&c| card(c)).collect::<CardSet>());
        if let Some(top) = top {
            self.notice(Notice::Private {
                top,
                wish: u8::try_from(r.wished).ok().and_then(Suit::from_index),
                cards_left: r.cards_left.max(0) as usize,
                draw_two,
                hand,
            });
        }
        let Some(know) = self.know.as_ref() else {
            warn!(
                "{}: asked to move before our seat is known; drawing",
                self.report.name
            );
            return BotMsg::Draw;
        };
        let start = Instant::now();
        let tc = self.cfg.move_budget().time_control();
        let view = View::seen(know.me(), seen(know, self.turns));
        let decision = self.agent.choose(&view, &tc);
        if let Some(&(_, visits)) = decision.stats.iter().find(|(k, _)| *k == "visits") {
            info!(
                "{}: {} {} iterations in {} ms: {} {visits}v {:.2}",
                self.report.name,
                self.agent.name(),
                decision.nodes,
                start.elapsed().as_millis(),
                show(decision.action),
                decision.score.unwrap_or(0.0)
            );
        }
        let choice = decision.action;
        let legal = know.legal_plays();
        let action = match choice {
            Action::Play { card, .. } if legal.contains(card) => choice,
            Action::Draw => choice,
            bad => {
                warn!(
                    "{}: player chose {bad:?}, not legal; falling back",
                    self.report.name
                );
                match legal.iter().find(|c| !c.is_jack()).or(legal.first()) {
                    Some(card) => Action::Play {
                        card,
                        wish: most_held_suit(know.hand()),
                    },
                    None => Action::Draw,
                }
            }
        };
        info!(
            "{}: top {}{} hand {} legal {} opp {} talon {} -> {} ({} ms)",
            self.report.name,
            top.map_or("?".into(), |c| c.to_string()),
            know.wish()
                .map_or(String::new(), |w| format!(" wish {}", w.symbol())),
            know.hand(),
            legal,
            (0..know.players())
                .filter(|&s| s != know.me())
                .map(|s| know.hand_size(s).to_string())
                .collect::<Vec<_>>()
                .join("/"),
            know.talon_len(),
            show(action),
            start.elapsed().as_millis()
        );
        match action {
            Action::Draw => BotMsg::Draw,
            Action::Play { card, wish } => BotMsg::Play {
                card: card.index() as i32,
                wish: if card.is_jack() {
                    wish.index() as i32
                } else {
                    -1
                },
            },
        }
    }
}

fn show(a: Action) -> String {
    match a {
        Action::Draw => "draw".into(),
        Action::Play { card, wish } if card.is_jack() => format!("{card}→{}", wish.symbol()),
        Action::Play { card, .. } => card.to_string(),
    }
}

fn card(n: i32) -> Option<Card> {
    Card::from_wire(n as i64)
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn default_clock_is_the_rule_on_one_second() {
        // Old: --time-ms 300 (bin) / 200 (config) was the soft budget, hard 1.5 × soft.
        // New: budget 1 s, overhead 100 ms → soft 500, hard 800.
        let b = BotConfig::default().move_budget();
        assert_eq!((b.soft, b.hard), (ms(500), ms(800)));
        let b = BotConfig {
            time: ms(300),
            ..BotConfig::default()
        }
        .move_budget();
        assert_eq!((b.soft, b.hard), (ms(100), ms(100)));
    }
}
