//! piranhas over the wire: the contest's XML codec, our bot client and our reference server.
//!
//! - [`protocol`]: the one codec (streaming framer, element tree, typed messages) used by both
//!   sides, so client and server can never disagree about the bytes.
//! - [`client`]: the contest client (`piranhas-bot`): session logic and the TCP loop.
//! - [`player`]: move choosers behind the client: search, greedy, random.
//! - [`server`]: our reference server (`piranhas-server`) and its in-process API.
//! - [`tournament`]: round robins over real TCP for `kibitz tournament` and the server binary.
//!
//! Running it:
//!
//! ```text
//! piranhas-server --port 13050 [--seed N] [--krakens 3,3,6,7] [--record DIR]
//! piranhas-bot -h localhost -p 13050 [-r CODE] [--time-ms 1000 --hard-ms 1500] [--player search]
//! piranhas-server --client "piranhas-bot --player greedy" --client "piranhas-bot" --games 4
//! ```
//!
//! Timing of the bot (spec §5: 2 s from MoveRequest to move, measured on the server): the clock
//! starts when the MoveRequest is decoded; the search stops starting iterations at `--time-ms`
//! (default 1000), aborts at `--hard-ms` (default 1500, capped at 1600), and if the search thread
//! still has not answered 150 ms later the client sends a legal fallback move itself.
#![warn(missing_docs)]

pub mod client;
pub mod player;
pub mod protocol;
pub mod server;
pub mod tournament;
