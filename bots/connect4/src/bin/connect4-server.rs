//! `connect4-server`: the reference Connect Four contest server.
//!
//! Configured by environment variables as the original (PORT, TIMEOUT, DELAY, MINPLAYERS) plus
//! our extensions (COLUMNS, ROWS, CONNECT, PARALLEL, SEASONS, BIND); see spec §9-§10.

use kibitz_bots_connect4::config::ServerConfig;
use kibitz_bots_connect4::server::Server;
use std::time::Duration;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let config = ServerConfig::from_env()?;
    println!("Starting server");
    let server = Server::start(config).await?;
    println!("Listening on {}", server.local_addr());
    let finished = async {
        while !server
            .wait_seasons(usize::MAX, Duration::from_secs(1))
            .await
        {
            if server.finished() {
                break;
            }
        }
    };
    tokio::select! {
        _ = finished => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    server.shutdown().await;
    Ok(())
}
