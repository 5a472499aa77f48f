//! Deal files for the card games (`kibitz match maumau|koehandel --deals FILE`).
//!
//! Format: one deal per line, the **deal seed** as a decimal `u64` (blank lines and `#`
//! comments skipped). Mau-Mau shuffles its deck with `kibitz_bots_maumau::record::
//! shuffled_deck(seed)` and deals from it; Koehandel draws its animal deck from
//! `Game::new(seed)`. The record's `setup.deal_seed` (Mau-Mau) or `setup.deck_seed`
//! (Koehandel), with the deck it produced, is the line the game started from, so a deal seen
//! in a record goes straight into a deal file. Lines are cycled over the pairing units, as
//! openings are: every seat pattern of a unit plays the same deal.

use super::Job;
use anyhow::Context;

/// Parses one deal line: the deal seed.
pub fn parse(line: &str) -> anyhow::Result<u64> {
    line.trim()
        .parse::<u64>()
        .with_context(|| format!("deal {line:?}: a deal is a seed, a whole number 0..2^64"))
}

/// Checks every line of a deal file before anything is played (line numbers count only the
/// deals, from 1).
pub fn check(lines: &[String]) -> anyhow::Result<()> {
    for (k, l) in lines.iter().enumerate() {
        parse(l).with_context(|| format!("--deals, deal {}", k + 1))?;
    }
    Ok(())
}

/// The deal seed of `job`: its `--deals` line where there is one, else the unit seed.
pub fn seed(job: &Job) -> anyhow::Result<u64> {
    job.opening.map_or(Ok(job.unit_seed()), parse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deal_lines_are_seeds_and_bad_ones_are_named() {
        assert_eq!(parse(" 42 ").unwrap(), 42);
        let e = check(&["1".into(), "x".into()]).unwrap_err();
        assert!(format!("{e:#}").contains("deal 2"), "{e:#}");
        let job = Job {
            a: "random",
            b: "random",
            seed: 1,
            index: 0,
            unit: 0,
            slot: 0,
            seating: crate::arena::Seating::single(2, 0),
            opening: Some("77"),
            tc_ms: None,
        };
        assert_eq!(seed(&job).unwrap(), 77);
        assert_eq!(
            seed(&Job {
                opening: None,
                ..job.clone()
            })
            .unwrap(),
            job.unit_seed()
        );
    }
}
