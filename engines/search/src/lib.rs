//! kibitz-search: game-agnostic search shared by every engine.
//!
//! - [`alphabeta`]: iterative-deepening negamax with PVS, a transposition table ([`tt`]),
//!   killer/history ordering, quiescence, LMR and null move, for the perfect-information games
//!   (Connect Four, Piranhas).
//! - [`game`]: the one [`game::Game`] trait every engine implements, and [`conformance`], the
//!   random-play test of its contract that every engine runs.
//! - [`agent`]: the one [`agent::Agent`] trait (choose from a seat's [`agent::View`] under a
//!   clock, answer a [`agent::Decision`] with score, depth, nodes and PV).
//! - [`clock`]: the one rule from a move's time budget to soft, hard and send-by times.
//! - [`time`]: soft budget, hard deadline and stop flag; the only clock engines read.
//! - [`stats`]: Elo with error bars, confidence intervals and SPRT for match runs and tuning.
//! - [`params`]: named tunables ([`params::Tunable`]) that `--param name=value` and the tuning
//!   scripts drive, with ranges listed by `kibitz <game> params`.
#![warn(missing_docs)]

pub mod agent;
pub mod alphabeta;
pub mod clock;
pub mod conformance;
pub mod game;
pub mod ismcts;
pub mod params;
pub mod seed;
pub mod stats;
pub mod time;
pub mod tt;

/// The `rand` this crate's traits use ([`game::Game::determinize`] takes a `rand::Rng`), for
/// engines that do not depend on it themselves.
pub use rand;
