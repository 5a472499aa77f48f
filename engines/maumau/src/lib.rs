//! kibitz-maumau: Mau-Mau exactly as the Free-Hack 2017 contest server plays it, a card
//! tracker, baseline players and an ISMCTS player.
//!
//! - [`cards`]: cards, suits, ranks and card sets in the wire's numbering (`rank × 4 + suit`).
//! - [`turn`]: the vocabulary of a turn (answers as bots choose them and as the server reads
//!   them, reactions, game ends, table configuration).
//! - [`game`]: the server's state machine, bugs included (seat-1 exhaustion winner, Jack on an
//!   unwished Jack, Jack without a wish = played + penalty, same-name effect groups).
//! - [`knowledge`]: one seat's card tracker, fed with [`knowledge::Notice`]s (one per received
//!   wire message), and sampling of hidden hands consistent with it.
//! - [`agents`]: every player (random, first-fit, greedy, heuristic, ISMCTS) as one
//!   [`kibitz_search::agent::Agent`] owning its seat's card tracker, and the spec parser.
//! - [`sim`]: the search's bit-mask game state and playout RNG.
//! - [`determinize`]: sampling search states from the tracker, weighted by evidence.
//! - [`filter`]: a forward particle filter over the opponent's hand (two players).
//! - [`model`]: the opponent model weighing sampled hands by the opponents' actions.
//! - [`rollout`]: the playout policy (a scored heuristic on bit masks, greedy or softmax) and
//!   the features its weights multiply.
//! - [`endgame`]: PIMC with an exact solver per world once hands are small.
//! - [`mcts`]: the ISMCTS player on [`kibitz_search::ismcts`].
//! - [`params`]: the ISMCTS tunables in the shared registry ([`param_specs`]).
//! - `prior` (feature `research`): measuring the determinizer's evidence weights from games.
//! - [`arena`]: in-process games between agents (matches are the `kibitz` arena's:
//!   `kibitz match maumau`).
//!
//! A reference server drives [`game::Game`]: `begin_turn` (→ broadcast + private message),
//! then `answer` with the [`turn::RawAnswer`] it read (→ reply), until `outcome()` is `Some`.
//! A bot keeps a [`knowledge::Knowledge`], calls `observe` for every message it receives, and
//! answers each private message with [`kibitz_search::agent::Agent::choose`] of an
//! [`agents::MauMauAgent`] it has told every notice.
#![warn(missing_docs)]

pub mod agents;
pub mod arena;
pub mod cards;
pub mod determinize;
pub mod endgame;
pub mod filter;
pub mod game;
pub mod game_impl;
pub mod knowledge;
pub mod mcts;
pub mod model;
pub mod params;
#[cfg(feature = "research")]
pub mod prior;
pub mod rollout;
pub mod sim;
pub mod turn;

pub use cards::{Card, CardSet, Rank, Suit};
pub use game::Game;
pub use mcts::bench;
pub use turn::{
    Action, Config, DrawTwo, ExhaustionWinner, GameEnd, Phase, RawAnswer, Reaction, TurnStart,
};

/// Every tunable of the ISMCTS player (names for `--param` and `ismcts:param.NAME=V`, ranges
/// for the tuners).
pub fn param_specs() -> Vec<kibitz_search::params::ParamSpec> {
    <mcts::IsmctsParams as kibitz_search::params::Tunable>::specs()
}
