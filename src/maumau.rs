//! `kibitz maumau …`: matches between Mau-Mau players (engine: kibitz-maumau).

use crate::arena::game_match;
#[cfg(feature = "research")]
use clap::Args;
use clap::Subcommand;
#[cfg(feature = "research")]
use kibitz_maumau::agents::{parse_agent, AgentOptions};
#[cfg(feature = "research")]
use kibitz_maumau::game::Config;
use std::time::Instant;

/// `kibitz maumau` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// `kibitz match maumau`: duplicate deals (each twice, seats swapped; `--seats 3|4`: A
    /// against copies of B, A's seat rotated over each deal).
    Match(MatchArgs),
    /// Time the deterministic ISMCTS bench workload.
    Bench,
    /// Measure the determinizer's evidence weights from self-play of a field of players.
    #[cfg(feature = "research")]
    Prior(PriorArgs),
    /// List the ISMCTS tunables (set them in a player spec: `ismcts:param.NAME=V`).
    Params(crate::params_cli::ParamsArgs),
}

/// Flags of `kibitz maumau prior`.
#[cfg(feature = "research")]
#[derive(Args, Debug)]
pub struct PriorArgs {
    /// Players of the field (every ordered pair plays `--games` games).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "random,greedy,heuristic,ismcts:iters=1000"
    )]
    pub field: Vec<String>,
    /// Games per ordered pair.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
}

/// Flags of `kibitz maumau match`: exactly those of `kibitz match maumau` (it is that command,
/// on the arena's runner, seeds and report), plus the old flags as hidden aliases:
/// `--time-ms MS` and `--iterations N` add `time=MS` / `iterations=N` to both specs (where a
/// spec does not set its own), `--elo0` / `--elo1` are `--sprt ELO0,ELO1` (defaults 0 and 50),
/// `--players N` is `--seats N`.
#[derive(Debug, Clone)]
pub struct MatchArgs(pub Box<crate::arena::cli::MatchArgs>);

/// The old flags of `kibitz maumau match` that `kibitz match` spells differently.
#[derive(Debug, Default, Clone, PartialEq)]
struct OldFlags {
    time_ms: Option<u64>,
    iterations: Option<u64>,
    elo0: Option<f64>,
    elo1: Option<f64>,
    players: Option<usize>,
}

impl OldFlags {
    /// Folds the old flags into `kibitz match` flags.
    fn apply(self, args: &mut crate::arena::cli::MatchArgs) {
        for spec in [&mut args.a, &mut args.b] {
            if let Some(ms) = self.time_ms {
                *spec = game_match::with_key(spec, "time", &ms.to_string());
            }
            if let Some(n) = self.iterations {
                *spec = game_match::with_key(spec, "iterations", &n.to_string());
            }
        }
        if self.elo0.is_some() || self.elo1.is_some() {
            args.sprt = Some(format!(
                "{},{}",
                self.elo0.unwrap_or(0.0),
                self.elo1.unwrap_or(50.0)
            ));
        }
        if self.players.is_some() {
            args.seats = self.players;
        }
    }
}

impl clap::Args for MatchArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        let old = |id: &'static str, long: &'static str| {
            clap::Arg::new(id)
                .long(long)
                .hide(true)
                .action(clap::ArgAction::Set)
        };
        game_match::augment(cmd, "maumau")
            .arg(old("time_ms", "time-ms").value_parser(clap::value_parser!(u64)))
            .arg(old("iterations", "iterations").value_parser(clap::value_parser!(u64)))
            .arg(
                old("elo0", "elo0")
                    .value_parser(clap::value_parser!(f64))
                    .conflicts_with("sprt"),
            )
            .arg(
                old("elo1", "elo1")
                    .value_parser(clap::value_parser!(f64))
                    .conflicts_with("sprt"),
            )
            .arg(
                old("players", "players")
                    .value_parser(clap::value_parser!(usize))
                    .conflicts_with("seats"),
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
        let old = OldFlags {
            time_ms: m.remove_one("time_ms"),
            iterations: m.remove_one("iterations"),
            elo0: m.remove_one("elo0"),
            elo1: m.remove_one("elo1"),
            players: m.remove_one("players"),
        };
        let mut args = game_match::take(m, "maumau")?;
        old.apply(&mut args);
        Ok(MatchArgs(Box::new(args)))
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// Runs one `kibitz maumau` subcommand.
pub fn run(cmd: Cmd) -> anyhow::Result<()> {
    match cmd {
        Cmd::Match(args) => crate::arena::cli::run(*args.0),
        Cmd::Params(args) => {
            crate::params_cli::print(&kibitz_maumau::param_specs(), &args);
            Ok(())
        }
        #[cfg(feature = "research")]
        Cmd::Prior(args) => {
            let mut st = kibitz_maumau::prior::EvidenceStats::default();
            for a in &args.field {
                for b in &args.field {
                    let opts = AgentOptions::default();
                    parse_agent(a, &opts)?;
                    parse_agent(b, &opts)?;
                    st.add_games(Config::default(), 0..args.games, &|s| {
                        vec![
                            Box::new(parse_agent(a, &opts).expect("checked").seated(0, s)),
                            Box::new(
                                parse_agent(b, &opts)
                                    .expect("checked")
                                    .seated(1, s ^ 0x5555),
                            ),
                        ]
                    });
                }
            }
            println!("{st}");
            Ok(())
        }
        Cmd::Bench => {
            let t = Instant::now();
            let steps = kibitz_maumau::bench();
            let secs = t.elapsed().as_secs_f64();
            println!(
                "maumau bench: {steps} simulated actions in {secs:.2} s ({:.0} actions/s)",
                steps as f64 / secs
            );
            Ok(())
        }
    }
}
