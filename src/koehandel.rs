//! `kibitz koehandel …` subcommands (scaffold: filled in by the koehandel issue).

use clap::Subcommand;

/// `kibitz koehandel` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Not built yet.
    Todo,
}

/// Runs one `kibitz koehandel` subcommand.
pub fn run(_cmd: Cmd) -> anyhow::Result<()> {
    anyhow::bail!("kibitz koehandel is not built yet")
}
