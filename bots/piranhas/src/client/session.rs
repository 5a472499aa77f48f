//! The protocol logic of a client, without sockets: [`Session`] reads the server's frames and
//! says what to send ([`Action`]). Pure, so tests replay recorded transcripts through it.

use crate::protocol::{Frame, Memento, ProtocolError, ResultMsg, ServerMessage};
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_piranhas::{Color, Move, State};
use kibitz_search::agent::{Played, Seen, View};
use kibitz_search::game::{Game, Turn};
use thiserror::Error;

/// What the session wants the transport to do after a message.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Nothing to send.
    Wait,
    /// Choose and send a move for `state` in `room`.
    Move {
        /// Room to answer in.
        room: String,
        /// Position to move in (side to move = us).
        state: State,
    },
    /// Our game is over: send `</protocol>` and wait for the server to close.
    Finish,
}

/// A session-level problem with what the server sent.
#[derive(Debug, Error)]
pub enum SessionError {
    /// Undecodable bytes.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// A MoveRequest before any memento.
    #[error("MoveRequest without a known game state")]
    NoState,
}

/// The client's view of one game, fed message by message.
#[derive(Debug, Default)]
pub struct Session {
    /// Room id, once joined.
    pub room: Option<String>,
    /// Our colour, once welcomed.
    pub color: Option<Color>,
    /// The latest memento.
    pub memento: Option<Memento>,
    /// The latest state (engine form of the memento).
    pub state: Option<State>,
    /// The result, once received.
    pub result: Option<ResultMsg>,
    /// An error message the server sent us (e.g. our rule violation).
    pub error: Option<String>,
    /// Whether the game is over for us.
    pub finished: bool,
    /// We answered a MoveRequest and no memento has come since: a further MoveRequest is a
    /// duplicate of the one answered (the server sends a memento after every move, spec §7.3).
    answered: bool,
    /// Moves the mementos reported and the agent has not been told yet.
    events: Vec<Played<Move>>,
}

impl Session {
    /// A fresh session.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds one framing event; returns what to do next.
    pub fn on_frame(&mut self, frame: Frame) -> Result<Action, SessionError> {
        match frame {
            Frame::Open => Ok(Action::Wait),
            Frame::Close => {
                self.finished = true;
                Ok(Action::Finish)
            }
            Frame::Message(text) => self.on_message(ServerMessage::parse(&text)?),
        }
    }

    /// Feeds one decoded server message; returns what to do next.
    pub fn on_message(&mut self, msg: ServerMessage) -> Result<Action, SessionError> {
        match msg {
            ServerMessage::Joined { room } => self.room = Some(room),
            ServerMessage::Welcome { room, color } => {
                self.room = Some(room);
                self.color = Some(color);
            }
            ServerMessage::Memento { state, .. } => {
                let next = state.to_state()?;
                if let Some(last) = &state.last_move {
                    // The memento after a move: who moved is the side to move before it.
                    let mover = if next.turn() % 2 == 1 {
                        Color::Red
                    } else {
                        Color::Blue
                    };
                    if next.turn() > 0 && self.state.is_none_or(|s| s.turn() < next.turn()) {
                        self.events.push(Played {
                            actor: Turn::Seat(mover as usize),
                            action: last.mv,
                        });
                    }
                }
                self.state = Some(next);
                self.memento = Some(*state);
                self.answered = false;
            }
            ServerMessage::MoveRequest { room } => {
                let state = self.state.ok_or(SessionError::NoState)?;
                if self.answered {
                    tracing::warn!(
                        turn = state.turn(),
                        "the server repeated its MoveRequest without a new memento; \
                         already answered, ignored"
                    );
                    return Ok(Action::Wait);
                }
                self.answered = true;
                return Ok(Action::Move { room, state });
            }
            ServerMessage::Result { result, .. } => self.result = Some(result),
            ServerMessage::Error { message, .. } => {
                tracing::warn!("server error: {message}");
                self.error = Some(message);
            }
            ServerMessage::Left { .. } | ServerMessage::CloseConnection => {
                if !self.finished {
                    self.finished = true;
                    return Ok(Action::Finish);
                }
            }
            other => tracing::debug!("ignored server message {other:?}"),
        }
        Ok(Action::Wait)
    }

    /// The moves reported since the last call (from the mementos' `lastMove`), oldest first:
    /// what the agent is told with [`kibitz_search::agent::Agent::observe`].
    pub fn take_events(&mut self) -> Vec<Played<Move>> {
        std::mem::take(&mut self.events)
    }

    /// Our seat's view of `state` built only from what the server said (no referee state):
    /// the turn, the position and its legal moves. `None` before the server named our colour.
    pub fn view(&self, state: &State) -> Option<View<'static, Piranhas>> {
        let seat = self.color? as usize;
        let game = Piranhas(*state);
        Some(View::seen(
            seat,
            Seen {
                seats: 2,
                turn: game.turn(),
                observation: game,
                legal: game.legal_actions(),
            },
        ))
    }
}
