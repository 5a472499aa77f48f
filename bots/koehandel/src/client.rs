//! Our player endpoint: answers the market's GET requests with `?var=value` bodies.
//!
//! One [`Bot`] serves any number of games at once; each (market, id) pair gets its own
//! [`Session`] (an engine [`Player`] playing as seat 0 plus the wire decoder). Decisions run on
//! the blocking pool so a slow player never stalls the HTTP runtime; sessions end with the `end`
//! message and the least recently used ones are dropped beyond [`MAX_SESSIONS`].

use crate::protocol::{answer_reply, BotDecoder, Envelope, Incoming, Reply};
use axum::extract::{RawQuery, State};
use axum::Router;
use kibitz_koehandel::{make_player, Event, Player, Seat};
use kibitz_search::clock::KOEHANDEL;
use kibitz_search::seed::mix;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;

/// Default of [`EndpointLimits::answer_by`]: longest we let a decision run before answering
/// the empty reply. The one clock rule's send-by for the market's 5 s (connecting included)
/// with [`KOEHANDEL`]'s 500 ms overhead: 4,500 ms (a late answer would be worth nothing).
pub const ANSWER_DEADLINE: std::time::Duration = KOEHANDEL.move_budget().send_by;

/// `strategy` with a per-decision clock for the `strong` player: `:time_ms=B:overhead_ms=O`
/// appended, so its search stops by the one clock rule (soft = min(B / 2, hard), hard =
/// B − 2·O). Unchanged for the other strategies (they take no time) and for a spec that
/// already sets `time_ms`, `soft_ms` or `hard_ms`.
pub fn clocked_strategy(strategy: &str, budget: Duration, overhead: Duration) -> String {
    let mut parts = strategy.split(':');
    let name = parts.next().unwrap_or_default();
    let timed = parts.any(|p| {
        let key = p.split('=').next().unwrap_or_default();
        matches!(key, "time_ms" | "soft_ms" | "hard_ms")
    });
    if name != "strong" || timed {
        return strategy.to_string();
    }
    format!(
        "{strategy}:time_ms={}:overhead_ms={}",
        budget.as_millis(),
        overhead.as_millis()
    )
}

/// Games remembered at once; beyond this the least recently used session is dropped.
pub const MAX_SESSIONS: usize = 512;

/// The endpoint's HTTP front end limits, the same kinds the market has
/// ([`crate::server::MarketConfig`]): a silent or trickling client is cut off by the header
/// timeout, and floods by the connection caps, so they cannot block the market's requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndpointLimits {
    /// Time a client has to send a complete request head, counted from the connection's start
    /// and from the end of each response (keep-alive idle time).
    pub header_timeout: std::time::Duration,
    /// Connections open at once; further ones are closed at once.
    pub max_connections: usize,
    /// Connections open at once from one IP address (the market's pool needs at most one per
    /// running game).
    pub max_connections_per_peer: usize,
    /// A decision still running this long after the request arrived is answered with the
    /// empty reply (default [`ANSWER_DEADLINE`]).
    pub answer_by: Duration,
}

impl Default for EndpointLimits {
    fn default() -> Self {
        EndpointLimits {
            header_timeout: std::time::Duration::from_secs(10),
            max_connections: 512,
            max_connections_per_peer: 128,
            answer_by: ANSWER_DEADLINE,
        }
    }
}

/// Errors creating a bot.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// The strategy name is unknown to the engine.
    #[error("unknown strategy {0:?}")]
    UnknownStrategy(String),
    /// Binding or serving failed.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

/// The strongest strategy the engine offers (`strong` when it exists, else `heuristic`).
pub fn best_strategy() -> &'static str {
    if make_player("strong", 0).is_some() {
        "strong"
    } else {
        "heuristic"
    }
}

/// One game as seen by our bot.
pub struct Session {
    player: Box<dyn Player>,
    decoder: BotDecoder,
    last_used: Instant,
}

impl Session {
    /// A session for a new game, playing as seat 0 (`S`).
    pub fn new(mut player: Box<dyn Player>) -> Session {
        player.new_game(Seat(0));
        Session {
            player,
            decoder: BotDecoder::default(),
            last_used: Instant::now(),
        }
    }

    /// Handles one message: observe a notice, or decide a question; returns the reply.
    pub fn handle(&mut self, env: &Envelope) -> Reply {
        self.last_used = Instant::now();
        match self.decoder.decode(&env.msg) {
            Incoming::Event(e) => {
                if e == Event::Begin {
                    self.player.new_game(Seat(0));
                }
                self.player.observe(&e);
                Reply::empty()
            }
            Incoming::Question(q) => answer_reply(&self.player.decide(&q)),
            Incoming::Unknown => {
                tracing::warn!(
                    market = env.market,
                    id = env.id,
                    "uninterpretable message {:?}",
                    env.msg
                );
                Reply::empty()
            }
        }
    }
}

/// Open sessions keyed by (market, id).
type SessionMap = HashMap<(u64, u64), Arc<Mutex<Session>>>;

/// A bot endpoint's state: its strategy and the open sessions.
pub struct Bot {
    strategy: String,
    seed: u64,
    answer_by: Duration,
    sessions: Mutex<SessionMap>,
}

impl Bot {
    /// A bot playing `strategy` (a name of the engine's registry), base seed 1.
    pub fn new(strategy: &str) -> Result<Bot, BotError> {
        Bot::with_seed(strategy, 1)
    }

    /// A bot playing `strategy` whose player in game (market `M`, id `I`) is seeded from
    /// `seed`, `M` and `I` only, so a game's randomness does not depend on which requests
    /// arrived first.
    pub fn with_seed(strategy: &str, seed: u64) -> Result<Bot, BotError> {
        make_player(strategy, 0).ok_or_else(|| BotError::UnknownStrategy(strategy.into()))?;
        Ok(Bot {
            strategy: strategy.to_string(),
            seed,
            answer_by: ANSWER_DEADLINE,
            sessions: Mutex::new(HashMap::new()),
        })
    }

    /// The strategy name.
    pub fn strategy(&self) -> &str {
        &self.strategy
    }

    /// Open sessions.
    pub fn sessions(&self) -> usize {
        self.sessions.lock().map_or(0, |s| s.len())
    }

    fn session(&self, key: (u64, u64)) -> Arc<Mutex<Session>> {
        let mut map = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if !map.contains_key(&key) && map.len() >= MAX_SESSIONS {
            let oldest = map
                .iter()
                .min_by_key(|(_, s)| {
                    s.lock()
                        .map(|s| s.last_used)
                        .unwrap_or_else(|_| Instant::now())
                })
                .map(|(k, _)| *k);
            if let Some(k) = oldest {
                map.remove(&k);
            }
        }
        map.entry(key)
            .or_insert_with(|| {
                let seed = mix(mix(self.seed, key.0), key.1);
                let p = make_player(&self.strategy, seed).expect("checked in Bot::new");
                Arc::new(Mutex::new(Session::new(p)))
            })
            .clone()
    }

    /// Answers one request query; garbage gets the empty reply (and a log line).
    pub fn handle_query(&self, query: &str) -> String {
        let env = match Envelope::parse(query) {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!(
                    "bad request {:?}: {e}",
                    query.chars().take(200).collect::<String>()
                );
                return Reply::empty().to_string();
            }
        };
        let key = (env.market, env.id);
        let session = self.session(key);
        let reply = {
            let mut s = session.lock().unwrap_or_else(|e| e.into_inner());
            s.handle(&env)
        };
        if !reply.is_empty() {
            tracing::info!(
                market = env.market,
                id = env.id,
                "{} -> {reply}",
                env.to_query()
            );
        } else {
            tracing::debug!(market = env.market, id = env.id, "{}", env.to_query());
        }
        if matches!(env.msg, crate::protocol::ServerMsg::End { .. }) {
            if let Ok(mut map) = self.sessions.lock() {
                map.remove(&key);
            }
        }
        reply.to_string()
    }
}

/// The axum app serving `bot` on every path.
pub fn router(bot: Arc<Bot>) -> Router {
    Router::new().fallback(handler).with_state(bot)
}

async fn handler(State(bot): State<Arc<Bot>>, RawQuery(q): RawQuery) -> String {
    let q = q.unwrap_or_default();
    let answer_by = bot.answer_by;
    let work = tokio::task::spawn_blocking(move || bot.handle_query(&q));
    match tokio::time::timeout(answer_by, work).await {
        Ok(Ok(reply)) => reply,
        Ok(Err(e)) => {
            tracing::error!("decision failed: {e}");
            Reply::empty().to_string()
        }
        Err(_) => {
            tracing::warn!("decision took longer than {answer_by:?}; answered nothing");
            Reply::empty().to_string()
        }
    }
}

/// A running bot endpoint.
pub struct BotHandle {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its state.
    pub bot: Arc<Bot>,
    task: tokio::task::JoinHandle<()>,
}

impl BotHandle {
    /// The URL to give the market.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

impl Drop for BotHandle {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Binds `addr` (port 0 = any free port) and serves a bot of `strategy` in the background.
pub async fn spawn(addr: &str, strategy: &str) -> Result<BotHandle, BotError> {
    spawn_seeded(addr, strategy, 1).await
}

/// [`spawn`] with the bot's base seed (see [`Bot::with_seed`]).
pub async fn spawn_seeded(addr: &str, strategy: &str, seed: u64) -> Result<BotHandle, BotError> {
    spawn_with(addr, strategy, seed, EndpointLimits::default()).await
}

/// [`spawn_seeded`] with the HTTP front end's limits.
pub async fn spawn_with(
    addr: &str,
    strategy: &str,
    seed: u64,
    limits: EndpointLimits,
) -> Result<BotHandle, BotError> {
    let bot = Arc::new(Bot {
        answer_by: limits.answer_by,
        ..Bot::with_seed(strategy, seed)?
    });
    let listener = TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let app = router(bot.clone());
    let caps = crate::limits::Limits::new(limits.max_connections, limits.max_connections_per_peer);
    let task = tokio::spawn(crate::web::serve(
        listener,
        app,
        caps,
        limits.header_timeout,
        Arc::new(crate::guard::RejectLog::default()),
    ));
    Ok(BotHandle { addr, bot, task })
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    #[test]
    fn answer_deadline_is_the_rule_on_five_seconds() {
        // Unchanged: 4,500 ms, now the send-by of 5 s with 500 ms overhead.
        assert_eq!(ANSWER_DEADLINE, Duration::from_millis(4500));
    }

    #[test]
    fn clocked_strategy_times_only_an_untimed_strong() {
        let (b, o) = (Duration::from_millis(5000), Duration::from_millis(500));
        assert_eq!(
            clocked_strategy("strong", b, o),
            "strong:time_ms=5000:overhead_ms=500"
        );
        assert_eq!(
            clocked_strategy("strong:worlds=8", b, o),
            "strong:worlds=8:time_ms=5000:overhead_ms=500"
        );
        for same in [
            "strong:soft_ms=100",
            "strong:time_ms=300",
            "heuristic",
            "random",
        ] {
            assert_eq!(clocked_strategy(same, b, o), same);
        }
        assert!(make_player(&clocked_strategy("strong", b, o), 1).is_some());
    }
}
