//! kibitz-search: game-agnostic search (alpha-beta, ISMCTS), time control and match statistics.

pub mod stats;
