//! Seasons and games of the reference server (spec §5, §8): season start with `NEW SEASON`,
//! the round-robin schedule, one game's message sequence and the rules (via the engine's
//! [`Position`]).

use crate::protocol::{
    is_join, log_safe, new_token, read_insert, GameResult, LoseReason, ServerMsg,
};
use crate::schedule::{season, Slot};
use crate::server::{Inner, TABLE_EVERY};
use crate::standings::Outcome;
use kibitz_connect4::Position;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use tracing::{debug, info, warn};

/// One game as the server played it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Season number, from 1.
    pub season: u32,
    /// Home player (moved first).
    pub home: String,
    /// Away player.
    pub away: String,
    /// Every announced column in order, the illegal last one included.
    pub moves: Vec<i32>,
    /// How it ended.
    pub result: GameResult,
}

impl GameRecord {
    /// The winner's name, if someone won (a fault loses, so the other player wins).
    pub fn winner(&self) -> Option<&str> {
        match &self.result {
            GameResult::Win { winner, .. } => Some(winner),
            GameResult::Lose { loser, .. } => Some(if *loser == self.home {
                &self.away
            } else {
                &self.home
            }),
            GameResult::Draw => None,
        }
    }
}

/// One finished season.
#[derive(Debug, Clone, PartialEq)]
pub struct SeasonResult {
    /// Season number, from 1.
    pub number: u32,
    /// Those who answered `JOIN`, in registration order.
    pub participants: Vec<String>,
    /// The games played, in order of their end.
    pub games: Vec<GameRecord>,
    /// Players who had a bye, once per bye.
    pub byes: Vec<String>,
}

/// A participant: name and the address it had when the season started (used if it
/// unregisters mid-season: its remaining games still go to that address and time out).
#[derive(Debug, Clone)]
struct Seat {
    name: String,
    addr: SocketAddr,
}

impl Inner {
    async fn send_to_seat(&self, seat: &Seat, msg: &ServerMsg) {
        let addr = self.addr_of(&seat.name).unwrap_or(seat.addr);
        self.send(msg, addr).await;
    }
}

/// Runs seasons until shutdown (or `SEASONS` seasons).
pub(crate) async fn run_seasons(inner: Arc<Inner>) {
    let mut shutdown = inner.shutdown.clone();
    tokio::select! {
        _ = tokio::time::sleep(inner.config.delay) => {}
        _ = shutdown.changed() => return,
    }
    info!("Tournament starting");
    let mut number = 0;
    loop {
        // Wait for MINPLAYERS (at least one) registered players; re-check on every
        // registration and every 5 s.
        loop {
            let registered = inner.registered.notified();
            let ready = {
                let st = inner.state();
                match &inner.config.one_game {
                    // One game: both of its players, whoever else registered.
                    Some(g) => g
                        .names
                        .iter()
                        .all(|n| st.players.iter().any(|p| &p.name == n)),
                    None => st.players.len() >= inner.config.min_players.max(1),
                }
            };
            if ready {
                break;
            }
            tokio::select! {
                _ = registered => {}
                _ = tokio::time::sleep(Duration::from_secs(5)) => {}
                _ = shutdown.changed() => return,
            }
            info!("Waiting for more players to join");
        }
        number += 1;
        let result = tokio::select! {
            r = play_season(&inner, number) => r,
            _ = shutdown.changed() => return,
        };
        let done =
            inner.config.seasons.is_some_and(|s| number >= s) || inner.config.one_game.is_some();
        let (lines, table) = {
            let mut st = inner.state();
            st.push_season(result);
            let table = (done || number % TABLE_EVERY == 0).then(|| st.scores.table());
            (st.scores.ranking_lines(), table)
        };
        if inner.config.print_standings {
            match table {
                Some(t) => println!("Season {number} ended\n{lines}{t}"),
                None => println!("Season {number} ended\n{lines}"),
            }
        }
        if done {
            inner.state().finished = true;
        }
        inner.season_done.notify_waiters();
        if done {
            info!("Tournament will stop");
            return;
        }
    }
}

async fn play_season(inner: &Arc<Inner>, number: u32) -> SeasonResult {
    debug!(season = number, "Season starting");
    let seat = |p: &crate::server::Player| Seat {
        name: p.name.clone(),
        addr: p.addr,
    };
    let invited: Vec<Seat> = match &inner.config.one_game {
        // One game: only its two players, home first (so the schedule's first game is theirs).
        Some(g) => {
            let st = inner.state();
            g.names
                .iter()
                .filter_map(|n| st.players.iter().find(|p| &p.name == n).map(seat))
                .collect()
        }
        None => inner.state().players.iter().map(seat).collect(),
    };
    // NEW SEASON to everyone, each with its own token; wait for the JOINs concurrently.
    let mut waits = tokio::task::JoinSet::new();
    for (i, seat) in invited.iter().enumerate() {
        let token = new_token();
        inner
            .send(&ServerMsg::NewSeason(token.clone()), seat.addr)
            .await;
        let deadline = Instant::now() + inner.config.timeout_for(&seat.name);
        let (inner, name) = (Arc::clone(inner), seat.name.clone());
        waits.spawn(async move {
            let answer = inner.await_reply(&name, &token, deadline).await;
            if answer.is_none() {
                debug!(
                    "Exception while retrieving response for NEW SEASON for {}: Timeout while waiting for response for UUID {token}",
                    log_safe(&name)
                );
            }
            (i, answer.is_some_and(|a| is_join(&a)))
        });
    }
    let mut joined = vec![false; invited.len()];
    while let Some(r) = waits.join_next().await {
        if let Ok((i, yes)) = r {
            joined[i] = yes;
        }
    }
    let seats: Vec<Seat> = invited
        .into_iter()
        .zip(joined)
        .filter(|(_, j)| *j)
        .map(|(s, _)| s)
        .collect();
    let mut result = SeasonResult {
        number,
        participants: seats.iter().map(|s| s.name.clone()).collect(),
        games: Vec::new(),
        byes: Vec::new(),
    };
    let mut days = season(seats.len());
    if inner.config.one_game.is_some() {
        // Its first matchday: home against away (or a bye for the one who joined alone).
        days.truncate(1);
    }
    for day in days {
        let mut games = Vec::new();
        for (home, away) in day {
            match (home, away) {
                (Slot::Player(h), Slot::Player(a)) => {
                    games.push((seats[h].clone(), seats[a].clone()))
                }
                (Slot::Player(p), Slot::Bye) | (Slot::Bye, Slot::Player(p)) => {
                    inner.state().scores.add(&seats[p].name, Outcome::Bye);
                    result.byes.push(seats[p].name.clone());
                }
                (Slot::Bye, Slot::Bye) => {}
            }
        }
        let records = if inner.config.parallel {
            let mut set = tokio::task::JoinSet::new();
            for (i, (h, a)) in games.into_iter().enumerate() {
                let inner = Arc::clone(inner);
                set.spawn(async move { (i, play_game(&inner, number, h, a).await) });
            }
            let mut done = Vec::new();
            while let Some(r) = set.join_next().await {
                match r {
                    Ok(x) => done.push(x),
                    Err(e) => warn!(error = %e, "game task failed"),
                }
            }
            done.sort_by_key(|(i, _)| *i);
            done.into_iter().map(|(_, g)| g).collect()
        } else {
            let mut done = Vec::new();
            for (h, a) in games {
                done.push(play_game(inner, number, h, a).await);
            }
            done
        };
        inner.record(&records);
        result.games.extend(records);
    }
    let won: Vec<String> = result
        .participants
        .iter()
        .map(|p| {
            format!(
                "{}={}",
                log_safe(p),
                result
                    .games
                    .iter()
                    .filter(|g| g.winner() == Some(p))
                    .count()
            )
        })
        .collect();
    info!(
        season = number,
        "Season ended, games won: {}",
        won.join(", ")
    );
    result
}

/// Plays one game between `home` (moves first) and `away` and scores it.
async fn play_game(inner: &Arc<Inner>, season: u32, home: Seat, away: Seat) -> GameRecord {
    let c = &inner.config;
    inner
        .send_to_seat(&home, &ServerMsg::NewGame(away.name.clone()))
        .await;
    inner
        .send_to_seat(&away, &ServerMsg::NewGame(home.name.clone()))
        .await;
    let both = [&home, &away];
    let broadcast = |msg: ServerMsg| {
        let inner = Arc::clone(inner);
        let (h, a) = (home.clone(), away.clone());
        async move {
            inner.send_to_seat(&h, &msg).await;
            inner.send_to_seat(&a, &msg).await;
        }
    };
    let mut pos = Position::new(c.columns, c.rows, c.connect).expect("size validated at start");
    let mut moves = Vec::new();
    let mut turn = 0;
    let result = loop {
        let mover = both[turn];
        let token = new_token();
        inner
            .send_to_seat(mover, &ServerMsg::YourTurn(token.clone()))
            .await;
        let deadline = Instant::now() + c.timeout_for(&mover.name);
        let lose = |reason| GameResult::Lose {
            loser: mover.name.clone(),
            reason,
        };
        let Some(answer) = inner.await_reply(&mover.name, &token, deadline).await else {
            break lose(LoseReason::Timeout(token));
        };
        let column = match read_insert(&answer) {
            Ok(col) => col,
            Err(reason) => break lose(reason),
        };
        moves.push(column);
        broadcast(ServerMsg::TokenInserted {
            player: mover.name.clone(),
            column,
        })
        .await;
        let col = usize::try_from(column).ok().filter(|&x| x < c.columns);
        let Some(col) = col else {
            break lose(LoseReason::IllegalColumn);
        };
        if !pos.can_play(col) {
            break lose(LoseReason::ColumnIsFull);
        }
        if pos.play(col).is_err() {
            break lose(LoseReason::ColumnIsFull);
        }
        if pos.winner().is_some() {
            break GameResult::Win {
                winner: mover.name.clone(),
                reason: "CONNECTED_LINE".into(),
            };
        }
        if pos.is_full() {
            break GameResult::Draw;
        }
        turn ^= 1;
    };
    broadcast(ServerMsg::Result(result.clone())).await;
    let record = GameRecord {
        season,
        home: home.name,
        away: away.name,
        moves,
        result,
    };
    {
        let mut st = inner.state();
        match record.winner().map(str::to_string) {
            Some(w) => {
                let l = if w == record.home {
                    &record.away
                } else {
                    &record.home
                };
                st.scores.add(&w, Outcome::Win);
                st.scores.add(l, Outcome::Loss);
            }
            None => {
                st.scores.add(&record.home, Outcome::Draw);
                st.scores.add(&record.away, Outcome::Draw);
            }
        }
    }
    debug!(
        home = %log_safe(&record.home),
        away = %log_safe(&record.away),
        result = %log_safe(&ServerMsg::Result(record.result.clone()).encode()),
        moves = record.moves.len(),
        "game over"
    );
    let _ = inner.games.send(record.clone());
    record
}

impl Inner {
    /// Appends a matchday's games to the records, in schedule order (so the file does not
    /// depend on which parallel game finished first). A write error is logged, not fatal.
    fn record(&self, games: &[GameRecord]) {
        let Some(w) = &self.records else { return };
        let c = &self.config;
        for g in games {
            let index = self
                .recorded
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let mut line = crate::record::from_server(g, c.columns, c.rows, c.connect);
            // A server started by hand has no seed: the key is left out rather than `null`.
            if let Some(seed) = c.seed {
                line["seed"] = serde_json::json!(seed);
            }
            line["index"] = serde_json::json!(index);
            if let Err(e) = w.write(&line) {
                warn!(error = %e, path = %w.path().display(), "cannot write the game record");
            }
        }
    }
}
