//! What the bot is told ([`BotConfig`]: among it the player, one of the engine's agent
//! specs), how it splits its reply time
//! ([`BotConfig::move_budget`], the one clock rule) and what it reports when it stops
//! ([`BotStats`]).

use crate::movestats::MoveTimes;
use kibitz_connect4::agents::{AgentSpec, EngineSpec};
use kibitz_search::clock::{MoveBudget, CONNECT4};
use std::time::Duration;

/// Everything the bot needs to know.
#[derive(Debug, Clone, PartialEq)]
pub struct BotConfig {
    /// Server host name or address.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// Our name.
    pub name: String,
    /// The move budget: time from receiving `YOURTURN` until our reply must have reached the
    /// server (default the contest's 250 ms, round trip included). See
    /// [`BotConfig::move_budget`].
    pub time: Duration,
    /// What is kept from [`Self::time`] for the network and the thread hand-off (default
    /// 50 ms): the reply leaves by `time − overhead`, the engine stops at `time − 2·overhead`.
    pub overhead: Duration,
    /// Board width (must match the server's).
    pub columns: usize,
    /// Board height.
    pub rows: usize,
    /// Line length.
    pub connect: usize,
    /// The player ([`kibitz_connect4::agents`]): the engine (table size, depth limit,
    /// tunables, a node budget per move in its [`EngineSpec`]), weak or random. An engine
    /// with a node budget and no time of its own is reproducible: its moves depend on the
    /// positions and the tables only, not on the machine's load; [`Self::time`] then only
    /// bounds a runaway move.
    pub player: AgentSpec,
    /// Seed of the player's randomness; each game gets its own seed from it, the season, the
    /// opponent and how often we met it this season.
    pub seed: u64,
    /// Think on the opponent's time (engine players only).
    pub ponder: bool,
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

/// The overhead [`engine_deadlines`] uses: the thread hand-off and sending alone, for callers
/// whose `time` already ends when the reply leaves (in-process games of the kibitz CLI).
pub const FALLBACK_GRACE: Duration = Duration::from_millis(15);
/// The engine's soft budget, hard deadline and the grace after it for a time `time` until the
/// reply leaves: the one clock rule ([`MoveBudget::for_move`]) with overhead
/// [`FALLBACK_GRACE`], as `(soft, hard, send_by − hard)`. Below 60 ms the hard deadline is no
/// longer raised to `time / 2` (the old rule did, and so ate into the grace).
pub fn engine_deadlines(time: Duration) -> (Duration, Duration, Duration) {
    let b = MoveBudget::for_move(time, FALLBACK_GRACE);
    (b.soft, b.hard, b.send_by - b.hard)
}

/// Default of `connect4-bot --threads` (threads of the engine's solver proofs): `1`.
///
/// Issue 39 item 3, `kibitz connect4 timing --moves 1000` on the 2-core test machine (soft
/// 125 ms, hard 150 ms, send by 200 ms): with one core busy (`--hog`) the max time per move
/// was 160.4 / 158.9 / 161.9 ms at 1 thread and 177.3 / 172.6 / 148.6 ms at 2 (9 × 7,
/// 8 × 8, 10 × 6; p99.9 156.0 / 152.8 / 148.2 against 164.2 / 154.6 / 147.3); idle, max
/// 136.0 / 142.5 / 144.9 against 145.8 / 169.5 / 154.1. Two threads prove a few empty cells
/// further from the end, but their tail is worse where the cores are shared (the opponent
/// and the server share the contest machine), so `auto` is not the default.
pub const DEFAULT_THREADS: &str = "1";

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
    /// A config with the defaults: 7 × 6, connect 4, the contest's clock (250 ms budget, 50 ms
    /// overhead), engine with 64 MiB on the bot's clock, seed 1, pondering, `REGISTER` again after 10 s of silence, stop
    /// after 10 minutes of it.
    pub fn new(host: impl Into<String>, port: u16, name: impl Into<String>) -> Self {
        Self {
            host: host.into(),
            port,
            name: name.into(),
            time: CONNECT4.budget,
            overhead: CONNECT4.overhead,
            columns: 7,
            rows: 6,
            connect: 4,
            player: AgentSpec::Engine(EngineSpec::engine(64)),
            seed: 1,
            ponder: true,
            reregister_after: REREGISTER_AFTER,
            give_up_after: Some(GIVE_UP_AFTER),
        }
    }

    /// Whether the player searches a node budget on an unlimited clock (only the bot's
    /// stop flag ends a move early): an engine with `nodes` and no time of its own.
    pub fn by_nodes(&self) -> bool {
        matches!(&self.player, AgentSpec::Engine(e) if e.nodes.is_some() && e.time_ms.is_none())
    }

    /// Whether the bot thinks on the opponent's time: [`Self::ponder`] with an engine player.
    pub fn pondering(&self) -> bool {
        self.ponder && matches!(self.player, AgentSpec::Engine(_))
    }

    /// The times of one move by the one clock rule: `send_by = time − overhead` (the bot
    /// stops waiting for the engine and sends, a fallback if need be), `hard = time −
    /// 2·overhead` (the engine aborts), `soft = min(time / 2, hard)`.
    pub fn move_budget(&self) -> MoveBudget {
        MoveBudget::for_move(self.time, self.overhead)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn default_clock_is_the_contest_rule() {
        // Old: --time-ms 200 (until the reply leaves) → soft 100, hard 170, send-by 185.
        // New: budget 250 incl. network, overhead 50 → soft 125, hard 150, send-by 200.
        let b = BotConfig::new("127.0.0.1", 4446, "x").move_budget();
        assert_eq!((b.soft, b.hard, b.send_by), (ms(125), ms(150), ms(200)));
    }

    #[test]
    fn engine_deadlines_follow_the_rule_below_60_ms() {
        // Old rule: hard = max(time − 30, time / 2) = 20 ms for 40 ms; now 10 ms, so the
        // fallback still leaves one grace before `time`.
        assert_eq!(engine_deadlines(ms(200)), (ms(100), ms(170), ms(15)));
        assert_eq!(engine_deadlines(ms(40)), (ms(10), ms(10), ms(15)));
    }
}
