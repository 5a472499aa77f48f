//! One game on our reference market for `kibitz match koehandel` with external (`cmd:`) seats:
//! the market runs in process and calls every seat's URL over loopback HTTP, as in the
//! contest. External seats are endpoints some started program opens on a port the caller
//! chose ([`free_port`]); built-in seats are our own endpoints ([`crate::client`]) on
//! 127.0.0.1 port 0, one per seat, so both kinds play over the wire.
//!
//! The spec tells seats apart by the `id` of every request, so one program may serve several
//! seats on one port (the arena starts one program per side).
//!
//! What loses the game for an external seat ([`Forfeit`]; the market itself only applies
//! defaults): its port does not accept connections within the connect deadline, its program
//! exits before the game ends, a request to it fails (no answer within the market's deadline,
//! connection error, non-200 status, unusable body), or it gave unusable answers (the
//! engine's defaults applied, e.g. `?type=dance` to `start` or cards it does not hold). The
//! market stops at the first failed request, so a silent program costs one deadline.

use crate::client::{spawn_seeded, BotHandle};
use crate::protocol::SEATS;
use crate::server::{Entrant, GameRecord, Market, MarketConfig};
use kibitz_net::record::RecordWriter;
use serde_json::Value;
use std::time::{Duration, Instant};

/// Who sits in one seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatSpec {
    /// Our bot endpoint with this engine strategy and base seed.
    Builtin {
        /// Engine strategy (`make_agent` spec).
        strategy: String,
        /// The endpoint's base seed ([`crate::client::Bot::with_seed`]).
        seed: u64,
    },
    /// A program's endpoint at `http://127.0.0.1:PORT/`.
    External {
        /// The port the program listens on.
        port: u16,
    },
}

/// Deadlines of one external game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// How long an external port may take to accept connections.
    pub connect: Duration,
    /// The market's per-request deadline (spec: 5 s).
    pub request: Duration,
    /// The whole game, after which the first external seat loses.
    pub game: Duration,
}

/// An external seat that lost the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The seat (0..4).
    pub seat: usize,
    /// Why, in words.
    pub reason: String,
}

/// How an external game ended.
#[derive(Debug)]
pub struct Finished {
    /// The market's record when the game was played to its end (`None` when it was stopped).
    pub game: Option<GameRecord>,
    /// The applied moves (`crate::record::move_json`), empty when stopped.
    pub moves: Vec<Value>,
    /// The external seat that lost, if any.
    pub forfeit: Option<Forfeit>,
}

/// The market or an endpoint could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// Runtime, socket or temporary file.
    #[error("cannot set up the koehandel market: {0}")]
    Io(#[from] std::io::Error),
    /// A built-in strategy the engine does not know.
    #[error("cannot start a built-in endpoint: {0}")]
    Bot(#[from] crate::client::BotError),
    /// The market refused the seats.
    #[error("the market refused the game: {0}")]
    Market(#[from] crate::server::MarketError),
}

/// A free TCP port on 127.0.0.1 (bound and released at once, for a program to listen on).
pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// Plays one game with deck seed `deck_seed` (`names` go into the market's record);
/// `exited(seat)` tells whether the program serving that external seat has ended and why.
pub fn play(
    seats: &[SeatSpec; SEATS],
    names: &[String; SEATS],
    deck_seed: u64,
    deadlines: Deadlines,
    exited: &mut dyn FnMut(usize) -> Option<String>,
) -> Result<Finished, SetupError> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let dir = tempdir()?;
    let out = rt.block_on(run(seats, names, deck_seed, deadlines, exited, &dir));
    rt.shutdown_timeout(Duration::from_millis(200));
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// A fresh private directory for the market's record line.
fn tempdir() -> std::io::Result<std::path::PathBuf> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let d = std::env::temp_dir().join(format!(
        "kibitz-koehandel-ext-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&d)?;
    Ok(d)
}

/// The last failed request in a seat's market log: `<why> (<ms> ms) to "<query>"`.
fn failed_request(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    match lines.iter().rposition(|l| l.starts_with("< no answer")) {
        Some(i) => format!(
            "{} to {:?}",
            lines[i].trim_start_matches("< "),
            i.checked_sub(1)
                .and_then(|j| lines.get(j))
                .map_or("", |q| q.trim_start_matches("> "))
        ),
        None => format!("no answer ({})", lines.last().copied().unwrap_or("")),
    }
}

fn stopped(seat: usize, reason: String) -> Finished {
    Finished {
        game: None,
        moves: Vec::new(),
        forfeit: Some(Forfeit { seat, reason }),
    }
}

async fn run(
    seats: &[SeatSpec; SEATS],
    names: &[String; SEATS],
    deck_seed: u64,
    deadlines: Deadlines,
    exited: &mut dyn FnMut(usize) -> Option<String>,
    dir: &std::path::Path,
) -> Result<Finished, SetupError> {
    let started = Instant::now();
    let mut handles: Vec<BotHandle> = Vec::new();
    let mut entrants = Vec::new();
    for s in seats {
        entrants.push(match s {
            SeatSpec::Builtin { strategy, seed } => {
                let h = spawn_seeded("127.0.0.1:0", strategy, *seed).await?;
                let url = h.url();
                handles.push(h);
                Entrant::Url(url)
            }
            SeatSpec::External { port } => Entrant::Url(format!("http://127.0.0.1:{port}/")),
        });
    }
    let external: Vec<(usize, u16)> = seats
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            SeatSpec::External { port } => Some((i, *port)),
            SeatSpec::Builtin { .. } => None,
        })
        .collect();
    // Wait until every external port accepts connections.
    let mut up = vec![false; external.len()];
    while up.iter().any(|u| !u) {
        for (k, &(seat, port)) in external.iter().enumerate() {
            if up[k] {
                continue;
            }
            let connect = tokio::net::TcpStream::connect(("127.0.0.1", port));
            if let Ok(Ok(_)) = tokio::time::timeout(Duration::from_millis(200), connect).await {
                up[k] = true;
            } else if let Some(why) = exited(seat) {
                return Ok(stopped(
                    seat,
                    format!("seat {seat} never answered on port {port}: its program {why}"),
                ));
            }
        }
        if up.iter().all(|u| *u) {
            break;
        }
        if started.elapsed() > deadlines.connect {
            let (seat, port) = external[up.iter().position(|u| !u).unwrap_or(0)];
            return Ok(stopped(
                seat,
                format!(
                    "seat {seat} did not open port {port} within {} s",
                    deadlines.connect.as_secs_f64()
                ),
            ));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let writer = std::sync::Arc::new(RecordWriter::create(dir, "koehandel.jsonl")?);
    let market = Market::new(MarketConfig {
        deadline: deadlines.request,
        // Game 1 of a market with seed s deals deck s + 1.
        seed: deck_seed.wrapping_sub(1),
        give_up_after: None,
        records: Some(writer.clone()),
        ..MarketConfig::default()
    });
    let game = market.play_as(entrants, names);
    tokio::pin!(game);
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    let rec = loop {
        tokio::select! {
            r = &mut game => break r?,
            _ = tick.tick() => {}
        }
        if let Some(snap) = market.game(1) {
            for &(seat, _) in &external {
                if snap.counters[seat].failures > 0 {
                    let last = failed_request(&snap.logs[seat]);
                    return Ok(stopped(
                        seat,
                        format!("seat {seat} failed a request: {last}"),
                    ));
                }
            }
        }
        for &(seat, _) in &external {
            if let Some(why) = exited(seat) {
                return Ok(stopped(
                    seat,
                    format!("seat {seat} left the game: its program {why}"),
                ));
            }
        }
        if started.elapsed() > deadlines.game {
            let seat = external.first().map_or(0, |e| e.0);
            return Ok(stopped(
                seat,
                format!("the game did not end within {} s", deadlines.game.as_secs()),
            ));
        }
    };
    let lines = kibitz_net::record::read(writer.path())?;
    let moves = lines
        .first()
        .and_then(|l| l["moves"].as_array().cloned())
        .unwrap_or_default();
    let forfeit = external.iter().find_map(|&(seat, _)| {
        let n = rec.stats[seat].defaults;
        (n > 0).then(|| Forfeit {
            seat,
            reason: format!(
                "seat {seat} gave {n} unusable answer{} (defaults applied)",
                if n == 1 { "" } else { "s" }
            ),
        })
    });
    drop(handles);
    Ok(Finished {
        game: Some(rec),
        moves,
        forfeit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin(strategy: &str, seed: u64) -> SeatSpec {
        SeatSpec::Builtin {
            strategy: strategy.into(),
            seed,
        }
    }

    const QUICK: Deadlines = Deadlines {
        connect: Duration::from_millis(300),
        request: Duration::from_secs(5),
        game: Duration::from_secs(600),
    };

    #[test]
    fn builtin_endpoints_play_the_arena_deck_over_http() {
        let seats = [
            builtin("heuristic", 1),
            builtin("random", 2),
            builtin("heuristic", 3),
            builtin("random", 4),
        ];
        let names = std::array::from_fn(|i| format!("p{i}"));
        let f = play(&seats, &names, 77, QUICK, &mut |_| None).unwrap();
        let g = f.game.expect("played to the end");
        assert_eq!(g.seed, 77);
        assert!(f.forfeit.is_none());
        assert!(!f.moves.is_empty());
        assert!(g.counters.iter().all(|c| c.requests > 0 && c.failures == 0));
    }

    #[test]
    fn a_port_nobody_opens_loses_at_the_connect_deadline() {
        let port = free_port().unwrap();
        let mut seats = [
            builtin("random", 1),
            builtin("random", 2),
            builtin("random", 3),
            builtin("random", 4),
        ];
        seats[2] = SeatSpec::External { port };
        let names = std::array::from_fn(|i| format!("p{i}"));
        let f = play(&seats, &names, 5, QUICK, &mut |_| None).unwrap();
        let x = f.forfeit.unwrap();
        assert_eq!(x.seat, 2);
        assert!(x.reason.contains("did not open port"), "{}", x.reason);
        assert!(f.game.is_none());
    }
}
