//! Mau-Mau with a `cmd:` seat: our server (`kibitz_bots_maumau::external`) plays the game,
//! dealt from the arena's deal seed; the command joins with `{host} {port} {name}`, a
//! built-in spec on the other seat plays through our client. Two seats only.
//!
//! The server's rules decide a game that started: an illegal or unreadable answer costs a
//! penalty card (the contest's rule, not a loss by itself), a bot silent for the turn timeout
//! (5 s) through three repeats, or whose connection closed, is dropped and the other seat
//! wins as the last one online. The record's `result` then carries `faults` per seat
//! (`penalties`, `timeouts`, `warnings`, `dropped`) and its `reason` says what happened to a
//! `cmd:` seat (how its program ended, too).

use super::{Bot, CmdSpec, CONNECT_DEADLINE};
use crate::arena::{Job, Outcome, Played};
use kibitz_bots_maumau::external::{run_client, seat_name, Ended, ExternalGame};
use kibitz_bots_maumau::record as mm_record;
use kibitz_maumau::game::Config;
use kibitz_maumau::game_impl::MauMau;
use kibitz_search::agent::Agent;
use serde_json::{json, Value};
use std::time::Duration;

/// How long a program whose seat was dropped may take to exit before the record says
/// nothing of how it ended.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// A whole game never takes longer than this (the server's turn cap and 5 s turn timeout end
/// it far sooner in practice).
pub const GAME_DEADLINE: Duration = Duration::from_secs(1800);

/// Builds the built-in agent of `spec` (the adapter's own parser and budget); the client
/// seats it with the seat's seed.
pub type Build<'a> = &'a dyn Fn(&str) -> anyhow::Result<Box<dyn Agent<MauMau> + Send>>;

/// Plays `job` on our server: seat `s` is A's when `job.seating.is_a(s)`, the deck is dealt
/// from `deal_seed`.
pub fn play(job: &Job, config: Config, deal_seed: u64, build: Build) -> anyhow::Result<Played> {
    anyhow::ensure!(
        config.players == 2,
        "maumau: cmd: players play at two seats only (asked for --seats {})",
        config.players
    );
    let seats: [(&str, u64); 2] = std::array::from_fn(|s| {
        if job.seating.is_a(s) {
            (job.a, job.seed_for(1))
        } else {
            (job.b, job.seed_for(2))
        }
    });
    let cmds = [0, 1].map(|s| {
        super::is_cmd(seats[s].0)
            .then(|| CmdSpec::parse("maumau", seats[s].0))
            .transpose()
    });
    let [c0, c1] = cmds;
    let cmds = [c0?, c1?];
    let mut builtin: [Option<Box<dyn Agent<MauMau> + Send>>; 2] = [None, None];
    for (s, (spec, _)) in seats.iter().enumerate() {
        if cmds[s].is_none() {
            builtin[s] = Some(build(spec)?);
        }
    }
    let game = ExternalGame::start(2, config.exhaustion_winner, deal_seed)?;
    let addr = game.addr();
    let invitations = [game.invitation(0), game.invitation(1)];
    // Only one of `start` and `exited` runs at a time (the server calls neither re-entrantly).
    let bots: std::cell::RefCell<[Option<Bot>; 2]> = std::cell::RefCell::new([None, None]);
    let mut clients = Vec::new();
    let ended = game.play(
        &mut |s| {
            if let Some(cmd) = &cmds[s] {
                let inv = &invitations[s];
                let vars = [
                    ("host", inv.host.clone()),
                    ("port", inv.port.to_string()),
                    ("name", inv.name.clone()),
                ];
                bots.borrow_mut()[s] = Some(Bot::start(cmd, &vars, "maumau", job, &inv.name));
            } else if let Some(p) = builtin[s].take() {
                let name = seat_name(s);
                let seed = seats[s].1;
                clients.push(std::thread::spawn(move || {
                    if let Err(e) = run_client(addr, &name, p, 2, seed, GAME_DEADLINE) {
                        tracing::debug!("built-in maumau client: {e:#}");
                    }
                }));
            }
        },
        CONNECT_DEADLINE,
        GAME_DEADLINE,
        &mut |s| bots.borrow_mut()[s].as_mut().and_then(Bot::exited),
    );
    let mut bots = bots.into_inner();
    // Before stopping them: how a program whose seat was dropped ended on its own.
    let dropped = |s: usize| match &ended {
        Ended::Played { report, .. } => report.faults[s].dropped,
        Ended::Forfeit { .. } => false,
    };
    let status = super::end_all(&mut bots, EXIT_GRACE, dropped);
    for c in clients {
        let _ = c.join();
    }
    let players: Vec<String> = seats.iter().map(|(s, _)| s.to_string()).collect();
    let (winner, plies, mut record) = match ended {
        Ended::Played { report, record } => {
            let mut v = record;
            if let Some(o) = v.as_object_mut() {
                for k in ["format", "seed", "index"] {
                    o.remove(k);
                }
            }
            v["players"] = json!(players);
            let faults: Vec<Value> = report
                .faults
                .iter()
                .map(|f| {
                    json!({"penalties": f.penalties, "timeouts": f.timeouts,
                           "warnings": f.warnings, "dropped": f.dropped})
                })
                .collect();
            let mut notes = Vec::new();
            for (s, f) in report.faults.iter().enumerate() {
                if cmds[s].is_none() {
                    continue;
                }
                let mut what = Vec::new();
                if f.penalties > 0 {
                    what.push(format!(
                        "{} penalty card(s) for illegal answers",
                        f.penalties
                    ));
                }
                if f.timeouts > 0 {
                    what.push(format!("{} turn timeout(s)", f.timeouts));
                }
                if f.dropped {
                    what.push("dropped".to_string());
                    if let Some(why) = &status[s] {
                        what.push(format!("its program {why}"));
                    }
                }
                if !what.is_empty() {
                    notes.push(format!("{}: {}", seat_name(s), what.join(", ")));
                }
            }
            if let (false, Some(r)) = (notes.is_empty(), v["result"]["reason"].as_str()) {
                v["result"]["reason"] = json!(format!("{r} ({})", notes.join("; ")));
            }
            v["result"]["faults"] = Value::Array(faults);
            let plies = v["moves"].as_array().map_or(0, Vec::len);
            (report.winner, plies, v)
        }
        Ended::Forfeit { seat, reason } => {
            tracing::warn!("maumau game {}: {reason}", job.index);
            let winner = 1 - seat.min(1);
            let deck = mm_record::shuffled_deck(deal_seed);
            let setup = mm_record::setup_json(config, deal_seed, &deck, mm_record::MAX_TURNS, None);
            let result = json!({"winner": winner, "reason": reason, "turns": 0,
                                "penalties": [0, 0], "not_joined": seat});
            (
                winner,
                0,
                mm_record::game_json(&players, setup, Vec::new(), result),
            )
        }
    };
    let logs: serde_json::Map<String, Value> = bots
        .iter()
        .enumerate()
        .filter_map(|(s, b)| {
            b.as_ref()
                .map(|b| (seat_name(s), json!(b.log.display().to_string())))
        })
        .collect();
    record["stderr"] = Value::Object(logs);
    let outcome = if job.seating.is_a(winner) {
        Outcome::Win
    } else {
        Outcome::Loss
    };
    Ok(Played {
        outcome,
        plies: plies as u32,
        record,
    })
}
