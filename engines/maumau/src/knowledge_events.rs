//! What a seat hears and what it logs: the messages it receives ([`Notice`]), each opponent
//! action as the opponent model reads it ([`SeatMove`]) and the public history
//! ([`PublicEvent`]). Re-exported by [`crate::knowledge`].

use crate::cards::{Card, CardSet, Suit};
use crate::game::DrawTwo;

/// One message received by a seat, in game terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The broadcast at the start of every turn (`topCard`, `cardsLeft`, `turnOf`, `skipped`).
    Broadcast {
        /// Seat of `turnOf`.
        seat: usize,
        /// `topCard`.
        top: Card,
        /// `cardsLeft`: the mover's hand size before any draw-two.
        cards_left: usize,
        /// `skipped`.
        skipped: bool,
    },
    /// The private message to the mover (`topcard`, `wishedColor`, `drawTwoCards`, `hand`).
    Private {
        /// `topcard`.
        top: Card,
        /// `wishedColor` (−1 → `None`).
        wish: Option<Suit>,
        /// `cardsLeft`, after any draw-two.
        cards_left: usize,
        /// The 7's effect: `drawTwoCards` + `drawedCards`, or the key missing (`Failed`).
        draw_two: DrawTwo,
        /// `hand`, only in the first private message (already holds drawn cards).
        hand: Option<CardSet>,
    },
    /// The reply to our draw (`status` okay) or to an illegal answer (`status` error).
    DrawReply {
        /// `drawedCards` (−1 → `None`).
        card: Option<Card>,
        /// True for `status: error`.
        penalty: bool,
    },
    /// `won` with the winner's seat.
    Won {
        /// Seat of `nameOfWinner`.
        seat: usize,
    },
}

/// One opponent action as the opponent model reads it ([`crate::model`]): what the seat did
/// and, where we know it, which cards were legal for it then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatMove {
    /// The seat played `card`; `legal` is `None` when the wish in force was unknown to us.
    Played {
        /// The card.
        card: Card,
        /// Cards that were legal for it.
        legal: Option<CardSet>,
    },
    /// The seat drew one card of its own choosing (or as a penalty) while `legal` fitted.
    Drew {
        /// Cards that were legal for it.
        legal: Option<CardSet>,
    },
    /// The seat had to take `n` cards (a 7, a missing wish): no choice, no evidence.
    Took {
        /// Cards taken.
        n: u8,
    },
    /// The seat wished `suit` with the Jack it just laid.
    Wished {
        /// The suit.
        suit: Suit,
    },
}

/// A public event in the game's history, as this seat understood it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PublicEvent {
    /// `seat` played `card`.
    Played {
        /// Seat.
        seat: usize,
        /// Card.
        card: Card,
    },
    /// `seat` drew `n` cards (draw, penalty or 7).
    Drew {
        /// Seat.
        seat: usize,
        /// Number of cards.
        n: usize,
    },
    /// `seat` lost its turn to an 8.
    Skipped {
        /// Seat.
        seat: usize,
    },
    /// The pile under the top card was shuffled into the talon.
    Reshuffled,
}
