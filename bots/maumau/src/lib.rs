//! Mau-Mau over the wire (Free-Hack Coding Contest 2017): the JSON-lines codec, our bot client and
//! a reference server that is byte-identical to the real contest server by default
//! (`shared/specs/maumau.md`), plus turn timeouts, several games, network games and knock-out
//! tournaments.

#![warn(missing_docs)]

pub mod client;
pub mod conn;
pub mod knockout;
pub mod protocol;
pub mod server;
pub mod tournament;
pub mod transcript;
pub mod translog;
