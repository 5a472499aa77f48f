//! What the reference server is told: its flags ([`ServerConfig`]), a replayed deal
//! ([`Replay`], [`Draws`]) and per-seat fault counts ([`Faults`]).

use kibitz_maumau::{Card, ExhaustionWinner};
use kibitz_net::record::RecordWriter;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Server settings (the `maumau-server` flags).
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Seats per game, 2-4.
    pub players: usize,
    /// Winner on talon exhaustion (and at the turn cap).
    pub exhaustion_winner: ExhaustionWinner,
    /// Per-answer timeout; `None` waits like the real server (but see `idle_timeout`).
    pub turn_timeout: Option<Duration>,
    /// Only without a turn timeout: a connection silent this long while it owes a line (the
    /// name line, an answer) is closed and its seat dropped (or, in the handshake, left free),
    /// so a silent client cannot hold the server forever. `None`: wait forever, exactly like the
    /// real server.
    pub idle_timeout: Option<Duration>,
    /// Connections open at once (playing, greeted or waiting for a seat); beyond it a new
    /// connection is closed at once.
    pub max_connections: usize,
    /// Connections open at once from one IP address; beyond it a new connection from that
    /// address is closed at once.
    pub max_connections_per_peer: usize,
    /// Broadcasts per game before it ends as on exhaustion; 0 = no cap.
    pub max_turns: u32,
    /// Shuffle seed; game `i` uses `seed + i`.
    pub seed: u64,
    /// Games to serve before returning.
    pub games: u32,
    /// Transcript path (one file per game when serving several).
    pub log: Option<PathBuf>,
    /// Fixed deck and draws instead of shuffles (replaying recorded games).
    pub replay: Option<Replay>,
    /// Where every game goes as a `kibitz-record/1` line ([`crate::record`]); none when
    /// `None` (`--records DIR` writes `DIR/maumau.jsonl`).
    pub records: Option<Arc<RecordWriter>>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            players: 2,
            exhaustion_winner: ExhaustionWinner::SecondSeat,
            turn_timeout: Some(Duration::from_millis(5000)),
            idle_timeout: Some(Duration::from_secs(600)),
            max_connections: 512,
            max_connections_per_peer: 128,
            max_turns: 10_000,
            seed: 0,
            games: 1,
            log: None,
            replay: None,
            records: None,
        }
    }
}

/// A prescribed deal: `deck` (top card, then the hands in seat order, then the talon) and the
/// cards drawn, in order (after reshuffles too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// All 32 cards in deal order.
    pub deck: Vec<Card>,
    /// The cards drawn (draw-two, draw, penalty).
    pub draws: Draws,
}

/// The prescribed draws of a [`Replay`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Draws {
    /// Per seat, in that seat's order.
    PerSeat(Vec<Vec<Card>>),
    /// All seats together, in game order.
    InOrder(Vec<Card>),
}

/// One bot's faults in one game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Faults {
    /// Penalty cards (illegal or unreadable answers, Jacks without a wish).
    pub penalties: u32,
    /// Answers that did not arrive within the turn timeout (each repeat counts).
    pub timeouts: u32,
    /// Lines sent while no answer was owed.
    pub warnings: u32,
    /// Dropped: timed out three repeats or writes failed.
    pub dropped: bool,
}
