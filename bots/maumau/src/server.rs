//! The reference server: wire-identical to the real contest server by default (`specs/maumau.md`
//! §2-§7), plus what the real one lacks (§10): turn timeout with three repeats, turn cap, several
//! games in a row, 3-4 player network games, seeded shuffles and transcripts.
//!
//! The rules are the engine's ([`kibitz_maumau::Game`]); this module does the wire: handshake,
//! broadcasts, private requests, replies, timeouts, offline seats. Library entry points:
//! [`serve`] (games in a row on a listener), [`play_game`] (one game) and [`spawn`] (a server on its
//! own thread and runtime, for tests and the tournament).

use crate::conn::{Conn, Wait};
pub use crate::lobby::Lobby;
use crate::protocol::{self, Answer, Broadcast, Request, ServerMsg};
use crate::record;
pub(crate) use crate::seating::handshake;
use crate::seating::{drop_vanished, seat_next};
use crate::translog::TransLog;
use kibitz_maumau::{Card, Config, DrawTwo, Game, GameEnd, RawAnswer, Reaction};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpListener;
use tracing::{debug, info, warn};

mod settings;
pub use settings::{Draws, Faults, Replay, ServerConfig};

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// A hand was emptied.
    Emptied,
    /// The talon was exhausted.
    Exhausted,
    /// Only one bot was left online.
    LastOnline,
    /// The turn cap was reached.
    TurnCap,
}

impl std::fmt::Display for EndReason {
    /// As a person reads it: `emptied hand`, `talon exhausted`, `last bot online`, `turn cap`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EndReason::Emptied => "emptied hand",
            EndReason::Exhausted => "talon exhausted",
            EndReason::LastOnline => "last bot online",
            EndReason::TurnCap => "turn cap",
        })
    }
}

/// The result of one game.
#[derive(Debug, Clone)]
pub struct GameReport {
    /// Game number within the run (0-based).
    pub index: u32,
    /// Seed of its shuffle.
    pub seed: u64,
    /// Names by seat.
    pub names: Vec<String>,
    /// Winning seat.
    pub winner: usize,
    /// Why it ended.
    pub reason: EndReason,
    /// Broadcasts sent.
    pub turns: u32,
    /// Faults by seat.
    pub faults: Vec<Faults>,
}

impl GameReport {
    /// Name of the winner.
    pub fn winner_name(&self) -> &str {
        &self.names[self.winner]
    }
}

/// Errors that end a game before play.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// Not every seat finished its handshake in time (`seated` did).
    #[error("only {seated} seat(s) finished the handshake in time")]
    Seating {
        /// Seats seated, in order.
        seated: usize,
    },
    /// Accepting failed.
    #[error("accept failed: {0}")]
    Io(#[from] std::io::Error),
}

/// Serves `cfg.games` games in a row on `listener` (seats in the order the name lines arrive;
/// connections are accepted and greeted concurrently all along, [`Lobby`]).
pub async fn serve(listener: TcpListener, cfg: ServerConfig) -> anyhow::Result<Vec<GameReport>> {
    let mut lobby = Lobby::open(listener, &cfg)?;
    let mut reports = Vec::new();
    for i in 0..cfg.games {
        match play_game(&mut lobby, &cfg, i, None, |_| {}).await {
            Ok(r) => reports.push(r),
            Err(e) => warn!("game {i}: {e}"),
        }
    }
    Ok(reports)
}

/// Runs a server on its own thread (with its own runtime) on `bind` (port 0 = any free port).
/// Returns the bound address and a handle yielding the reports.
pub fn spawn(
    bind: SocketAddr,
    cfg: ServerConfig,
) -> anyhow::Result<(
    SocketAddr,
    std::thread::JoinHandle<anyhow::Result<Vec<GameReport>>>,
)> {
    let std_listener = std::net::TcpListener::bind(bind)?;
    std_listener.set_nonblocking(true)?;
    let addr = std_listener.local_addr()?;
    let handle = std::thread::Builder::new()
        .name("maumau-server".into())
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            rt.block_on(async move { serve(TcpListener::from_std(std_listener)?, cfg).await })
        })?;
    Ok((addr, handle))
}

/// A seated bot: its connection, name, hand as the server sent it, and faults.
pub(crate) struct Seat {
    pub(crate) conn: Conn,
    pub(crate) name: String,
    hand: Vec<u8>,
    first_request: bool,
    faults: Faults,
    drawn: usize,
}

/// Plays one game: seats the first `cfg.players` connections of `lobby` whose name lines
/// arrived, then referees. `seating_deadline` bounds the wait for each seat; `on_seated(seat)`
/// runs after each handshake (the knock-out uses it to start the next bot).
pub async fn play_game(
    lobby: &mut Lobby,
    cfg: &ServerConfig,
    index: u32,
    seating_deadline: Option<Duration>,
    mut on_seated: impl FnMut(usize),
) -> Result<GameReport, ServerError> {
    let seed = cfg.seed.wrapping_add(index as u64);
    let players = cfg.players.clamp(2, kibitz_maumau::game::MAX_PLAYERS);
    let mut log = TransLog::open(cfg.log.as_deref(), index, cfg.games > 1);
    let mut seats: Vec<Seat> = Vec::new();
    loop {
        while seats.len() < players {
            let n = seats.len();
            let seated = match seating_deadline {
                Some(d) => tokio::time::timeout(d, handshake(lobby, n, &mut log))
                    .await
                    .map(|r| r.map(Some)),
                // A seated bot that leaves meanwhile is let go and its seat filled again.
                None => Ok(seat_next(lobby, &mut seats, &mut log, index).await),
            };
            match seated {
                Ok(Ok(None)) => {}
                Ok(Ok(Some((conn, name)))) => {
                    seats.push(Seat {
                        conn,
                        name,
                        hand: Vec::new(),
                        first_request: true,
                        faults: Faults::default(),
                        drawn: 0,
                    });
                    on_seated(n);
                }
                Ok(Err(e)) => return Err(e.into()),
                Err(_) => {
                    for s in &mut seats {
                        s.conn.close().await;
                    }
                    return Err(ServerError::Seating { seated: n });
                }
            }
        }
        // Liveness before the game starts: a bot that finished its handshake and left while it
        // waited for the other seats is dropped and its seat filled by the next connection (the
        // knock-out, which starts its bots per seat, keeps it: there the bot that left loses).
        // `seat_next` lets go of those that leave while it waits; this catches the rest.
        if seating_deadline.is_some() || !drop_vanished(&mut seats, &mut log, index).await {
            break;
        }
    }
    let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
    info!("game {index}: seed {seed}, seats {}", names.join(", "));

    // Deal.
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let deck: Vec<Card> = match &cfg.replay {
        Some(r) => r.deck.clone(),
        None => {
            let mut d: Vec<Card> = Card::all().collect();
            d.shuffle(&mut rng);
            d
        }
    };
    let gcfg = Config {
        players,
        exhaustion_winner: cfg.exhaustion_winner,
    };
    let mut game = Game::from_deck(gcfg, &deck);
    let mut groups = [0u8, 1, 2, 3];
    for s in 0..players {
        if let Some(first) = names.iter().position(|n| *n == names[s]) {
            if first != s {
                warn!(
                    "game {index}: seats {first} and {s} share the name {:?}; 7s and 8s hit both",
                    names[s]
                );
            }
            groups[s] = first as u8;
        }
    }
    game.set_effect_groups(groups);
    for (s, seat) in seats.iter_mut().enumerate() {
        seat.hand = deck[1 + s * 7..1 + (s + 1) * 7]
            .iter()
            .map(|c| c.index())
            .collect();
    }

    let setup = cfg.records.is_some().then(|| {
        let shared = (0..players).any(|s| groups[s] != s as u8);
        record::setup_json(gcfg, seed, &deck, cfg.max_turns, shared.then_some(groups))
    });
    let mut r = Referee {
        game,
        seats,
        log,
        cfg,
        rng,
        moves: Vec::new(),
    };
    for s in 0..players {
        r.send(s, &ServerMsg::GameStart).await;
    }
    let end = r.run().await;
    let winner = end.winner();
    let reason = match end {
        GameEnd::Emptied(_) => EndReason::Emptied,
        GameEnd::Exhausted(_) => EndReason::Exhausted,
        GameEnd::LastOnline(_) => EndReason::LastOnline,
        GameEnd::TurnCap(_) => EndReason::TurnCap,
    };
    let won = ServerMsg::Won {
        winner: names[winner].clone(),
    };
    for s in 0..players {
        if r.game.is_online(s) {
            r.send(s, &won).await;
        }
    }
    for s in &mut r.seats {
        s.conn.close().await;
    }
    if let (Some(w), Some(setup)) = (&cfg.records, setup) {
        let penalties: Vec<u32> = r.seats.iter().map(|s| s.faults.penalties).collect();
        let result = record::result_json(end, r.game.turns(), &penalties);
        let mut line = record::game_json(&names, setup, std::mem::take(&mut r.moves), result);
        line["seed"] = cfg.seed.into();
        line["index"] = index.into();
        if let Err(e) = w.write(&line) {
            warn!("game {index}: cannot write its record: {e}");
        }
    }
    if reason == EndReason::TurnCap {
        info!("game {index}: turn cap reached");
    }
    info!(
        "game {index}: {} wins ({reason}) after {} turns",
        names[winner],
        r.game.turns()
    );
    Ok(GameReport {
        index,
        seed,
        names,
        winner,
        reason,
        turns: r.game.turns(),
        faults: r.seats.iter().map(|s| s.faults.clone()).collect(),
    })
}

struct Referee<'a> {
    game: Game,
    seats: Vec<Seat>,
    log: TransLog,
    cfg: &'a ServerConfig,
    rng: ChaCha8Rng,
    /// The record's moves (only with `cfg.records`).
    moves: Vec<serde_json::Value>,
}

impl Referee<'_> {
    /// Writes to a seat; a failed write drops it. Returns whether it was delivered.
    async fn send(&mut self, seat: usize, msg: &ServerMsg) -> bool {
        self.send_bytes(seat, msg.encode().as_bytes()).await
    }

    async fn send_bytes(&mut self, seat: usize, bytes: &[u8]) -> bool {
        let s = &mut self.seats[seat];
        let ok = s.conn.send(bytes).await;
        for l in s.conn.take_unsolicited() {
            s.faults.warnings += 1;
            warn!(
                "seat {seat} ({}): line sent while no answer was owed: {}",
                s.name,
                protocol::truncate(&l)
            );
            self.log.note(
                seat,
                "WARNING line sent while no answer was owed (queued as its next answer)",
            );
        }
        if ok {
            self.log.out(seat, bytes);
        } else {
            self.log
                .note(seat, "WRITE FAILED (3 retries): seat marked offline");
            self.drop_seat(seat).await;
        }
        ok
    }

    async fn drop_seat(&mut self, seat: usize) {
        info!(
            "seat {seat} ({}) is offline and will be passed over",
            self.seats[seat].name
        );
        self.seats[seat].faults.dropped = true;
        if self.cfg.records.is_some() {
            self.moves.push(record::dropped_json(seat));
        }
        self.seats[seat].conn.close().await;
        self.game.drop_seat(seat);
    }

    /// Makes the engine draw the replay's prescribed cards for `seat`, if replaying.
    fn force_draws(&mut self, seat: usize) {
        let (list, from) = match self.cfg.replay.as_ref().map(|r| &r.draws) {
            None => return,
            Some(Draws::PerSeat(lists)) => (
                lists.get(seat).map(Vec::as_slice).unwrap_or(&[]),
                self.seats[seat].drawn,
            ),
            Some(Draws::InOrder(list)) => {
                (list.as_slice(), self.seats.iter().map(|s| s.drawn).sum())
            }
        };
        let from = from.min(list.len());
        self.game
            .force_next_draws(&list[from..list.len().min(from + 4)]);
    }

    async fn run(&mut self) -> GameEnd {
        let players = self.seats.len();
        loop {
            if let Some(end) = self.game.outcome() {
                return end;
            }
            if self.cfg.max_turns > 0 && self.game.turns() >= self.cfg.max_turns {
                return self.game.end_by_turn_cap();
            }
            // 1. Begin the turn (pending 8 or 7) and broadcast it to everyone online.
            let mover = self.game.turn();
            self.force_draws(mover);
            let Ok(ts) = self.game.begin_turn(&mut self.rng) else {
                // Cannot happen (every path ends a turn); never spin on it.
                if let kibitz_maumau::Phase::Answer(s) = self.game.phase() {
                    self.drop_seat(s).await;
                }
                continue;
            };
            let bc = ServerMsg::Broadcast(Broadcast {
                top: ts.top.index() as i32,
                cards_left: ts.cards_left as i32,
                turn_of: self.seats[mover].name.clone(),
                skipped: ts.skipped,
            });
            debug!("turn {}: {:?}", self.game.turns(), ts);
            let bytes = bc.encode();
            for s in 0..players {
                if self.game.is_online(s) {
                    self.send_bytes(s, bytes.as_bytes()).await;
                }
            }
            if ts.skipped {
                // A 7 still pending for a skipped seat is drawn now, silently (§7 item 2).
                if let DrawTwo::Drawn([a, b]) = ts.draw_two {
                    let seat = &mut self.seats[mover];
                    seat.hand.extend([a.index(), b.index()]);
                    seat.drawn += 2;
                    debug!("seat {mover}: skipped, drew {a} {b} for a pending 7");
                }
                continue;
            }
            if self.game.outcome().is_some() || !self.game.is_online(mover) {
                continue;
            }
            // 2. The private request.
            let (draw_two, drawn) = match ts.draw_two {
                DrawTwo::None => (Some(false), None),
                DrawTwo::Drawn([a, b]) => {
                    let seat = &mut self.seats[mover];
                    seat.hand.extend([a.index(), b.index()]);
                    seat.drawn += 2;
                    (Some(true), Some(vec![a.index() as i32, b.index() as i32]))
                }
                DrawTwo::Failed => (None, None),
            };
            let seat = &mut self.seats[mover];
            let hand = seat
                .first_request
                .then(|| seat.hand.iter().map(|&c| c as i32).collect());
            seat.first_request = false;
            let req = ServerMsg::Request(Request {
                top: ts.top.index() as i32,
                draw_two,
                cards_left: self.game.hand_size(mover) as i32,
                wished: ts.wish.map_or(-1, |w| w.index() as i32),
                drawn,
                hand,
            });
            let req = req.encode();
            if !self.send_bytes(mover, req.as_bytes()).await {
                continue;
            }
            // 3. The answer, with the turn timeout and up to three repeats.
            let Some(raw) = self.await_answer(mover, req.as_bytes()).await else {
                continue; // dropped
            };
            // 4. The reaction.
            self.force_draws(mover);
            if self.cfg.records.is_some() {
                self.moves.push(record::answer_json(mover, &raw));
            }
            let Ok(reaction) = self.game.answer(raw, &mut self.rng) else {
                continue;
            };
            debug!("seat {mover}: {reaction:?}");
            let seat = &mut self.seats[mover];
            if let Some(c) = reaction.played() {
                seat.hand.retain(|&h| h != c.index());
            }
            if let Some(c) = reaction.drawn() {
                seat.hand.push(c.index());
                seat.drawn += 1;
            }
            let reply = match reaction {
                Reaction::Played { .. } => None,
                Reaction::Drew(c) => Some((c, true)),
                Reaction::Penalty(c) | Reaction::PlayedWithPenalty { penalty: c, .. } => {
                    seat.faults.penalties += 1;
                    Some((c, false))
                }
            };
            if let Some((c, ok)) = reply {
                let card = c.map_or(-1, |c| c.index() as i32);
                if self.game.is_online(mover) {
                    self.send(mover, &ServerMsg::Drawn { card, ok }).await;
                }
            }
        }
    }

    /// Waits for the mover's answer; `None` if it was dropped (silent through three repeats).
    async fn await_answer(&mut self, mover: usize, request: &[u8]) -> Option<RawAnswer> {
        let timeout = self.cfg.turn_timeout;
        let mut repeats = 0;
        self.seats[mover].conn.awaiting = true;
        let line = loop {
            match self.seats[mover]
                .conn
                .next_line(timeout.or(self.cfg.idle_timeout))
                .await
            {
                Wait::Line(l) => break Some(l),
                Wait::Eof => break None,
                Wait::Timeout if timeout.is_none() => {
                    self.log
                        .note(mover, "IDLE TIMEOUT without a turn timeout: bot dropped");
                    warn!(
                        "seat {mover} ({}) silent for the idle timeout: dropped",
                        self.seats[mover].name
                    );
                    self.drop_seat(mover).await;
                    return None;
                }
                Wait::Timeout => {
                    self.seats[mover].faults.timeouts += 1;
                    if repeats == 3 {
                        self.log.note(mover, "TIMEOUT after 3 repeats: bot dropped");
                        warn!(
                            "seat {mover} ({}) silent through 3 repeats: dropped",
                            self.seats[mover].name
                        );
                        self.drop_seat(mover).await;
                        return None;
                    }
                    repeats += 1;
                    self.log.note(
                        mover,
                        &format!("TIMEOUT: repeating the request ({repeats}/3)"),
                    );
                    if !self.send_bytes(mover, request).await {
                        return None;
                    }
                }
            }
        };
        self.seats[mover].conn.awaiting = false;
        Some(match line {
            Some(l) => {
                self.log.inp(mover, &l);
                match protocol::read_answer(&l) {
                    Answer::Draw => RawAnswer::Draw,
                    Answer::Bad => RawAnswer::Invalid,
                    Answer::Play { card, wish } => RawAnswer::Play {
                        selected: Some(card as i64),
                        wished: wish.map(i64::from),
                    },
                }
            }
            None => {
                self.log
                    .note(mover, "EOF instead of an answer: counts as a bad line");
                RawAnswer::Invalid
            }
        })
    }
}
