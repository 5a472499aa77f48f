//! `maumau-server` (scaffold).

fn main() -> anyhow::Result<()> {
    anyhow::bail!("maumau-server is not built yet")
}
