//! piranhas over the wire: the contest's XML codec, our bot client and our reference server.
//!
//! - [`protocol`]: the one codec (streaming framer, element tree, typed messages) used by both
//!   sides, so client and server can never disagree about the bytes.
//! - [`client`]: the contest client (`piranhas-bot`): session logic and the TCP loop that
//!   drives one [`kibitz_piranhas::agents`] agent (search, greedy, random).
//! - [`server`]: our reference server (`piranhas-server`) and its in-process API.
//! - [`record`]: a game as a `kibitz-record/1` line and as the Software-Challenge replay XML
//!   (server and arena share it).
//! - [`external`]: one game on the server with an external (`cmd:`) seat, for `kibitz match`.
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
//! (default 1300), aborts at `--hard-ms` (default 1600, also the cap), and if the search thread
//! still has not answered 150 ms later the client sends a legal fallback move itself.
//!
//! The bot exits 0 only when the game ended normally (a result arrived). If the server closes
//! mid-game, reports an error (e.g. our rule violation) or its stream cannot be decoded, it
//! prints one line saying so and exits non-zero. Unreadable stretches of the stream are logged
//! and skipped up to the next message (at most [`client::MAX_DECODE_ERRORS`] times).
//!
//! # Limits (defaults)
//! | limit | default | what happens |
//! |---|---|---|
//! | client message size (server side) | 64 KiB (`max_message`) | `<error>`, connection closed; a seated player loses (`LEFT`) |
//! | server message size (bot side) | 1 MiB ([`client::MAX_SERVER_MESSAGE`]) | logged and skipped |
//! | login: join or authenticate | 60 s (`login_timeout`) | `<error>`, connection closed |
//! | requests 19.2.1 refuses (spec §9 R8) | – | `CloseConnection`, connection closed (see [`server`]) |
//! | idle outside a running game (joined and waiting, admin) | 600 s (`idle_timeout`, `--idle-timeout-s`; 0 = never) | `<error>`, connection closed; a player in a running game is governed by the move limits only |
//! | move time | soft 2 s, hard 10 s (`soft_timeout`, `hard_timeout`) | loss (`SOFT_TIMEOUT`, `HARD_TIMEOUT`) |
//! | `</protocol>` after the game | 5 s (`close_grace`) | server closes |
//! | connections at once | 512 (`max_connections`, `--max-connections`) | closed at once |
//! | connections per peer IP | 128 (`max_connections_per_peer`, `--max-connections-per-peer`) | closed at once |
//! | bot: server silent | 600 s (`ClientConfig::idle_timeout`, `--idle-timeout-s`; 0 = never), a warning every 60 s | abnormal end (exit 1) |
//! | bot: nothing readable after an unreadable stretch | 30 s (`ClientConfig::resync_timeout`) | abnormal end (exit 1) |
#![warn(missing_docs)]

pub mod client;
pub mod external;
pub mod protocol;
pub mod record;
pub mod server;
pub mod tournament;
