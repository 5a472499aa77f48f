//! connect4 over the wire: the contest's codec, our bot client and our reference server.
//!
//! (Scaffold: filled in by the connect4 issue.)

pub mod tournament;
