//! The reference market (spec C, D, G): starts games, drives the engine's state machine, sends
//! every notice and question as a GET to the seat's URL, applies defaults to missing or bad
//! answers, and keeps a per-player log.
//!
//! Project decisions beyond the spec (written down here as ARCHITECTURE.md asks):
//! * Seeds: game `M` of a market created with seed `s` uses deck seed `s + M`.
//! * A seat whose URL failed [`MarketConfig::give_up_after`] times in a row (timeouts, refused
//!   connections, bad status) is treated as passive for the rest of the game, so a dead player
//!   costs seconds, not hours. The log says so.
//! * At most [`MarketConfig::max_running`] games run at once and the last
//!   [`MarketConfig::keep_games`] games are kept for `?log=`; a seat URL must be a well-formed
//!   `http://HOST:PORT/...` of at most 2,000 bytes ([`crate::guard::check_player_url`]).

use crate::caller::Caller;
use crate::client::Bot;
use crate::protocol::{event_msg, question_msg, reply_answer, Envelope, Letters, Reply, SEATS};
use kibitz_koehandel::game::SeatStats;
use kibitz_koehandel::{Game, Question, Seat};
use kibitz_net::record::RecordWriter;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Market settings.
#[derive(Clone, Debug)]
pub struct MarketConfig {
    /// Per-request deadline including connecting (spec: 5 s).
    pub deadline: Duration,
    /// Base seed of the deck shuffles.
    pub seed: u64,
    /// Consecutive failed requests after which a URL seat is treated as passive (`None`: never).
    pub give_up_after: Option<u32>,
    /// Games running at once.
    pub max_running: usize,
    /// Finished games kept for their logs.
    pub keep_games: usize,
    /// HTTP front end: time a client has to send a complete request head, counted from the
    /// connection's start and again from the end of each response (keep-alive idle time); the
    /// connection is closed when it passes (slowloris, silent sockets).
    pub header_timeout: Duration,
    /// HTTP front end: connections open at once; further ones are closed at once.
    pub max_connections: usize,
    /// HTTP front end: connections open at once from one peer IP address.
    pub max_connections_per_peer: usize,
    /// Where every finished game goes as a `kibitz-record/1` line ([`crate::record`]); none
    /// when `None` (`koehandel-server --records DIR` writes `DIR/koehandel.jsonl`).
    pub records: Option<Arc<RecordWriter>>,
    /// HTTP front end: rejected requests (bad method, bad URL, oversize, bad query, refused
    /// connections) are logged at warn one by one up to a few per window of this length, the
    /// rest summarised once per window ([`crate::guard::RejectLog`]), so a flood cannot fill
    /// the log.
    pub reject_window: Duration,
}

impl Default for MarketConfig {
    fn default() -> Self {
        MarketConfig {
            deadline: Duration::from_secs(5),
            seed: 2010,
            give_up_after: Some(20),
            max_running: 64,
            keep_games: 500,
            header_timeout: Duration::from_secs(10),
            max_connections: 512,
            max_connections_per_peer: 32,
            records: None,
            reject_window: crate::guard::REJECT_WINDOW,
        }
    }
}

/// Who sits in a seat.
#[derive(Clone)]
pub enum Entrant {
    /// A player endpoint called over HTTP.
    Url(String),
    /// Never answers (every default applies); nothing is sent over the network.
    Passive,
    /// In-process: our bot, through the same codec but without sockets (spec G2).
    Local(Arc<Bot>),
}

impl Entrant {
    fn describe(&self) -> String {
        match self {
            Entrant::Url(u) => u.clone(),
            Entrant::Passive => "(passive)".into(),
            Entrant::Local(b) => format!("(in-process {})", b.strategy()),
        }
    }
}

/// Errors starting a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MarketError {
    /// More than four seats.
    #[error("bad connect request: {0}")]
    BadRequest(String),
    /// A seat URL that cannot be a player ([`crate::guard::check_player_url`]): only
    /// `http://HOST:PORT/...` URLs play, never `javascript:`, `file:` or broken ones.
    #[error("url{seat} is not a player URL: {reason} (a player is http://HOST:PORT/PATH)")]
    BadUrl {
        /// The field number, 1..=4 (seat + 1).
        seat: usize,
        /// Why not.
        reason: String,
        /// True when the reason is the URL's length.
        too_long: bool,
    },
    /// Too many games are running.
    #[error("too many games running")]
    Busy,
}

/// Request counters of one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatCounters {
    /// Requests sent.
    pub requests: u32,
    /// Requests without a usable answer (timeout, error, bad status or body).
    pub failures: u32,
    /// Total time of the requests.
    pub time: Duration,
    /// The slowest request.
    pub max_time: Duration,
}

/// A game's record: who played, the per-player logs, and the result once over.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Market id.
    pub market: u64,
    /// Deck seed.
    pub seed: u64,
    /// Player ids by seat.
    pub ids: [u64; SEATS],
    /// Seat descriptions (URLs).
    pub names: [String; SEATS],
    /// Per-seat log: everything sent and received.
    pub logs: [String; SEATS],
    /// Final scores, once the game is over.
    pub scores: Option<[u32; SEATS]>,
    /// Engine counters per seat (defaults, bluffs, bars).
    pub stats: [SeatStats; SEATS],
    /// Request counters per seat.
    pub counters: [SeatCounters; SEATS],
    /// Turns played.
    pub turns: u32,
    /// Final animals per seat (letters), once the game is over.
    pub herds: [String; SEATS],
    /// Final money per seat (letters), once the game is over.
    pub money: [String; SEATS],
    /// Where the game stands, for the market page's picture.
    pub view: crate::market_view::MarketView,
}

/// The ids of a started game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Started {
    /// Market id.
    pub market: u64,
    /// Player ids by seat.
    pub ids: [u64; SEATS],
}

impl Started {
    /// The `?connect` reply body: `?market=M&id1=..&id2=..&id3=..&id4=..`.
    pub fn reply(&self) -> String {
        let mut s = format!("?market={}", self.market);
        for (i, id) in self.ids.iter().enumerate() {
            let _ = write!(s, "&id{}={id}", i + 1);
        }
        s
    }
}

#[derive(Default)]
struct Games {
    by_market: BTreeMap<u64, Arc<Mutex<GameRecord>>>,
    by_id: HashMap<u64, u64>,
    running: usize,
}

struct Inner {
    cfg: MarketConfig,
    caller: Caller,
    games: Mutex<Games>,
    next_market: AtomicU64,
    next_id: AtomicU64,
    done: tokio::sync::Notify,
    rejects: Arc<crate::guard::RejectLog>,
}

/// The market: start games, read logs and results. Cheap to clone; needs a tokio runtime.
#[derive(Clone)]
pub struct Market {
    inner: Arc<Inner>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Market {
    /// A market with the given settings.
    pub fn new(cfg: MarketConfig) -> Market {
        let reject_window = cfg.reject_window;
        Market {
            inner: Arc::new(Inner {
                caller: Caller::new(cfg.deadline),
                cfg,
                games: Mutex::new(Games::default()),
                next_market: AtomicU64::new(1),
                next_id: AtomicU64::new(1),
                done: tokio::sync::Notify::new(),
                rejects: Arc::new(crate::guard::RejectLog::new(
                    reject_window,
                    crate::guard::REJECT_BURST,
                )),
            }),
        }
    }

    /// The settings.
    pub fn config(&self) -> &MarketConfig {
        &self.inner.cfg
    }

    /// The warn log of rejected requests of this market's HTTP front end.
    pub(crate) fn rejects(&self) -> Arc<crate::guard::RejectLog> {
        self.inner.rejects.clone()
    }

    /// Registers a game (ids, empty logs) without playing it. Refuses more than four seats
    /// and any URL seat that is not a well-formed `http://HOST:PORT/...` URL.
    fn register(
        &self,
        entrants: &[Entrant],
    ) -> Result<(Started, Arc<Mutex<GameRecord>>), MarketError> {
        if entrants.len() > SEATS {
            return Err(MarketError::BadRequest("more than four seats".into()));
        }
        for (i, e) in entrants.iter().enumerate() {
            if let Entrant::Url(u) = e {
                crate::guard::check_player_url(u).map_err(|reason| MarketError::BadUrl {
                    seat: i + 1,
                    too_long: u.len() > crate::guard::MAX_URL,
                    reason,
                })?;
            }
        }
        let mut g = lock(&self.inner.games);
        if g.running >= self.inner.cfg.max_running {
            return Err(MarketError::Busy);
        }
        let market = self.inner.next_market.fetch_add(1, Ordering::Relaxed);
        let ids: [u64; SEATS] =
            std::array::from_fn(|_| self.inner.next_id.fetch_add(1, Ordering::Relaxed));
        let seed = self.inner.cfg.seed.wrapping_add(market);
        let names: [String; SEATS] =
            std::array::from_fn(|i| entrants.get(i).unwrap_or(&Entrant::Passive).describe());
        let logs = std::array::from_fn(|i| {
            format!(
                "# market {market} seat {i} id {} seed {seed} player {}\n",
                ids[i], names[i]
            )
        });
        let rec = Arc::new(Mutex::new(GameRecord {
            market,
            seed,
            ids,
            names,
            logs,
            scores: None,
            stats: Default::default(),
            counters: Default::default(),
            turns: 0,
            herds: Default::default(),
            money: Default::default(),
            view: Default::default(),
        }));
        g.by_market.insert(market, rec.clone());
        for id in ids {
            g.by_id.insert(id, market);
        }
        g.running += 1;
        while g.by_market.len() > self.inner.cfg.keep_games.max(1) {
            let oldest = *g.by_market.keys().next().expect("non-empty");
            let old = g.by_market.remove(&oldest).expect("present");
            for id in lock(&old).ids {
                g.by_id.remove(&id);
            }
        }
        Ok((Started { market, ids }, rec))
    }

    /// Starts a game in the background (seats beyond `entrants` are passive).
    pub fn start(&self, entrants: Vec<Entrant>) -> Result<Started, MarketError> {
        let (started, rec) = self.register(&entrants)?;
        let me = self.clone();
        let game = Game::new(started_seed(&rec));
        tokio::spawn(async move { me.run(entrants, game, rec).await });
        Ok(started)
    }

    /// Plays a game to the end and returns its record.
    pub async fn play(&self, entrants: Vec<Entrant>) -> Result<GameRecord, MarketError> {
        let (_, rec) = self.register(&entrants)?;
        let game = Game::new(started_seed(&rec));
        self.run(entrants, game, rec.clone()).await;
        let r = lock(&rec).clone();
        Ok(r)
    }

    /// [`Market::play`] with the seats named `names` in the logs and the game record instead of
    /// their URLs (the tournament names its entrants).
    pub async fn play_as(
        &self,
        entrants: Vec<Entrant>,
        names: &[String],
    ) -> Result<GameRecord, MarketError> {
        let (_, rec) = self.register(&entrants)?;
        {
            let mut r = lock(&rec);
            for (slot, n) in r.names.iter_mut().zip(names) {
                slot.clone_from(n);
            }
        }
        let game = Game::new(started_seed(&rec));
        self.run(entrants, game, rec.clone()).await;
        let r = lock(&rec).clone();
        Ok(r)
    }

    /// Plays a given engine position to the end (tests, worked examples): the game's pending
    /// notices and questions are sent as they are. The record's `seed` is 0.
    pub async fn play_from(
        &self,
        entrants: Vec<Entrant>,
        mut game: Game,
    ) -> Result<GameRecord, MarketError> {
        let (_, rec) = self.register(&entrants)?;
        lock(&rec).seed = 0;
        game.set_quiet(false);
        self.run(entrants, game, rec.clone()).await;
        let r = lock(&rec).clone();
        Ok(r)
    }

    /// A game's record (a snapshot).
    pub fn game(&self, market: u64) -> Option<GameRecord> {
        let g = lock(&self.inner.games);
        g.by_market.get(&market).map(|r| lock(r).clone())
    }

    /// The market ids of the kept games, oldest first.
    pub fn markets(&self) -> Vec<u64> {
        lock(&self.inner.games).by_market.keys().copied().collect()
    }

    /// The log of player `id` (spec C6).
    pub fn log(&self, id: u64) -> Option<String> {
        let g = lock(&self.inner.games);
        let rec = lock(g.by_market.get(g.by_id.get(&id)?)?);
        let seat = rec.ids.iter().position(|&i| i == id)?;
        Some(rec.logs[seat].clone())
    }

    /// Waits until game `market` is over (or `timeout` passes); returns its record if over.
    pub async fn wait(&self, market: u64, timeout: Duration) -> Option<GameRecord> {
        let until = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.inner.done.notified();
            match self.game(market) {
                Some(r) if r.scores.is_some() => return Some(r),
                None => return None,
                _ => {}
            }
            if tokio::time::timeout_at(until, notified).await.is_err() {
                return self.game(market).filter(|r| r.scores.is_some());
            }
        }
    }

    async fn run(&self, entrants: Vec<Entrant>, mut game: Game, rec: Arc<Mutex<GameRecord>>) {
        let (market, ids) = {
            let r = lock(&rec);
            (r.market, r.ids)
        };
        let mut seats: Vec<SeatConn> = (0..SEATS)
            .map(|i| SeatConn {
                entrant: entrants.get(i).cloned().unwrap_or(Entrant::Passive),
                failures_in_row: 0,
            })
            .collect();
        let mut verbatim: Option<Letters> = None;
        let mut moves = Vec::new();
        loop {
            let notices: Vec<_> = game.drain_notices().collect();
            lock(&rec).view.update(&game, &notices);
            for n in notices {
                let env = Envelope {
                    market,
                    id: ids[n.seat.idx()],
                    msg: event_msg(n.seat, &n.event),
                };
                self.exchange(&mut seats[n.seat.idx()], n.seat, &env, &rec)
                    .await;
            }
            let Some(ask) = game.ask() else { break };
            let env = Envelope {
                market,
                id: ids[ask.seat.idx()],
                msg: question_msg(ask.seat, &ask.question, verbatim.as_ref()),
            };
            let reply = self
                .exchange(&mut seats[ask.seat.idx()], ask.seat, &env, &rec)
                .await;
            if let (Question::Bid { high_bid, .. }, Some(r)) = (&ask.question, &reply) {
                if let Some(b) = r.money_bid().filter(|b| b.value() > high_bid.value()) {
                    verbatim = Some(b);
                }
            }
            let answer = reply_answer(ask.seat, &ask.question, reply.as_ref());
            if self.inner.cfg.records.is_some() {
                moves.push(crate::record::move_json(ask.seat, &ask.question, &answer));
            }
            game.answer(answer);
            lock(&rec).turns = game.turns();
        }
        {
            let mut r = lock(&rec);
            r.scores = Some(game.scores());
            r.stats = game.stats();
            r.turns = game.turns();
            for seat in Seat::ALL {
                r.herds[seat.idx()] = game.herd(seat).to_string();
                r.money[seat.idx()] = game.money(seat).to_string();
            }
            if let Some(w) = &self.inner.cfg.records {
                let mut line =
                    crate::record::game_json(r.seed, &r.names, moves, game.scores(), r.turns);
                line["seed"] = self.inner.cfg.seed.into();
                line["index"] = market.into();
                if let Err(e) = w.write(&line) {
                    tracing::warn!("cannot write the record of game {market}: {e}");
                }
            }
        }
        lock(&self.inner.games).running -= 1;
        self.inner.done.notify_waiters();
    }

    /// Sends one message to a seat and returns its (parsed) answer; logs both directions.
    async fn exchange(
        &self,
        conn: &mut SeatConn,
        seat: Seat,
        env: &Envelope,
        rec: &Mutex<GameRecord>,
    ) -> Option<Reply> {
        let query = env.to_query();
        let give_up = self.inner.cfg.give_up_after;
        let (line, reply, time, failed) = match &conn.entrant {
            Entrant::Passive => ("< (passive)".to_string(), None, Duration::ZERO, false),
            Entrant::Url(_) if give_up.is_some_and(|n| conn.failures_in_row >= n) => (
                "< (skipped: seat unresponsive)".to_string(),
                None,
                Duration::ZERO,
                true,
            ),
            Entrant::Url(url) => {
                let (res, time) = self.inner.caller.call(url, &query).await;
                match res {
                    Ok(body) => {
                        conn.failures_in_row = 0;
                        (
                            format!("< {}", body.trim()),
                            Some(Reply::parse(&body)),
                            time,
                            false,
                        )
                    }
                    Err(e) => {
                        conn.failures_in_row += 1;
                        (format!("< no answer: {e}"), None, time, true)
                    }
                }
            }
            Entrant::Local(bot) => {
                let t0 = std::time::Instant::now();
                let body = bot.handle_query(&query);
                (
                    format!("< {body}"),
                    Some(Reply::parse(&body)),
                    t0.elapsed(),
                    false,
                )
            }
        };
        let mut r = lock(rec);
        let i = seat.idx();
        let _ = writeln!(r.logs[i], "> {query}\n{line} ({} ms)", time.as_millis());
        let c = &mut r.counters[i];
        c.requests += 1;
        c.failures += u32::from(failed);
        c.time += time;
        c.max_time = c.max_time.max(time);
        reply
    }
}

fn started_seed(rec: &Mutex<GameRecord>) -> u64 {
    lock(rec).seed
}

struct SeatConn {
    entrant: Entrant,
    failures_in_row: u32,
}
