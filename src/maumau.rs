//! `kibitz maumau …` subcommands (scaffold: filled in by the maumau issue).

use clap::Subcommand;

/// `kibitz maumau` subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Not built yet.
    Todo,
}

/// Runs one `kibitz maumau` subcommand.
pub fn run(_cmd: Cmd) -> anyhow::Result<()> {
    anyhow::bail!("kibitz maumau is not built yet")
}
