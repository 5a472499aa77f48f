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
    match cli.command {
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
    }
}
