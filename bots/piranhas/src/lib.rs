//! piranhas over the wire: the contest's XML codec, our bot client and our reference server.
//!
//! - [`protocol`]: the one codec (streaming framer, element tree, typed messages) used by both
//!   sides, so client and server can never disagree about the bytes.
//! - [`client`]: the contest client (`piranhas-bot`): session logic and the TCP loop.
//! - [`player`]: move choosers behind the client: search, greedy, random.
//! - [`server`]: our reference server (`piranhas-server`) and its in-process API.
//! - [`tournament`]: round robins over real TCP for `kibitz tournament` and the server binary.
#![warn(missing_docs)]

pub mod client;
pub mod player;
pub mod protocol;
pub mod server;
pub mod tournament;
