//! What the bot is told ([`BotConfig`], [`Brain`]), how it splits its reply time
//! ([`engine_deadlines`]) and what it reports when it stops ([`BotStats`]).

use crate::movestats::MoveTimes;
use std::time::Duration;

/// How the bot picks its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Brain {
    /// Our engine (book, solver, alpha-beta).
    Engine {
        /// Table size in MiB.
        hash_mb: usize,
        /// Depth limit for the heuristic search (also skips the book; weaker variants).
        max_depth: Option<u32>,
        /// Think on the opponent's time.
        ponder: bool,
    },
    /// Uniformly random legal moves (a baseline).
    Random {
        /// Seed of the move choice.
        seed: u64,
    },
}

/// Everything the bot needs to know.
#[derive(Debug, Clone, PartialEq)]
pub struct BotConfig {
    /// Server host name or address.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// Our name.
    pub name: String,
    /// Time from receiving `YOURTURN` until our reply must have left (default 200 ms of the
    /// server's 250). See [`engine_deadlines`]: the engine's soft budget is half of it, its
    /// hard deadline two [`FALLBACK_GRACE`]s earlier; one grace before it the bot stops
    /// waiting and sends a fallback move.
    pub time: Duration,
    /// Board width (must match the server's).
    pub columns: usize,
    /// Board height.
    pub rows: usize,
    /// Line length.
    pub connect: usize,
    /// Move choice.
    pub brain: Brain,
    /// Engine tunables (`--param NAME=V`).
    pub params: kibitz_connect4::params::EngineParams,
    /// Node budget per move instead of the clock (`None`: think by time). With a budget the
    /// moves are reproducible: they depend on the positions and the tables only, not on the
    /// machine's load; [`Self::time`] then only bounds a runaway move.
    pub nodes: Option<u64>,
    /// Silence after which the bot sends `REGISTER` again (default [`REREGISTER_AFTER`]).
    /// Another client on our IP address can take our name with one `REGISTER` (spec §4.5),
    /// and then the server stops talking to us; registering again takes the name back. To a
    /// server that still knows us it is harmless: it answers `WELCOME` and changes nothing.
    pub reregister_after: Duration,
    /// The bot stops when nothing at all came from the server for this long (despite
    /// registering again every [`Self::reregister_after`]), or when the name stayed refused
    /// for this long (`None`: never; default [`GIVE_UP_AFTER`]). A server past its last
    /// season, or one that is not running, falls silent; without this the bot would wait
    /// forever.
    pub give_up_after: Option<Duration>,
}

/// Time between the engine's hard deadline and the reply deadline (thread hand-off, sending).
pub const FALLBACK_GRACE: Duration = Duration::from_millis(15);
/// The engine's soft budget, hard deadline and the grace after it for a reply time `time`:
/// `(time / 2, time - 2·grace, grace)`. The bot stops waiting for the engine at
/// `hard + grace = time - grace`, so even a fallback move leaves a grace before `time`.
pub fn engine_deadlines(time: Duration) -> (Duration, Duration, Duration) {
    let hard = time.saturating_sub(FALLBACK_GRACE * 2);
    (time / 2, hard.max(time / 2), FALLBACK_GRACE)
}

/// On shutdown, datagrams are still taken in until none came for this long.
pub const SHUTDOWN_QUIET: Duration = Duration::from_millis(20);
/// How often `REGISTER` is repeated while no `WELCOME` came.
pub const REGISTER_RETRY: Duration = Duration::from_secs(1);
/// Default of [`BotConfig::reregister_after`]: 10 s. Between two seasons, and between a
/// bot's games within one, the original server is silent for at most a few seconds with
/// well-behaved players, and a needless `REGISTER` costs one datagram each way.
pub const REREGISTER_AFTER: Duration = Duration::from_secs(10);
/// Default of [`BotConfig::give_up_after`]: 10 minutes without a single datagram from the
/// server (a live server answers every `REGISTER`, so this is a stopped one).
pub const GIVE_UP_AFTER: Duration = Duration::from_secs(600);

impl BotConfig {
    /// A config with the defaults: 7 × 6, connect 4, 200 ms, engine with 64 MiB, pondering,
    /// `REGISTER` again after 10 s of silence, stop after 10 minutes of it.
    pub fn new(host: impl Into<String>, port: u16, name: impl Into<String>) -> Self {
        Self {
            host: host.into(),
            port,
            name: name.into(),
            time: Duration::from_millis(200),
            columns: 7,
            rows: 6,
            connect: 4,
            brain: Brain::Engine {
                hash_mb: 64,
                max_depth: None,
                ponder: true,
            },
            params: Default::default(),
            nodes: None,
            reregister_after: REREGISTER_AFTER,
            give_up_after: Some(GIVE_UP_AFTER),
        }
    }
}

/// What happened while the bot ran.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BotStats {
    /// Time per move (receipt of `YOURTURN` to sending `INSERT`).
    pub times: MoveTimes,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Each finished game: opponent and the `RESULT` datagram.
    pub results: Vec<(String, String)>,
    /// Each finished game's stones in playing order, as the bot reconstructed them.
    pub histories: Vec<Vec<i32>>,
    /// Moves sent without the engine's answer (timeout, missing stone, broken board).
    pub fallbacks: u32,
    /// `WELCOME`s received (more than one after `UNREGISTERED`).
    pub registrations: u32,
    /// Seasons joined.
    pub seasons: u32,
    /// `REGISTER`s sent because the server had fallen silent (see
    /// [`BotConfig::reregister_after`]).
    pub reregistrations: u32,
    /// Why [`crate::client::Bot::run`] returned.
    pub ending: Ending,
}

/// Why the bot stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Ending {
    /// The caller's shutdown future completed (Ctrl-C in the binary).
    #[default]
    Shutdown,
    /// The server, which had accepted us, sent nothing for [`BotConfig::give_up_after`]:
    /// its last season is over or it stopped.
    ServerSilent,
}
