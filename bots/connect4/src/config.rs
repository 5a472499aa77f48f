//! The reference server's configuration: the original's environment variables (spec §9) and
//! our extensions (spec §10), validated before the server starts.

use std::net::IpAddr;
use std::time::Duration;
use thiserror::Error;

/// A configuration variable with an unusable value; the server refuses to start.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad value {value:?} for {variable}: {expected}")]
pub struct ConfigError {
    /// The environment variable.
    pub variable: &'static str,
    /// Its value.
    pub value: String,
    /// What would have been accepted.
    pub expected: String,
}

/// Everything the reference server can be told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    /// `BIND`: address to listen on (our extension; the original listens on all interfaces).
    pub bind: IpAddr,
    /// `PORT`: UDP port (0 = any free port).
    pub port: u16,
    /// `TIMEOUT`: time allowed for each answer (JOIN and INSERT).
    pub timeout: Duration,
    /// `DELAY`: time between start and the first season.
    pub delay: Duration,
    /// `MINPLAYERS`: registered players needed before a season starts.
    pub min_players: usize,
    /// `COLUMNS`: board width.
    pub columns: usize,
    /// `ROWS`: board height.
    pub rows: usize,
    /// `CONNECT`: stones in a line needed to win.
    pub connect: usize,
    /// `PARALLEL`: play the games of a matchday at the same time.
    pub parallel: bool,
    /// `SEASONS`: stop after this many seasons (`None` = never, as the original).
    pub seasons: Option<u32>,
    /// Print the ranking and standings table to stdout after every season (the binary does;
    /// in-process users usually read [`crate::server::Server::results`] instead).
    pub print_standings: bool,
    /// `--records DIR`: append every game of every season to `DIR/connect4.jsonl`
    /// (`kibitz-record/1`, see [`crate::record`]).
    pub records: Option<std::path::PathBuf>,
    /// Seed written into the records (the server itself draws nothing at random; a
    /// tournament passes its seed so a record names the run it came from).
    pub seed: Option<u64>,
    /// Play exactly one game between two named players instead of seasons (our extension,
    /// for `kibitz match` with an external `cmd:` seat; see [`crate::external`]). `None`
    /// (the default) keeps the original's seasons. The wire protocol is unchanged.
    pub one_game: Option<OneGame>,
}

/// One game instead of seasons ([`ServerConfig::one_game`]): the server waits until both
/// names are registered (MINPLAYERS is ignored), sends `NEW SEASON` to those two only, plays
/// one game `names[0]` (home, moves first) against `names[1]` if both `JOIN`, and stops
/// ([`crate::server::Server::finished`]). Anyone else who registers is never invited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OneGame {
    /// Home (moves first), then away.
    pub names: [String; 2],
    /// Answer time (JOIN and INSERT) of each of the two, in the order of `names`; it replaces
    /// `TIMEOUT` for them, so an external bot can be held to the contest's clock while our
    /// in-process player keeps its own budget.
    pub timeouts: [Duration; 2],
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 4446,
            timeout: Duration::from_millis(250),
            delay: Duration::ZERO,
            min_players: 1,
            columns: 7,
            rows: 6,
            connect: 4,
            parallel: false,
            seasons: None,
            print_standings: false,
            records: None,
            seed: None,
            one_game: None,
        }
    }
}

fn bad(variable: &'static str, value: &str, expected: impl Into<String>) -> ConfigError {
    ConfigError {
        variable,
        value: value.to_string(),
        expected: expected.into(),
    }
}

fn number<T: std::str::FromStr>(
    variable: &'static str,
    value: &str,
    expected: &str,
) -> Result<T, ConfigError> {
    value
        .trim()
        .parse::<T>()
        .map_err(|_| bad(variable, value, expected))
}

impl ServerConfig {
    /// Reads the configuration from `lookup` (normally `std::env::var`), defaults for the rest.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let mut c = ServerConfig {
            print_standings: true,
            ..ServerConfig::default()
        };
        if let Some(v) = lookup("BIND") {
            c.bind = number("BIND", &v, "an IP address")?;
        }
        if let Some(v) = lookup("PORT") {
            c.port = number("PORT", &v, "a port number 0-65535")?;
        }
        if let Some(v) = lookup("TIMEOUT") {
            let ms: u64 = number("TIMEOUT", &v, "milliseconds, at least 1")?;
            if ms == 0 {
                return Err(bad("TIMEOUT", &v, "milliseconds, at least 1"));
            }
            c.timeout = Duration::from_millis(ms);
        }
        if let Some(v) = lookup("DELAY") {
            c.delay = Duration::from_millis(number("DELAY", &v, "milliseconds")?);
        }
        if let Some(v) = lookup("MINPLAYERS") {
            c.min_players = number("MINPLAYERS", &v, "a number of players")?;
        }
        for (var, slot) in [
            ("COLUMNS", &mut c.columns),
            ("ROWS", &mut c.rows),
            ("CONNECT", &mut c.connect),
        ] {
            if let Some(v) = lookup(var) {
                let n: usize = number(var, &v, "a positive integer")?;
                if n == 0 {
                    return Err(bad(var, &v, "a positive integer"));
                }
                *slot = n;
            }
        }
        if let Some(v) = lookup("PARALLEL") {
            c.parallel = match v.trim() {
                "0" => false,
                "1" => true,
                _ => return Err(bad("PARALLEL", &v, "0 or 1")),
            };
        }
        if let Some(v) = lookup("SEASONS") {
            let n: u32 = number("SEASONS", &v, "0 (forever) or a number of seasons")?;
            c.seasons = (n > 0).then_some(n);
        }
        c.validate()?;
        Ok(c)
    }

    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|k| std::env::var(k).ok())
    }

    /// Checks the board size (spec §10.1) and that our rules engine can hold it.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.connect > self.columns.max(self.rows) {
            return Err(bad(
                "CONNECT",
                &self.connect.to_string(),
                format!(
                    "at most max(COLUMNS, ROWS) = {}",
                    self.columns.max(self.rows)
                ),
            ));
        }
        if let Err(e) = kibitz_connect4::Position::new(self.columns, self.rows, self.connect) {
            return Err(bad(
                "COLUMNS",
                &format!("{}x{} connect {}", self.columns, self.rows, self.connect),
                format!("a size the rules engine supports ({e})"),
            ));
        }
        if self.timeout.is_zero() {
            return Err(bad("TIMEOUT", "0", "milliseconds, at least 1"));
        }
        if let Some(g) = &self.one_game {
            if g.names[0] == g.names[1] {
                return Err(bad("one_game", &g.names[0], "two different names"));
            }
            if g.timeouts.iter().any(Duration::is_zero) {
                return Err(bad("one_game", "0", "answer times of at least 1 ms"));
            }
        }
        Ok(())
    }

    /// The answer time allowed to `name`: its [`OneGame::timeouts`] entry in a one-game
    /// server, else `TIMEOUT`.
    pub fn timeout_for(&self, name: &str) -> Duration {
        self.one_game
            .as_ref()
            .and_then(|g| {
                g.names
                    .iter()
                    .position(|n| n == name)
                    .map(|i| g.timeouts[i])
            })
            .unwrap_or(self.timeout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> Result<ServerConfig, ConfigError> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        ServerConfig::from_lookup(|k| m.get(k).cloned())
    }

    #[test]
    fn defaults_match_the_original() {
        let c = env(&[]).unwrap();
        assert_eq!(
            (c.port, c.timeout, c.delay, c.min_players),
            (4446, Duration::from_millis(250), Duration::ZERO, 1)
        );
        assert_eq!(
            (c.columns, c.rows, c.connect, c.parallel, c.seasons),
            (7, 6, 4, false, None)
        );
    }

    #[test]
    fn bad_values_name_the_variable() {
        for (k, v) in [
            ("PORT", "x"),
            ("PORT", "70000"),
            ("TIMEOUT", "-1"),
            ("TIMEOUT", "0"),
            ("COLUMNS", "0"),
            ("ROWS", "abc"),
            ("PARALLEL", "2"),
            ("SEASONS", "-3"),
            ("BIND", "localhost:1"),
        ] {
            assert_eq!(env(&[(k, v)]).unwrap_err().variable, k, "{k}={v}");
        }
        assert_eq!(env(&[("CONNECT", "8")]).unwrap_err().variable, "CONNECT");
        let c = env(&[
            ("COLUMNS", "9"),
            ("ROWS", "7"),
            ("CONNECT", "5"),
            ("SEASONS", "2"),
            ("PARALLEL", "1"),
        ])
        .unwrap();
        assert_eq!(
            (c.columns, c.rows, c.connect, c.seasons, c.parallel),
            (9, 7, 5, Some(2), true)
        );
    }
}
