//! Rooms waiting for players: the open `join` room, prepared rooms by reservation code, paused
//! rooms, and observer lists.

use super::GameRecord;
use crate::protocol::{MoveMsg, Slot};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};

/// What a connection's writer task sends.
#[derive(Debug)]
pub(crate) enum Out {
    /// Bytes to write.
    Data(String),
    /// Write `\n</protocol>` (or `<protocol/>` if nothing was written yet) and close the
    /// connection.
    Close,
}

/// What a player's connection reports to its game.
#[derive(Debug)]
pub(crate) enum PlayerEvent {
    /// A move, with the instant it was decoded.
    Move(MoveMsg, Instant),
    /// The connection ended: `None` = closed or dropped, `Some(why)` = undecodable input.
    Gone(Option<String>),
}

pub(crate) type Outbox = mpsc::UnboundedSender<Out>;
pub(crate) type Observers = Arc<Mutex<Vec<Outbox>>>;

/// A player in a room.
pub(crate) struct Seat {
    pub out: Outbox,
    pub events: mpsc::UnboundedReceiver<PlayerEvent>,
    /// Set by the game while it runs: the connection is then never idle.
    pub playing: Arc<std::sync::atomic::AtomicBool>,
}

/// Everything a game task needs to start.
pub(crate) struct StartGame {
    pub room: String,
    pub seats: [Seat; 2],
    pub slots: [Slot; 2],
    pub krakens: [(u8, u8); 2],
    pub observers: Observers,
    pub done: Option<oneshot::Sender<GameRecord>>,
    /// The game's number on this server (order of preparation / first join, from 0).
    pub index: u64,
}

/// A game reserved with [`Server::prepare`](super::Server::prepare).
#[derive(Debug)]
pub struct PreparedGame {
    /// Room id.
    pub room: String,
    /// Reservation codes: RED, BLUE.
    pub codes: [String; 2],
    /// Resolves when the game ends.
    pub result: oneshot::Receiver<GameRecord>,
}

struct Pending {
    slots: [Slot; 2],
    seats: [Option<Seat>; 2],
    paused: bool,
    krakens: [(u8, u8); 2],
    done: Option<oneshot::Sender<GameRecord>>,
    index: u64,
}

/// Why a `joinPrepared` failed.
pub(crate) enum JoinError {
    UnknownCode,
    SlotTaken,
}

#[derive(Default)]
pub(crate) struct Lobby {
    waiting: Option<String>,
    pending: HashMap<String, Pending>,
    codes: HashMap<String, (String, usize)>,
    observers: HashMap<String, Observers>,
    /// Number of the next room created.
    next_index: u64,
}

fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

impl Lobby {
    /// Reserves a room; `may_pause` honours the slots' `shouldBePaused`.
    pub fn prepare(
        &mut self,
        slots: [Slot; 2],
        krakens: [(u8, u8); 2],
        may_pause: bool,
    ) -> PreparedGame {
        let room = new_id();
        let codes = [new_id(), new_id()];
        for (i, c) in codes.iter().enumerate() {
            self.codes.insert(c.clone(), (room.clone(), i));
        }
        let (tx, rx) = oneshot::channel();
        let paused = may_pause && slots.iter().any(|s| s.should_be_paused);
        let index = self.take_index();
        self.pending.insert(
            room.clone(),
            Pending {
                slots,
                seats: [None, None],
                paused,
                krakens,
                done: Some(tx),
                index,
            },
        );
        PreparedGame {
            room,
            codes,
            result: rx,
        }
    }

    /// A `join`: fills the open room or opens a new one (the first joiner is RED).
    pub fn join(&mut self, seat: Seat, krakens: [(u8, u8); 2]) -> (String, Option<StartGame>) {
        if let Some(room) = self.waiting.take() {
            let alive = |p: &Pending| p.seats[0].as_ref().is_some_and(|s| !s.events.is_closed());
            match self.pending.get_mut(&room) {
                Some(p) if alive(p) => {
                    p.seats[1] = Some(seat);
                    let start = self.try_start(&room);
                    return (room, start);
                }
                // The waiting player vanished before an opponent came: drop that room.
                _ => {
                    self.pending.remove(&room);
                }
            }
        }
        let slot = || Slot {
            display_name: "Unknown".into(),
            can_timeout: true,
            should_be_paused: false,
        };
        let room = new_id();
        let index = self.take_index();
        self.pending.insert(
            room.clone(),
            Pending {
                slots: [slot(), slot()],
                seats: [Some(seat), None],
                paused: false,
                krakens,
                done: None,
                index,
            },
        );
        self.waiting = Some(room.clone());
        (room, None)
    }

    /// A `joinPrepared` with a reservation code (each code is good once).
    pub fn join_prepared(
        &mut self,
        code: &str,
        seat: Seat,
    ) -> Result<(String, Option<StartGame>), JoinError> {
        let (room, idx) = self.codes.remove(code).ok_or(JoinError::UnknownCode)?;
        let p = self.pending.get_mut(&room).ok_or(JoinError::UnknownCode)?;
        if p.seats[idx].is_some() {
            return Err(JoinError::SlotTaken);
        }
        p.seats[idx] = Some(seat);
        let start = self.try_start(&room);
        Ok((room, start))
    }

    /// An admin `pause`: `false` releases a paused room.
    pub fn set_paused(&mut self, room: &str, paused: bool) -> Option<StartGame> {
        let p = self.pending.get_mut(room)?;
        p.paused = paused;
        self.try_start(room)
    }

    /// Registers an observer for a room (existing or future).
    pub fn observe(&mut self, room: &str, out: Outbox) {
        self.observers_of(room)
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(out);
    }

    /// Whether `room` is reserved but not started (players missing or paused).
    pub fn is_waiting(&self, room: &str) -> bool {
        self.pending.contains_key(room)
    }

    /// Forgets a finished room's observers.
    pub fn finish(&mut self, room: &str) {
        self.observers.remove(room);
    }

    fn take_index(&mut self) -> u64 {
        self.next_index += 1;
        self.next_index - 1
    }

    fn observers_of(&mut self, room: &str) -> Observers {
        Arc::clone(self.observers.entry(room.to_string()).or_default())
    }

    fn try_start(&mut self, room: &str) -> Option<StartGame> {
        let p = self.pending.get(room)?;
        if p.paused || p.seats.iter().any(Option::is_none) {
            return None;
        }
        let mut p = self.pending.remove(room)?;
        let observers = self.observers_of(room);
        let [Some(a), Some(b)] = [p.seats[0].take(), p.seats[1].take()] else {
            return None;
        };
        Some(StartGame {
            room: room.to_string(),
            seats: [a, b],
            slots: p.slots,
            krakens: p.krakens,
            observers,
            done: p.done,
            index: p.index,
        })
    }
}
