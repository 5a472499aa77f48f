//! The arena: one match runner for every two-sided game, plugged in through [`Arena`].
//!
//! A match is a list of games numbered `0..N`. Games come in *pairing units* (an opening,
//! deal or deck played with the sides swapped or the seats rotated); game `i` is slot
//! `i % unit` of unit `i / unit`. Every seed a game needs (opening, players' RNGs) is derived
//! from the match seed and the game's number, games run in parallel on a rayon pool, and the
//! results are reduced in game order, so the outcome depends only on the seed and N — never on
//! `--concurrency` or on machine load (with fixed-node / fixed-depth specs the moves are
//! deterministic too; time specs are for strength).
//!
//! The statistics (Elo ± 95 %, LOS, SPRT) come from [`kibitz_search::stats`].

pub mod cli;
pub mod connect4;
pub mod koehandel;
pub mod maumau;
pub mod piranhas;
pub mod record;
mod runner;

pub use runner::{run_match, MatchOutcome, MatchSettings, SideTally};

pub use kibitz_search::seed::mix;
use serde_json::Value;

/// Result of one game from player A's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A won.
    Win,
    /// Drawn (or, in Koehandel, A's and B's seats scored the same).
    Draw,
    /// A lost.
    Loss,
}

/// What one game produced: the result for A and the record of the game.
#[derive(Clone, Debug)]
pub struct Played {
    /// Result from A's point of view.
    pub outcome: Outcome,
    /// Plies / decisions played (for the summary line).
    pub plies: u32,
    /// The game-specific part of the record: `setup`, `moves`, `result` and, where one
    /// exists, `native` (the contest's own notation). See [`record`].
    pub record: Value,
}

/// One game to play.
#[derive(Clone, Debug)]
pub struct Job<'a> {
    /// Spec of player A.
    pub a: &'a str,
    /// Spec of player B.
    pub b: &'a str,
    /// Match seed.
    pub seed: u64,
    /// Game number in the match (0-based).
    pub index: u64,
    /// Pairing unit (opening / deal / deck) number.
    pub unit: u64,
    /// Slot within the unit: which side or seat pattern A takes.
    pub slot: u64,
    /// The opening line from `--openings` for this unit, if any.
    pub opening: Option<&'a str>,
    /// Default per-move time in ms (`--tc`) for specs that set no limit of their own.
    pub tc_ms: Option<u64>,
}

impl Job<'_> {
    /// A seed for `purpose` (0 = opening, 1 = player A, 2 = player B, ...): unique per game,
    /// derived from the match seed only.
    pub fn seed_for(&self, purpose: u64) -> u64 {
        mix(mix(self.seed, self.index), purpose)
    }

    /// The seed of this game's pairing unit (the opening / deal / deck all slots share).
    pub fn unit_seed(&self) -> u64 {
        mix(mix(self.seed ^ 0x0bad_5eed, self.unit), 0)
    }
}

/// A game plugged into the arena: two players A and B, specs as strings.
pub trait Arena: Sync {
    /// Command-line name (`connect4`, `piranhas`, `maumau`, `koehandel`).
    fn name(&self) -> &'static str;
    /// Games per pairing unit (2: sides swapped; 4: Koehandel seat patterns).
    fn unit(&self) -> u64;
    /// Label of slot `slot` (which colour / seat A has), for the per-side breakdown.
    fn side_label(&self, slot: u64) -> String;
    /// Parses a spec without playing; the error is one line.
    fn check_spec(&self, spec: &str) -> anyhow::Result<()>;
    /// Plays one game.
    fn play(&self, job: &Job) -> anyhow::Result<Played>;
    /// Positions of a recorded game for `kibitz replay`: `(what happened, board drawn)` for the
    /// start and after every move.
    fn replay(&self, record: &Value) -> anyhow::Result<Vec<(String, String)>>;
    /// Whether `--openings FILE` means something for this game (a start position per line).
    fn takes_openings(&self) -> bool {
        false
    }
}

/// The adapter for game `name`.
pub fn adapter(name: &str) -> anyhow::Result<Box<dyn Arena>> {
    Ok(match name {
        "connect4" | "c4" => Box::new(connect4::Connect4),
        "piranhas" => Box::new(piranhas::Piranhas),
        "maumau" => Box::new(maumau::Maumau::default()),
        "koehandel" => Box::new(koehandel::Koehandel),
        other => anyhow::bail!(
            "unknown game {other:?} (expected connect4, piranhas, maumau or koehandel)"
        ),
    })
}

/// Splits `key=value` options of a spec body (`kind:k=v,k=v`), returning the kind and pairs.
pub fn split_spec(spec: &str) -> (&str, Vec<(&str, &str)>) {
    let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
    let opts = rest
        .split([',', ':'])
        .map(str::trim)
        .filter(|o| !o.is_empty())
        .map(|o| o.split_once('=').unwrap_or((o, "")))
        .collect();
    (kind.trim(), opts)
}
