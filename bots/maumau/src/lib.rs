//! maumau over the wire: the contest's codec, our bot client and our reference server.
//!
//! (Scaffold: filled in by the maumau issue.)

pub mod tournament;
