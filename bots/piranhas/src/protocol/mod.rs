//! The one XML codec of the 2019 Piranhas protocol, shared by our client and our server.
//!
//! Layers, bottom up:
//! - [`framer`]: splits the never-closed `<protocol>` stream into complete top-level elements,
//!   however TCP chunks it (spec §7.1).
//! - [`dom`]: parses one element into a small tree (quick-xml) and writes trees back, pretty
//!   like the official server or compact like the official clients.
//! - [`messages`]: typed client and server messages (spec §7.2–§7.5, §8) to and from the tree;
//!   [`memento`] (game state ⇄ engine [`State`](kibitz_piranhas::State)) and [`result`] (scores,
//!   winner) are their two big payloads.
//!
//! Reading is tolerant (unknown elements and attributes, the stray `<line>` element, comments,
//! an XML declaration are ignored); writing is strict and matches the official bytes wherever the
//! transcripts show them.

pub mod dom;
pub mod framer;
pub mod memento;
pub mod messages;
pub mod result;

pub use dom::Element;
pub use framer::{Frame, Framer};
pub use memento::Memento;
pub use messages::{ClientMessage, MoveMsg, ServerMessage, Slot};
pub use result::{ResultMsg, ScoreCause, ScoreMsg};

use thiserror::Error;

/// Game type string of the 2019 contest.
pub const GAME_TYPE: &str = "swc_2019_piranhas";
/// Default TCP port of the contest server.
pub const DEFAULT_PORT: u16 = 13050;
/// Default admin password of the contest server.
pub const DEFAULT_PASSWORD: &str = "examplepassword";
/// Opening bytes of either side's stream.
pub const OPEN: &str = "<protocol>";
/// What a client sends to end the session.
pub const CLIENT_CLOSE: &str = "</protocol>";
/// What the server sends to end the session (after a newline, as 19.2.1 does).
pub const SERVER_CLOSE: &str = "\n</protocol>";
/// The server's whole stream when it closes before sending any message (19.2.1 opens its
/// `<protocol>` only with the first message, so an unreadable first request gets this).
pub const EMPTY_STREAM: &str = "<protocol/>";

/// Anything that can go wrong decoding the protocol.
#[derive(Debug, Clone, Error, PartialEq)]
pub enum ProtocolError {
    /// Bytes that are not XML markup where markup is required.
    #[error("garbage in the XML stream near {0:?}")]
    Garbage(String),
    /// The stream's root element is not `<protocol>`.
    #[error("expected <protocol>, got <{0}>")]
    NotProtocol(String),
    /// A single message exceeded the size limit.
    #[error("message longer than {0} bytes")]
    TooLarge(usize),
    /// A message is not valid UTF-8.
    #[error("message is not valid UTF-8")]
    Utf8,
    /// A message is not well-formed XML.
    #[error("malformed XML: {0}")]
    Syntax(String),
    /// A required attribute or child is missing.
    #[error("<{element}> lacks {what}")]
    Missing {
        /// The element concerned.
        element: String,
        /// The missing attribute or child.
        what: String,
    },
    /// An attribute or text has a value outside its domain.
    #[error("bad value {value:?} for {what}")]
    Value {
        /// What was being read.
        what: String,
        /// The offending value.
        value: String,
    },
}

pub(crate) fn bad_value(what: &str, value: &str) -> ProtocolError {
    ProtocolError::Value {
        what: what.to_string(),
        value: value.chars().take(80).collect(),
    }
}
