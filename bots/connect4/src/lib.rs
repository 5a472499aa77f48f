//! Connect Four over the wire: the contest's UDP codec, our bot client and our reference server.
//!
//! - [`protocol`]: the one codec (messages, Java split/trim/parseInt semantics, reply matching).
//! - [`server`]: the reference server, faithful to the original (spec §§1-9) plus our
//!   extensions (§10); runnable in-process ([`server::Server`]) or as `connect4-server`.
//! - [`client`]: the bot (`connect4-bot`): registration, seasons, games, pondering.
//! - [`record`]: a game as a `kibitz-record/1` line (server and arena share it).
//! - [`tournament`]: the connect4 part of `kibitz tournament`.
//!
//! # Differences from the original server (decided here, spec §10 style)
//! 1. **Re-registration in mid-season.** The original keeps sending the rest of a season to a
//!    player's *old* socket (and ignores the moves its new socket sends). Ours routes every
//!    message to the socket registered last and accepts answers from it at once, because spec
//!    §4.5 says a re-registration *replaces* the old socket so that a restarted bot can carry
//!    on. A restarted bot therefore keeps its games instead of timing out in all of them.
//!    (Test: `tests/section10.rs`.)
//! 2. **JOIN waits.** The original waits for the players' JOINs one after another, so a season
//!    start costs k × TIMEOUT with k silent players. Ours sends every NEW SEASON at once and
//!    waits for all JOINs at the same time, each with its own full TIMEOUT (spec §8.2 only says
//!    that those who answer within TIMEOUT take part). (Test: `tests/section10.rs`.)
//! 3. **Constant memory.** Only the last [`server::KEPT_SEASONS`] season results are kept
//!    ([`server::Server::results`]); totals live in the scoreboard. Logging: one info line per
//!    season (games won), per-game lines at debug; the standings table is printed every
//!    [`server::TABLE_EVERY`] seasons and after the last one, the ranking after every season.
//!
//! # Limits (defaults)
//! | limit | default | where |
//! |---|---|---|
//! | datagram read buffer | 65,536 bytes (UDP maximum) | server receiver |
//! | name length | 30 UTF-16 units ([`protocol::MAX_NAME_UTF16`]) | spec §4.3 |
//! | queued datagrams per player | 10 ([`protocol::QUEUE_LEN`]), further ones dropped | spec §3.2 |
//! | answer timeout (JOIN, INSERT) | 250 ms (`TIMEOUT`) | spec §9 |
//! | consecutive timeouts before unregistering | 10 ([`server::MAX_TIMEOUTS`]); the 11th removes | spec §7 |
//! | registered players | 1,000 ([`server::MAX_PLAYERS`]); a new name beyond is ignored | ours |
//! | season results kept | 32 ([`server::KEPT_SEASONS`]) | ours |
//! | connections | none: UDP has no connections; unregistered senders are ignored | spec §3.1 |
#![warn(missing_docs)]

pub mod client;
pub mod config;
pub mod external;
pub mod movestats;
pub mod protocol;
pub mod record;
pub mod schedule;
mod season;
pub mod server;
pub mod standings;
pub mod thinker;
pub mod tournament;
