//! `piranhas-bot` (scaffold).

fn main() -> anyhow::Result<()> {
    anyhow::bail!("piranhas-bot is not built yet")
}
