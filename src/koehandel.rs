//! `kibitz koehandel …`: matches between Koehandel players (engine: kibitz-koehandel).

use crate::arena::game_match;
use clap::Subcommand;
use kibitz_koehandel::PLAYER_NAMES;
use kibitz_search::params::Tunable;
use std::time::Instant;

/// `kibitz koehandel` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// `kibitz match koehandel`: A against B, two seats each, over the four rotations of
    /// `AABB` on every deck.
    Match(MatchArgs),
    /// Time the deterministic bench workload.
    Bench,
    /// List the strong player's tunables (name, default, range, step, doc; tab-separated).
    Params(crate::params_cli::ParamsArgs),
}

/// Flags of `kibitz koehandel match`: exactly those of `kibitz match koehandel` (it is that
/// command: A against B, two seats each, over the four rotations of `AABB` on every deck),
/// plus the old flags as hidden aliases: `--seats LIST` of four players naming two players
/// twice each (`x,x,y,y` in any order) is `--a x --b y`; `--param NAME=V` (repeatable) adds
/// `param.NAME=V` to every `strong` spec. `--seats N` is the arena's seat count (Koehandel is
/// always four).
#[derive(Debug, Clone)]
pub struct MatchArgs(pub Box<crate::arena::cli::MatchArgs>);

/// Turns the old `--seats LIST` into A and B, or says why it cannot.
fn seats_list(list: &str) -> Result<(String, String), String> {
    let names: Vec<&str> = list.split(',').map(str::trim).collect();
    let mut distinct: Vec<&str> = names.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let twice = |x: &str| names.iter().filter(|n| **n == x).count() == 2;
    match distinct.as_slice() {
        [x, y] if names.len() == 4 && twice(x) && twice(y) => {
            let a = names[0];
            let b = if a == *x { y } else { x };
            Ok((a.to_string(), b.to_string()))
        }
        _ => Err(format!(
            "--seats {list:?}: a match is now A against B, two seats each (the four rotations \
             of AABB on every deck); pass --a and --b (players: {})",
            PLAYER_NAMES.join(", ")
        )),
    }
}

/// Adds `param.NAME=V` of every `--param` to `spec` if it is a strong player's.
fn with_params(spec: &str, params: &[String]) -> Result<String, String> {
    let mut out = spec.to_string();
    for p in params {
        kibitz_koehandel::strong::StrongParams::default()
            .apply(p)
            .map_err(|e| format!("--param {p}: {e}"))?;
        if crate::arena::split_spec(spec).0 == "strong" {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            out = game_match::with_key(&out, &format!("param.{}", k.trim()), v.trim());
        }
    }
    Ok(out)
}

impl clap::Args for MatchArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        let optional = |a: clap::Arg| a.required(false).default_value("").hide_default_value(true);
        game_match::augment(cmd, "koehandel")
            .mut_arg("a", optional)
            .mut_arg("b", optional)
            // `--seats N` of `kibitz match`, or the old `--seats LIST`: read as text here.
            .mut_arg("seats", |a| a.value_parser(clap::value_parser!(String)))
            .arg(
                clap::Arg::new("param")
                    .long("param")
                    .hide(true)
                    .action(clap::ArgAction::Append),
            )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for MatchArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        Self::from_arg_matches_mut(&mut m.clone())
    }

    fn from_arg_matches_mut(m: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        use clap::error::ErrorKind;
        let seats: Option<String> = m.remove_one("seats");
        let params: Vec<String> = m
            .remove_many("param")
            .map(Iterator::collect)
            .unwrap_or_default();
        let mut args = game_match::take(m, "koehandel")?;
        let bad = |msg: String| game_match::error(ErrorKind::ValueValidation, &msg);
        match seats.as_deref().map(|s| (s, s.trim().parse::<usize>())) {
            Some((_, Ok(n))) => args.seats = Some(n),
            Some((list, Err(_))) => {
                if !args.a.is_empty() || !args.b.is_empty() {
                    return Err(bad(format!(
                        "--seats {list:?} names the players; drop it or --a/--b"
                    )));
                }
                (args.a, args.b) = seats_list(list).map_err(bad)?;
            }
            None => {}
        }
        if args.a.is_empty() || args.b.is_empty() {
            return Err(game_match::error(
                ErrorKind::MissingRequiredArgument,
                "the following required arguments were not provided: --a <A> --b <B>",
            ));
        }
        args.a = with_params(&args.a, &params).map_err(bad)?;
        args.b = with_params(&args.b, &params).map_err(bad)?;
        Ok(MatchArgs(Box::new(args)))
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// Runs one `kibitz koehandel` subcommand.
pub fn run(cmd: Cmd) -> anyhow::Result<()> {
    match cmd {
        Cmd::Match(args) => crate::arena::cli::run(*args.0),
        Cmd::Bench => {
            let t = Instant::now();
            let n = kibitz_koehandel::bench();
            let secs = t.elapsed().as_secs_f64();
            println!(
                "koehandel bench: {n} decisions in {secs:.2} s ({:.0} decisions/s)",
                n as f64 / secs
            );
            Ok(())
        }
        Cmd::Params(args) => {
            crate::params_cli::print(&kibitz_koehandel::param_specs(), &args);
            Ok(())
        }
    }
}
