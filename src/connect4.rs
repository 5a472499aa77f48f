//! `kibitz connect4 …` subcommands (scaffold: filled in by the connect4 issue).

use clap::Subcommand;

/// `kibitz connect4` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Not built yet.
    Todo,
}

/// Runs one `kibitz connect4` subcommand.
pub fn run(_cmd: Cmd) -> anyhow::Result<()> {
    anyhow::bail!("kibitz connect4 is not built yet")
}
