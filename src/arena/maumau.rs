//! Mau-Mau in the arena: duplicate deals, each deal played twice with the seats swapped.
//!
//! Specs are the engine's ([`kibitz_maumau::player::make_player`]): `random`, `greedy`,
//! `heuristic[:k=v,...]`, `ismcts[:c=,eps=,rollout=,r78=]`, plus two arena keys:
//! `iterations=N` (ISMCTS iterations per move: reproducible) and `time=MS` (per-move budget;
//! default 100 ms or `--tc` for ISMCTS without `iterations`). Parameters may also be written
//! `param.NAME=V`.

use super::{split_spec, Arena, Job, Outcome, Played};
use anyhow::Context;
use kibitz_maumau::arena::MAX_TURNS;
use kibitz_maumau::game::{Config, ExhaustionWinner, Game};
use kibitz_maumau::knowledge::Knowledge;
use kibitz_maumau::player::{make_player, Player};
use kibitz_maumau::turn::{Action, GameEnd, Phase};
use kibitz_maumau::{Card, Suit};
use kibitz_search::time::TimeControl;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The Mau-Mau adapter.
#[derive(Clone, Copy, Debug, Default)]
pub struct Maumau {
    /// Who wins on talon exhaustion.
    pub exhaustion: ExhaustionWinner,
}

/// A spec split into the engine's spec and the arena's budget keys.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// What [`make_player`] gets.
    pub engine: String,
    /// ISMCTS iterations per move.
    pub iterations: Option<u64>,
    /// Per-move time in ms (`None` = untimed).
    pub time_ms: Option<u64>,
}

/// Parses and checks `spec`.
pub fn parse(spec: &str, tc_ms: Option<u64>) -> anyhow::Result<Spec> {
    let (kind, opts) = split_spec(spec);
    let (mut iterations, mut time_ms, mut rest) = (None, None, Vec::new());
    let bad = |k: &str| anyhow::anyhow!("maumau spec {spec:?}: bad value for {k:?}");
    for (k, v) in opts {
        match k {
            "iterations" => iterations = Some(v.parse().map_err(|_| bad(k))?),
            "time" => time_ms = Some(v.parse().map_err(|_| bad(k))?),
            _ => rest.push(format!("{}={v}", k.strip_prefix("param.").unwrap_or(k))),
        }
    }
    if time_ms.is_none() && iterations.is_none() {
        time_ms = Some(tc_ms.unwrap_or(100));
    }
    let engine = if rest.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}:{}", rest.join(","))
    };
    make_player(&engine, 0, iterations, 1)
        .map_err(|e| anyhow::anyhow!("maumau spec {spec:?}: {e}"))?;
    Ok(Spec {
        engine,
        iterations,
        time_ms,
    })
}

/// A player with its own budget that logs every action it takes.
struct Logged {
    inner: Box<dyn Player>,
    time_ms: Option<u64>,
    seat: usize,
    log: Arc<Mutex<Vec<(usize, Action)>>>,
}

impl Player for Logged {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&mut self, know: &Knowledge, _: &TimeControl) -> Action {
        let tc = match self.time_ms {
            Some(ms) => {
                let soft = Duration::from_millis(ms);
                TimeControl::new(soft, soft * 3 / 2 + Duration::from_millis(5))
            }
            None => TimeControl::infinite(),
        };
        let a = self.inner.choose(know, &tc);
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((self.seat, a));
        a
    }
}

fn action_json(seat: usize, a: Action) -> Value {
    match a {
        Action::Draw => json!({"seat": seat, "action": "draw"}),
        Action::Play { card, wish } => json!({
            "seat": seat, "action": card.to_string(), "card": card.index(), "wish": wish.index(),
        }),
    }
}

fn action_from_json(v: &Value) -> anyhow::Result<(usize, Action)> {
    let seat = v["seat"].as_u64().context("move without seat")? as usize;
    if v["action"] == "draw" {
        return Ok((seat, Action::Draw));
    }
    let card = v["card"]
        .as_i64()
        .and_then(Card::from_wire)
        .context("move without a valid card")?;
    let wish = v["wish"]
        .as_u64()
        .and_then(|w| Suit::from_index(w as u8))
        .unwrap_or(Suit::Pik);
    Ok((seat, Action::Play { card, wish }))
}

fn end_json(end: GameEnd) -> Value {
    let (reason, seat) = match end {
        GameEnd::Emptied(s) => ("emptied hand", s),
        GameEnd::Exhausted(s) => ("talon exhausted", s),
        GameEnd::LastOnline(s) => ("last online", s),
        GameEnd::TurnCap(s) => ("turn cap", s),
    };
    json!({"winner": seat, "reason": reason})
}

impl Maumau {
    fn config(&self) -> Config {
        Config {
            players: 2,
            exhaustion_winner: self.exhaustion,
        }
    }
}

impl Arena for Maumau {
    fn name(&self) -> &'static str {
        "maumau"
    }

    fn unit(&self) -> u64 {
        2
    }

    fn side_label(&self, slot: u64) -> String {
        format!("seat{slot}")
    }

    fn check_spec(&self, spec: &str) -> anyhow::Result<()> {
        parse(spec, None).map(|_| ())
    }

    fn play(&self, job: &Job) -> anyhow::Result<Played> {
        let (sa, sb) = (parse(job.a, job.tc_ms)?, parse(job.b, job.tc_ms)?);
        let a_seat = job.slot as usize;
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut players: Vec<Box<dyn Player>> = Vec::new();
        for seat in 0..2 {
            let (spec, seed) = if seat == a_seat {
                (&sa, job.seed_for(1))
            } else {
                (&sb, job.seed_for(2))
            };
            let inner = make_player(&spec.engine, seed, spec.iterations, 1)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            players.push(Box::new(Logged {
                inner,
                time_ms: spec.time_ms,
                seat,
                log: log.clone(),
            }));
        }
        let deal_seed = job.unit_seed();
        let rec = kibitz_maumau::arena::play_game(self.config(), deal_seed, &mut players, None);
        let winner = rec.end.winner();
        let outcome = if winner == a_seat {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        let moves: Vec<Value> = log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|&(s, a)| action_json(s, a))
            .collect();
        let players = if a_seat == 0 {
            [job.a, job.b]
        } else {
            [job.b, job.a]
        };
        let mut result = end_json(rec.end);
        result["penalties"] = json!(&rec.penalties[..2]);
        Ok(Played {
            outcome,
            plies: moves.len() as u32,
            record: json!({
                "players": players,
                "setup": {"deal_seed": deal_seed, "exhaustion_winner": format!("{:?}", self.exhaustion)},
                "moves": moves,
                "result": result,
            }),
        })
    }

    fn replay(&self, record: &Value) -> anyhow::Result<Vec<(String, String)>> {
        let deal_seed = record["setup"]["deal_seed"]
            .as_u64()
            .context("record has no setup.deal_seed")?;
        let cfg = Config {
            players: 2,
            exhaustion_winner: match record["setup"]["exhaustion_winner"].as_str() {
                Some("MostValidMoves") => ExhaustionWinner::MostValidMoves,
                _ => ExhaustionWinner::SecondSeat,
            },
        };
        let moves: Vec<(usize, Action)> = record["moves"]
            .as_array()
            .context("record has no moves")?
            .iter()
            .map(action_from_json)
            .collect::<anyhow::Result<_>>()?;
        let mut rng = ChaCha8Rng::seed_from_u64(deal_seed);
        let mut game = Game::deal(cfg, &mut rng);
        let mut out = vec![("deal".to_string(), game.to_string())];
        let mut next = moves.into_iter();
        loop {
            if let Phase::Over(end) = game.phase() {
                if let Some(last) = out.last_mut() {
                    last.0 += &format!(
                        "  — seat {} wins ({})",
                        end.winner(),
                        end_json(end)["reason"].as_str().unwrap_or("")
                    );
                }
                break;
            }
            if game.turns() >= MAX_TURNS {
                game.end_by_turn_cap();
                continue;
            }
            let start = game
                .begin_turn(&mut rng)
                .map_err(|e| anyhow::anyhow!("replay: {e}"))?;
            if start.skipped {
                out.push((format!("seat {} is skipped", start.seat), game.to_string()));
                continue;
            }
            let Some((seat, action)) = next.next() else {
                break;
            };
            if seat != start.seat {
                anyhow::bail!(
                    "record says seat {seat} moved, the game says seat {}",
                    start.seat
                );
            }
            let reaction = game
                .act(action, &mut rng)
                .map_err(|e| anyhow::anyhow!("replay: {e}"))?;
            let what = match action {
                Action::Draw => format!("seat {seat} draws"),
                Action::Play { card, wish } if card.is_jack() => {
                    format!("seat {seat} plays {card}, wishes {}", wish.symbol())
                }
                Action::Play { card, .. } => format!("seat {seat} plays {card}"),
            };
            out.push((format!("{what} ({reaction:?})"), game.to_string()));
        }
        Ok(out)
    }
}
