//! koehandel over the wire (spec `koehandel.md`): the HTTP GET codec ([`protocol`]), our bot
//! endpoint ([`client`]) and the reference market ([`server`]), plus the local tournament.
#![warn(missing_docs)]

pub mod protocol;
pub mod tournament;
