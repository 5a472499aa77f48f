//! One logging set-up for every binary: `--log-level LEVEL` (a tracing filter; `RUST_LOG` wins
//! when set), written to stderr (or stdout, [`init_stdout`]), coloured only on a terminal.
//! Binaries call [`init`] / [`init_stdout`] once at start; a new binary can flatten [`LogArgs`]
//! into its clap arguments for the flag itself.

use std::io::IsTerminal;

/// The shared `--log-level` flag.
#[derive(clap::Args, Debug, Clone)]
pub struct LogArgs {
    /// Log filter: error, warn, info, debug, trace, or per module (`kibitz_net=debug`);
    /// RUST_LOG wins when it is set.
    #[arg(
        long = "log-level",
        alias = "log",
        default_value = "info",
        value_name = "LEVEL"
    )]
    pub log_level: String,
}

impl LogArgs {
    /// Installs the stderr subscriber. Call once, first thing in `main`; a second call is a no-op
    /// (the first subscriber stays).
    pub fn init(&self) {
        init(&self.log_level);
    }
}

/// Installs the stderr subscriber with `level` as the filter unless `RUST_LOG` is set.
pub fn init(level: &str) {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(filter(level))
        .try_init();
}

/// [`init`] writing to stdout: the Connect Four and Koehandel binaries log their game events
/// (the address they serve, registrations, results) on stdout, where their users and scripts
/// read them.
pub fn init_stdout(level: &str) {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stdout)
        .with_ansi(std::io::stdout().is_terminal())
        .with_env_filter(filter(level))
        .try_init();
}

fn filter(level: &str) -> tracing_subscriber::EnvFilter {
    tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        log: LogArgs,
    }

    #[test]
    fn flag_and_alias_and_default() {
        assert_eq!(Cli::parse_from(["x"]).log.log_level, "info");
        assert_eq!(
            Cli::parse_from(["x", "--log-level", "debug"]).log.log_level,
            "debug"
        );
        assert_eq!(
            Cli::parse_from(["x", "--log", "warn"]).log.log_level,
            "warn"
        );
        init("info");
        init("debug"); // a second call keeps the first subscriber and does not panic
    }
}
