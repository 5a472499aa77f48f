//! The flags every contest binary shares, as clap groups flattened into each binary's
//! arguments, so that one meaning has one name everywhere:
//!
//! | group | flags | meaning |
//! |---|---|---|
//! | [`AddrArgs`] | `--host`, `--port` | where a server listens, or where a bot connects / listens |
//! | [`MoveLimitArgs`] | `--time-ms` | a server's time for one answer of a player |
//! | [`SeedArgs`] | `--seed` | the seed of a server's deals and draws |
//! | [`PlayerArgs`] | `--player`, `--seed` | a bot's move chooser and the seed of its randomness |
//!
//! The groups carry no defaults of their own: each binary sets its own with [`parse`] and
//! [`defaults`] (a Connect Four server listens on 4446, a Piranhas one on 13050), and its
//! `--help` shows them. Old names stay as hidden aliases, so scripts keep working:
//! `--bind` (for `--host`), `--timeout`, `--soft-ms`, `--turn-timeout-ms`, `--deadline-ms`
//! (for `--time-ms`), `--strategy` (for `--player`).

use clap::{ArgMatches, Command, CommandFactory, Parser};
use std::ffi::OsString;
use std::time::Duration;

/// `--host` and `--port`: the address a server listens on, or the one a bot connects to (or,
/// for an HTTP bot, listens on).
#[derive(clap::Args, Debug, Clone, PartialEq, Eq)]
pub struct AddrArgs {
    /// Host name or IP address: where the server listens, or where the bot connects.
    #[arg(long, alias = "bind", value_name = "HOST")]
    pub host: Option<String>,
    /// Port number (0 where a program listens: any free port, printed at start).
    #[arg(long, value_name = "PORT")]
    pub port: Option<u16>,
}

impl AddrArgs {
    /// `HOST:PORT` (an IPv6 address in brackets), with `host` / `port` where not given.
    pub fn addr_or(&self, host: &str, port: u16) -> String {
        let h = self.host.as_deref().unwrap_or(host);
        let p = self.port.unwrap_or(port);
        if h.contains(':') && !h.starts_with('[') {
            format!("[{h}]:{p}")
        } else {
            format!("{h}:{p}")
        }
    }
}

/// `--time-ms`: a server's time for one answer of a player, in milliseconds.
#[derive(clap::Args, Debug, Clone, PartialEq, Eq)]
pub struct MoveLimitArgs {
    /// Time a player has for one answer, in milliseconds, counted from the server's request.
    #[arg(
        long = "time-ms",
        aliases = ["timeout", "soft-ms", "turn-timeout-ms", "deadline-ms"],
        value_name = "MS"
    )]
    pub time_ms: Option<u64>,
}

impl MoveLimitArgs {
    /// The limit, or `default` when the flag is not given.
    pub fn time_or(&self, default: Duration) -> Duration {
        self.time_ms.map_or(default, Duration::from_millis)
    }
}

/// The most search threads a bot takes by itself (`--threads auto`): Lazy SMP gains less with
/// every thread, and a contest machine may be shared. Asking for more with `--threads N` works.
pub const AUTO_THREADS_CAP: usize = 4;

/// The most threads `--threads N` accepts.
pub const MAX_THREADS: usize = 64;

/// `--threads auto`: the cores this machine offers to the process, at most
/// [`AUTO_THREADS_CAP`] (1 if the machine does not say).
pub fn auto_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, AUTO_THREADS_CAP)
}

/// Parses `--threads`: `auto` ([`auto_threads`]) or a count from 1 to [`MAX_THREADS`].
///
/// ```
/// use kibitz_net::cli::{parse_threads, auto_threads};
/// assert_eq!(parse_threads("2"), Ok(2));
/// assert_eq!(parse_threads("auto"), Ok(auto_threads()));
/// assert!(parse_threads("0").is_err());
/// assert!(parse_threads("many").is_err());
/// ```
pub fn parse_threads(s: &str) -> Result<usize, String> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("auto") {
        return Ok(auto_threads());
    }
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{s}' is not a thread count: give `auto` (this machine's cores, at most \
             {AUTO_THREADS_CAP}) or a number from 1 to {MAX_THREADS}"
        )),
    }
}

/// `--seed`: the seed of a server's deals and draws (the same seed, the same games).
#[derive(clap::Args, Debug, Clone, PartialEq, Eq)]
pub struct SeedArgs {
    /// Seed of the shuffles and draws: the same seed gives the same games.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

/// `--player` and `--seed`: a bot's move chooser and the seed of its randomness.
#[derive(clap::Args, Debug, Clone, PartialEq, Eq)]
pub struct PlayerArgs {
    /// How the bot chooses its moves (the names are listed below each binary's flags).
    #[arg(long, alias = "strategy", value_name = "NAME")]
    pub player: Option<String>,
    /// Seed of the bot's randomness (the same seed, the same choices in the same games).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

/// A command edit giving the flags `(id, value)` their default values (the id is the field's
/// name: `host`, `port`, `time_ms`, `seed`, `player`); `--help` shows them.
pub fn defaults(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(Command) -> Command {
    move |cmd| {
        pairs.iter().fold(cmd, |cmd, &(id, value)| {
            cmd.mut_arg(id, |a| a.default_value(value))
        })
    }
}

/// Parses this process's arguments into `T` after `edit` changed its command (defaults,
/// help lines, short forms). Exits with clap's message on `--help`, `--version` or an error,
/// like [`Parser::parse`].
pub fn parse<T: Parser>(edit: impl FnOnce(Command) -> Command) -> T {
    parse_from(std::env::args_os(), edit)
}

/// [`parse`] of the given arguments (the first is the program name).
pub fn parse_from<T, I, S>(args: I, edit: impl FnOnce(Command) -> Command) -> T
where
    T: Parser,
    I: IntoIterator<Item = S>,
    S: Into<OsString> + Clone,
{
    try_parse_from(args, edit).unwrap_or_else(|e| e.exit())
}

/// [`parse_from`] returning clap's error (help and version are errors of their own kinds).
pub fn try_parse_from<T, I, S>(
    args: I,
    edit: impl FnOnce(Command) -> Command,
) -> Result<T, clap::Error>
where
    T: Parser,
    I: IntoIterator<Item = S>,
    S: Into<OsString> + Clone,
{
    let mut cmd = edit(T::command());
    let matches: ArgMatches = cmd.try_get_matches_from_mut(args)?;
    T::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))
}

/// The command `T` after `edit`, as [`parse`] sees it (for rendering `--help` in tests).
pub fn command<T: CommandFactory>(edit: impl FnOnce(Command) -> Command) -> Command {
    edit(T::command())
}

/// What a `--help` text must not contain, found in `help`: Rust paths (`a::b`, crate names
/// with `_`), spec section marks (`§`, `spec C6`) and record format tags. A user reads the
/// help; those belong in the docs. Empty when the help is clean (the binaries' tests check it).
pub fn help_problems(help: &str) -> Vec<String> {
    let mut found = Vec::new();
    for word in help.split_whitespace() {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '§' && c != '_');
        let rust_path = w.contains("::") || w.starts_with("kibitz_");
        if rust_path || w.contains('§') || w.starts_with("kibitz-record") {
            found.push(word.to_string());
        }
    }
    for (i, _) in help.match_indices("spec ") {
        if help[..i].ends_with(|c: char| c.is_alphanumeric()) {
            continue; // "inspect …"
        }
        let next = help[i + 5..].chars().next().unwrap_or(' ');
        if next.is_ascii_uppercase() || next.is_ascii_digit() || next == '§' {
            found.push(help[i..].chars().take(8).collect());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Parser, Debug)]
    #[command(name = "demo-server", version)]
    struct Server {
        #[command(flatten)]
        addr: AddrArgs,
        #[command(flatten)]
        limit: MoveLimitArgs,
        #[command(flatten)]
        seed: SeedArgs,
    }

    #[derive(Parser, Debug)]
    #[command(name = "demo-bot")]
    struct Bot {
        #[command(flatten)]
        addr: AddrArgs,
        #[command(flatten)]
        player: PlayerArgs,
    }

    const SERVER: &[(&str, &str)] = &[("host", "127.0.0.1"), ("port", "4446"), ("time_ms", "250")];

    fn server(args: &[&str]) -> Result<Server, clap::Error> {
        try_parse_from(
            std::iter::once("demo-server").chain(args.iter().copied()),
            defaults(SERVER),
        )
    }

    #[test]
    fn defaults_apply_and_show_in_help() {
        let s = server(&[]).unwrap();
        assert_eq!(s.addr.host.as_deref(), Some("127.0.0.1"));
        assert_eq!(s.addr.port, Some(4446));
        assert_eq!(s.limit.time_ms, Some(250));
        assert_eq!(s.seed.seed, None);
        let help = command::<Server>(defaults(SERVER))
            .render_long_help()
            .to_string();
        assert!(help.contains("[default: 4446]"), "{help}");
        assert!(help.contains("--time-ms <MS>"), "{help}");
        // Old names are hidden.
        for old in ["--bind", "--turn-timeout-ms", "--deadline-ms", "--soft-ms"] {
            assert!(!help.contains(old), "{old} shows in:\n{help}");
        }
    }

    #[test]
    fn old_names_still_parse() {
        for old in [
            "--timeout",
            "--soft-ms",
            "--turn-timeout-ms",
            "--deadline-ms",
            "--time-ms",
        ] {
            let s = server(&[old, "500"]).unwrap();
            assert_eq!(
                s.limit.time_or(Duration::ZERO),
                Duration::from_millis(500),
                "{old}"
            );
        }
        let s = server(&["--bind", "::1", "--port", "0", "--seed", "7"]).unwrap();
        assert_eq!(s.addr.addr_or("x", 1), "[::1]:0");
        assert_eq!(s.seed.seed, Some(7));
        let b: Bot = try_parse_from(["demo-bot", "--strategy", "random"], |c| c).unwrap();
        assert_eq!(b.player.player.as_deref(), Some("random"));
        assert_eq!(b.addr.addr_or("127.0.0.1", 9), "127.0.0.1:9");
    }

    #[test]
    fn help_problems_finds_paths_and_sections() {
        assert!(help_problems("Server port [default: 4446]; see `kibitz replay`").is_empty());
        let p = help_problems("see `kibitz_connect4::param_specs` and §9 R8 (spec C6)");
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(!help_problems("(kibitz-record/1 lines)").is_empty());
    }

    #[test]
    fn bad_values_are_clear_errors_not_panics() {
        let e = server(&["--port", "70000"]).unwrap_err();
        assert!(e.to_string().contains("--port"), "{e}");
        let e = server(&["--time-ms", "soon"]).unwrap_err();
        assert!(e.to_string().contains("--time-ms"), "{e}");
        let e = server(&["--version"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::DisplayVersion);
    }
}
