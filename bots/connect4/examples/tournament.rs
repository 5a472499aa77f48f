//! Runs the connect4 tournament once and prints the standings: `cargo run --release --example tournament [seconds]`.

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let secs: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let t = std::time::Instant::now();
    let standings = kibitz_bots_connect4::tournament::run(std::time::Duration::from_secs(secs))?;
    for s in &standings {
        println!(
            "{:<16} games {:>3}  W {:>3}  D {:>3}  L {:>3}  points {:>5.1}  {}",
            s.player, s.games, s.wins, s.draws, s.losses, s.points, s.note
        );
    }
    println!("took {:.1} s", t.elapsed().as_secs_f64());
    Ok(())
}
