//! piranhas over the wire: the contest's codec, our bot client and our reference server.
//!
//! (Scaffold: filled in by the piranhas issue.)

pub mod tournament;
