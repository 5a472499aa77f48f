//! The official win evaluation (spec §4): connection, round limit, and the result figures the
//! server's result message needs.

use crate::board::Color;
use crate::state::{State, MAX_TURN};
use crate::swarm;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A colour united its swarm (checked after BLUE's moves only).
    Connected,
    /// Turn 60 was reached; the larger biggest swarm wins, equal is a draw.
    RoundLimit,
    /// The side to move had no legal move and loses (the real server sees this as a rule
    /// violation or a timeout; engines and in-process matches score it as a loss).
    NoLegalMove,
}

impl EndReason {
    /// The official server's reason text (`\n` is a real newline); `None` for
    /// [`EndReason::NoLegalMove`], which the server never reports as such.
    pub const fn text(self) -> Option<&'static str> {
        match self {
            EndReason::Connected => {
                Some("Das Spiel ist beendet.\nEin Spieler hat seinen Schwarm vereint.")
            }
            EndReason::RoundLimit => Some("Das Rundenlimit wurde erreicht."),
            EndReason::NoLegalMove => None,
        }
    }
}

/// The end of a game: winner (None = draw), reason, and each colour's biggest swarm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winner; `None` is a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
    /// Biggest swarm per colour at the end, indexed by `Color as usize` (result part 2).
    pub swarm: [u32; 2],
}

impl GameResult {
    /// Match points of `c` (result part 1, "Gewinner"): win 2, draw 1, loss 0.
    pub fn points(&self, c: Color) -> u32 {
        match self.winner {
            None => 1,
            Some(w) if w == c => 2,
            Some(_) => 0,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(w) => write!(f, "{w} wins")?,
            None => write!(f, "draw")?,
        }
        let why = match self.reason {
            EndReason::Connected => "swarm united",
            EndReason::RoundLimit => "round limit",
            EndReason::NoLegalMove => "no legal move",
        };
        write!(
            f,
            " ({why}; swarms RED {} BLUE {})",
            self.swarm[0], self.swarm[1]
        )
    }
}

/// The official win evaluation (spec §4) from what it looks at: the turn, whether each colour
/// is connected and each colour's biggest swarm (both indexed by `Color as usize`). Shared
/// by [`State::result`] and the search's fast path, which takes the swarm figures from the
/// evaluation's feature cache.
#[inline]
pub fn decide(turn: u32, connected: [bool; 2], swarm: [u32; 2]) -> Option<GameResult> {
    if turn % 2 == 1 {
        return None;
    }
    let [red, blue] = connected;
    let limit = turn >= MAX_TURN as u32;
    if !red && !blue && !limit {
        return None;
    }
    let larger = match swarm[0].cmp(&swarm[1]) {
        std::cmp::Ordering::Greater => Some(Color::Red),
        std::cmp::Ordering::Less => Some(Color::Blue),
        std::cmp::Ordering::Equal => None,
    };
    let connection_winner = match (red, blue) {
        (true, true) => larger,
        (true, false) => Some(Color::Red),
        (false, true) => Some(Color::Blue),
        (false, false) => None,
    };
    if let Some(w) = connection_winner {
        return Some(GameResult {
            winner: Some(w),
            reason: EndReason::Connected,
            swarm,
        });
    }
    limit.then_some(GameResult {
        winner: larger,
        reason: EndReason::RoundLimit,
        swarm,
    })
}

impl State {
    /// Size of the biggest swarm of `c`.
    pub fn biggest_swarm(&self, c: Color) -> u32 {
        swarm::biggest_swarm(self.board().fish_of(c))
    }

    /// Whether all fish of `c` form one swarm (0 fish counts as connected).
    pub fn is_connected(&self, c: Color) -> bool {
        swarm::is_connected(self.board().fish_of(c))
    }

    /// The official win evaluation at this position, as the server runs it after the move that
    /// produced it (spec §4): nothing after RED's moves (odd turn); the connected colour, or of
    /// two connected colours the one with the larger biggest swarm (equal: play on); at turn 60
    /// the larger biggest swarm (equal: draw).
    ///
    /// Does not report [`EndReason::NoLegalMove`]; see [`State::outcome`].
    pub fn result(&self) -> Option<GameResult> {
        if self.turn() % 2 == 1 {
            return None;
        }
        let red = self.is_connected(Color::Red);
        let blue = self.is_connected(Color::Blue);
        if !red && !blue && self.turn() < MAX_TURN as u32 {
            return None;
        }
        // A connected colour's biggest swarm is all its fish: no second flood fill.
        let size = |c: Color, connected: bool| {
            if connected {
                self.fish_count(c)
            } else {
                self.biggest_swarm(c)
            }
        };
        decide(
            self.turn(),
            [red, blue],
            [size(Color::Red, red), size(Color::Blue, blue)],
        )
    }

    /// The game's end for engines and in-process matches: [`State::result`], or else a loss
    /// of the side to move when it has no legal move.
    pub fn outcome(&self) -> Option<GameResult> {
        self.result().or_else(|| {
            (!self.has_legal_move()).then(|| GameResult {
                winner: Some(self.current().other()),
                reason: EndReason::NoLegalMove,
                swarm: [
                    self.biggest_swarm(Color::Red),
                    self.biggest_swarm(Color::Blue),
                ],
            })
        })
    }
}
