//! `kibitz <game> match`: `kibitz match <game>` with the game fixed — the same flags, seeding,
//! runner and report — plus helpers for each game's old flags, kept as hidden aliases that map
//! onto arena flags and spec keys (`src/maumau.rs`, `src/koehandel.rs`).
//!
//! The flags are read from [`MatchArgs`] itself (its `clap` derive), so a flag added to
//! `kibitz match` reaches every `kibitz <game> match` without a second list to keep in step.

use super::cli::MatchArgs;
use super::split_spec;
use clap::error::ErrorKind;
use clap::{ArgMatches, Command};

/// The flags of `kibitz match`, with its game word fixed to `game` and hidden.
pub fn augment(cmd: Command, game: &'static str) -> Command {
    <MatchArgs as clap::Args>::augment_args(cmd)
        .mut_arg("game", |a| a.required(false).default_value(game).hide(true))
}

/// Reads the `kibitz match` flags of [`augment`] back; a stray word in the game's place (the
/// game is fixed) is refused.
pub fn take(m: &mut ArgMatches, game: &str) -> Result<MatchArgs, clap::Error> {
    let args = <MatchArgs as clap::FromArgMatches>::from_arg_matches_mut(m)?;
    if args.game != game {
        return Err(error(
            ErrorKind::UnknownArgument,
            &format!(
                "unexpected argument {:?}: `kibitz {game} match` plays {game} only",
                args.game
            ),
        ));
    }
    Ok(args)
}

/// `spec` with `key=value` added, unless the spec sets `key` already (its own value wins).
pub fn with_key(spec: &str, key: &str, value: &str) -> String {
    let (_, opts) = split_spec(spec);
    if opts.iter().any(|(k, _)| *k == key) {
        return spec.to_string();
    }
    if spec.contains(':') {
        format!("{spec},{key}={value}")
    } else {
        format!("{spec}:{key}={value}")
    }
}

/// A usage error as `clap` prints them (`error: ...`, exit code 2).
pub fn error(kind: ErrorKind, msg: &str) -> clap::Error {
    clap::Error::raw(kind, format!("{msg}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_added_once_and_the_spec_keeps_its_own() {
        assert_eq!(with_key("ismcts", "iterations", "9"), "ismcts:iterations=9");
        assert_eq!(
            with_key("ismcts:param.c=0.8", "time", "50"),
            "ismcts:param.c=0.8,time=50"
        );
        assert_eq!(with_key("ismcts:time=20", "time", "50"), "ismcts:time=20");
    }
}
