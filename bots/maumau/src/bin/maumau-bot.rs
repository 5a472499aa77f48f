//! `maumau-bot` (scaffold).

fn main() -> anyhow::Result<()> {
    anyhow::bail!("maumau-bot is not built yet")
}
