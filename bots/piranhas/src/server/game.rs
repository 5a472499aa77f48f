//! One game between two seated players: mementos, MoveRequests, time limits, rule checks and
//! the result, in the order 19.2.1 sends them (spec §7.3–§7.5).

use super::conn::send;
use super::lobby::{Out, PlayerEvent, Seat, StartGame};
use super::{GameRecord, Shared};
use crate::protocol::{Memento, MoveMsg, ResultMsg, ScoreCause, ScoreMsg, ServerMessage};
use kibitz_piranhas::{Color, GameResult, Move, State};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Reason text of a player who left.
pub const REASON_LEFT: &str = "Der Spieler hat das Spiel verlassen";

/// What 19.2.1 tells a seated player who moves while it is not its turn (spec §9 R8).
pub const NOT_YOUR_TURN: &str = "It's not your turn yet.";

/// Reason text of a timeout after `limit`.
pub fn timeout_reason(limit: Duration) -> String {
    let secs = limit.as_secs_f64();
    let secs = if secs.fract() == 0.0 {
        format!("{}", secs as u64)
    } else {
        format!("{secs}")
    };
    format!("Der Spieler hat innerhalb von {secs} Sekunden nach Aufforderung keinen Zug gesendet")
}

/// How a game ended.
enum End {
    Regular(GameResult),
    /// `loser` lost for `cause`, with `reason`.
    Forfeit {
        loser: Color,
        cause: ScoreCause,
        reason: String,
    },
}

struct Game {
    shared: Arc<Shared>,
    room: String,
    seats: [Seat; 2],
    names: [String; 2],
    can_timeout: [bool; 2],
    observers: super::lobby::Observers,
    state: State,
    moves: Vec<Move>,
    /// Every memento's `<state>`, kept only when the server writes records.
    states: Option<Vec<crate::protocol::Element>>,
    /// A seat whose connection the game closed with an error (a rule violation, a move out
    /// of turn): it gets no result and no `<left>`, like on 19.2.1.
    dismissed: Option<Color>,
}

impl Game {
    fn to_players(&self, msg: &ServerMessage) {
        for s in &self.seats {
            send(&s.out, msg);
        }
    }

    fn to_observers(&self, msg: &ServerMessage) {
        let obs = self.observers.lock().unwrap_or_else(|e| e.into_inner());
        for o in obs.iter() {
            send(o, msg);
        }
    }

    fn memento(&mut self, last_move: Option<MoveMsg>) {
        let msg = ServerMessage::Memento {
            room: self.room.clone(),
            state: Box::new(Memento::from_state(
                &self.state,
                self.names.clone(),
                last_move,
            )),
        };
        if let (Some(states), ServerMessage::Memento { room, state }) = (&mut self.states, &msg) {
            states.extend(crate::record::state_element(room, state));
        }
        self.to_players(&msg);
        self.to_observers(&msg);
    }

    /// Waits for the side to move; returns the end of the game if this turn ends it.
    async fn turn(&mut self) -> Option<End> {
        let cur = self.state.current();
        let c = cur as usize;
        let shared = Arc::clone(&self.shared);
        let cfg = &shared.config;
        send(
            &self.seats[c].out,
            &ServerMessage::MoveRequest {
                room: self.room.clone(),
            },
        );
        let asked = Instant::now();
        let hard = tokio::time::Instant::from_std(asked + cfg.hard_timeout);
        let (mover, other) = split(&mut self.seats, c);
        let ev = tokio::select! {
            ev = mover.events.recv() => (cur, ev.unwrap_or(PlayerEvent::Gone(None))),
            ev = other.events.recv() => (cur.other(), ev.unwrap_or(PlayerEvent::Gone(None))),
            _ = tokio::time::sleep_until(hard), if self.can_timeout[c] => {
                return Some(End::Forfeit {
                    loser: cur,
                    cause: ScoreCause::HardTimeout,
                    reason: timeout_reason(cfg.hard_timeout),
                });
            }
        };
        match ev {
            (who, PlayerEvent::Gone(why)) => {
                match why {
                    // Undecodable input: tell the sender why, then close it.
                    Some(why) => Some(self.dismiss(who, why, None, false)),
                    None => Some(left(who)),
                }
            }
            (who, PlayerEvent::Move(m, _)) if who != cur => {
                // 19.2.1: the error with the move echoed, CloseConnection, closed; the
                // mover has left the game (spec §9 R8).
                tracing::info!(
                    "room {}: {who} moved out of turn ({}); it leaves the game",
                    self.room,
                    m.mv
                );
                Some(self.dismiss(who, NOT_YOUR_TURN.into(), Some(m), true))
            }
            (_, PlayerEvent::Move(m, at)) => {
                if self.can_timeout[c] && at.duration_since(asked) > cfg.soft_timeout {
                    return Some(End::Forfeit {
                        loser: cur,
                        cause: ScoreCause::SoftTimeout,
                        reason: timeout_reason(cfg.soft_timeout),
                    });
                }
                match self.state.apply(m.mv) {
                    Err(rule) => {
                        let out = &self.seats[c].out;
                        let message = format!("Ungueltiger Zug von '{}'.\n{rule}", self.names[c]);
                        send(
                            out,
                            &ServerMessage::Error {
                                room: Some(self.room.clone()),
                                message,
                                original: None,
                            },
                        );
                        send(out, &ServerMessage::CloseConnection);
                        let _ = out.send(Out::Close);
                        self.dismissed = Some(cur);
                        Some(End::Forfeit {
                            loser: cur,
                            cause: ScoreCause::RuleViolation,
                            reason: rule.to_string(),
                        })
                    }
                    Ok(next) => {
                        self.state = next;
                        self.moves.push(m.mv);
                        self.memento(Some(m));
                        self.state.result().map(End::Regular)
                    }
                }
            }
        }
    }

    /// Sends `who` an error (with its move echoed when `original` is given, and then
    /// CloseConnection when `close_connection`), closes its connection, and ends the game with
    /// `who` having left (spec §9 R8).
    fn dismiss(
        &mut self,
        who: Color,
        message: String,
        original: Option<MoveMsg>,
        close_connection: bool,
    ) -> End {
        let out = &self.seats[who as usize].out;
        send(
            out,
            &ServerMessage::Error {
                room: Some(self.room.clone()),
                message,
                original,
            },
        );
        if close_connection {
            send(out, &ServerMessage::CloseConnection);
        }
        let _ = out.send(Out::Close);
        self.dismissed = Some(who);
        left(who)
    }

    fn result(&self, end: &End) -> ResultMsg {
        let swarm = |c: Color| self.state.biggest_swarm(c);
        let (scores, winner) = match end {
            End::Regular(r) => {
                let score = |c: Color| ScoreMsg {
                    cause: ScoreCause::Regular,
                    reason: r.reason.text().map(str::to_string),
                    points: r.points(c),
                    swarm: r.swarm[c as usize],
                };
                ([score(Color::Red), score(Color::Blue)], r.winner)
            }
            End::Forfeit {
                loser,
                cause,
                reason,
            } => {
                let score = |c: Color| {
                    if c == *loser {
                        ScoreMsg {
                            cause: *cause,
                            reason: Some(reason.clone()),
                            points: 0,
                            swarm: swarm(c),
                        }
                    } else {
                        ScoreMsg {
                            cause: ScoreCause::Regular,
                            reason: None,
                            points: 2,
                            swarm: swarm(c),
                        }
                    }
                };
                ([score(Color::Red), score(Color::Blue)], Some(loser.other()))
            }
        };
        ResultMsg {
            scores,
            winner: winner.map(|w| (self.names[w as usize].clone(), w)),
        }
    }
}

/// The cause of a game's end and its winner, in words (for the info log).
fn describe_end(end: &End, names: &[String; 2], result: &ResultMsg) -> String {
    let winner = match &result.winner {
        Some((name, color)) => format!("{} ({name}) wins", color.name()),
        None => "draw".to_string(),
    };
    let cause = match end {
        End::Regular(r) => format!(
            "regular end: {}",
            r.reason.text().unwrap_or("game over").replace('\n', " ")
        ),
        End::Forfeit {
            loser,
            cause,
            reason,
        } => format!(
            "{} ({}) lost by {}: {}",
            loser.name(),
            names[*loser as usize],
            cause_word(*cause),
            reason.replace('\n', " ")
        ),
    };
    format!("{cause}; {winner}")
}

fn cause_word(c: ScoreCause) -> &'static str {
    match c {
        ScoreCause::Regular => "regular end",
        ScoreCause::Left => "leaving (disconnect or undecodable input)",
        ScoreCause::RuleViolation => "rule violation",
        ScoreCause::SoftTimeout => "soft timeout",
        ScoreCause::HardTimeout => "hard timeout",
    }
}

/// The end of a game that `who` left.
fn left(who: Color) -> End {
    End::Forfeit {
        loser: who,
        cause: ScoreCause::Left,
        reason: REASON_LEFT.into(),
    }
}

fn split(seats: &mut [Seat; 2], c: usize) -> (&mut Seat, &mut Seat) {
    let [a, b] = seats;
    if c == 0 {
        (a, b)
    } else {
        (b, a)
    }
}

/// Appends the game to the server's records (`--records`) and writes its replay XML next to
/// them; an I/O error is logged, never fatal.
fn write_record(shared: &Shared, rec: &GameRecord, states: Option<Vec<crate::protocol::Element>>) {
    let Some(w) = &shared.records else { return };
    let names = [rec.names[0].as_str(), rec.names[1].as_str()];
    let mut line = crate::record::from_server(names, rec.krakens, &rec.moves, &rec.result);
    line["seed"] = serde_json::json!(shared.config.seed);
    line["index"] = serde_json::json!(rec.index);
    line["room"] = serde_json::json!(rec.room);
    if let (Some(states), Some(dir)) = (states, w.path().parent()) {
        let name = format!("{}-{}.xml", crate::record::GAME, rec.index);
        let xml = crate::record::replay_xml(&states, &rec.result);
        match std::fs::write(dir.join(&name), xml) {
            Ok(()) => line["native_file"] = serde_json::json!(name),
            Err(e) => tracing::warn!("cannot write the replay {name}: {e}"),
        }
    }
    if let Err(e) = w.write(&line) {
        tracing::warn!(
            "cannot write the game record to {}: {e}",
            w.path().display()
        );
    }
}

/// Plays one game to its end, then reports it (server results channel, prepared handle).
pub(crate) async fn run(shared: Arc<Shared>, start: StartGame) {
    let StartGame {
        room,
        seats,
        slots,
        krakens,
        observers,
        done,
        index,
    } = start;
    let names = [slots[0].display_name.clone(), slots[1].display_name.clone()];
    let mut g = Game {
        shared: Arc::clone(&shared),
        room: room.clone(),
        seats,
        names,
        can_timeout: [slots[0].can_timeout, slots[1].can_timeout],
        observers,
        state: State::start(krakens),
        moves: Vec::new(),
        states: shared.records.is_some().then(Vec::new),
        dismissed: None,
    };
    for c in Color::BOTH {
        send(
            &g.seats[c as usize].out,
            &ServerMessage::Welcome {
                room: room.clone(),
                color: c,
            },
        );
    }
    for s in &g.seats {
        s.playing.store(true, Ordering::Relaxed);
    }
    g.memento(None);
    let end = loop {
        if let Some(end) = g.turn().await {
            break end;
        }
    };
    let result = g.result(&end);
    let msg = ServerMessage::Result {
        room: room.clone(),
        result: result.clone(),
    };
    let left = ServerMessage::Left { room: room.clone() };
    for c in Color::BOTH {
        if Some(c) != g.dismissed {
            let out = &g.seats[c as usize].out;
            send(out, &msg);
            send(out, &left);
        }
    }
    g.to_observers(&msg);
    g.to_observers(&left);
    // From now on a move from either player is answered with CloseConnection (spec §7.3): the
    // connections see the closed event channels. Moves already queued came after the result.
    for s in &mut g.seats {
        s.playing.store(false, Ordering::Relaxed);
        s.events.close();
        while let Ok(ev) = s.events.try_recv() {
            if let PlayerEvent::Move(..) = ev {
                send(&s.out, &ServerMessage::CloseConnection);
                let _ = s.out.send(Out::Close);
            }
        }
    }
    shared.lobby().finish(&room);
    tracing::info!(
        "room {room}: game over after turn {}: {}",
        g.state.turn(),
        describe_end(&end, &g.names, &result)
    );
    let record = GameRecord {
        room: room.clone(),
        names: g.names.clone(),
        krakens,
        moves: g.moves.clone(),
        result,
        index,
    };
    write_record(&shared, &record, g.states.take());
    let _ = shared.finished.send(record.clone());
    if let Some(d) = done {
        let _ = d.send(record);
    }
    // Give the players time to send `</protocol>` (their reader answers it); then close.
    let outs: Vec<_> = g.seats.iter().map(|s| s.out.clone()).collect();
    drop(g);
    tokio::time::sleep(shared.config.close_grace).await;
    for o in outs {
        let _ = o.send(Out::Close);
    }
}
