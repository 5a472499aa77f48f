//! Piranhas with a `cmd:` seat: our server (`kibitz_bots_piranhas::external`) plays the game;
//! the command joins with `{host} {port} {reservation}`, a built-in spec on the other seat
//! plays through our client.

use super::{Bot, CmdSpec, CONNECT_DEADLINE};
use crate::arena::{Job, Outcome, Played};
use kibitz_bots_piranhas::external::{Ended, ExternalGame, SeatAgent};
use kibitz_bots_piranhas::protocol::ScoreCause;
use kibitz_bots_piranhas::record as precord;
use kibitz_piranhas::Color;
use serde_json::json;
use std::time::Duration;

/// How long a program whose seat left the game may take to exit before the record says
/// nothing of how it ended.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// A whole game never takes longer than this (the server's clocks end it far sooner: at most
/// 60 moves per side, 10 s hard limit each).
pub const GAME_DEADLINE: Duration = Duration::from_secs(1300);

/// Builds a built-in agent from its spec (the adapter's own parser); the client seeds it.
pub type Build<'a> = &'a dyn Fn(
    &str,
) -> anyhow::Result<
    Box<dyn kibitz_search::agent::Agent<kibitz_piranhas::game_impl::Piranhas> + Send>,
>;

/// Plays `job` on our server with Kraken pair `krakens`; A is RED in slot 0.
pub fn play(job: &Job, krakens: [(u8, u8); 2], build: Build) -> anyhow::Result<Played> {
    let a_color = if job.slot == 0 {
        Color::Red
    } else {
        Color::Blue
    };
    // Seats RED then BLUE: (spec, seed of that player).
    let seats = if a_color == Color::Red {
        [(job.a, job.seed_for(1)), (job.b, job.seed_for(2))]
    } else {
        [(job.b, job.seed_for(2)), (job.a, job.seed_for(1))]
    };
    let external = seats.map(|(s, _)| super::is_cmd(s));
    let cmds = seats.map(|(s, _)| {
        super::is_cmd(s)
            .then(|| CmdSpec::parse("piranhas", s))
            .transpose()
    });
    let [c0, c1] = cmds;
    let cmds = [c0?, c1?];
    let mut players: [Option<SeatAgent>; 2] = [None, None];
    for (i, (spec, seed)) in seats.iter().enumerate() {
        if !external[i] {
            players[i] = Some((build(spec)?, *seed));
        }
    }
    let game = ExternalGame::start(seats.map(|(s, _)| s.to_string()), krakens, external)?;
    let mut bots: [Option<Bot>; 2] = [None, None];
    for (i, c) in Color::BOTH.into_iter().enumerate() {
        if let Some(cmd) = &cmds[i] {
            let inv = game.invitation(c);
            let vars = [
                ("host", inv.host),
                ("port", inv.port.to_string()),
                ("reservation", inv.reservation),
            ];
            let seat = c.name().to_ascii_lowercase();
            bots[i] = Some(Bot::start(cmd, &vars, "piranhas", job, &seat));
        }
    }
    let ended = game.play(players, CONNECT_DEADLINE, GAME_DEADLINE, &mut |c| {
        bots[c as usize].as_mut().and_then(Bot::exited)
    });
    // Before stopping them: how a program that left the game ended on its own, for the
    // reason below (its exit may reach us a moment after the server saw the socket close).
    let left = |i: usize| match &ended {
        Ended::Played(rec) => rec.result.scores[i].cause == ScoreCause::Left,
        Ended::Forfeit { .. } => false,
    };
    let status = super::end_all(&mut bots, EXIT_GRACE, left);
    let players = seats.map(|(s, _)| s);
    let (winner, plies, mut record) = match ended {
        Ended::Played(rec) => {
            let mut v = precord::from_server(players, krakens, &rec.moves, &rec.result);
            // A program that left: say how it ended.
            for (i, s) in rec.result.scores.iter().enumerate() {
                if s.cause == ScoreCause::Left {
                    if let (Some(why), Some(r)) = (&status[i], v["result"]["reason"].as_str()) {
                        v["result"]["reason"] = json!(format!("{r} (its program {why})"));
                    }
                }
            }
            (rec.result.winner.map(|(_, c)| c), rec.moves.len(), v)
        }
        Ended::Forfeit { seat, reason } => {
            tracing::warn!("piranhas game {}: {reason}", job.index);
            let mut v = precord::game(players, krakens, &[], Some(seat.other()), &reason);
            v["result"]["cause"] =
                json!(Color::BOTH.map(|c| if c == seat { "NOT_JOINED" } else { "REGULAR" }));
            (Some(seat.other()), 0, v)
        }
    };
    let logs: serde_json::Map<String, serde_json::Value> = Color::BOTH
        .iter()
        .zip(&bots)
        .filter_map(|(c, b)| {
            b.as_ref().map(|b| {
                (
                    c.name().to_ascii_lowercase(),
                    json!(b.log.display().to_string()),
                )
            })
        })
        .collect();
    record["stderr"] = serde_json::Value::Object(logs);
    let outcome = match winner {
        Some(w) if w == a_color => Outcome::Win,
        None => Outcome::Draw,
        Some(_) => Outcome::Loss,
    };
    Ok(Played {
        outcome,
        plies: plies as u32,
        record,
    })
}
