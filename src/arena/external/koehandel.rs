//! Koehandel with `cmd:` seats: our market (`kibitz_bots_koehandel::external`) plays the game
//! over HTTP GET; a `cmd:` side's command is started once per game and opens an endpoint on
//! `{port}` (`{host}` is 127.0.0.1), serving both seats that side holds (the spec tells seats
//! apart by the request's `id`). Built-in specs are our bot endpoints, one per seat, seeded as
//! the in-process path seeds its players.
//!
//! The market's per-request deadline is the spec's 5 s, or `--tc MS` when given. A `cmd:`
//! side loses the game (`result.forfeit` names the seat and side, `result.reason` says why)
//! when its program cannot start, exits, does not open its port within [`CONNECT_DEADLINE`],
//! fails a request (late, silent, broken) or gives an unusable answer. Record keys as in the
//! in-process path, plus `stderr`: `{"<seat>": log path}` for the seats a program served.

use super::{Bot, CmdSpec, CONNECT_DEADLINE};
use crate::arena::{Job, Outcome, Played};
use kibitz_bots_koehandel::external::{self as ext, Deadlines, SeatSpec};
use kibitz_bots_koehandel::record as kh_record;
use serde_json::{json, Value};
use std::time::Duration;

/// Seats per game.
const SEATS: usize = 4;

/// A whole game never takes longer than this (about 300 questions at 5 s at most each would
/// be far more, but the game stops at the first failed request).
pub const GAME_DEADLINE: Duration = Duration::from_secs(1800);

/// Plays `job` with at least one `cmd:` side; `engine_spec` turns a built-in spec into the
/// engine's strategy string.
pub fn play(
    job: &Job,
    engine_spec: &dyn Fn(&str) -> anyhow::Result<String>,
) -> anyhow::Result<Played> {
    // Per side (A, B): the command, or the engine strategy.
    let side = |spec: &str| -> anyhow::Result<Result<CmdSpec, String>> {
        Ok(if super::is_cmd(spec) {
            Ok(CmdSpec::parse("koehandel", spec)?)
        } else {
            Err(engine_spec(spec)?)
        })
    };
    let sides = [side(job.a)?, side(job.b)?];
    let texts = [job.a, job.b];
    let side_of = |s: usize| usize::from(!job.seating.is_a(s));
    // Start one program per cmd: side on its own port.
    let mut bots: [Option<Bot>; 2] = [None, None];
    let mut ports = [0u16; 2];
    for k in 0..2 {
        if let Ok(cmd) = &sides[k] {
            ports[k] = ext::free_port()?;
            let vars = [("host", "127.0.0.1".into()), ("port", ports[k].to_string())];
            let label = ["a", "b"][k];
            bots[k] = Some(Bot::start(cmd, &vars, "koehandel", job, label));
        }
    }
    let seats: [SeatSpec; SEATS] = std::array::from_fn(|s| match &sides[side_of(s)] {
        Ok(_) => SeatSpec::External {
            port: ports[side_of(s)],
        },
        Err(strategy) => SeatSpec::Builtin {
            strategy: strategy.clone(),
            seed: job.seed_for(1 + s as u64),
        },
    });
    let names: [String; SEATS] = std::array::from_fn(|s| texts[side_of(s)].to_string());
    let deck_seed = crate::arena::deals::seed(job)?;
    let deadlines = Deadlines {
        connect: CONNECT_DEADLINE,
        request: job
            .tc_ms
            .map_or(Duration::from_secs(5), Duration::from_millis),
        game: GAME_DEADLINE,
    };
    let finished = ext::play(&seats, &names, deck_seed, deadlines, &mut |s| {
        bots[side_of(s)].as_mut().and_then(Bot::exited)
    });
    for b in bots.iter_mut().flatten() {
        b.stop();
    }
    let finished = finished?;
    let (scores, turns) = match &finished.game {
        Some(g) => (g.scores.unwrap_or([0; SEATS]), g.turns),
        None => ([0; SEATS], 0),
    };
    let plies = finished.moves.len() as u32;
    let mut record = kh_record::game_json(deck_seed, &names, finished.moves, scores, turns);
    let (mut sum_a, mut sum_b) = (0u64, 0u64);
    for (s, &score) in scores.iter().enumerate() {
        if side_of(s) == 0 {
            sum_a += u64::from(score);
        } else {
            sum_b += u64::from(score);
        }
    }
    record["result"]["a_sum"] = sum_a.into();
    record["result"]["b_sum"] = sum_b.into();
    let outcome = match &finished.forfeit {
        Some(f) => {
            let k = side_of(f.seat);
            tracing::warn!("koehandel game {}: {}", job.index, f.reason);
            record["result"]["forfeit"] = json!({"seat": f.seat, "side": (["a", "b"][k])});
            record["result"]["reason"] = json!(format!("{} loses: {}", ["A", "B"][k], f.reason));
            if k == 0 {
                Outcome::Loss
            } else {
                Outcome::Win
            }
        }
        None => match sum_a.cmp(&sum_b) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Equal => Outcome::Draw,
            std::cmp::Ordering::Less => Outcome::Loss,
        },
    };
    let logs: serde_json::Map<String, Value> = (0..SEATS)
        .filter_map(|s| {
            bots[side_of(s)]
                .as_ref()
                .map(|b| (s.to_string(), json!(b.log.display().to_string())))
        })
        .collect();
    record["stderr"] = Value::Object(logs);
    Ok(Played {
        outcome,
        plies,
        record,
    })
}
