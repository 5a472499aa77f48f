//! Connect Four with a `cmd:` seat: our server (`kibitz_bots_connect4::external`, one game,
//! 7 × 6 connect 4, the contest's 250 ms per answer for the command) plays the game over UDP;
//! the command registers with `{host} {port} {name}`, a built-in spec on the other seat plays
//! through an in-process client.
//!
//! The wire protocol cannot tell a bot an opening, so such a game starts from the empty board
//! (as on the contest server); `--openings` with a `cmd:` seat is refused.

use super::{Bot, CmdSpec, CONNECT_DEADLINE};
use crate::arena::connect4::agent;
use crate::arena::{Job, Outcome, Played};
use kibitz_bots_connect4::external::{Chooser, Ended, ExternalGame, NAMES};
use kibitz_bots_connect4::protocol::{GameResult, LoseReason};
use kibitz_bots_connect4::record as c4record;
use kibitz_connect4::game_impl::ConnectFour;
use kibitz_connect4::{Position, TimeControl};
use kibitz_search::agent::{self, Agent, View};
use kibitz_search::game::Turn;
use serde_json::json;
use std::time::Duration;

/// Board of a `cmd:` game: the contest's (the arena's Connect Four is always 7 × 6, 4).
const SIZE: (usize, usize, usize) = (7, 6, 4);

/// The contest's answer time (spec §9 `TIMEOUT`), for the external seats, unless `--tc MS`
/// gives a time per move for specs without a limit of their own (a `cmd:` spec has none).
pub const ANSWER_TIME: Duration = Duration::from_millis(250);

/// A whole game never takes longer than this (42 answers of at most 250 ms for the command;
/// our side is bounded by its spec's budget).
pub const GAME_DEADLINE: Duration = Duration::from_secs(600);

/// How long a program that lost on time may take to be seen exiting, so the record can say
/// it crashed (it exits well before the server's 250 ms run out).
const EXIT_GRACE: Duration = Duration::from_millis(250);

/// A built-in spec as an in-process player of the server's game: its [`Agent`], told every
/// stone of the server's history once (a new game when the history does not continue the
/// one it was told).
struct Builtin {
    agent: Box<dyn Agent<ConnectFour> + Send>,
    seed: u64,
    told: Vec<usize>,
    started: bool,
}

impl Chooser for Builtin {
    fn choose(&mut self, history: &[usize]) -> usize {
        let (c, r, k) = SIZE;
        let Ok(mut pos) = Position::new(c, r, k) else {
            return 0;
        };
        for &col in history {
            // The server only announces legal stones before asking us; skip anything else.
            if pos.is_over() || pos.play(col).is_err() {
                return 0;
            }
        }
        if pos.is_over() || pos.legal_moves().is_empty() {
            return 0;
        }
        let seat = history.len() % 2;
        if !self.started || !history.starts_with(&self.told) {
            self.agent.new_game(seat, self.seed);
            self.told.clear();
            self.started = true;
        }
        for (i, &col) in history.iter().enumerate().skip(self.told.len()) {
            self.agent.observe(&agent::Played {
                actor: Turn::Seat(i % 2),
                action: col,
            });
            self.told.push(col);
        }
        let state = ConnectFour(pos);
        self.agent
            .choose(&View::new(&state, seat), &TimeControl::infinite())
            .action
    }
}

/// Plays `job` on our server; A moves first in slot 0 (as in the in-process game).
pub fn play(job: &Job) -> anyhow::Result<Played> {
    anyhow::ensure!(
        job.opening.is_none(),
        "a cmd: player starts from the empty board: the connect4 protocol cannot tell a bot an \
         opening, so --openings is for built-in players only"
    );
    let a_first = job.slot == 0;
    // Seats first then second: the spec and the seed the in-process game gives that seat.
    let specs = if a_first {
        [job.a, job.b]
    } else {
        [job.b, job.a]
    };
    let seeds = [job.seed_for(1), job.seed_for(2)];
    let external = specs.map(super::is_cmd);
    let mut cmds: [Option<CmdSpec>; 2] = [None, None];
    let mut players: [Option<Box<dyn Chooser>>; 2] = [None, None];
    for i in 0..2 {
        if external[i] {
            cmds[i] = Some(CmdSpec::parse("connect4", specs[i])?);
        } else {
            players[i] = Some(Box::new(Builtin {
                agent: agent(specs[i], job.tc_ms)?,
                seed: seeds[i],
                told: Vec::new(),
                started: false,
            }));
        }
    }
    let answer = job.tc_ms.map_or(ANSWER_TIME, Duration::from_millis);
    let game = ExternalGame::start(external, answer, SIZE)?;
    let mut bots: [Option<Bot>; 2] = [None, None];
    for i in 0..2 {
        if let Some(cmd) = &cmds[i] {
            let inv = game.invitation(i);
            let vars = [
                ("host", inv.host),
                ("port", inv.port.to_string()),
                ("name", inv.name),
            ];
            bots[i] = Some(Bot::start(cmd, &vars, "connect4", job, NAMES[i]));
        }
    }
    let ended = game.play(players, CONNECT_DEADLINE, GAME_DEADLINE, &mut |s| {
        bots[s].as_mut().and_then(Bot::exited)
    });
    // A program that lost on time may have crashed: look (briefly) before stopping it.
    let timed_out: [bool; 2] = [0, 1].map(|i| match &ended {
        Ended::Played(rec) => matches!(
            &rec.result,
            GameResult::Lose { loser, reason: LoseReason::Timeout(_) } if loser == NAMES[i]
        ),
        Ended::Forfeit { .. } => false,
    });
    let status = super::end_all(&mut bots, EXIT_GRACE, |i| timed_out[i]);
    let (columns, rows, connect) = SIZE;
    let mut record = match ended {
        Ended::Played(rec) => {
            let mut v = c4record::from_server(&rec, columns, rows, connect);
            v["players"] = json!(specs);
            if let Some(o) = v.as_object_mut() {
                o.remove("season");
            }
            for (i, why) in status.iter().enumerate() {
                if let (true, Some(why), Some(r)) =
                    (timed_out[i], why, v["result"]["reason"].as_str())
                {
                    v["result"]["reason"] = json!(format!("{r} (its program {why})"));
                }
            }
            v
        }
        Ended::Forfeit { seat, reason } => {
            tracing::warn!("connect4 game {}: {reason}", job.index);
            let setup = c4record::Setup {
                columns,
                rows,
                connect,
                opening: Vec::new(),
            };
            let end = c4record::Ending {
                winner: Some(1 - seat),
                reason,
                illegal: None,
            };
            c4record::game(specs, &setup, &[], &end)
        }
    };
    let logs: serde_json::Map<String, serde_json::Value> = NAMES
        .iter()
        .zip(&bots)
        .filter_map(|(n, b)| {
            b.as_ref()
                .map(|b| (n.to_string(), json!(b.log.display().to_string())))
        })
        .collect();
    record["stderr"] = serde_json::Value::Object(logs);
    let plies = record["moves"].as_array().map_or(0, Vec::len);
    let outcome = match record["result"]["winner"].as_u64() {
        None => Outcome::Draw,
        Some(w) if (w == 0) == a_first => Outcome::Win,
        Some(_) => Outcome::Loss,
    };
    Ok(Played {
        outcome,
        plies: plies as u32,
        record,
    })
}
