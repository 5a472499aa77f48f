//! The flags `kibitz match` and `kibitz roundrobin` share: how a match's games are seeded,
//! run side by side, timed and opened. One struct, flattened into both commands, so the two
//! accept, check and read them alike.

use super::Arena;
use std::path::{Path, PathBuf};

/// Seed, concurrency, default time and opening or deal file of a match.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct PlayFlags {
    /// Match seed: openings, deals, decks and every player's RNG derive from it
    /// (default: random, printed). A round robin plays every pair with it.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games played at the same time (default: all cores).
    #[arg(long, alias = "threads")]
    pub concurrency: Option<usize>,
    /// Per-move time in ms for specs that set no limit of their own.
    #[arg(long, value_name = "MS")]
    pub tc: Option<u64>,
    /// Openings, one per line, cycled over the pairing units (connect4: 1-based column
    /// digits; piranhas: Kraken squares `x,y,x,y` or a 100-character start board as in
    /// `data/piranhas/start_positions.jsonl`).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Mau-Mau and Koehandel: deals, one per line, cycled over the pairing units: each line a
    /// deal seed (the record's `setup.deal_seed` / `deck_seed`; format: `arena::deals`).
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    pub deals: Option<PathBuf>,
}

/// [`PlayFlags`] checked against a game, with the files read and the seed chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The match seed (the one given, or a random one).
    pub seed: u64,
    /// Games at the same time, at least 1.
    pub concurrency: usize,
    /// The opening or deal lines, empty for none.
    pub openings: Vec<String>,
}

impl PlayFlags {
    /// Checks the flags against `arena` (an opening file for a game without openings, a deal
    /// file for a game without deals, `--concurrency 0`), reads the file, and only then picks
    /// a random seed if none was given, printing it to stderr with how to repeat the `what`
    /// ("match", "tournament"). So a bad flag fails before anything is printed.
    pub fn resolve(&self, arena: &dyn Arena, what: &str) -> anyhow::Result<Resolved> {
        if self.openings.is_some() && !arena.takes_openings() {
            anyhow::bail!(
                "--openings: {} has no openings (Connect Four and Piranhas have; Mau-Mau and Koehandel take --deals)",
                arena.name()
            );
        }
        if self.deals.is_some() && !arena.takes_deals() {
            anyhow::bail!(
                "--deals: {} has no deals (Mau-Mau and Koehandel have; Connect Four and Piranhas take --openings)",
                arena.name()
            );
        }
        if self.concurrency == Some(0) {
            anyhow::bail!("--concurrency 0: at least one game must be played at a time");
        }
        let openings = match (&self.openings, &self.deals) {
            (_, Some(d)) => {
                let deals = lines_of(d)?;
                super::deals::check(&deals)?;
                deals
            }
            (Some(o), None) => lines_of(o)?,
            (None, None) => Vec::new(),
        };
        let concurrency = self
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let seed = self.seed.unwrap_or_else(|| {
            let s = rand::random::<u64>() >> 16;
            eprintln!("seed {s} (random; pass --seed {s} to repeat this {what})");
            s
        });
        Ok(Resolved {
            seed,
            concurrency,
            openings,
        })
    }
}

/// Non-empty, non-comment (`#`) lines of a file, trimmed: an opening or deal file. A file
/// with none is refused (it would silently mean "no openings").
pub fn lines_of(path: &Path) -> anyhow::Result<Vec<String>> {
    use anyhow::Context;
    let lines: Vec<String> = std::fs::read_to_string(path)
        .with_context(|| format!("reading {}", path.display()))?
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    if lines.is_empty() {
        anyhow::bail!(
            "{}: no lines (blank lines and # comments are skipped)",
            path.display()
        );
    }
    Ok(lines)
}
