//! Connect Four over the wire: the contest's UDP codec, our bot client and our reference server.
//!
//! - [`protocol`]: the one codec (messages, Java split/trim/parseInt semantics, reply matching).
//! - [`server`]: the reference server, faithful to the original (spec §§1-9) plus our
//!   extensions (§10); runnable in-process ([`server::Server`]) or as `connect4-server`.
//! - [`client`]: the bot (`connect4-bot`): registration, seasons, games, pondering.
//! - [`tournament`]: the connect4 part of `kibitz tournament`.
#![warn(missing_docs)]

pub mod client;
pub mod config;
pub mod movestats;
pub mod protocol;
pub mod schedule;
mod season;
pub mod server;
pub mod standings;
pub mod thinker;
pub mod tournament;
