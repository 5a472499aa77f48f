//! kibitz-madn: Mensch ärgere dich nicht between two dice, and the Würfelglück tournament
//! (BwInf 40, round 1, task 4) that ranks dice by simulated games.
//!
//! This is a throughput problem: a side is one `u64` bitboard of piece progress plus a count of
//! pieces at home, a roll is decided by a few mask operations ([`game`]), faces are drawn by an
//! unbiased multiply-and-reject on a xoshiro256++ stream ([`rng`]), and pairings are played in
//! fixed, independently seeded blocks in parallel ([`tournament`]), so results are reproducible
//! for a seed whatever the thread count.
//!
//! Rules follow `specs/wuerfel.md`; the variant readings are [`game::Variant`].
#![warn(missing_docs)]

pub mod dice;
pub mod game;
pub mod game_impl;
pub mod rng;
pub mod tournament;

pub use dice::{parse_dice, DiceError, Die};
pub use game::{GameResult, Position, Variant};
pub use tournament::{RankRow, Tally, Tournament};

/// Deterministic bench workload: 20,000 games of 1-6 against 1-6 (seed 1, default rules) on the
/// current thread. Returns the number of rolls, which changes only when the rules do.
pub fn bench() -> u64 {
    let d = game::FastDie::new(&Die::new(vec![1, 2, 3, 4, 5, 6]).expect("six faces"));
    (0..10)
        .map(|k| tournament::play_block([&d, &d], (0, 1), k, 2_000, 1, Variant::Default).rolls)
        .sum()
}
