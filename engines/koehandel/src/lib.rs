//! kibitz-koehandel: rules, knowledge tracking and players for Koehandel (Kuhhandel /
//! "You're Bluffing!") as the GoT 2010 contest played it, following
//! `shared/specs/koehandel.md` (part D is normative).
//!
//! # Layout
//! - [`types`]: seats, animals `A`–`J`, money cards `n t f h T F`, hands and herds.
//! - [`event`]: the market's [`Question`]s and [`Event`]s and the players' [`Answer`]s; one value
//!   per wire message, absolute seats (the codec rotates letters).
//! - [`game`]: the state machine the referee drives ([`Game::ask`], [`Game::answer`],
//!   [`Game::drain_notices`]); auctions in `auction.rs`, cow trades in `trade.rs`.
//! - [`knowledge`]: what one player can know from his messages, exactly.
//! - [`player`]: the [`Player`] trait and the registry; baselines `pass`, `random` and
//!   [`heuristic`].
//! - [`belief`]: particles over the opponents' money, consistent with the books.
//! - [`model`]: per-opponent statistics of bidding, bluffing and trading in this game.
//! - [`params`]: the strong player's tunables ([`param_specs`]).
//! - [`strong`]: the Monte-Carlo player (its docs say why it is built that way); [`sim`]
//!   builds and plays out the determinized worlds it samples.
//! - [`runner`]: in-process games (matches are the `kibitz` arena's: `kibitz match koehandel`).
//!
//! # Decisions not fixed by the spec
//! - A caught bluffer's over-the-top bid gets `second_bluff_not_allowed` only when it would
//!   otherwise have been a raise (a non-raise is a plain pass).
//! - After a second tie (free transfer) third parties get all four trade broadcasts, each with
//!   `-0` / `0` (D11: "a free transfer shows -0 / 0").
//! - Bids are kept as card multisets; the server echoes them in canonical descending order
//!   (`ftt`), which equals the verbatim text for every bid written that way.
//! - The spec's tie variant in part E ("had P1 countered `ttt`") is impossible with P1's hand
//!   `nnttf`; the test plays the tie at 20 instead (`tests/spec_examples.rs`).
//! - Defaults are counted per seat ([`game::SeatStats`]) for every missing or unusable answer,
//!   including a missing bid (which is also the ordinary way to pass).
//!
//! # Driving a game (referee side)
//! `Game::new(seed)` (or `with_deck`), then loop: deliver every [`Notice`] from
//! [`Game::drain_notices`] in order, take [`Game::ask`] (`None` = over, the last notices were
//! the `end` messages), send it, feed the reply to [`Game::answer`]. Any [`Answer`] is
//! accepted; invalid ones get the spec's default and, where the spec says so, an
//! error notice. Notices and questions come out in exactly the spec's message order.
//!
//! # Playing (player side)
//! A [`Player`] gets `new_game(me)`, then `observe` for every notice and `decide` for every
//! question, in market order. A network bot that knows only relative letters uses `me = 0`
//! (`S W N E` = seats 0 1 2 3). [`Knowledge`] turns exactly those calls into the books
//! every player keeps (herds, card counts, own hand, money in play, deck, bluffers).
#![warn(missing_docs)]

pub mod auction;
pub mod belief;
pub mod eval;
pub mod event;
pub mod game;
pub mod game_impl;
pub mod heuristic;
pub mod knowledge;
pub mod model;
pub mod params;
pub mod player;
pub mod runner;
pub mod sim;
pub mod strong;
mod trade;
pub mod types;

pub use event::{Answer, Ask, Event, Notice, Question, TradeError, TradeStart};
pub use game::Game;
pub use knowledge::{Fact, Knowledge};
pub use player::{make_player, Player, PLAYER_NAMES};
pub use types::{Animal, Cards, Herd, MoneyCard, Seat};

/// Errors of this crate (parsing and configuration; the market itself never fails).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum RulesError {
    /// A character that is not one of `n t f h T F`.
    #[error("not a money card letter: {0:?}")]
    BadMoneyLetter(char),
    /// More than 255 cards of one kind in a string.
    #[error("too many cards of one kind")]
    TooManyCards,
}

/// The strong player's tunables for the shared registry (`--param NAME=V`,
/// `strong:param.NAME=V`); see [`params`].
pub fn param_specs() -> Vec<kibitz_search::params::ParamSpec> {
    params::strong_specs()
}

/// Deterministic bench workload for `kibitz bench`: eight complete games between heuristic
/// and random players plus one game of a strong player (8 worlds per decision) against three
/// heuristics, on fixed decks with fixed seeds. Returns decisions plus the strong player's
/// play-outs (the signature changes only when play or search behaviour changes).
pub fn bench() -> u64 {
    let mut count = 0;
    for seed in 0..8u64 {
        let mut players: Vec<Box<dyn Player>> = ["heuristic", "random", "heuristic", "random"]
            .iter()
            .enumerate()
            .map(|(i, n)| make_player(n, seed * 4 + i as u64).expect("registered"))
            .collect();
        count += runner::play_game(Game::new(seed), &mut players).decisions;
    }
    let params = strong::StrongParams {
        worlds: 8,
        ..Default::default()
    };
    let mut strong = strong::StrongPlayer::with_params(params, 99);
    let mut game = Game::new(99);
    let mut others: Vec<heuristic::HeuristicPlayer> = (0..3)
        .map(|_| heuristic::HeuristicPlayer::new(Default::default()))
        .collect();
    strong.new_game(Seat(0));
    for (i, h) in others.iter_mut().enumerate() {
        h.new_game(Seat(i as u8 + 1));
    }
    loop {
        for n in game.drain_notices() {
            match n.seat.idx() {
                0 => strong.observe(&n.event),
                s => others[s - 1].observe(&n.event),
            }
        }
        let Some(ask) = game.ask() else { break };
        let a = match ask.seat.idx() {
            0 => strong.decide(&ask.question),
            s => others[s - 1].decide(&ask.question),
        };
        count += 1;
        game.answer(a);
    }
    count + strong.rollouts()
}
