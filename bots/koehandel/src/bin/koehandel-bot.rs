//! `koehandel-bot [--host H] [--port P] [--strategy NAME]`: our player endpoint for the
//! koehandel market.

use clap::Parser;
use kibitz_bots_koehandel::client;
use std::io::IsTerminal;

/// A koehandel player endpoint: answers the market's GET requests.
#[derive(Parser)]
#[command(version, about)]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on (0 = any free port); not the market's 56789.
    #[arg(long, default_value_t = 56790)]
    port: u16,
    /// Old form `ADDR:PORT` (overrides --host/--port).
    #[arg(long, hide = true)]
    listen: Option<String>,
    /// Strategy from the engine's registry (pass, random, heuristic, strong); default: the best.
    #[arg(long)]
    strategy: Option<String>,
    /// Log filter (error, warn, info, debug, trace or a tracing directive); RUST_LOG wins.
    #[arg(long, default_value = "info")]
    log_level: String,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| args.log_level.as_str().into()),
        )
        .with_ansi(std::io::stdout().is_terminal())
        .init();
    let listen = args
        .listen
        .clone()
        .unwrap_or_else(|| format!("{}:{}", args.host, args.port));
    let strategy = args
        .strategy
        .unwrap_or_else(|| client::best_strategy().to_string());
    let bot = client::spawn(&listen, &strategy).await?;
    tracing::info!("koehandel bot ({strategy}) listening on {}", bot.url());
    tokio::signal::ctrl_c().await?;
    Ok(())
}
