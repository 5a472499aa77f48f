//! `kibitz`: the front door to every engine, bot and reference server in the workspace.
//!
//! The CLI holds no game logic: each subcommand module parses flags and calls into the
//! engine and bot crates.

mod arena;
mod bench;
mod connect4;
mod koehandel;
mod maumau;
mod params_cli;
mod piranhas;
mod play;
mod registry;
mod replay;
mod roundrobin;
mod score;
mod serve;
mod tournament;
mod wuerfel;
mod wuerfel_report;

use clap::{Parser, Subcommand};

/// Game engines, search and contest bots for five programming contests.
#[derive(Parser, Debug)]
#[command(name = "kibitz", version, about)]
struct Cli {
    /// Log filter (error, warn, info, debug, trace or a tracing directive); RUST_LOG wins.
    #[arg(long, global = true, default_value = "warn")]
    log_level: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// A match between two player specs in any game: W/D/L, Elo ± 95 %, LOS, SPRT, records.
    Match(arena::cli::MatchArgs),
    /// More than two players: a round robin (or `--gauntlet`), crosstable and one
    /// maximum-likelihood Elo list over all games.
    Roundrobin(roundrobin::Args),
    /// Play a bot yourself in the terminal (board drawn, legal moves listed).
    Play(play::Args),
    /// Step through a game record (`--records`) with the board drawn, or print it with `--all`.
    Replay(replay::Args),
    /// Score games already played from record files: standings, or A's W/D/L, Elo ± 95 %
    /// and SPRT per seat (real bots through a server's `--records`).
    Score(score::Args),
    /// A web viewer of game records: index, every game as SVG, live updates, match plots.
    Serve(serve::Args),
    /// Play every contest locally over its real protocol against our reference servers.
    Tournament(tournament::Args),
    /// Connect Four: solver, opening book, benchmarks.
    #[command(subcommand)]
    Connect4(connect4::Cmd),
    /// Piranhas (Software-Challenge 2019): perft, bench, matches.
    #[command(subcommand)]
    Piranhas(piranhas::Cmd),
    /// Mau-Mau (Free-Hack 2017): matches between players.
    #[command(subcommand)]
    Maumau(maumau::Cmd),
    /// Koehandel (Kuhhandel / You're Bluffing): matches between players.
    #[command(subcommand)]
    Koehandel(koehandel::Cmd),
    /// Würfelglück (BwInf 2021): rank dice by simulated Mensch-ärgere-dich-nicht games.
    Wuerfel(wuerfel::Args),
    /// An engine's tunables (as `kibitz <game> params`): a table, or JSON with `--json`.
    Params(params_cli::GameParamsArgs),
    /// Deterministic bench signature of every engine (node counts and nodes/s).
    Bench(bench::Args),
}

fn main() -> std::process::ExitCode {
    match real_main() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // One line: the error and its causes joined.
            eprintln!("error: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}

fn real_main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    kibitz_net::logging::init(&cli.log_level);
    dispatch(cli.command)
}

/// Runs one subcommand.
fn dispatch(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Match(args) => arena::cli::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Roundrobin(args) => roundrobin::run(args),
        Command::Score(args) => score::run(args),
        Command::Play(args) => play::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Connect4(cmd) => connect4::run(cmd),
        Command::Piranhas(cmd) => piranhas::run(cmd),
        Command::Maumau(cmd) => maumau::run(cmd),
        Command::Koehandel(cmd) => koehandel::run(cmd),
        Command::Wuerfel(args) => wuerfel::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Params(args) => params_cli::run(args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error of `kibitz ARGS`, parsed and run in process.
    fn error_of(args: &[&str]) -> String {
        let cli = Cli::try_parse_from(std::iter::once("kibitz").chain(args.iter().copied()))
            .expect("the flags parse");
        match dispatch(cli.command) {
            Ok(()) => panic!("kibitz {args:?} succeeded"),
            Err(e) => format!("{e:#}"),
        }
    }

    /// `kibitz params GAME` lists every registry game with tunables, by name or alias.
    #[test]
    fn params_reads_the_registry() {
        for g in registry::GAMES {
            let names = std::iter::once(g.name).chain(g.aliases.iter().copied());
            for n in names {
                let cli = Cli::try_parse_from(["kibitz", "params", n, "--json"]).unwrap();
                assert_eq!(dispatch(cli.command).is_ok(), g.params.is_some(), "{n}");
            }
        }
    }

    /// Every command that takes a game name says which names it knows, from the registry.
    #[test]
    fn every_unknown_game_error_lists_the_registry_names() {
        let dir = std::env::temp_dir().join(format!("kibitz-registry-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("chess.jsonl");
        std::fs::write(
            &file,
            "{\"format\":\"kibitz-record/1\",\"game\":\"chess\",\"players\":[\"a\",\"b\"],\"moves\":[]}\n",
        )
        .unwrap();
        let replay = error_of(&["replay", file.to_str().unwrap(), "--all"]);
        let _ = std::fs::remove_dir_all(&dir);
        let list = |names: Vec<&str>| format!("(known: {})", names.join(", "));
        let cases = [
            (
                error_of(&["play", "chess", "--bot", "random"]),
                list(registry::names(registry::play_of)),
            ),
            (
                error_of(&["match", "chess", "--a", "x", "--b", "y"]),
                list(registry::names(registry::adapter_of)),
            ),
            (
                error_of(&["params", "chess"]),
                list(registry::names(registry::params_of)),
            ),
            (
                error_of(&["bench", "--only", "chess"]),
                list(registry::names(registry::bench_of)),
            ),
            (replay, list(registry::names(registry::adapter_of))),
        ];
        for (e, known) in &cases {
            assert!(e.contains("unknown game \"chess\""), "{e}");
            assert!(e.contains(known), "{e} should list {known}");
        }
        assert!(cases[3].0.contains("madn"), "{}", cases[3].0);
    }
}
