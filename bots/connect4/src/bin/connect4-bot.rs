//! `connect4-bot` (scaffold).

fn main() -> anyhow::Result<()> {
    anyhow::bail!("connect4-bot is not built yet")
}
