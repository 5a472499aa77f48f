//! Mau-Mau over the wire (Free-Hack Coding Contest 2017): the JSON-lines codec, our bot client and
//! a reference server that is byte-identical to the real contest server by default
//! (`shared/specs/maumau.md`), plus turn timeouts, several games, network games and knock-out
//! tournaments.
//!
//! # Limits (defaults)
//! | limit | default | what happens |
//! |---|---|---|
//! | line length | 16 KiB ([`protocol::MAX_LINE`]) | the rest of the line is dropped; the line counts as garbage |
//! | lines queued per bot | 256 ([`conn::MAX_QUEUED`]) | reading stops; TCP flow control holds the bot back |
//! | one write | 10 s ([`conn::WRITE_TIMEOUT`]) | the bot counts as gone (after the real server's 3 retries) |
//! | answer (and name line) timeout | 5 s (`turn_timeout`, `--time-ms`), then 3 repeats | dropped (spec §10) |
//! | idle timeout, only without a turn timeout | 600 s (`idle_timeout`, `--idle-timeout-ms`; 0 = never) | a silent connection that owes a line is closed (handshake: seat stays free; game: seat dropped) |
//! | turns per game | 10,000 (`max_turns`) | game ends as on talon exhaustion |
//! | connections at once | 512 (`max_connections`, `--max-connections`) | further connections are closed at once |
//! | connections per peer IP | 128 (`max_connections_per_peer`, `--max-connections-per-peer`) | further connections from that address are closed at once |
//! | handshakes | all at once, each with its own name-line timeout ([`lobby`]) | a silent connection delays nobody |
//! | name line without `status` | no reply, no seat; ignored until the client closes it or the name-line timeout, at least 10 s ([`lobby::NO_STATUS_LINGER_MIN`]), has passed | closed |
//!
//! Seating: connections are accepted and greeted all the time, also while a game runs; seats
//! go to them in the order their name lines arrive, and `setName` is sent when the seat is
//! taken. Before a game starts, seated bots whose connection has already closed are dropped
//! and their seats filled by the next connections (not in the knock-out, where a bot that left
//! loses its game).

#![warn(missing_docs)]

pub mod client;
pub mod conn;
pub mod external;
pub mod knockout;
pub mod lobby;
pub mod protocol;
pub mod record;
mod seating;
pub mod server;
pub mod tournament;
pub mod transcript;
pub mod translog;
