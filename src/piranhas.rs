//! `kibitz piranhas …` subcommands (scaffold: filled in by the piranhas issue).

use clap::Subcommand;

/// `kibitz piranhas` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Not built yet.
    Todo,
}

/// Runs one `kibitz piranhas` subcommand.
pub fn run(_cmd: Cmd) -> anyhow::Result<()> {
    anyhow::bail!("kibitz piranhas is not built yet")
}
