//! One game on our reference server for `kibitz match maumau` with an external (`cmd:`) seat:
//! the server runs in process on 127.0.0.1 port 0 with its default turn timeout (5 s, then
//! three repeats, then the seat is dropped), deals from the arena's deal seed, and seats the
//! players one at a time in seat order: the caller starts a seat's player (an external program
//! told `{host} {port} {name}`, or a built-in player as an in-process client, [`run_client`])
//! only once the seat before it has finished its handshake, so seat numbers never depend on
//! who connects first. Every seat gets its own name, so 7s and 8s hit one seat only.

use crate::client::{Bot, BotConfig, BotReport};
use crate::protocol::MAX_LINE;
use crate::server::{play_game, GameReport, Lobby, ServerConfig, ServerError};
use kibitz_maumau::game_impl::MauMau;
use kibitz_maumau::ExhaustionWinner;
use kibitz_net::record::RecordWriter;
use kibitz_search::agent::Agent;
use serde_json::Value;
use std::cell::Cell;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the placeholders `{host} {port} {name}` of one seat become.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// Always `127.0.0.1`.
    pub host: String,
    /// The server's port.
    pub port: u16,
    /// The name the seat's bot registers under (`seat0`, `seat1`, …).
    pub name: String,
}

/// How an external game ended.
#[derive(Debug)]
pub enum Ended {
    /// The server played the game to its end (dropped seats and penalty cards included: the
    /// report says which); `record` is the server's `kibitz-record/1` line.
    Played {
        /// The server's summary (winner, faults per seat).
        report: GameReport,
        /// The server's record of the game.
        record: Value,
    },
    /// The game never started (a seat did not join) or never ended: `seat` loses.
    Forfeit {
        /// The seat that loses.
        seat: usize,
        /// Why, in words.
        reason: String,
    },
}

/// The server and its game could not be set up.
#[derive(Debug, thiserror::Error)]
#[error("cannot start the maumau server: {0}")]
pub struct SetupError(#[from] std::io::Error);

/// A server waiting for one game, before and while it is played.
pub struct ExternalGame {
    rt: tokio::runtime::Runtime,
    lobby: Lobby,
    cfg: ServerConfig,
    dir: PathBuf,
}

/// Numbers the record directories of the games of this process.
static GAMES: AtomicU64 = AtomicU64::new(0);

/// The name seat `seat` registers under.
pub fn seat_name(seat: usize) -> String {
    format!("seat{seat}")
}

impl ExternalGame {
    /// Starts the server on 127.0.0.1 port 0 for one game of `players` seats dealt from
    /// `deal_seed` (the deck of [`crate::record::shuffled_deck`]).
    pub fn start(
        players: usize,
        exhaustion_winner: ExhaustionWinner,
        deal_seed: u64,
    ) -> Result<ExternalGame, SetupError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let dir = std::env::temp_dir().join(format!(
            "kibitz-maumau-ext-{}-{}",
            std::process::id(),
            GAMES.fetch_add(1, Ordering::Relaxed)
        ));
        let writer = RecordWriter::replace(&dir, "maumau")?;
        let cfg = ServerConfig {
            players,
            exhaustion_winner,
            seed: deal_seed,
            games: 1,
            records: Some(Arc::new(writer)),
            ..ServerConfig::default()
        };
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let lobby =
            rt.block_on(async { Lobby::open(tokio::net::TcpListener::from_std(listener)?, &cfg) })?;
        Ok(ExternalGame {
            rt,
            lobby,
            cfg,
            dir,
        })
    }

    /// The values of the placeholders for `seat`.
    pub fn invitation(&self, seat: usize) -> Invitation {
        Invitation {
            host: "127.0.0.1".into(),
            port: self.lobby.local_addr().port(),
            name: seat_name(seat),
        }
    }

    /// The server's address.
    pub fn addr(&self) -> SocketAddr {
        self.lobby.local_addr()
    }

    /// Plays the game. `start_seat(s)` starts seat `s`'s player; it is called for seat 0 at
    /// once and for each later seat when the one before it is seated. `exited(s)` tells
    /// whether seat `s`'s program has ended (and why; `None` for built-in seats). A seat
    /// whose player has not finished its handshake within `connect_deadline`, or whose
    /// program exits before, loses; once the game runs the server's rules decide;
    /// `game_deadline` bounds it all.
    pub fn play(
        self,
        start_seat: &mut dyn FnMut(usize),
        connect_deadline: Duration,
        game_deadline: Duration,
        exited: &mut dyn FnMut(usize) -> Option<String>,
    ) -> Ended {
        let ExternalGame {
            rt,
            mut lobby,
            cfg,
            dir,
        } = self;
        let players = cfg.players;
        let seated = Cell::new(0usize);
        let ended = rt.block_on(async {
            start_seat(0);
            let started = Instant::now();
            let game = play_game(&mut lobby, &cfg, 0, Some(connect_deadline), |s| {
                seated.set(s + 1);
                if s + 1 < players {
                    start_seat(s + 1);
                }
            });
            tokio::pin!(game);
            let mut tick = tokio::time::interval(Duration::from_millis(20));
            loop {
                tokio::select! {
                    r = &mut game => break match r {
                        Ok(report) => match read_record(&dir) {
                            Ok(record) => Ended::Played { report, record },
                            Err(e) => Ended::Forfeit {
                                seat: 0,
                                reason: format!("the server's record is unreadable: {e}"),
                            },
                        },
                        Err(ServerError::Seating { seated }) => Ended::Forfeit {
                            seat: seated,
                            reason: format!(
                                "{} did not join the game within {} s",
                                seat_name(seated),
                                connect_deadline.as_secs_f64()
                            ),
                        },
                        Err(e) => Ended::Forfeit {
                            seat: seated.get(),
                            reason: format!("the server failed: {e}"),
                        },
                    },
                    _ = tick.tick() => {}
                }
                let s = seated.get();
                if s < players {
                    // The seat being waited for: a program that ended loses at once.
                    if let Some(why) = exited(s) {
                        break Ended::Forfeit {
                            seat: s,
                            reason: format!(
                                "{} did not join the game: its program {why}",
                                seat_name(s)
                            ),
                        };
                    }
                }
                if started.elapsed() > game_deadline {
                    break Ended::Forfeit {
                        seat: seated.get().min(players - 1),
                        reason: format!(
                            "the game did not end within {} s",
                            game_deadline.as_secs()
                        ),
                    };
                }
            }
        });
        // Closes every connection still open (the clients then see the end of the stream).
        drop(lobby);
        rt.shutdown_timeout(Duration::from_millis(200));
        let _ = std::fs::remove_dir_all(&dir);
        ended
    }
}

/// The one record the server wrote into `dir`.
fn read_record(dir: &std::path::Path) -> std::io::Result<Value> {
    kibitz_net::record::read(&dir.join("maumau.jsonl"))?
        .pop()
        .ok_or_else(|| std::io::Error::other("the server wrote no record"))
}

/// Plays one game at `addr` as `name` with `agent` (built for a table of `players` seats; it
/// keeps its own time budget: the client hands it the contest clock, which it may ignore),
/// seated with `seed` ([`Agent::new_game`]) once the broadcasts show its seat.
/// Ends when the server announces the winner or closes the connection, or after `idle`
/// without a byte from the server.
pub fn run_client(
    addr: SocketAddr,
    name: &str,
    agent: Box<dyn Agent<MauMau> + Send>,
    players: usize,
    seed: u64,
    idle: Duration,
) -> anyhow::Result<BotReport> {
    let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10))?;
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(idle.max(Duration::from_millis(1))))?;
    let cfg = BotConfig {
        name: name.to_string(),
        players,
        seed,
        ..BotConfig::default()
    };
    let mut bot = Bot::new(&cfg, agent);
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let mut line = Vec::with_capacity(256);
    loop {
        line.clear();
        let n = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            anyhow::bail!("{name}: the server closed the connection before the end");
        }
        if line.last() != Some(&b'\n') {
            anyhow::bail!("{name}: a line from the server is too long or unterminated");
        }
        if let Some(reply) = bot.on_line(&line) {
            writer.write_all(reply.encode().as_bytes())?;
            writer.flush()?;
        }
        if bot.report.winner.is_some() {
            return Ok(bot.report);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz_maumau::agents::{make_agent, AgentOptions};

    /// Two built-in clients play a whole game; seats follow the start order, and the deal is
    /// the deal seed's.
    #[test]
    fn two_clients_play_one_game_seated_in_order() {
        let game = ExternalGame::start(2, ExhaustionWinner::SecondSeat, 77).unwrap();
        let addr = game.addr();
        assert_eq!(game.invitation(1).name, "seat1");
        let mut threads = Vec::new();
        let ended = game.play(
            &mut |s| {
                let p = make_agent("greedy", &AgentOptions::default()).unwrap();
                threads.push(std::thread::spawn(move || {
                    run_client(addr, &seat_name(s), p, 2, s as u64, Duration::from_secs(30))
                }));
            },
            Duration::from_secs(10),
            Duration::from_secs(120),
            &mut |_| None,
        );
        let Ended::Played { report, record } = ended else {
            panic!("{ended:?}")
        };
        assert_eq!(report.names, ["seat0", "seat1"]);
        assert_eq!(record["setup"]["deal_seed"], 77);
        let deck: Vec<String> = crate::record::shuffled_deck(77)
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(record["setup"]["deck"], serde_json::json!(deck));
        assert!(record["moves"].as_array().unwrap().len() >= 2);
        for t in threads {
            let r = t.join().unwrap().unwrap();
            assert_eq!(r.winner.as_deref(), Some(report.winner_name()));
        }
    }

    /// A seat whose player never comes loses at the connect deadline.
    #[test]
    fn a_seat_that_never_joins_forfeits() {
        let game = ExternalGame::start(2, ExhaustionWinner::SecondSeat, 1).unwrap();
        let ended = game.play(
            &mut |_| {},
            Duration::from_millis(300),
            Duration::from_secs(30),
            &mut |_| None,
        );
        match ended {
            Ended::Forfeit { seat, reason } => {
                assert_eq!(seat, 0);
                assert!(reason.contains("did not join"), "{reason}");
            }
            e => panic!("{e:?}"),
        }
    }
}
