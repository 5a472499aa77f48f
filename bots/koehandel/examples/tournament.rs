//! `cargo run --release -p kibitz-bots-koehandel --example tournament [SECONDS]`: the local
//! tournament on its own, printing the standings.

fn main() -> anyhow::Result<()> {
    let secs: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let t0 = std::time::Instant::now();
    let rows = kibitz_bots_koehandel::tournament::run(std::time::Duration::from_secs(secs))?;
    for r in rows {
        println!(
            "{:<22} games {:>3}  wins {:>3}  draws {:>2}  losses {:>3}  points {:>5.1}  {}",
            r.player, r.games, r.wins, r.draws, r.losses, r.points, r.note
        );
    }
    println!("({:.1} s)", t0.elapsed().as_secs_f64());
    Ok(())
}
