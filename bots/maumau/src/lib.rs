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
//! | answer (and name line) timeout | 5 s (`turn_timeout`, `--turn-timeout-ms`), then 3 repeats | dropped (spec §10) |
//! | idle timeout, only without a turn timeout | 600 s (`idle_timeout`, `--idle-timeout-ms`; 0 = never) | a silent connection that owes a line is closed (handshake: seat stays free; game: seat dropped) |
//! | turns per game | 10,000 (`max_turns`) | game ends as on talon exhaustion |
//! | connections | one accepted at a time, only while a seat is free | the rest wait in the listen backlog |
//!
//! Seating: before a game starts, seated bots whose connection has already closed are dropped
//! and their seats filled by the next connections (not in the knock-out, where a bot that left
//! loses its game).

#![warn(missing_docs)]

pub mod client;
pub mod conn;
pub mod knockout;
pub mod protocol;
pub mod record;
mod seating;
pub mod server;
pub mod tournament;
pub mod transcript;
pub mod translog;
