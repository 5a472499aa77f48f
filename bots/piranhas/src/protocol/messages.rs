//! Typed messages of both directions, their XML form, and memento ⇄ engine state.

use super::dom::Element;
use super::{bad_value, ProtocolError, GAME_TYPE};
use kibitz_piranhas::{Board, Color, Direction, Field, Move, State};

/// `class` of the MoveRequest data element.
pub const MOVE_REQUEST_CLASS: &str = "sc.framework.plugins.protocol.MoveRequest";
/// `class` of the memento's state element.
pub const STATE_CLASS: &str = "sc.plugin2019.GameState";
/// Name of the match-points result fragment.
pub const FRAGMENT_POINTS: &str = "Gewinner";
/// Name of the tie-break fragment (U+2205, as 19.2.1 sends it).
pub const FRAGMENT_SWARM: &str = "\u{2205} Schwarm";

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

/// Why a player's score ended as it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScoreCause {
    /// Normal end.
    Regular,
    /// The player left (disconnected).
    Left,
    /// The player sent an invalid move.
    RuleViolation,
    /// The move came after the soft limit.
    SoftTimeout,
    /// No move within the hard limit.
    HardTimeout,
}

impl ScoreCause {
    /// The protocol name.
    pub const fn name(self) -> &'static str {
        match self {
            ScoreCause::Regular => "REGULAR",
            ScoreCause::Left => "LEFT",
            ScoreCause::RuleViolation => "RULE_VIOLATION",
            ScoreCause::SoftTimeout => "SOFT_TIMEOUT",
            ScoreCause::HardTimeout => "HARD_TIMEOUT",
        }
    }

    fn parse(s: &str) -> Result<Self, ProtocolError> {
        [
            ScoreCause::Regular,
            ScoreCause::Left,
            ScoreCause::RuleViolation,
            ScoreCause::SoftTimeout,
            ScoreCause::HardTimeout,
        ]
        .into_iter()
        .find(|c| c.name() == s)
        .ok_or_else(|| bad_value("score cause", s))
    }
}

/// One player's `<score>`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreMsg {
    /// Why it ended.
    pub cause: ScoreCause,
    /// Reason text (absent for the innocent side of a violation).
    pub reason: Option<String>,
    /// Part 1, "Gewinner": 2 win, 1 draw, 0 loss.
    pub points: u32,
    /// Part 2, "∅ Schwarm": the player's biggest swarm at the end.
    pub swarm: u32,
}

/// The `result` message: RED's score, BLUE's score, winner.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultMsg {
    /// Scores indexed by `Color as usize` (RED first on the wire).
    pub scores: [ScoreMsg; 2],
    /// Winner's display name and colour; `None` on a draw.
    pub winner: Option<(String, Color)>,
}

/// The game state of a memento, as the server describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Memento {
    /// Always RED in 2019.
    pub start_player: Color,
    /// Side to move.
    pub current_player: Color,
    /// Moves made so far.
    pub turn: u32,
    /// The move that led here (absent at turn 0).
    pub last_move: Option<MoveMsg>,
    /// Display names, RED then BLUE.
    pub names: [String; 2],
    /// The board.
    pub board: Board,
}

impl Memento {
    /// The engine position this memento describes (checks turn range and consistency).
    pub fn to_state(&self) -> Result<State, ProtocolError> {
        let st = State::from_board(self.board, self.turn)
            .map_err(|e| bad_value("memento state", &e.to_string()))?;
        if st.current() != self.current_player {
            return Err(bad_value(
                "currentPlayerColor for the turn",
                self.current_player.name(),
            ));
        }
        Ok(st)
    }

    /// The memento of an engine position.
    pub fn from_state(state: &State, names: [String; 2], last_move: Option<MoveMsg>) -> Self {
        Memento {
            start_player: Color::Red,
            current_player: state.current(),
            turn: state.turn(),
            last_move,
            names,
            board: *state.board(),
        }
    }
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

fn parse_int<T: std::str::FromStr>(el: &Element, name: &str) -> Result<T, ProtocolError> {
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

fn parse_color(el: &Element, name: &str) -> Result<Color, ProtocolError> {
    let v = el.req(name)?;
    v.parse().map_err(|_| bad_value(name, v))
}

/// Reads a move element (`data class="move"` or `lastMove`) with its hints.
fn parse_move(el: &Element) -> Result<MoveMsg, ProtocolError> {
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

fn move_element(name: &str, m: &MoveMsg) -> Element {
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

fn parse_board(board: &Element) -> Result<Board, ProtocolError> {
    let mut b = Board::empty();
    let mut seen = [false; 100];
    for fields in board.find_all("fields") {
        for f in fields.find_all("field") {
            let x: usize = parse_int(f, "x")?;
            let y: usize = parse_int(f, "y")?;
            if x > 9 || y > 9 {
                return Err(bad_value("field coordinates", &format!("{x},{y}")));
            }
            let s = f.req("state")?;
            let field: Field = s.parse().map_err(|_| bad_value("field state", s))?;
            b.set(x, y, field);
            seen[x + 10 * y] = true;
        }
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(bad_value(
            "board (missing field)",
            &format!("{},{}", i % 10, i / 10),
        ));
    }
    Ok(b)
}

fn parse_memento(data: &Element) -> Result<Memento, ProtocolError> {
    let state = data.find("state").ok_or_else(|| ProtocolError::Missing {
        element: "data".into(),
        what: "state".into(),
    })?;
    let name = |c: &str| {
        state
            .find(c)
            .and_then(|p| p.get("displayName"))
            .unwrap_or("Unknown")
            .to_string()
    };
    let board = state.find("board").ok_or_else(|| ProtocolError::Missing {
        element: "state".into(),
        what: "board".into(),
    })?;
    Ok(Memento {
        start_player: parse_color(state, "startPlayerColor").unwrap_or(Color::Red),
        current_player: parse_color(state, "currentPlayerColor")?,
        turn: parse_int(state, "turn")?,
        last_move: state.find("lastMove").map(parse_move).transpose()?,
        names: [name("red"), name("blue")],
        board: parse_board(board)?,
    })
}

fn parse_result(data: &Element) -> Result<ResultMsg, ProtocolError> {
    let scores: Vec<ScoreMsg> = data
        .find_all("score")
        .map(|s| {
            let parts: Vec<f64> = s
                .find_all("part")
                .map(|p| {
                    p.text
                        .trim()
                        .parse()
                        .map_err(|_| bad_value("part", &p.text))
                })
                .collect::<Result<_, _>>()?;
            let part = |i: usize| parts.get(i).copied().unwrap_or(0.0).max(0.0).round() as u32;
            Ok(ScoreMsg {
                cause: ScoreCause::parse(s.get("cause").unwrap_or("REGULAR"))?,
                reason: s.get("reason").map(str::to_string),
                points: part(0),
                swarm: part(1),
            })
        })
        .collect::<Result<_, ProtocolError>>()?;
    let [red, blue]: [ScoreMsg; 2] = scores
        .try_into()
        .map_err(|v: Vec<ScoreMsg>| bad_value("number of scores", &v.len().to_string()))?;
    let winner = match data.find("winner") {
        Some(w) => Some((
            w.get("displayName").unwrap_or("Unknown").to_string(),
            parse_color(w, "color")?,
        )),
        None => None,
    };
    Ok(ResultMsg {
        scores: [red, blue],
        winner,
    })
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
                room: Some(room),
                message,
            } => in_room(
                room,
                Element::new("data")
                    .attr("class", "error")
                    .attr("message", message),
            ),
            ServerMessage::Error {
                room: None,
                message,
            } => Element::new("error").attr("message", message),
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

fn memento_element(m: &Memento) -> Element {
    let mut state = Element::new("state")
        .attr("class", STATE_CLASS)
        .attr("startPlayerColor", m.start_player.name())
        .attr("currentPlayerColor", m.current_player.name())
        .attr("turn", m.turn.to_string());
    if let Some(lm) = &m.last_move {
        state = state.child(move_element("lastMove", lm));
    }
    for (tag, c) in [("red", Color::Red), ("blue", Color::Blue)] {
        state = state.child(
            Element::new(tag)
                .attr("displayName", m.names[c as usize].clone())
                .attr("color", c.name()),
        );
    }
    let mut board = Element::new("board");
    for x in 0..10 {
        let mut fields = Element::new("fields");
        for y in 0..10 {
            fields = fields.child(
                Element::new("field")
                    .attr("x", x.to_string())
                    .attr("y", y.to_string())
                    .attr("state", m.board.get(x, y).name()),
            );
        }
        board = board.child(fields);
    }
    Element::new("data")
        .attr("class", "memento")
        .child(state.child(board))
}

fn result_element(r: &ResultMsg) -> Element {
    let fragment = |name: &str, aggregation: &str| {
        Element::new("fragment")
            .attr("name", name)
            .child(Element::new("aggregation").text(aggregation))
            .child(Element::new("relevantForRanking").text("true"))
    };
    let mut data = Element::new("data").attr("class", "result").child(
        Element::new("definition")
            .child(fragment(FRAGMENT_POINTS, "SUM"))
            .child(fragment(FRAGMENT_SWARM, "AVERAGE")),
    );
    for s in &r.scores {
        let mut score = Element::new("score").attr("cause", s.cause.name());
        if let Some(reason) = &s.reason {
            score = score.attr("reason", reason.clone());
        }
        data = data.child(
            score
                .child(Element::new("part").text(s.points.to_string()))
                .child(Element::new("part").text(s.swarm.to_string())),
        );
    }
    if let Some((name, color)) = &r.winner {
        data = data.child(
            Element::new("winner")
                .attr("displayName", name.clone())
                .attr("color", color.name()),
        );
    }
    data
}
