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
//! - [`agents`]: every player as one [`kibitz_search::agent::Agent`] of [`game_impl::Koehandel`]
//!   and the spec parser [`make_agent`]; baselines `pass`, `random` and [`heuristic`].
//! - [`belief`]: particles over the opponents' money, consistent with the books.
//! - [`model`]: per-opponent statistics of bidding, bluffing and trading in this game.
//! - [`params`]: the strong player's tunables ([`param_specs`]).
//! - [`strong`]: the Monte-Carlo player (its docs say why it is built that way); [`sim`]
//!   builds and plays out the determinized worlds it samples.
//! - [`runner`]: in-process games (matches are the `kibitz` arena's: `kibitz match koehandel`).
//! - [`game_impl`]: the market as a [`kibitz_search::game::Game`] ([`game_impl::Koehandel`]),
//!   whose observation ([`game_impl::KhView`]) carries the pending question.
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
//! An agent gets `new_game(seat, seed)`, then `observe` for every notice and `choose` for
//! every question (read from its view's observation), in market order. A network bot that
//! knows only relative letters uses seat 0 (`S W N E` = seats 0 1 2 3) and builds its view
//! with [`game_impl::KhView::from_knowledge`]. [`Knowledge`] turns exactly those calls into
//! the books every player keeps (herds, card counts, own hand, money in play, deck, bluffers).
#![warn(missing_docs)]

pub mod agents;
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
pub mod runner;
pub mod sim;
pub mod strong;
mod trade;
pub mod types;

pub use agents::{make_agent, KhAgent, SpecError, PLAYER_NAMES};
pub use event::{Answer, Ask, Event, Notice, Question, TradeError, TradeStart};
pub use game::Game;
pub use knowledge::{Fact, Knowledge};
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
    use kibitz_search::agent::{Agent, View};
    use kibitz_search::time::TimeControl;
    let mut count = 0;
    for seed in 0..8u64 {
        let seeds: Vec<u64> = (0..4).map(|i| seed * 4 + i).collect();
        let mut agents: Vec<KhAgent> = ["heuristic", "random", "heuristic", "random"]
            .iter()
            .zip(&seeds)
            .map(|(n, &s)| make_agent(n, s).expect("registered"))
            .collect();
        count += runner::play_game(Game::new(seed), &mut agents, &seeds).decisions;
    }
    let params = strong::StrongParams {
        worlds: 8,
        ..Default::default()
    };
    // The strong player stays concrete so that its play-outs can be counted.
    let mut strong = strong::StrongPlayer::with_params(params, 99);
    let mut others: Vec<heuristic::HeuristicPlayer> = (0..3)
        .map(|_| heuristic::HeuristicPlayer::new(Default::default()))
        .collect();
    strong.new_game(0, 99);
    for (i, h) in others.iter_mut().enumerate() {
        h.new_game(i + 1, 0);
    }
    let mut game = game_impl::Koehandel(Game::new(99));
    loop {
        for n in game.0.drain_notices() {
            match n.seat.idx() {
                0 => strong.observe(&n.event),
                s => others[s - 1].observe(&n.event),
            }
        }
        let Some(seat) = View::mover(&game) else {
            break;
        };
        let (view, clock) = (View::new(&game, seat), TimeControl::infinite());
        let d = match seat {
            0 => strong.choose(&view, &clock),
            s => others[s - 1].choose(&view, &clock),
        };
        count += 1;
        game.0.answer(d.action.0);
    }
    count + strong.rollouts()
}
