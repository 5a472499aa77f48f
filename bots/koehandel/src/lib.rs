//! koehandel over the wire (spec `koehandel.md`): the HTTP GET codec ([`protocol`]), our bot
//! endpoint ([`client`]) and the reference market ([`server`] with its web front end [`web`]),
//! plus the local tournament.
#![warn(missing_docs)]

pub mod caller;
pub mod client;
pub mod protocol;
pub mod server;
pub mod tournament;
pub mod web;
