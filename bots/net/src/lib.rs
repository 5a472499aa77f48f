//! kibitz-net: networking pieces that more than one contest's reference server needs, kept in
//! one place so the servers cannot drift apart.
//!
//! - [`limits`]: caps on concurrent connections, in total and per peer address.
#![warn(missing_docs)]

pub mod limits;
