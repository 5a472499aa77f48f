//! Typed messages of both directions, their XML form, and memento ⇄ engine state.

use super::dom::Element;
use super::memento::{memento_element, parse_memento, Memento};
use super::result::{parse_result, result_element, ResultMsg};
use super::{bad_value, ProtocolError, GAME_TYPE};
use kibitz_piranhas::{Color, Direction, Move};

/// `class` of the MoveRequest data element.
pub const MOVE_REQUEST_CLASS: &str = "sc.framework.plugins.protocol.MoveRequest";

/// A reserved seat of a prepared game.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    /// The player's display name.
    pub display_name: String,
    /// Whether the time limits apply to this player.
    pub can_timeout: bool,
    /// Whether the game waits for an admin `pause="false"` before starting.
    pub should_be_paused: bool,
}

/// A move with the debug hints a client may attach (echoed in the next `lastMove`).
#[derive(Debug, Clone, PartialEq)]
pub struct MoveMsg {
    /// The move.
    pub mv: Move,
    /// `<hint content>` texts, in order.
    pub hints: Vec<String>,
}

/// Client → server messages.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientMessage {
    /// `<join gameType/>`: join any open game.
    Join {
        /// Requested game type.
        game_type: String,
    },
    /// `<joinPrepared reservationCode/>`.
    JoinPrepared {
        /// The reservation code.
        code: String,
    },
    /// `<room roomId><data class="move" .../></room>`.
    Move {
        /// Room id.
        room: String,
        /// The move and its hints.
        mv: MoveMsg,
    },
    /// Admin login.
    Authenticate {
        /// Admin password.
        passphrase: String,
    },
    /// Admin: reserve a game.
    Prepare {
        /// Requested game type.
        game_type: String,
        /// The seats, RED first.
        slots: Vec<Slot>,
    },
    /// Admin: watch a room.
    Observe {
        /// Room id.
        room: String,
    },
    /// Admin: pause or resume a room.
    Pause {
        /// Room id.
        room: String,
        /// New paused state.
        pause: bool,
    },
    /// Anything else (ignored by the server); holds the element name or data class.
    Unknown(String),
}

/// Server → client messages.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerMessage {
    /// `<joined roomId/>`.
    Joined {
        /// Room id.
        room: String,
    },
    /// Admin notice `<joinedGameRoom roomId existing/>`.
    JoinedGameRoom {
        /// Room id.
        room: String,
        /// Whether the room existed before the join.
        existing: bool,
    },
    /// Admin: `<prepared roomId><reservation>…</reservation>…</prepared>`.
    Prepared {
        /// Room id.
        room: String,
        /// Reservation codes, RED first.
        codes: Vec<String>,
    },
    /// Admin: `<observed roomId/>`.
    Observed {
        /// Room id.
        room: String,
    },
    /// The player's colour.
    Welcome {
        /// Room id.
        room: String,
        /// This player's colour.
        color: Color,
    },
    /// The game state.
    Memento {
        /// Room id.
        room: String,
        /// The state (boxed: it is the big one).
        state: Box<Memento>,
    },
    /// Your move, please.
    MoveRequest {
        /// Room id.
        room: String,
    },
    /// Game over.
    Result {
        /// Room id.
        room: String,
        /// Scores and winner.
        result: ResultMsg,
    },
    /// `<data class="error" message/>` (sent to a rule violator) or a top-level error.
    Error {
        /// Room id, when inside a room.
        room: Option<String>,
        /// The message text.
        message: String,
        /// The request that caused it, echoed as an `<originalRequest class="move" x y
        /// direction/>` child (19.2.1 does so for a move out of turn, spec §9 R8).
        original: Option<MoveMsg>,
    },
    /// `<left roomId/>`: the player's game is over.
    Left {
        /// Room id.
        room: String,
    },
    /// `<sc.protocol.responses.CloseConnection/>`.
    CloseConnection,
    /// Anything else (ignored); holds the element name or data class.
    Unknown(String),
}

const CLOSE_CONNECTION: &str = "sc.protocol.responses.CloseConnection";

pub(super) fn parse_int<T: std::str::FromStr>(
    el: &Element,
    name: &str,
) -> Result<T, ProtocolError> {
    let v = el.req(name)?;
    v.trim().parse().map_err(|_| bad_value(name, v))
}

fn parse_bool(el: &Element, name: &str, default: bool) -> Result<bool, ProtocolError> {
    match el.get(name) {
        None => Ok(default),
        Some(v) if v.eq_ignore_ascii_case("true") => Ok(true),
        Some(v) if v.eq_ignore_ascii_case("false") => Ok(false),
        Some(v) => Err(bad_value(name, v)),
    }
}

pub(super) fn parse_color(el: &Element, name: &str) -> Result<Color, ProtocolError> {
    let v = el.req(name)?;
    v.parse().map_err(|_| bad_value(name, v))
}

/// Reads a move element (`data class="move"` or `lastMove`) with its hints.
pub(super) fn parse_move(el: &Element) -> Result<MoveMsg, ProtocolError> {
    // Coordinates far off the board are kept off the board (the rules reject them).
    let x: i64 = parse_int(el, "x")?;
    let y: i64 = parse_int(el, "y")?;
    let d = el.req("direction")?;
    let direction: Direction = d.parse().map_err(|_| bad_value("direction", d))?;
    let clamp = |v: i64| v.clamp(-100, 100) as i8;
    let hints = el
        .find_all("hint")
        .filter_map(|h| h.get("content").map(str::to_string))
        .collect();
    Ok(MoveMsg {
        mv: Move::new(clamp(x), clamp(y), direction),
        hints,
    })
}

pub(super) fn move_element(name: &str, m: &MoveMsg) -> Element {
    let mut el = Element::new(name)
        .attr("class", "move")
        .attr("x", m.mv.x.to_string())
        .attr("y", m.mv.y.to_string())
        .attr("direction", m.mv.direction.name());
    for h in &m.hints {
        el = el.child(Element::new("hint").attr("content", h.clone()));
    }
    el
}

/// The move echoed in an error's `<originalRequest class="move">`, if it holds a readable one
/// (anything else there is ignored: the error text is what matters).
fn original_request(el: &Element) -> Option<MoveMsg> {
    let req = el.find("originalRequest")?;
    (req.get("class") == Some("move"))
        .then(|| parse_move(req).ok())
        .flatten()
}

fn room_of(el: &Element) -> Result<String, ProtocolError> {
    Ok(el.req("roomId")?.to_string())
}

impl ClientMessage {
    /// Decodes one top-level element sent by a client.
    pub fn from_element(el: &Element) -> Result<Self, ProtocolError> {
        Ok(match el.name.as_str() {
            "join" => ClientMessage::Join {
                game_type: el.get("gameType").unwrap_or(GAME_TYPE).to_string(),
            },
            "joinPrepared" => ClientMessage::JoinPrepared {
                code: el.req("reservationCode")?.to_string(),
            },
            "authenticate" => ClientMessage::Authenticate {
                passphrase: el.req("passphrase")?.to_string(),
            },
            "prepare" => ClientMessage::Prepare {
                game_type: el.get("gameType").unwrap_or(GAME_TYPE).to_string(),
                slots: el
                    .find_all("slot")
                    .map(|s| {
                        Ok(Slot {
                            display_name: s.get("displayName").unwrap_or("Unknown").to_string(),
                            can_timeout: parse_bool(s, "canTimeout", true)?,
                            should_be_paused: parse_bool(s, "shouldBePaused", false)?,
                        })
                    })
                    .collect::<Result<_, ProtocolError>>()?,
            },
            "observe" => ClientMessage::Observe { room: room_of(el)? },
            "pause" => ClientMessage::Pause {
                room: room_of(el)?,
                pause: parse_bool(el, "pause", true)?,
            },
            "room" => {
                let room = room_of(el)?;
                let data = el.find("data").ok_or_else(|| ProtocolError::Missing {
                    element: "room".into(),
                    what: "data".into(),
                })?;
                match data.get("class") {
                    Some("move") => ClientMessage::Move {
                        room,
                        mv: parse_move(data)?,
                    },
                    other => ClientMessage::Unknown(other.unwrap_or("data").to_string()),
                }
            }
            other => ClientMessage::Unknown(other.to_string()),
        })
    }

    /// Parses one framed message text.
    pub fn parse(xml: &str) -> Result<Self, ProtocolError> {
        Self::from_element(&Element::parse(xml)?)
    }

    /// The compact bytes an official client would send (no newline).
    pub fn to_xml(&self) -> String {
        let el = match self {
            ClientMessage::Join { game_type } => Element::new("join").attr("gameType", game_type),
            ClientMessage::JoinPrepared { code } => {
                Element::new("joinPrepared").attr("reservationCode", code)
            }
            ClientMessage::Move { room, mv } => Element::new("room")
                .attr("roomId", room)
                .child(move_element("data", mv)),
            ClientMessage::Authenticate { passphrase } => {
                Element::new("authenticate").attr("passphrase", passphrase)
            }
            ClientMessage::Prepare { game_type, slots } => {
                let mut el = Element::new("prepare").attr("gameType", game_type);
                for s in slots {
                    el = el.child(
                        Element::new("slot")
                            .attr("displayName", &s.display_name)
                            .attr("canTimeout", s.can_timeout.to_string())
                            .attr("shouldBePaused", s.should_be_paused.to_string()),
                    );
                }
                el
            }
            ClientMessage::Observe { room } => Element::new("observe").attr("roomId", room),
            ClientMessage::Pause { room, pause } => Element::new("pause")
                .attr("roomId", room)
                .attr("pause", pause.to_string()),
            ClientMessage::Unknown(name) => Element::new(name),
        };
        let mut out = String::new();
        el.write_compact(&mut out);
        out
    }
}

impl ServerMessage {
    /// Decodes one top-level element sent by a server.
    pub fn from_element(el: &Element) -> Result<Self, ProtocolError> {
        Ok(match el.name.as_str() {
            "joined" => ServerMessage::Joined { room: room_of(el)? },
            "joinedGameRoom" => ServerMessage::JoinedGameRoom {
                room: room_of(el)?,
                existing: parse_bool(el, "existing", false)?,
            },
            "prepared" => ServerMessage::Prepared {
                room: room_of(el)?,
                codes: el
                    .find_all("reservation")
                    .map(|r| r.text.trim().to_string())
                    .collect(),
            },
            "observed" => ServerMessage::Observed { room: room_of(el)? },
            "left" => ServerMessage::Left { room: room_of(el)? },
            "error" => ServerMessage::Error {
                room: None,
                message: el.get("message").unwrap_or_default().to_string(),
                original: original_request(el),
            },
            CLOSE_CONNECTION => ServerMessage::CloseConnection,
            "room" => {
                let room = room_of(el)?;
                let Some(data) = el.find("data") else {
                    return Ok(ServerMessage::Unknown("room".into()));
                };
                match data.get("class").unwrap_or_default() {
                    "welcomeMessage" => ServerMessage::Welcome {
                        room,
                        color: parse_color(data, "color")?,
                    },
                    "memento" => ServerMessage::Memento {
                        room,
                        state: Box::new(parse_memento(data)?),
                    },
                    MOVE_REQUEST_CLASS => ServerMessage::MoveRequest { room },
                    "result" => ServerMessage::Result {
                        room,
                        result: parse_result(data)?,
                    },
                    "error" => ServerMessage::Error {
                        room: Some(room),
                        message: data.get("message").unwrap_or_default().to_string(),
                        original: original_request(data),
                    },
                    other => ServerMessage::Unknown(other.to_string()),
                }
            }
            other => ServerMessage::Unknown(other.to_string()),
        })
    }

    /// Parses one framed message text.
    pub fn parse(xml: &str) -> Result<Self, ProtocolError> {
        Self::from_element(&Element::parse(xml)?)
    }

    /// The element tree 19.2.1 would send (without the stray `<line>`).
    pub fn to_element(&self) -> Element {
        let in_room =
            |room: &str, data: Element| Element::new("room").attr("roomId", room).child(data);
        match self {
            ServerMessage::Joined { room } => Element::new("joined").attr("roomId", room),
            ServerMessage::JoinedGameRoom { room, existing } => Element::new("joinedGameRoom")
                .attr("roomId", room)
                .attr("existing", existing.to_string()),
            ServerMessage::Prepared { room, codes } => {
                let mut el = Element::new("prepared").attr("roomId", room);
                for c in codes {
                    el = el.child(Element::new("reservation").text(c.clone()));
                }
                el
            }
            ServerMessage::Observed { room } => Element::new("observed").attr("roomId", room),
            ServerMessage::Welcome { room, color } => in_room(
                room,
                Element::new("data")
                    .attr("class", "welcomeMessage")
                    .attr("color", color.name().to_ascii_lowercase()),
            ),
            ServerMessage::Memento { room, state } => in_room(room, memento_element(state)),
            ServerMessage::MoveRequest { room } => {
                in_room(room, Element::new("data").attr("class", MOVE_REQUEST_CLASS))
            }
            ServerMessage::Result { room, result } => in_room(room, result_element(result)),
            ServerMessage::Error {
                room,
                message,
                original,
            } => {
                let mut el = match room {
                    Some(_) => Element::new("data").attr("class", "error"),
                    None => Element::new("error"),
                }
                .attr("message", message);
                if let Some(m) = original {
                    el = el.child(move_element("originalRequest", m));
                }
                match room {
                    Some(room) => in_room(room, el),
                    None => el,
                }
            }
            ServerMessage::Left { room } => Element::new("left").attr("roomId", room),
            ServerMessage::CloseConnection => Element::new(CLOSE_CONNECTION),
            ServerMessage::Unknown(name) => Element::new(name),
        }
    }

    /// The pretty-printed bytes as 19.2.1 sends them: `\n  <…>`, no trailing newline.
    pub fn to_xml(&self) -> String {
        let mut out = String::new();
        self.to_element().write_pretty(&mut out, 2);
        out
    }
}
