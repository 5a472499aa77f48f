//! The Connect Four wire protocol: one codec for the bot and the reference server.
//!
//! Every datagram is a `;`-separated text message without any line terminator (spec §1-§2).
//! [`ServerMsg`] and [`ClientMsg`] are the messages themselves: `parse` is tolerant of what the
//! original server really sends, `encode` writes exactly the bytes the original writes, and
//! `parse(encode(m)) == m`. The second half of this module holds the server's reading of a
//! reply (spec §3-§4): Java `String.split` semantics, token matching on the last field, the
//! `JOIN`/`INSERT` answer rules, Java `Integer.parseInt`, Java `trim` and UTF-16 name lengths.
//! Keeping both halves here means our bot and our server can never disagree about the wire.

use std::fmt;
use thiserror::Error;

/// The server's receive buffer: longer datagrams are cut to this many bytes (spec §1.2).
pub const MAX_DATAGRAM: usize = 1024;
/// Longest accepted name, in UTF-16 code units after trimming (spec §4.3).
pub const MAX_NAME_UTF16: usize = 30;
/// Length of a reply token: the first group of a random UUID (spec §2).
pub const TOKEN_LEN: usize = 8;
/// Queue length per registered player; further datagrams are dropped (spec §3.2).
pub const QUEUE_LEN: usize = 10;

/// Why a datagram is not a valid protocol message.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProtocolError {
    /// The datagram is empty.
    #[error("empty message")]
    Empty,
    /// The first field names no known message.
    #[error("unknown message {0:?}")]
    Unknown(String),
    /// A field that the message needs is missing.
    #[error("{message}: missing field {field}")]
    MissingField {
        /// The message kind.
        message: &'static str,
        /// The missing field.
        field: &'static str,
    },
    /// A column field is not a decimal 32-bit integer.
    #[error("bad column {0:?}")]
    BadColumn(String),
    /// A token is not 8 lowercase hexadecimal characters.
    #[error("bad token {0:?}")]
    BadToken(String),
}

/// A string from a client (a name, an answer, a datagram) made safe for one log line: Rust's
/// `escape_debug`, so a newline cannot start a forged line and NUL, U+202E (right-to-left
/// override) and every other control or invisible character appear as `\0`, `\u{202e}`, ...
/// Everything the server logs or prints that a client chose goes through this.
pub fn log_safe(s: &str) -> std::str::EscapeDebug<'_> {
    s.escape_debug()
}

/// Whether `s` has the form of a token: 8 lowercase hexadecimal characters.
pub fn is_token(s: &str) -> bool {
    s.len() == TOKEN_LEN
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A fresh random token: the first group of a version-4 UUID, as the original server makes it.
pub fn new_token() -> String {
    let uuid = uuid::Uuid::new_v4().simple().to_string();
    uuid[..TOKEN_LEN].to_string()
}

/// How a game ended, as carried by `RESULT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameResult {
    /// `RESULT;WIN;<winner>;<reason>` (the reason is `CONNECTED_LINE`).
    Win {
        /// The winner's name.
        winner: String,
        /// Free text, `CONNECTED_LINE` from our server and the original.
        reason: String,
    },
    /// `RESULT;LOSE;<loser>;<reason>`: a fault.
    Lose {
        /// The name of the player who made the fault.
        loser: String,
        /// What went wrong.
        reason: LoseReason,
    },
    /// `RESULT;DRAW;;`: the board is full without a line.
    Draw,
}

/// The reason text of `RESULT;LOSE` (spec §6). Unknown texts are kept verbatim in `Other`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoseReason {
    /// `COLUMN_IS_FULL`.
    ColumnIsFull,
    /// `ILLEGAL_COLUMN_ANNOUNCED`.
    IllegalColumn,
    /// `Timeout while waiting for response for UUID <token>`.
    Timeout(String),
    /// `Unexpected response <answer>`.
    UnexpectedResponse(String),
    /// `For input string: "<column>"` (Java's `NumberFormatException` text).
    NotANumber(String),
    /// Any other text.
    Other(String),
}

const TIMEOUT_PREFIX: &str = "Timeout while waiting for response for UUID ";
const UNEXPECTED_PREFIX: &str = "Unexpected response ";
const NAN_PREFIX: &str = "For input string: \"";

impl LoseReason {
    /// Reads a reason text; never fails (unknown texts become [`LoseReason::Other`]).
    pub fn parse(s: &str) -> Self {
        if s == "COLUMN_IS_FULL" {
            LoseReason::ColumnIsFull
        } else if s == "ILLEGAL_COLUMN_ANNOUNCED" {
            LoseReason::IllegalColumn
        } else if let Some(t) = s.strip_prefix(TIMEOUT_PREFIX) {
            LoseReason::Timeout(t.to_string())
        } else if let Some(a) = s.strip_prefix(UNEXPECTED_PREFIX) {
            LoseReason::UnexpectedResponse(a.to_string())
        } else if let Some(c) = s.strip_prefix(NAN_PREFIX).and_then(|r| r.strip_suffix('"')) {
            LoseReason::NotANumber(c.to_string())
        } else {
            LoseReason::Other(s.to_string())
        }
    }

    /// Whether the loser's stone was sent in `TOKEN INSERTED` before the result.
    pub fn has_token_inserted(&self) -> bool {
        matches!(self, LoseReason::ColumnIsFull | LoseReason::IllegalColumn)
    }
}

impl fmt::Display for LoseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoseReason::ColumnIsFull => f.write_str("COLUMN_IS_FULL"),
            LoseReason::IllegalColumn => f.write_str("ILLEGAL_COLUMN_ANNOUNCED"),
            LoseReason::Timeout(t) => write!(f, "{TIMEOUT_PREFIX}{t}"),
            LoseReason::UnexpectedResponse(a) => write!(f, "{UNEXPECTED_PREFIX}{a}"),
            LoseReason::NotANumber(c) => write!(f, "{NAN_PREFIX}{c}\""),
            LoseReason::Other(s) => f.write_str(s),
        }
    }
}

/// A message from the server to a bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerMsg {
    /// `WELCOME;<name>`: registered.
    Welcome(String),
    /// `NO_NAME_GIVEN`.
    NoNameGiven,
    /// `NAME_TOO_LONG`.
    NameTooLong,
    /// `NAME_ALREADY_TAKEN`.
    NameAlreadyTaken,
    /// `NEW SEASON;<token>`: answer `JOIN;<token>` to take part.
    NewSeason(String),
    /// `NEW GAME;<opponent>`.
    NewGame(String),
    /// `YOURTURN;<token>`: answer `INSERT;<column>;<token>`.
    YourTurn(String),
    /// `TOKEN INSERTED;<player>;<column>`: a stone (possibly an illegal one) was announced.
    TokenInserted {
        /// Who played it.
        player: String,
        /// The column as the server read it (may lie outside the board).
        column: i32,
    },
    /// `RESULT;...`: the game is over.
    Result(GameResult),
    /// `UNREGISTERED`: removed after too many timeouts; register again.
    Unregistered,
}

/// Parses a decimal column the way the original writes it (`Integer.toString`), tolerating `+`.
fn parse_column(s: &str) -> Result<i32, ProtocolError> {
    parse_java_int(s).ok_or_else(|| ProtocolError::BadColumn(s.to_string()))
}

impl ServerMsg {
    /// Reads one datagram sent by the server.
    pub fn parse(s: &str) -> Result<Self, ProtocolError> {
        let (head, rest) = match s.split_once(';') {
            Some((h, r)) => (h, Some(r)),
            None => (s, None),
        };
        let need = |message: &'static str, field: &'static str| {
            rest.ok_or(ProtocolError::MissingField { message, field })
        };
        Ok(match head {
            "" if rest.is_none() => return Err(ProtocolError::Empty),
            "WELCOME" => ServerMsg::Welcome(need("WELCOME", "name")?.to_string()),
            "NO_NAME_GIVEN" => ServerMsg::NoNameGiven,
            "NAME_TOO_LONG" => ServerMsg::NameTooLong,
            "NAME_ALREADY_TAKEN" => ServerMsg::NameAlreadyTaken,
            "UNREGISTERED" => ServerMsg::Unregistered,
            "NEW SEASON" => ServerMsg::NewSeason(need("NEW SEASON", "token")?.to_string()),
            "NEW GAME" => ServerMsg::NewGame(need("NEW GAME", "opponent")?.to_string()),
            "YOURTURN" => ServerMsg::YourTurn(need("YOURTURN", "token")?.to_string()),
            "TOKEN INSERTED" => {
                let rest = need("TOKEN INSERTED", "player")?;
                let (player, column) =
                    rest.rsplit_once(';').ok_or(ProtocolError::MissingField {
                        message: "TOKEN INSERTED",
                        field: "column",
                    })?;
                ServerMsg::TokenInserted {
                    player: player.to_string(),
                    column: parse_column(column)?,
                }
            }
            "RESULT" => {
                let rest = need("RESULT", "outcome")?;
                let mut parts = rest.splitn(3, ';');
                let kind = parts.next().unwrap_or("");
                let player = parts.next().unwrap_or("").to_string();
                let reason = parts.next().unwrap_or("");
                ServerMsg::Result(match kind {
                    "WIN" => GameResult::Win {
                        winner: player,
                        reason: reason.to_string(),
                    },
                    "LOSE" => GameResult::Lose {
                        loser: player,
                        reason: LoseReason::parse(reason),
                    },
                    "DRAW" => GameResult::Draw,
                    _ => return Err(ProtocolError::Unknown(format!("RESULT;{kind}"))),
                })
            }
            _ => return Err(ProtocolError::Unknown(head.to_string())),
        })
    }

    /// The exact datagram text.
    pub fn encode(&self) -> String {
        self.to_string()
    }

    /// The token this message asks to be echoed, if it is a request.
    pub fn token(&self) -> Option<&str> {
        match self {
            ServerMsg::NewSeason(t) | ServerMsg::YourTurn(t) => Some(t),
            _ => None,
        }
    }
}

impl fmt::Display for ServerMsg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerMsg::Welcome(n) => write!(f, "WELCOME;{n}"),
            ServerMsg::NoNameGiven => f.write_str("NO_NAME_GIVEN"),
            ServerMsg::NameTooLong => f.write_str("NAME_TOO_LONG"),
            ServerMsg::NameAlreadyTaken => f.write_str("NAME_ALREADY_TAKEN"),
            ServerMsg::NewSeason(t) => write!(f, "NEW SEASON;{t}"),
            ServerMsg::NewGame(o) => write!(f, "NEW GAME;{o}"),
            ServerMsg::YourTurn(t) => write!(f, "YOURTURN;{t}"),
            ServerMsg::TokenInserted { player, column } => {
                write!(f, "TOKEN INSERTED;{player};{column}")
            }
            ServerMsg::Result(GameResult::Win { winner, reason }) => {
                write!(f, "RESULT;WIN;{winner};{reason}")
            }
            ServerMsg::Result(GameResult::Lose { loser, reason }) => {
                write!(f, "RESULT;LOSE;{loser};{reason}")
            }
            ServerMsg::Result(GameResult::Draw) => f.write_str("RESULT;DRAW;;"),
            ServerMsg::Unregistered => f.write_str("UNREGISTERED"),
        }
    }
}

/// A message from a bot to the server, as our bot writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientMsg {
    /// `REGISTER;<name>`.
    Register(String),
    /// `JOIN;<token>`.
    Join(String),
    /// `INSERT;<column>;<token>`.
    Insert {
        /// 0-based column.
        column: i32,
        /// The token of the `YOURTURN` being answered.
        token: String,
    },
}

impl ClientMsg {
    /// Reads a bot's datagram strictly: known command, well-formed token, integer column.
    ///
    /// This is the form a correct bot sends. The server does *not* use it to read replies; it
    /// uses the looser original rules ([`match_reply`], [`read_insert`]).
    pub fn parse(s: &str) -> Result<Self, ProtocolError> {
        let mut fields = s.split(';');
        let head = fields.next().unwrap_or("");
        let token = |t: Option<&str>| -> Result<String, ProtocolError> {
            let t = t.ok_or(ProtocolError::MissingField {
                message: "reply",
                field: "token",
            })?;
            if is_token(t) {
                Ok(t.to_string())
            } else {
                Err(ProtocolError::BadToken(t.to_string()))
            }
        };
        let msg = match head {
            "" if s.is_empty() => return Err(ProtocolError::Empty),
            "REGISTER" => match s.split_once(';') {
                Some((_, name)) => return Ok(ClientMsg::Register(name.to_string())),
                None => {
                    return Err(ProtocolError::MissingField {
                        message: "REGISTER",
                        field: "name",
                    })
                }
            },
            "JOIN" => ClientMsg::Join(token(fields.next())?),
            "INSERT" => {
                let c = fields.next().ok_or(ProtocolError::MissingField {
                    message: "INSERT",
                    field: "column",
                })?;
                let column = parse_column(c)?;
                ClientMsg::Insert {
                    column,
                    token: token(fields.next())?,
                }
            }
            _ => return Err(ProtocolError::Unknown(head.to_string())),
        };
        match fields.next() {
            None => Ok(msg),
            Some(extra) => Err(ProtocolError::Unknown(format!(
                "{head} with extra field {extra:?}"
            ))),
        }
    }

    /// The exact datagram text.
    pub fn encode(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for ClientMsg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientMsg::Register(n) => write!(f, "REGISTER;{n}"),
            ClientMsg::Join(t) => write!(f, "JOIN;{t}"),
            ClientMsg::Insert { column, token } => write!(f, "INSERT;{column};{token}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The server's reading of bot datagrams (original semantics).

/// Turns received bytes into text as the original does: cut at [`MAX_DATAGRAM`] bytes, invalid
/// UTF-8 replaced by U+FFFD.
pub fn decode_datagram(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(MAX_DATAGRAM)]).into_owned()
}

/// Java's `s.split(";")`: split on every `;`, then drop trailing empty fields.
///
/// As in Java, a text without `;` gives itself (so `""` gives `[""]`), and a text of nothing but
/// separators gives no fields at all.
pub fn java_split(s: &str) -> Vec<&str> {
    if !s.contains(';') {
        return vec![s];
    }
    let mut fields: Vec<&str> = s.split(';').collect();
    while fields.last().is_some_and(|f| f.is_empty()) {
        fields.pop();
    }
    fields
}

/// Java's `String.trim()`: removes leading and trailing characters up to U+0020.
pub fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// Length in UTF-16 code units, Java's `String.length()`.
pub fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// Java's `Integer.parseInt(s)`: optional `+`/`-`, then decimal digits, within `i32`.
///
/// (Java also accepts non-ASCII Unicode decimal digits; we accept ASCII digits only.)
pub fn parse_java_int(s: &str) -> Option<i32> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i32>().ok()
}

/// The answer in a datagram, if its last `;`-field (Java split) is exactly `token`:
/// the datagram without that last field, the remaining fields joined by `;` (spec §3.3, §3.6).
pub fn match_reply(datagram: &str, token: &str) -> Option<String> {
    let fields = java_split(datagram);
    match fields.split_last() {
        Some((last, rest)) if *last == token => Some(rest.join(";")),
        _ => None,
    }
}

/// Whether an answer to `NEW SEASON` means taking part: it must be exactly `JOIN`.
pub fn is_join(answer: &str) -> bool {
    answer == "JOIN"
}

/// The column of an answer to `YOURTURN`, or the reason the mover loses (spec §3.6, §6).
pub fn read_insert(answer: &str) -> Result<i32, LoseReason> {
    // The answer is the reply's fields joined by `;`, so a plain split recovers them.
    let fields: Vec<&str> = answer.split(';').collect();
    if !answer.starts_with("INSERT;") || fields.len() < 2 {
        return Err(LoseReason::UnexpectedResponse(answer.to_string()));
    }
    parse_java_int(fields[1]).ok_or_else(|| LoseReason::NotANumber(fields[1].to_string()))
}

/// What the server makes of a `REGISTER;` datagram (spec §4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Registration {
    /// A name to register (trimmed, at most [`MAX_NAME_UTF16`] UTF-16 units, maybe empty).
    Name(String),
    /// Refused; the reply to send.
    Refused(ServerMsg),
}

/// Reads a registration request; `None` if the datagram does not start with `REGISTER;`.
pub fn read_register(datagram: &str) -> Option<Registration> {
    if !datagram.starts_with("REGISTER;") {
        return None;
    }
    let fields = java_split(datagram);
    let Some(raw) = fields.get(1) else {
        return Some(Registration::Refused(ServerMsg::NoNameGiven));
    };
    let name = java_trim(raw);
    if utf16_len(name) > MAX_NAME_UTF16 {
        return Some(Registration::Refused(ServerMsg::NameTooLong));
    }
    Some(Registration::Name(name.to_string()))
}

/// Why a name cannot be used by our bot (checked before registering).
pub fn check_bot_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("the name is empty".into());
    }
    if java_trim(name) != name {
        return Err("the name starts or ends with whitespace (the server would trim it)".into());
    }
    if name.contains(';') || name.contains(',') {
        return Err("the name must not contain ';' or ','".into());
    }
    if utf16_len(name) > MAX_NAME_UTF16 {
        return Err(format!(
            "the name is longer than {MAX_NAME_UTF16} UTF-16 code units"
        ));
    }
    Ok(())
}
