//! `piranhas-server` (scaffold).

fn main() -> anyhow::Result<()> {
    anyhow::bail!("piranhas-server is not built yet")
}
