//! Knock-out tournament (spec §10 "Knock-out tournament"), the contest's format.
//!
//! Entrants are started per game, by command line (`<name> <command…>` files with `{port}` and
//! `{name}`) or in-process (threads running our client), so the same bracket code serves the
//! `--knockout` server mode and `kibitz tournament`.

use crate::server::{handshake, play_game, Lobby, ServerConfig, ServerError};
use crate::translog::TransLog;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tracing::{info, warn};

/// Starts one copy of a bot that will connect to `addr` under `name` for game `game` (0-based
/// number of the game in the knock-out: a seed for the bot's randomness that does not depend
/// on timing).
pub type StartFn = Arc<dyn Fn(SocketAddr, &str, u32) + Send + Sync>;

/// How an entrant is started.
#[derive(Clone)]
pub enum Launch {
    /// A shell-free command line; `{port}` and `{name}` are filled in.
    Command(String),
    /// A function that starts the bot (e.g. a thread running our client).
    InProcess(StartFn),
}

/// One participant.
#[derive(Clone)]
pub struct Entrant {
    /// Unique name.
    pub name: String,
    /// How to start it.
    pub launch: Launch,
}

/// Knock-out settings.
#[derive(Debug, Clone)]
pub struct KnockoutConfig {
    /// Games per match at most (odd); the first to win more than half goes through.
    pub match_games: u32,
    /// Seeding shuffled with the server seed instead of entrant order.
    pub shuffle: bool,
    /// Settings of every game.
    pub server: ServerConfig,
    /// No new game starts after this; open matches are decided by the score so far.
    pub deadline: Option<Instant>,
    /// Play all `match_games` games of every match even when one side already has the
    /// majority (the winner is the same; the tournament gets a fixed game count).
    pub play_out: bool,
}

impl KnockoutConfig {
    /// Games the knock-out plays in all when `play_out` is set: `match_games` for each of the
    /// `entrants - 1` matches (byes play none).
    pub fn total_games(&self, entrants: usize) -> u64 {
        entrants.saturating_sub(1) as u64 * u64::from(self.match_games)
    }
}

/// One match of the bracket.
#[derive(Debug, Clone)]
pub struct MatchResult {
    /// Round, 1-based.
    pub round: u32,
    /// Higher seed (entrant index).
    pub a: usize,
    /// Lower seed, or `None` for a bye.
    pub b: Option<usize>,
    /// Games won by `a` and `b`.
    pub score: (u32, u32),
    /// Entrant index that went through.
    pub winner: usize,
}

/// Per-entrant totals.
#[derive(Debug, Clone, Default)]
pub struct Totals {
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Penalty cards.
    pub penalties: u32,
    /// Turn timeouts.
    pub timeouts: u32,
    /// Games in which the bot was dropped or failed the handshake.
    pub drops: u32,
}

/// The finished tournament.
#[derive(Debug, Clone)]
pub struct KnockoutReport {
    /// Entrant names.
    pub names: Vec<String>,
    /// Every match, in order.
    pub matches: Vec<MatchResult>,
    /// Entrant index of the champion.
    pub champion: usize,
    /// Totals per entrant.
    pub totals: Vec<Totals>,
}

/// Reads a knock-out file: one `<name> <command…>` per line; `#` comments and blank lines ignored.
pub fn parse_entrants(text: &str) -> anyhow::Result<Vec<Entrant>> {
    let mut out: Vec<Entrant> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, cmd) = line
            .split_once(char::is_whitespace)
            .ok_or_else(|| anyhow::anyhow!("line {}: expected `<name> <command…>`", i + 1))?;
        anyhow::ensure!(
            !out.iter().any(|e| e.name == name),
            "line {}: duplicate name {name}",
            i + 1
        );
        out.push(Entrant {
            name: name.into(),
            launch: Launch::Command(cmd.trim().into()),
        });
    }
    anyhow::ensure!(out.len() >= 2, "a knock-out needs at least two bots");
    Ok(out)
}

enum Running {
    Child(Child),
    Thread,
}

fn start(e: &Entrant, addr: SocketAddr, game: u32) -> Option<Running> {
    match &e.launch {
        Launch::InProcess(f) => {
            f(addr, &e.name, game);
            Some(Running::Thread)
        }
        Launch::Command(cmd) => {
            let cmd = cmd
                .replace("{port}", &addr.port().to_string())
                .replace("{name}", &e.name);
            let mut parts = cmd.split_whitespace();
            let prog = parts.next()?;
            match Command::new(prog).args(parts).stdin(Stdio::null()).spawn() {
                Ok(c) => Some(Running::Child(c)),
                Err(err) => {
                    warn!("cannot start {}: {err}", e.name);
                    None
                }
            }
        }
    }
}

/// Gives a bot process 2 s to exit, then ends it by its own process id.
fn reap(r: Option<Running>) {
    if let Some(Running::Child(mut c)) = r {
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if let Ok(Some(_)) = c.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = c.kill();
        let _ = c.wait();
    }
}

/// Runs the whole bracket on `listener` (accepted and greeted concurrently all along, as in
/// [`crate::server::serve`]).
pub async fn run_knockout(
    listener: TcpListener,
    entrants: &[Entrant],
    cfg: &KnockoutConfig,
) -> anyhow::Result<KnockoutReport> {
    run_knockout_with(listener, entrants, cfg, &|_| {}).await
}

/// [`run_knockout`] calling `on_game` with a one-line summary after every game.
pub async fn run_knockout_with(
    listener: TcpListener,
    entrants: &[Entrant],
    cfg: &KnockoutConfig,
    on_game: &(dyn Fn(&str) + Sync),
) -> anyhow::Result<KnockoutReport> {
    let mut lobby = Lobby::open(listener, &cfg.server)?;
    let addr = lobby.local_addr();
    let n = entrants.len();
    let mut order: Vec<usize> = (0..n).collect();
    if cfg.shuffle {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        order.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(cfg.server.seed));
    }
    // seed rank -> entrant; the field is padded to a power of two with byes.
    let p = n.next_power_of_two();
    let mut alive: Vec<Option<usize>> = order.iter().map(|&e| Some(e)).collect();
    alive.resize(p, None);
    let seed_of = |e: usize| order.iter().position(|&x| x == e).unwrap_or(usize::MAX);
    let handshake_limit = cfg
        .server
        .turn_timeout
        .unwrap_or(Duration::ZERO)
        .max(Duration::from_secs(10));
    let mut totals = vec![Totals::default(); n];
    let mut matches = Vec::new();
    let mut game_index = 0u32;
    let mut round = 0;
    while alive.iter().flatten().count() > 1 {
        round += 1;
        let k = alive.len();
        let mut next = Vec::new();
        for i in 0..k / 2 {
            let (a, b) = match (alive[i], alive[k - 1 - i]) {
                (Some(a), b) => (a, b),
                (None, Some(b)) => (b, None),
                (None, None) => continue,
            };
            let Some(b) = b else {
                matches.push(MatchResult {
                    round,
                    a,
                    b: None,
                    score: (0, 0),
                    winner: a,
                });
                next.push(Some(a));
                continue;
            };
            let mut score = (0u32, 0u32);
            let mut g = 0;
            while (cfg.play_out
                || (score.0 * 2 <= cfg.match_games && score.1 * 2 <= cfg.match_games))
                && g < cfg.match_games
            {
                if cfg.deadline.is_some_and(|d| Instant::now() >= d) {
                    warn!(
                        "deadline reached: match {} v {} decided at {score:?}",
                        entrants[a].name, entrants[b].name
                    );
                    break;
                }
                let seats = if g % 2 == 0 { [a, b] } else { [b, a] };
                g += 1;
                let first = start(&entrants[seats[0]], addr, game_index);
                let mut second = None;
                let this_game = game_index;
                let result = play_game(
                    &mut lobby,
                    &cfg.server,
                    game_index,
                    Some(handshake_limit),
                    |s| {
                        if s == 0 {
                            second = start(&entrants[seats[1]], addr, this_game);
                        }
                    },
                )
                .await;
                game_index += 1;
                let winner_seat = match &result {
                    Ok(r) => {
                        for (s, &e) in seats.iter().enumerate() {
                            let f = &r.faults[s];
                            totals[e].penalties += f.penalties;
                            totals[e].timeouts += f.timeouts;
                            totals[e].drops += f.dropped as u32;
                        }
                        if r.names[0] == r.names[1] {
                            warn!(
                                "both bots of game {} report the name {:?}",
                                r.index, r.names[0]
                            );
                        }
                        r.winner
                    }
                    Err(ServerError::Seating { seated: 1 }) => {
                        totals[seats[1]].drops += 1;
                        0
                    }
                    Err(e) => {
                        // Seat 0 failed: start seat 1 anyway; if it shakes hands it gets the game.
                        totals[seats[0]].drops += 1;
                        second = start(&entrants[seats[1]], addr, this_game);
                        let mut log = TransLog::open(None, 0, false);
                        let probe = handshake(&mut lobby, 1, &mut log);
                        match tokio::time::timeout(handshake_limit, probe).await {
                            Ok(Ok((mut conn, _))) => {
                                conn.close().await;
                                1
                            }
                            _ => {
                                warn!("game {game_index}: {e}, and seat 1 failed too; the higher seed gets it");
                                totals[seats[1]].drops += 1;
                                if seed_of(seats[0]) < seed_of(seats[1]) {
                                    0
                                } else {
                                    1
                                }
                            }
                        }
                    }
                };
                tokio::task::spawn_blocking(move || {
                    reap(first);
                    reap(second);
                })
                .await?;
                for &e in &seats {
                    totals[e].games += 1;
                }
                totals[seats[winner_seat]].wins += 1;
                if seats[winner_seat] == a {
                    score.0 += 1;
                } else {
                    score.1 += 1;
                }
                info!(
                    "round {round}: {} {}-{} {}",
                    entrants[a].name, score.0, score.1, entrants[b].name
                );
                on_game(&format!(
                    "round {round}, game {g}: {} wins ({} {}-{} {})",
                    entrants[seats[winner_seat]].name,
                    entrants[a].name,
                    score.0,
                    score.1,
                    entrants[b].name
                ));
            }
            let winner = if score.1 > score.0 { b } else { a };
            matches.push(MatchResult {
                round,
                a,
                b: Some(b),
                score,
                winner,
            });
            next.push(Some(winner));
        }
        // Winners keep their original seeds: best remaining against worst remaining.
        next.sort_by_key(|e| e.map_or(usize::MAX, seed_of));
        alive = next;
    }
    let champion = alive.iter().flatten().next().copied().unwrap_or(0);
    Ok(KnockoutReport {
        names: entrants.iter().map(|e| e.name.clone()).collect(),
        matches,
        champion,
        totals,
    })
}

impl std::fmt::Display for KnockoutReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut round = 0;
        for m in &self.matches {
            if m.round != round {
                round = m.round;
                writeln!(f, "Round {round}")?;
            }
            match m.b {
                None => writeln!(f, "  {:<20} bye", self.names[m.a])?,
                Some(b) => {
                    let mark = |e: usize| if e == m.winner { "*" } else { " " };
                    writeln!(
                        f,
                        "  {}{:<19} {}-{}  {}{}",
                        mark(m.a),
                        self.names[m.a],
                        m.score.0,
                        m.score.1,
                        mark(b),
                        self.names[b]
                    )?
                }
            }
        }
        writeln!(f, "Champion: {}", self.names[self.champion])?;
        let mut t = comfy_table::Table::new();
        t.set_header(["bot", "games", "wins", "penalties", "timeouts", "drops"]);
        for (i, x) in self.totals.iter().enumerate() {
            t.add_row([
                self.names[i].clone(),
                x.games.to_string(),
                x.wins.to_string(),
                x.penalties.to_string(),
                x.timeouts.to_string(),
                x.drops.to_string(),
            ]);
        }
        write!(f, "{t}")
    }
}
