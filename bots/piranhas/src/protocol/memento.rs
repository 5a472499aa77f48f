//! The memento: game state as the server describes it, ⇄ engine [`State`].

use super::dom::Element;
use super::messages::{move_element, parse_color, parse_int, parse_move, MoveMsg};
use super::{bad_value, ProtocolError};
use kibitz_piranhas::{Board, Color, Field, State};

/// `class` of the memento's state element.
pub const STATE_CLASS: &str = "sc.plugin2019.GameState";

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

pub(super) fn parse_memento(data: &Element) -> Result<Memento, ProtocolError> {
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

pub(super) fn memento_element(m: &Memento) -> Element {
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
