//! `koehandel-server` (scaffold).

fn main() -> anyhow::Result<()> {
    anyhow::bail!("koehandel-server is not built yet")
}
