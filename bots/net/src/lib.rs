//! kibitz-net: pieces that more than one contest's bots crate needs, kept in one place so the
//! servers and tournaments cannot drift apart.
//!
//! - [`cli`]: the flags every contest binary shares (`--host`, `--port`, `--time-ms`, `--seed`,
//!   `--player`), as clap groups.
//! - [`html`]: escaping for the pages servers and the viewer write.
//! - [`limits`]: caps on concurrent connections, in total and per peer address.
//! - [`logging`]: the one `--log-level` flag and stderr subscriber every binary uses.
//! - [`memory`]: how big a hash table a flag may ask for on this machine.
//! - [`record`]: the `kibitz-record/1` game record writer (servers, tournament, arena).
//! - [`tournament`]: what `kibitz tournament` gives each contest's runner.
#![warn(missing_docs)]

pub mod cli;
pub mod html;
pub mod limits;
pub mod logging;
pub mod memory;
pub mod record;
pub mod tournament;
