//! Our player endpoint: answers the market's GET requests with `?var=value` bodies.
//!
//! One [`Bot`] serves any number of games at once; each (market, id) pair gets its own
//! [`Session`] (an engine agent playing as seat 0, the books it answers from, and the wire
//! decoder). Every question becomes a seen [`View`] ([`KhView::from_knowledge`]) the agent
//! chooses from under the request's [`TimeControl`]. Decisions run on the blocking pool so a
//! slow player never stalls the HTTP runtime; sessions end with the `end` message and the
//! least recently used ones are dropped beyond [`MAX_SESSIONS`].
//!
//! [`View`]: kibitz_search::agent::View

use crate::protocol::{answer_reply, BotDecoder, Envelope, Incoming, Reply};
use axum::extract::{RawQuery, State};
use axum::Router;
use kibitz_koehandel::game_impl::KhView;
use kibitz_koehandel::{make_agent, Event, KhAgent, Knowledge, Seat};
use kibitz_search::clock::{MoveBudget, KOEHANDEL};
use kibitz_search::seed::mix;
use kibitz_search::time::TimeControl;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;

/// Default of [`EndpointLimits::answer_by`]: longest we let a decision run before answering
/// the empty reply. The one clock rule's send-by for the market's 5 s (connecting included)
/// with [`KOEHANDEL`]'s 500 ms overhead: 4,500 ms (a late answer would be worth nothing).
pub const ANSWER_DEADLINE: std::time::Duration = KOEHANDEL.move_budget().send_by;

/// Whether `strategy` sets a time of its own (`time_ms`, `soft_ms` or `hard_ms`), which a
/// bot's move budget then leaves alone.
pub fn strategy_is_timed(strategy: &str) -> bool {
    strategy.split(':').skip(1).any(|p| {
        let key = p.split('=').next().unwrap_or_default();
        matches!(key, "time_ms" | "soft_ms" | "hard_ms")
    })
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
    /// The times of one decision, counted from the request's arrival: each decision is
    /// given this [`TimeControl`] unless the strategy sets a time of its own
    /// ([`strategy_is_timed`]). `None` (the default): no clock, the strategy's own budget
    /// or none.
    pub move_budget: Option<MoveBudget>,
}

impl Default for EndpointLimits {
    fn default() -> Self {
        EndpointLimits {
            header_timeout: std::time::Duration::from_secs(10),
            max_connections: 512,
            max_connections_per_peer: 128,
            answer_by: ANSWER_DEADLINE,
            move_budget: None,
        }
    }
}

/// Errors creating a bot.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// The engine refuses the strategy (unknown player or option).
    #[error("strategy {0:?}: {1}")]
    UnknownStrategy(String, kibitz_koehandel::SpecError),
    /// Binding or serving failed.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

/// The strongest strategy the engine offers (`strong` when it exists, else `heuristic`).
pub fn best_strategy() -> &'static str {
    if make_agent("strong", 0).is_ok() {
        "strong"
    } else {
        "heuristic"
    }
}

/// One game as seen by our bot.
pub struct Session {
    agent: KhAgent,
    /// The agent's seed, given again when the market begins the game.
    seed: u64,
    /// The books of seat 0 from the messages, from which each question's view is built.
    know: Knowledge,
    decoder: BotDecoder,
    last_used: Instant,
}

impl Session {
    /// A session for a new game, with `agent` playing as seat 0 (`S`) seeded with `seed`.
    pub fn new(mut agent: KhAgent, seed: u64) -> Session {
        agent.new_game(0, seed);
        Session {
            agent,
            seed,
            know: Knowledge::new(Seat(0)),
            decoder: BotDecoder::default(),
            last_used: Instant::now(),
        }
    }

    /// Handles one message: a notice is told to the agent; a question is answered by the
    /// agent's choice from the seen view, under `clock`. Returns the reply.
    pub fn handle(&mut self, env: &Envelope, clock: &TimeControl) -> Reply {
        self.last_used = Instant::now();
        match self.decoder.decode(&env.msg) {
            Incoming::Event(e) => {
                if e == Event::Begin {
                    self.agent.new_game(0, self.seed);
                }
                self.agent.observe(&e);
                self.know.observe(&e);
                self.know.facts.clear();
                Reply::empty()
            }
            Incoming::Question(q) => {
                self.know.on_question(&q);
                let view = KhView::from_knowledge(&self.know, Some(&q)).into_view();
                let answer = self.agent.choose(&view, clock).action.0;
                self.know.on_answer(&q, &answer);
                self.know.facts.clear();
                answer_reply(&answer)
            }
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
    move_budget: Option<MoveBudget>,
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
        make_agent(strategy, 0).map_err(|e| BotError::UnknownStrategy(strategy.into(), e))?;
        Ok(Bot {
            strategy: strategy.to_string(),
            seed,
            answer_by: ANSWER_DEADLINE,
            move_budget: None,
            sessions: Mutex::new(HashMap::new()),
        })
    }

    /// This bot with `budget` as the times of each decision (see
    /// [`EndpointLimits::move_budget`]); a strategy with a time of its own keeps it.
    pub fn with_move_budget(mut self, budget: Option<MoveBudget>) -> Bot {
        self.move_budget = budget.filter(|_| !strategy_is_timed(&self.strategy));
        self
    }

    /// The clock of a request arriving now: the move budget's, or unlimited without one.
    pub fn clock(&self) -> TimeControl {
        self.move_budget
            .map_or_else(TimeControl::infinite, |b| b.time_control())
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
                // Checked in `Bot::with_seed`; should the engine refuse it now, the seat passes.
                let agent = make_agent(&self.strategy, seed).unwrap_or_else(|e| {
                    tracing::error!("strategy {:?}: {e}; answering nothing", self.strategy);
                    Box::new(kibitz_koehandel::agents::PassAgent)
                });
                Arc::new(Mutex::new(Session::new(agent, seed)))
            })
            .clone()
    }

    /// Answers one request query arriving now ([`Bot::clock`]); garbage gets the empty reply
    /// (and a log line).
    pub fn handle_query(&self, query: &str) -> String {
        self.handle_query_by(query, &self.clock())
    }

    /// Answers one request query, deciding under `clock` (started when the request arrived).
    pub fn handle_query_by(&self, query: &str, clock: &TimeControl) -> String {
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
            s.handle(&env, clock)
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
    let clock = bot.clock();
    let work = tokio::task::spawn_blocking(move || bot.handle_query_by(&q, &clock));
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
    let bot = Arc::new(
        Bot {
            answer_by: limits.answer_by,
            ..Bot::with_seed(strategy, seed)?
        }
        .with_move_budget(limits.move_budget),
    );
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
    fn the_move_budget_clocks_only_an_untimed_strategy() {
        let b = Some(KOEHANDEL.move_budget());
        let clocked = |s: &str| Bot::new(s).unwrap().with_move_budget(b).clock();
        for untimed in ["strong", "strong:worlds=8", "heuristic", "random"] {
            let c = clocked(untimed);
            assert_eq!(c.soft(), Some(Duration::from_millis(2500)), "{untimed}");
            assert_eq!(c.hard(), Some(Duration::from_millis(4000)), "{untimed}");
        }
        for timed in [
            "strong:soft_ms=100",
            "strong:time_ms=300",
            "strong:hard_ms=9",
        ] {
            assert_eq!(clocked(timed).hard(), None, "{timed}");
        }
        assert_eq!(Bot::new("strong").unwrap().clock().hard(), None);
    }

    #[test]
    fn an_unknown_strategy_says_why() {
        let e = Bot::new("strong:nonsense=1").err().unwrap().to_string();
        assert!(e.contains("nonsense"), "{e}");
    }
}
