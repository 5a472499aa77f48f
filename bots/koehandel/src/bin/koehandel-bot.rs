//! `koehandel-bot` (scaffold).

fn main() -> anyhow::Result<()> {
    anyhow::bail!("koehandel-bot is not built yet")
}
