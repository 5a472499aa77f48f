//! `kibitz tournament` (scaffold).

/// Flags of `kibitz tournament`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `kibitz tournament`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("kibitz tournament is not built yet")
}
