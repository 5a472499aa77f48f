//! `connect4-server` (scaffold).

fn main() -> anyhow::Result<()> {
    anyhow::bail!("connect4-server is not built yet")
}
