//! The ONE codec of the Mau-Mau JSON-lines protocol, shared by `maumau-bot` and `maumau-server`.
//!
//! Writing is strict: every server message is formatted byte for byte as the real contest server
//! writes it (key order, compact JSON, lowercase `true`/`false`; see `specs/maumau.md` §2-§5).
//! Reading is tolerant: key order, spacing, `topCard`/`topcard`, Python-style `True`/`False`/`None`
//! and unknown extra keys are all accepted. The server side reads a bot's answer exactly the way the
//! real server does (§4 "How the server reads an answer"), quirks included.
//!
//! Names are escaped as serde_json does (quotes, backslashes, control characters). The recorded
//! games only use plain ASCII names, so how the real server (Java) escapes other characters is
//! unknown; plain names are byte-identical.

use serde_json::{Map, Value};
use std::fmt::Write as _;

/// Longest line either side accepts (bytes, without the newline). Longer lines are bad lines.
pub const MAX_LINE: usize = 16 * 1024;

/// Why a line could not be read as a protocol message.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProtocolError {
    /// The line is not valid UTF-8.
    #[error("line is not valid UTF-8")]
    Utf8,
    /// The line is not a JSON object.
    #[error("line is not a JSON object: {0}")]
    NotJson(String),
    /// The line is JSON, but not an object (e.g. `[1,2]`).
    #[error("line is JSON but not an object")]
    NotJsonObject,
    /// The object is JSON but matches no known message.
    #[error("unknown message: {0}")]
    Unknown(String),
    /// A known message with a missing or mistyped field.
    #[error("message {kind} lacks a valid `{field}`")]
    Field {
        /// Which message was recognised.
        kind: &'static str,
        /// The offending key.
        field: &'static str,
    },
}

/// The broadcast that opens every turn (key `topCard`, capital C).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broadcast {
    /// Top card of the pile (0-31).
    pub top: i32,
    /// Hand size of the mover before any draw for a 7.
    pub cards_left: i32,
    /// Name of the mover.
    pub turn_of: String,
    /// True if the mover loses this turn to an 8 (then it must stay silent).
    pub skipped: bool,
}

/// The private request to the mover (key `topcard`, lowercase c).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Top card of the pile.
    pub top: i32,
    /// `Some(true)` if a 7 made the mover draw two, `Some(false)` if not, `None` when the key is
    /// absent: the two cards could not be drawn (talon exhausted) and the game ends after this turn.
    pub draw_two: Option<bool>,
    /// Mover's hand size, including any cards drawn for a 7.
    pub cards_left: i32,
    /// Wish in force (0-3) or -1.
    pub wished: i32,
    /// The cards drawn for a 7, if any.
    pub drawn: Option<Vec<i32>>,
    /// The complete hand: only in the mover's first request (already contains `drawn`).
    pub hand: Option<Vec<i32>>,
}

/// Everything the server sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerMsg {
    /// `{"sendName":true,...}`: asks for the bot's name.
    SendName,
    /// `{"setName":...}`: the name the server uses; `None` is the real server's `null` bug.
    SetName {
        /// False if the name line was rejected.
        ok: bool,
        /// The name assigned.
        name: Option<String>,
    },
    /// `{"gameStart":true,...}`.
    GameStart,
    /// Turn broadcast.
    Broadcast(Broadcast),
    /// Private request to the mover.
    Request(Request),
    /// Reply to a draw (`ok`) or to a bad answer (`!ok`, penalty); card -1 if none could be drawn.
    Drawn {
        /// Card drawn, or -1.
        card: i32,
        /// `status` was `okay` (a draw) rather than `error` (a penalty).
        ok: bool,
    },
    /// `{"won":true,"nameOfWinner":...}`: game over.
    Won {
        /// Name of the winner.
        winner: String,
    },
}

fn json_str(out: &mut String, s: &str) {
    // serde_json escaping: quotes, backslash and control characters; everything else verbatim.
    out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()));
}

/// Writes `s` as a JSON string the way the real server's Java JSON writer does (spec §3):
/// `"` `\` and `/` escaped with a backslash, `\b \f \n \r \t` short, every other control
/// character (U+0000–U+001F, U+007F–U+009F) and U+2000–U+20FF as `\uXXXX` with upper-case hex;
/// all other characters verbatim (raw UTF-8).
pub fn java_json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' => out.push_str("\\/"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2000}'..='\u{20ff}' => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_list(out: &mut String, cards: &[i32]) {
    out.push('[');
    for (i, c) in cards.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{c}");
    }
    out.push(']');
}

impl ServerMsg {
    /// The exact line the real server writes for this message, newline included.
    pub fn encode(&self) -> String {
        let mut o = String::with_capacity(128);
        match self {
            ServerMsg::SendName => o.push_str(r#"{"sendName":true,"status":"okay"}"#),
            ServerMsg::SetName { ok, name } => {
                let _ = write!(o, r#"{{"setName":{ok},"name":"#);
                match name {
                    Some(n) => java_json_str(&mut o, n),
                    None => o.push_str("null"),
                }
                o.push_str(if *ok {
                    r#","status":"okay"}"#
                } else {
                    r#","status":"error"}"#
                });
            }
            ServerMsg::GameStart => o.push_str(r#"{"gameStart":true,"status":"okay"}"#),
            ServerMsg::Broadcast(b) => {
                let _ = write!(
                    o,
                    r#"{{"topCard":{},"cardsLeft":{},"turnOf":"#,
                    b.top, b.cards_left
                );
                java_json_str(&mut o, &b.turn_of);
                let _ = write!(o, r#","status":"okay","skipped":{}}}"#, b.skipped);
            }
            ServerMsg::Request(r) => {
                let _ = write!(o, r#"{{"topcard":{}"#, r.top);
                if let Some(d) = r.draw_two {
                    let _ = write!(o, r#","drawTwoCards":{d}"#);
                }
                let _ = write!(
                    o,
                    r#","cardsLeft":{},"wishedColor":{}"#,
                    r.cards_left, r.wished
                );
                if let Some(d) = &r.drawn {
                    o.push_str(r#","drawedCards":"#);
                    json_list(&mut o, d);
                }
                o.push_str(r#","status":"okay","skipped":false"#);
                if let Some(h) = &r.hand {
                    o.push_str(r#","hand":"#);
                    json_list(&mut o, h);
                }
                o.push('}');
            }
            ServerMsg::Drawn { card, ok } => {
                let status = if *ok { "okay" } else { "error" };
                let _ = write!(o, r#"{{"drawedCards":{card},"status":"{status}"}}"#);
            }
            ServerMsg::Won { winner } => {
                o.push_str(r#"{"won":true,"nameOfWinner":"#);
                java_json_str(&mut o, winner);
                o.push_str(r#","status":"okay"}"#);
            }
        }
        o.push('\n');
        o
    }

    /// Reads one server line (with or without its newline), tolerantly.
    pub fn decode(line: &[u8]) -> Result<ServerMsg, ProtocolError> {
        let obj = parse_object(line)?;
        let has = |k: &str| obj.contains_key(k);
        let int = |k: &'static str, kind: &'static str| {
            get_int(&obj, k).ok_or(ProtocolError::Field { kind, field: k })
        };
        if has("sendName") {
            return Ok(ServerMsg::SendName);
        }
        if has("setName") {
            let ok = obj.get("setName").and_then(Value::as_bool).unwrap_or(false);
            let name = obj.get("name").and_then(Value::as_str).map(str::to_owned);
            return Ok(ServerMsg::SetName { ok, name });
        }
        if has("gameStart") {
            return Ok(ServerMsg::GameStart);
        }
        if has("won") || has("nameOfWinner") {
            let winner =
                obj.get("nameOfWinner")
                    .and_then(Value::as_str)
                    .ok_or(ProtocolError::Field {
                        kind: "won",
                        field: "nameOfWinner",
                    })?;
            return Ok(ServerMsg::Won {
                winner: winner.to_owned(),
            });
        }
        if has("turnOf") {
            let top = get_int(&obj, "topCard")
                .or_else(|| get_int(&obj, "topcard"))
                .ok_or(ProtocolError::Field {
                    kind: "broadcast",
                    field: "topCard",
                })?;
            let turn_of = obj
                .get("turnOf")
                .and_then(Value::as_str)
                .ok_or(ProtocolError::Field {
                    kind: "broadcast",
                    field: "turnOf",
                })?
                .to_owned();
            return Ok(ServerMsg::Broadcast(Broadcast {
                top,
                cards_left: get_int(&obj, "cardsLeft").unwrap_or(-1),
                turn_of,
                skipped: obj.get("skipped").and_then(Value::as_bool).unwrap_or(false),
            }));
        }
        if has("topcard") || has("topCard") {
            let top = get_int(&obj, "topcard")
                .or_else(|| get_int(&obj, "topCard"))
                .ok_or(ProtocolError::Field {
                    kind: "request",
                    field: "topcard",
                })?;
            return Ok(ServerMsg::Request(Request {
                top,
                draw_two: obj.get("drawTwoCards").and_then(Value::as_bool),
                cards_left: get_int(&obj, "cardsLeft").unwrap_or(-1),
                wished: get_int(&obj, "wishedColor").unwrap_or(-1),
                drawn: get_list(&obj, "drawedCards"),
                hand: get_list(&obj, "hand"),
            }));
        }
        if has("drawedCards") {
            let card = int("drawedCards", "drawn")?;
            let ok = obj.get("status").and_then(Value::as_str) != Some("error");
            return Ok(ServerMsg::Drawn { card, ok });
        }
        Err(ProtocolError::Unknown(truncate(line)))
    }
}

/// Everything a bot sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotMsg {
    /// The handshake answer.
    Name(String),
    /// Play a card; `wish` is always written (an integer), read by the server only for a Jack.
    Play {
        /// Card to play (0-31).
        card: i32,
        /// Wished suit 0-3 (or -1 for a non-Jack).
        wish: i32,
    },
    /// Draw one card.
    Draw,
}

impl BotMsg {
    /// The line our bot writes, newline included.
    pub fn encode(&self) -> String {
        let mut o = String::with_capacity(80);
        match self {
            BotMsg::Name(n) => {
                o.push_str(r#"{"status":"okay","name":"#);
                json_str(&mut o, n);
                o.push('}');
            }
            BotMsg::Play { card, wish } => {
                let _ = write!(
                    o,
                    r#"{{"status":"turn","selectedCard":{card},"wishedColor":{wish},"skipped":false}}"#
                );
            }
            BotMsg::Draw => o.push_str(
                r#"{"status":"skip","selectedCard":-1,"wishedColor":-1,"skipped":false}"#,
            ),
        }
        o.push('\n');
        o
    }
}

/// How the (real and our) server reads a bot's name line (§3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameLine {
    /// `{"status":"okay","name":"<string>"}`.
    Ok(String),
    /// Not JSON (or not UTF-8): the real server answers `setName:false`.
    NotJson,
    /// JSON, but `status` is not `"okay"` or `name` is missing: the real server answers
    /// `"name":null` and then crashes; ours treats it like [`NameLine::NotJson`] (§10.1).
    Bad,
    /// A JSON object without a `status` key: the real server sends nothing, closes the
    /// connection and keeps the seat free; so does ours (§3).
    NoStatus,
    /// JSON whose `name` is not a string, or JSON that is not an object: the real server crashes
    /// at once; ours treats it like [`NameLine::NotJson`] and logs a warning (§10.1).
    Crash,
}

/// Reads a name line the way the server does.
pub fn read_name_line(line: &[u8]) -> NameLine {
    let obj = match parse_object(line) {
        Ok(obj) => obj,
        Err(ProtocolError::NotJsonObject) => return NameLine::Crash,
        Err(_) => return NameLine::NotJson,
    };
    let Some(status) = obj.get("status") else {
        return NameLine::NoStatus;
    };
    match (status.as_str(), obj.get("name")) {
        (Some("okay"), Some(Value::String(n))) => NameLine::Ok(n.clone()),
        (Some("okay"), Some(Value::Null) | None) | (_, None) => NameLine::Bad,
        (Some("okay"), Some(_)) => NameLine::Crash,
        _ => NameLine::Bad,
    }
}

/// A bot's answer to a private request, as the real server reads it (§4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// `status` is exactly `"skip"`: draw one card.
    Draw,
    /// Any other string status: a play attempt.
    Play {
        /// `selectedCard`, with integers outside 0-31 already replaced by 1 (Karo 7).
        card: u8,
        /// `wishedColor` if it is an integer, mapped to 0-3 (anything else becomes Pik, 0);
        /// `None` if the key is missing or not an integer.
        wish: Option<u8>,
    },
    /// Not JSON, `status` missing or not a string, or `selectedCard` missing or not an integer:
    /// one penalty card.
    Bad,
}

/// Reads a bot's answer line the way the real server does.
pub fn read_answer(line: &[u8]) -> Answer {
    let Ok(obj) = parse_object(line) else {
        return Answer::Bad;
    };
    match obj.get("status") {
        Some(Value::String(s)) if s == "skip" => return Answer::Draw,
        Some(Value::String(_)) => {}
        _ => return Answer::Bad,
    }
    let card = match obj.get("selectedCard") {
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => match n.as_i64() {
            Some(c @ 0..=31) => c as u8,
            _ => 1,
        },
        _ => return Answer::Bad,
    };
    let wish = match obj.get("wishedColor") {
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => match n.as_i64() {
            Some(w @ 0..=3) => Some(w as u8),
            _ => Some(0),
        },
        _ => None,
    };
    Answer::Play { card, wish }
}

/// Parses a line as a JSON object: strict JSON first, then with Python literals (`True`, `False`,
/// `None`, as in the contest README) translated.
fn parse_object(line: &[u8]) -> Result<Map<String, Value>, ProtocolError> {
    let text = std::str::from_utf8(line).map_err(|_| ProtocolError::Utf8)?;
    let text = text.trim_end_matches(['\n', '\r']);
    let parsed = serde_json::from_str::<Value>(text)
        .or_else(|e| serde_json::from_str::<Value>(&pythonic_to_json(text)).map_err(|_| e));
    match parsed {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(ProtocolError::NotJsonObject),
        Err(e) => Err(ProtocolError::NotJson(format!("{e}: {}", truncate(line)))),
    }
}

/// Replaces the bare words `True`, `False`, `None` outside strings by their JSON spellings.
fn pythonic_to_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_str, mut escaped) = (false, false);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_str {
            in_str = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if c == '"' {
            in_str = true;
        } else {
            let word = [("True", "true"), ("False", "false"), ("None", "null")]
                .into_iter()
                .find(|(py, _)| rest.starts_with(py));
            if let Some((py, js)) = word {
                out.push_str(js);
                rest = &rest[py.len()..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn get_int(obj: &Map<String, Value>, key: &str) -> Option<i32> {
    obj.get(key)?.as_i64().and_then(|v| i32::try_from(v).ok())
}

fn get_list(obj: &Map<String, Value>, key: &str) -> Option<Vec<i32>> {
    match obj.get(key)? {
        Value::Array(a) => a
            .iter()
            .map(|v| v.as_i64().and_then(|v| i32::try_from(v).ok()))
            .collect(),
        v => v.as_i64().map(|c| vec![c as i32]),
    }
}

/// A short, printable excerpt of a line for error messages and logs.
pub fn truncate(line: &[u8]) -> String {
    let s = String::from_utf8_lossy(&line[..line.len().min(120)]).into_owned();
    if line.len() > 120 {
        format!("{s}…")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_read_like_the_real_server() {
        assert_eq!(read_answer(br#"{"status":"skip"}"#), Answer::Draw);
        assert_eq!(
            read_answer(br#"{"status":"play","selectedCard":40,"wishedColor":-1}"#),
            Answer::Play {
                card: 1,
                wish: Some(0)
            }
        );
        assert_eq!(
            read_answer(br#"{"selectedCard":16,"status":"turn"}"#),
            Answer::Play {
                card: 16,
                wish: None
            }
        );
        assert_eq!(
            read_answer(br#"{"status":"turn","selectedCard":"3"}"#),
            Answer::Bad
        );
        assert_eq!(
            read_answer(br#"{"status":1,"selectedCard":3}"#),
            Answer::Bad
        );
        assert_eq!(read_answer(b"\xff\xfe"), Answer::Bad);
        assert_eq!(read_answer(b"[1,2]"), Answer::Bad);
    }

    #[test]
    fn failed_draw_two_request_has_no_draw_two_key() {
        // Not observed live (§4.2): the real server's key order minus `drawTwoCards`.
        let r = ServerMsg::Request(Request {
            top: 3,
            draw_two: None,
            cards_left: 9,
            wished: -1,
            drawn: None,
            hand: None,
        });
        let line = r.encode();
        assert_eq!(
            line,
            "{\"topcard\":3,\"cardsLeft\":9,\"wishedColor\":-1,\"status\":\"okay\",\"skipped\":false}\n"
        );
        assert_eq!(ServerMsg::decode(line.as_bytes()).unwrap(), r);
    }

    #[test]
    fn python_literals_are_tolerated() {
        let m = ServerMsg::decode(br#"{ "status" : "okay", "sendName" : True }"#).unwrap();
        assert_eq!(m, ServerMsg::SendName);
        assert_eq!(
            pythonic_to_json(r#"{"a":"True","b":False}"#),
            r#"{"a":"True","b":false}"#
        );
    }

    #[test]
    fn names_are_escaped_and_round_trip() {
        let m = ServerMsg::Won {
            winner: "a\"b\\c".into(),
        };
        assert_eq!(ServerMsg::decode(m.encode().as_bytes()).unwrap(), m);
        assert_eq!(
            read_name_line(BotMsg::Name("x\ny".into()).encode().as_bytes()),
            NameLine::Ok("x\ny".into())
        );
        assert_eq!(
            read_name_line(br#"{"status":"x","name":"A"}"#),
            NameLine::Bad
        );
        assert_eq!(read_name_line(b"Alpha"), NameLine::NotJson);
    }

    #[test]
    fn server_strings_are_escaped_like_java() {
        let won = ServerMsg::Won {
            winner: "a/b\"\\\n\u{1}\u{7f}\u{85}\u{2000}\u{20ac}\u{20ff}\u{2100}üé".into(),
        };
        assert_eq!(
            won.encode(),
            "{\"won\":true,\"nameOfWinner\":\"a\\/b\\\"\\\\\\n\\u0001\\u007F\\u0085\\u2000\\u20AC\\u20FF\u{2100}üé\",\"status\":\"okay\"}\n"
        );
    }

    #[test]
    fn handshake_cases_of_section_3() {
        assert_eq!(read_name_line(br#"{"name":"x"}"#), NameLine::NoStatus);
        assert_eq!(
            read_name_line(br#"{"status":"okay","name":5}"#),
            NameLine::Crash
        );
        assert_eq!(read_name_line(b"[1,2]"), NameLine::Crash);
        assert_eq!(read_name_line(br#"{"status":"okay"}"#), NameLine::Bad);
        assert_eq!(
            read_name_line(br#"{"status":"no","name":"x"}"#),
            NameLine::Bad
        );
    }
}
