//! `koehandel-bot --listen ADDR [--strategy NAME]`: our player endpoint for the koehandel market.

use clap::Parser;
use kibitz_bots_koehandel::client;

/// A koehandel player endpoint: answers the market's GET requests.
#[derive(Parser)]
struct Args {
    /// Address to listen on, e.g. 127.0.0.1:8080 (port 0 = any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: String,
    /// Strategy from the engine's registry (pass, random, heuristic, strong); default: the best.
    #[arg(long)]
    strategy: Option<String>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let args = Args::parse();
    let strategy = args
        .strategy
        .unwrap_or_else(|| client::best_strategy().to_string());
    let bot = client::spawn(&args.listen, &strategy).await?;
    tracing::info!("koehandel bot ({strategy}) listening on {}", bot.url());
    tokio::signal::ctrl_c().await?;
    Ok(())
}
