//! The vocabulary of a turn: table configuration, the mover's answer (as bots choose it and as
//! the server reads it), the server's reaction, the start of a turn and the end of a game.

use crate::cards::{Card, Suit};

/// Most seats a game can have.
pub const MAX_PLAYERS: usize = 4;
/// Cards dealt to each seat.
pub const HAND_SIZE: usize = 7;

/// Who wins when the talon is exhausted (or the turn cap is hit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ExhaustionWinner {
    /// The highest-numbered seat still online, as the real server does (seat 1 of two).
    #[default]
    SecondSeat,
    /// The seat with the most cards legally played, as the README intends; ties to the lower seat.
    MostValidMoves,
}

/// Table configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Number of seats, 2-4.
    pub players: usize,
    /// Winner rule on talon exhaustion.
    pub exhaustion_winner: ExhaustionWinner,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            players: 2,
            exhaustion_winner: ExhaustionWinner::SecondSeat,
        }
    }
}

/// What happened to a pending 7 at the start of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawTwo {
    /// No 7 pending.
    None,
    /// The mover drew these two cards (already in its hand).
    Drawn([Card; 2]),
    /// The talon was exhausted: nothing drawn, the game ends after this turn.
    Failed,
}

/// The start of a turn: what the broadcast and the private message report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnStart {
    /// Seat to move.
    pub seat: usize,
    /// Top card of the pile.
    pub top: Card,
    /// Mover's hand size before any draw-two (the broadcast's `cardsLeft`).
    pub cards_left: usize,
    /// Whether the mover loses this turn to an 8 (then no answer is expected).
    pub skipped: bool,
    /// The pending 7's effect on the mover. On a skipped turn too: the real server then draws
    /// the two cards silently (no message lists them; spec §7 item 2).
    pub draw_two: DrawTwo,
    /// Wish in force.
    pub wish: Option<Suit>,
}

/// A mover's decision in game terms (what bots choose).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Action {
    /// Draw one card (`"status":"skip"`).
    #[default]
    Draw,
    /// Play `card`; `wish` is used only for a Jack onto a non-Jack.
    Play {
        /// Card to play.
        card: Card,
        /// Wished suit (ignored unless it is a wishing Jack).
        wish: Suit,
    },
}

/// A mover's answer as the server reads it from the wire (§4 "How the server reads an answer").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawAnswer {
    /// `status` exactly `"skip"`.
    Draw,
    /// Any other string `status`: a play attempt.
    Play {
        /// `selectedCard` if it is a JSON integer (out of range → Karo 7), `None` otherwise.
        selected: Option<i64>,
        /// `wishedColor` if it is a JSON integer (anything but 0-3 → Pik), `None` otherwise.
        wished: Option<i64>,
    },
    /// Not JSON, no `status`, or `status` not a string, or no line at all: a penalty.
    Invalid,
}

impl From<Action> for RawAnswer {
    fn from(a: Action) -> RawAnswer {
        match a {
            Action::Draw => RawAnswer::Draw,
            Action::Play { card, wish } => RawAnswer::Play {
                selected: Some(card.index() as i64),
                wished: Some(wish.index() as i64),
            },
        }
    }
}

/// The server's reaction to an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reaction {
    /// A legal play; `wish` is the wish it set. No reply is sent to the mover.
    Played {
        /// Card played.
        card: Card,
        /// Wish set by a Jack, if any.
        wish: Option<Suit>,
    },
    /// A Jack played onto a non-Jack without an integer wish: played, no wish, plus a
    /// penalty card (`None` if the talon was exhausted). Reply status `error`.
    PlayedWithPenalty {
        /// The Jack.
        card: Card,
        /// Penalty card drawn.
        penalty: Option<Card>,
    },
    /// A voluntary draw (reply status `okay`, `None` = -1).
    Drew(Option<Card>),
    /// An illegal or unreadable answer: one penalty card (reply status `error`, `None` = -1).
    Penalty(Option<Card>),
}

impl Reaction {
    /// The card drawn this turn by a draw or penalty (not a draw-two).
    pub fn drawn(&self) -> Option<Card> {
        match *self {
            Reaction::Drew(c) | Reaction::Penalty(c) => c,
            Reaction::PlayedWithPenalty { penalty, .. } => penalty,
            Reaction::Played { .. } => None,
        }
    }

    /// The card that went onto the pile, if any.
    pub fn played(&self) -> Option<Card> {
        match *self {
            Reaction::Played { card, .. } | Reaction::PlayedWithPenalty { card, .. } => Some(card),
            _ => None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// This seat emptied its hand.
    Emptied(usize),
    /// The talon was exhausted; the winner by [`ExhaustionWinner`].
    Exhausted(usize),
    /// Only this seat is still online.
    LastOnline(usize),
    /// The turn cap was reached; the winner as on exhaustion.
    TurnCap(usize),
}

impl GameEnd {
    /// Why the game ended, in words (records and replays use these).
    pub fn reason(self) -> &'static str {
        match self {
            GameEnd::Emptied(_) => "emptied hand",
            GameEnd::Exhausted(_) => "talon exhausted",
            GameEnd::LastOnline(_) => "last online",
            GameEnd::TurnCap(_) => "turn cap",
        }
    }

    /// The declared winner.
    pub fn winner(self) -> usize {
        match self {
            GameEnd::Emptied(s) | GameEnd::Exhausted(s) | GameEnd::LastOnline(s) => s,
            GameEnd::TurnCap(s) => s,
        }
    }
}

/// Where the state machine stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Next call: [`crate::game::Game::begin_turn`].
    BeginTurn,
    /// Next call: [`crate::game::Game::answer`] or [`crate::game::Game::act`] for this seat.
    Answer(usize),
    /// The game is over.
    Over(GameEnd),
}

impl std::fmt::Display for GameEnd {
    /// `seat 1 wins (emptied hand)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seat {} wins ({})", self.winner(), self.reason())
    }
}

impl std::fmt::Display for Phase {
    /// As a person reads it: `a turn begins`, `seat 0 to answer`, `over: seat 1 wins (…)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Phase::BeginTurn => f.write_str("a turn begins"),
            Phase::Answer(s) => write!(f, "seat {s} to answer"),
            Phase::Over(end) => write!(f, "over: {end}"),
        }
    }
}
