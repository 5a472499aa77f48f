//! `kibitz bench` (scaffold).

/// Flags of `kibitz bench`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `kibitz bench`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("kibitz bench is not built yet")
}
