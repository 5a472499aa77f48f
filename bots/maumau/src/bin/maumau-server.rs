//! `maumau-server`: the reference Mau-Mau server, wire-identical to the Free-Hack 2017 contest
//! server by default (`specs/maumau.md` §10), plus timeouts, several games, network games and a
//! knock-out mode. Accepts the real server's `-FreeHackContest -port=1234` style arguments too
//! (`-port=1234` and `-port 1234`, as Go's and the original's flag parsers read them).
//!
//! Renamed flags (the old names stay as hidden aliases): `--bind` → `--host`,
//! `--turn-timeout-ms` → `--time-ms` (the shared flags of `kibitz_net::cli`), `--log FILE`
//! → `--transcript FILE` (so `--log` no longer means a file here and a log filter elsewhere).

use clap::{Parser, ValueEnum};
use kibitz_bots_maumau::knockout::{parse_entrants, run_knockout, KnockoutConfig};
use kibitz_bots_maumau::server::{serve, EndReason, GameReport, ServerConfig};
use kibitz_maumau::ExhaustionWinner;
use kibitz_net::cli::{self, AddrArgs, MoveLimitArgs, SeedArgs};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Winner {
    /// Highest-numbered seat still online, as the real server.
    SecondSeat,
    /// Most cards legally played (the README's intent); ties to the lower seat.
    MostValidMoves,
}

/// A Mau-Mau game server (JSON lines over TCP) that plays like the Free-Hack 2017 contest
/// server, plus time limits, several games in a row, three- and four-seat games and a
/// knock-out tournament between bot programs.
#[derive(Parser, Debug)]
#[command(name = "maumau-server", version)]
struct Args {
    /// Listen address (`--host`, `--port`; the real server's port is 1338).
    #[command(flatten)]
    addr: AddrArgs,
    /// Shuffle seed (`--seed`).
    #[command(flatten)]
    seed: SeedArgs,
    /// Seats per game (2-4; more than 2 is the network game; --knockout plays 2).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: u8,
    /// Winner on talon exhaustion.
    #[arg(long, value_enum, default_value = "second-seat")]
    exhaustion_winner: Winner,
    /// Time per answer (`--time-ms`).
    #[command(flatten)]
    limit: MoveLimitArgs,
    /// Broadcasts per game before it ends as on exhaustion (0 = no cap).
    #[arg(long, default_value_t = 10_000)]
    max_turns: u32,
    /// Games to serve before exiting (not with --knockout, which plays its bracket).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Knock-out tournament: file with one `<name> <command…>` per line ({port}, {name}).
    #[arg(long)]
    knockout: Option<PathBuf>,
    /// Games per knock-out match at most; the first bot to win more than half goes through
    /// (odd: an even number is raised by one).
    #[arg(long, default_value_t = 7)]
    match_games: u32,
    /// Shuffle the knock-out seeding with the seed.
    #[arg(long)]
    shuffle: bool,
    /// Transcript of every line in both directions (one file per game with several games).
    #[arg(long, alias = "log", value_name = "FILE")]
    transcript: Option<PathBuf>,
    /// Folder for game records: every game is appended to DIR/maumau.jsonl (JSON lines;
    /// `kibitz replay DIR/maumau.jsonl`).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Log filter (error, warn, info, debug, trace or a tracing directive); RUST_LOG wins.
    #[arg(long, default_value = "info")]
    log_level: String,
    /// Only with --time-ms 0: close a connection silent this long while it owes a line
    /// (0 = wait forever, exactly like the real server).
    #[arg(long, default_value_t = 600_000)]
    idle_timeout_ms: u64,
    /// Connections open at once (playing, in the handshake or waiting for a seat); more are
    /// closed at once.
    #[arg(long, default_value_t = 512)]
    max_connections: usize,
    /// Connections open at once from one IP address; more from it are closed at once.
    #[arg(long, default_value_t = 128)]
    max_connections_per_peer: usize,
}

/// Rewrites the real server's single-dash arguments (`-port=1234`, `-port 1234`,
/// `-players=2`, `-FreeHackContest`, `-isNetworkGame`) into ours: a single dash before a
/// word of two or more letters is read as two (`-h` and `-V` stay short flags).
fn translate(args: impl Iterator<Item = String>) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in args.enumerate() {
        let word = a
            .strip_prefix('-')
            .filter(|w| !w.starts_with('-'))
            .filter(|w| w.split('=').next().is_some_and(|k| k.len() >= 2))
            .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()));
        match word {
            _ if i == 0 => out.push(a),
            Some("FreeHackContest" | "isNetworkGame") => {}
            Some(w) => match w.split_once('=') {
                Some((k, v)) => {
                    out.push(format!("--{k}"));
                    out.push(v.to_string());
                }
                None => out.push(format!("--{w}")),
            },
            None => out.push(a),
        }
    }
    out
}

/// Our defaults and this binary's help lines for the shared flags.
fn with_defaults(c: clap::Command) -> clap::Command {
    cli::defaults(&[("host", "127.0.0.1"), ("port", "1338"), ("time_ms", "5000")])(c)
        .mut_arg("port", |p| {
            p.help("Port to listen on (0 = any free port, printed)")
        })
        .mut_arg("time_ms", |t| {
            t.help(
                "Time per answer and for the name line in ms; an unanswered request is \
                     sent 3 more times, then the bot is dropped (0 = no limit, like the real \
                     server; --idle-timeout-ms then applies)",
            )
        })
        .mut_arg("seed", |s| {
            s.help("Shuffle seed; game i uses seed + i (default: random, printed)")
        })
}

fn main() -> anyhow::Result<()> {
    let a: Args = cli::parse_from(translate(std::env::args()), with_defaults);
    let (host, port) = (
        a.addr.host.clone().unwrap_or_else(|| "127.0.0.1".into()),
        a.addr.port.unwrap_or(1338),
    );
    let turn_timeout_ms = a.limit.time_ms.unwrap_or(5000);
    kibitz_net::logging::init(&a.log_level);
    anyhow::ensure!(
        a.knockout.is_none() || a.players == 2,
        "--knockout plays two-seat games; --players {} is not possible with it",
        a.players
    );
    let seed = a.seed.seed.unwrap_or_else(rand::random);
    println!("[#] seed {seed}");
    let cfg = ServerConfig {
        players: usize::from(a.players),
        exhaustion_winner: match a.exhaustion_winner {
            Winner::SecondSeat => ExhaustionWinner::SecondSeat,
            Winner::MostValidMoves => ExhaustionWinner::MostValidMoves,
        },
        turn_timeout: (turn_timeout_ms > 0).then(|| Duration::from_millis(turn_timeout_ms)),
        idle_timeout: (a.idle_timeout_ms > 0).then(|| Duration::from_millis(a.idle_timeout_ms)),
        max_connections: a.max_connections,
        max_connections_per_peer: a.max_connections_per_peer,
        max_turns: a.max_turns,
        seed,
        games: a.games,
        log: a.transcript.clone(),
        replay: None,
        records: match &a.records {
            Some(dir) => Some(std::sync::Arc::new(
                kibitz_net::record::RecordWriter::create(dir, "maumau")?,
            )),
            None => None,
        },
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind((host.as_str(), port)).await?;
        println!("[#] listening on {}", listener.local_addr()?);
        if let Some(file) = &a.knockout {
            let entrants = parse_entrants(&std::fs::read_to_string(file)?)?;
            let kcfg = KnockoutConfig {
                match_games: a.match_games.max(1) | 1,
                shuffle: a.shuffle,
                server: ServerConfig {
                    games: u32::MAX,
                    ..cfg
                },
                deadline: None,
                play_out: false,
            };
            let report = run_knockout(listener, &entrants, &kcfg).await?;
            println!("{report}");
        } else {
            let reports = serve(listener, cfg).await?;
            print_summary(&reports);
        }
        anyhow::Ok(())
    })
}

fn print_summary(reports: &[GameReport]) {
    let mut wins: BTreeMap<&str, [u32; 5]> = BTreeMap::new();
    let (mut exhausted, mut capped) = (0, 0);
    for r in reports {
        match r.reason {
            EndReason::Exhausted => exhausted += 1,
            EndReason::TurnCap => capped += 1,
            _ => {}
        }
        for (s, n) in r.names.iter().enumerate() {
            let e = wins.entry(n.as_str()).or_default();
            e[0] += 1;
            e[1] += (s == r.winner) as u32;
            e[2] += r.faults[s].penalties;
            e[3] += r.faults[s].timeouts;
            e[4] += r.faults[s].dropped as u32;
        }
        println!(
            "[#] game {}: seed {}, winner {} ({}, {} turns)",
            r.index + 1,
            r.seed,
            r.winner_name(),
            r.reason,
            r.turns
        );
    }
    let mut t = comfy_table::Table::new();
    t.set_header(["bot", "games", "wins", "penalties", "timeouts", "drops"]);
    for (n, v) in &wins {
        t.add_row([
            n.to_string(),
            v[0].to_string(),
            v[1].to_string(),
            v[2].to_string(),
            v[3].to_string(),
            v[4].to_string(),
        ]);
    }
    println!("{t}");
    println!(
        "[#] {} games, {exhausted} ended by talon exhaustion, {capped} by the turn cap",
        reports.len()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_style_and_renamed_flags() {
        let parse = |v: &[&str]| -> Args {
            cli::parse_from(translate(v.iter().map(|s| s.to_string())), with_defaults)
        };
        assert_eq!(parse(&["srv", "-port", "7777"]).addr.port, Some(7777));
        assert_eq!(parse(&["srv", "-port=7777"]).addr.port, Some(7777));
        assert_eq!(parse(&["srv", "--port", "7777"]).addr.port, Some(7777));
        assert_eq!(parse(&["srv", "--port=7777"]).addr.port, Some(7777));
        let a = parse(&["srv", "-players", "3", "-bind=0.0.0.0", "--log", "t.log"]);
        assert_eq!((a.players, a.addr.host.as_deref()), (3, Some("0.0.0.0")));
        assert_eq!(a.transcript, Some(PathBuf::from("t.log")));
        let a = parse(&[
            "srv",
            "--host",
            "::1",
            "--transcript",
            "x",
            "--log-level",
            "debug",
        ]);
        assert_eq!(
            (a.addr.host.as_deref(), a.log_level.as_str()),
            (Some("::1"), "debug")
        );
        // The old --turn-timeout-ms is --time-ms now; both parse, default 5000.
        assert_eq!(parse(&["srv"]).limit.time_ms, Some(5000));
        assert_eq!(
            parse(&["srv", "--turn-timeout-ms", "500"]).limit.time_ms,
            Some(500)
        );
        assert_eq!(parse(&["srv", "-turn-timeout-ms=0"]).limit.time_ms, Some(0));
        assert_eq!(a.transcript, Some(PathBuf::from("x")));
        // Short flags and values stay as they are.
        assert_eq!(
            translate(
                ["srv", "-h", "-V", "--seed", "5"]
                    .iter()
                    .map(|s| s.to_string())
            ),
            ["srv", "-h", "-V", "--seed", "5"]
        );
    }

    #[test]
    fn real_server_arguments() {
        let v = translate(
            ["srv", "-FreeHackContest", "-port=1234"]
                .map(String::from)
                .into_iter(),
        );
        let a: Args = cli::parse_from(v, with_defaults);
        assert_eq!(a.addr.port, Some(1234));
        let v = translate(
            ["srv", "-isNetworkGame", "-players=3", "-port=99"]
                .map(String::from)
                .into_iter(),
        );
        let a: Args = cli::parse_from(v, with_defaults);
        assert_eq!((a.players, a.addr.port), (3, Some(99)));
    }
}
