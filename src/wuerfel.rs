//! `kibitz wuerfel` (scaffold).

/// Flags of `kibitz wuerfel`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `kibitz wuerfel`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("kibitz wuerfel is not built yet")
}
