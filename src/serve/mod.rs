//! `kibitz serve`: a web viewer of game records (kibitz issue 36).
//!
//! Every `*.jsonl` record file (format: `arena::record`) in the `--records` folders is listed
//! on an index page, filterable by game, player and result through the query string
//! (`/?game=piranhas&player=greedy&result=seat0`). Each game has its own page
//! (`/game/{folder}/{file}/{n}`) with the board drawn as SVG on the server for every ply
//! (`Arena::positions` gives the structured position, `svg` draws it), a move list, ←/→ and
//! Home/End to step and the ply in the URL (`#ply=17`). There is no JavaScript build chain:
//! HTML and SVG come from the server, a small inline script steps through the embedded plies.
//!
//! Each folder also has a live tournament page (`/standings/{folder}`, [`standings`]): the
//! standings and a crosstable per game over all its records.
//!
//! Live: the files are polled ([`live`]); when a record is appended or a file rewritten, the
//! index and any open game page update without a reload (server-sent events at `/events`).
//!
//! Modules: [`store`] (reading the folders), [`routes`] (the router), [`index`], [`game_page`],
//! [`svg`] (one file per game), [`live`], [`html`] (escaping and the page frame).

pub mod game_page;
pub mod html;
pub mod index;
pub mod live;
pub mod plots;
pub mod routes;
pub mod standings;
pub mod store;
pub mod svg;

use anyhow::Context;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

/// Flags of `kibitz serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A folder of JSON-lines record files (`--records` of match, tournament or a server);
    /// repeat for several. Default: `records`.
    #[arg(long = "records", value_name = "DIR")]
    pub records: Vec<PathBuf>,
    /// Address to listen on (loopback by default; the viewer has no authentication).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Port (0: any free port; the address is printed on the first line of stdout).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// How often the folders are checked for new records, in ms.
    #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub poll_ms: u64,
}

/// Runs `kibitz serve` until interrupted.
pub fn run(args: Args) -> anyhow::Result<()> {
    let dirs = if args.records.is_empty() {
        vec![PathBuf::from("records")]
    } else {
        args.records
    };
    for d in &dirs {
        if !d.is_dir() {
            tracing::warn!("{}: not a folder (yet); watched anyway", d.display());
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(async move {
        let addr = SocketAddr::new(args.host, args.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        let state = routes::AppState::new(dirs);
        tokio::spawn(live::watch(
            state.clone(),
            std::time::Duration::from_millis(args.poll_ms),
        ));
        println!("kibitz serve: listening on http://{local}/");
        use std::io::Write;
        std::io::stdout().flush().ok();
        let app = routes::router(state);
        tokio::select! {
            r = axum::serve(listener, app) => r.context("serving")?,
            _ = tokio::signal::ctrl_c() => tracing::info!("interrupted"),
        }
        Ok(())
    })
}
