//! Connect Four (7 × 6, connect 4) in the arena: both colours per opening. Openings are
//! [`RANDOM_PLIES`] random moves drawn from the unit seed, or `--openings` lines of 1-based
//! column digits.
//!
//! Specs: the engine's one parser ([`kibitz_connect4::agents`]: `engine`, `search`, `weak`,
//! `random`), where an `engine` spec without `time=MS` thinks `--tc` (default 100 ms) per
//! move; and `cmd:PROGRAM ARGS` with `{host} {port} {name}`: an external bot over the
//! contest's UDP protocol on our server, from the empty board (see [`super::external`]).
//! Every built-in player is an `Agent` driven by the engine's game loop
//! ([`kibitz_connect4::players::play_game`]); the record's `think` comes from its
//! `Decision`s.
//!
//! `--adjudicate[=NODES]` ([`Adjudicated`]): the exact solver ends a game as soon as it
//! proves the result within NODES nodes per move (default [`ADJUDICATE_NODES`]).

mod adjudicate;

use super::{Arena, Job, Outcome, Played, Position};
use adjudicate::Judge;
pub use adjudicate::{Adjudicated, ADJUDICATE_NODES};
use anyhow::{bail, Context};
use kibitz_bots_connect4::record as c4record;
use kibitz_connect4::agents::{self, AgentSpec};
use kibitz_connect4::game_impl::{C4Config, ConnectFour};
use kibitz_connect4::players::play_game;
use kibitz_connect4::{Board, Geometry, Player, Solver, SolverConfig, TimeControl};
use kibitz_search::agent::{Agent, Decision};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// Random plies of a default opening.
pub const RANDOM_PLIES: usize = 4;
const COLUMNS: usize = 7;
const ROWS: usize = 6;
const CONNECT: usize = 4;

/// The Connect Four adapter.
pub struct Connect4;

/// Parses a built-in player's spec: the engine's parser with `tc_ms` (default 100 ms) as
/// the move time of an `engine` spec that sets none.
pub fn parse(spec: &str, tc_ms: Option<u64>) -> anyhow::Result<AgentSpec> {
    Ok(AgentSpec::parse(spec)?.with_default_time(tc_ms.unwrap_or(100)))
}

/// The 7 × 6 player of a built-in `spec` (see [`parse`]).
pub fn agent(spec: &str, tc_ms: Option<u64>) -> anyhow::Result<Box<dyn Agent<ConnectFour> + Send>> {
    Ok(parse(spec, tc_ms)?.build(&C4Config::default())?)
}

/// What the search knew about a move, for the record's `think` key (see `arena::record`):
/// `{"score", "exact", "depth", "nodes", "source", "ms", "pv"}` with the score from the
/// mover's side (left out when not proven) and the line in 1-based columns (left out when
/// empty); `None` for players without a search (no depth), which know nothing.
pub fn think(d: &Decision<usize>) -> Option<Value> {
    let depth = d.depth?;
    let mut think = json!({
        "exact": agents::exact(d),
        "depth": depth,
        "nodes": d.nodes,
        "source": agents::source(d).unwrap_or("none"),
        "ms": d.elapsed.as_millis() as u64,
    });
    if let Some(score) = d.score {
        // The engine's scores are integers.
        think["score"] = json!(score as i64);
    }
    if !d.pv.is_empty() {
        // 1-based columns, as the record's moves.
        think["pv"] = json!(d.pv.iter().map(|c| c + 1).collect::<Vec<_>>());
    }
    Some(think)
}

/// Columns (0-based) of an opening: the given digits or random plies from `seed`.
fn opening(text: Option<&str>, seed: u64) -> anyhow::Result<Vec<usize>> {
    if let Some(t) = text {
        let mut b = Board::<u64>::new(COLUMNS, ROWS, CONNECT)?;
        let mut v = Vec::new();
        for ch in t.trim().chars() {
            let c = ch
                .to_digit(10)
                .filter(|d| (1..=COLUMNS as u32).contains(d))
                .with_context(|| format!("opening {t:?}: {ch:?} is not a column 1-{COLUMNS}"))?
                as usize
                - 1;
            b.play(c).with_context(|| format!("opening {t:?}"))?;
            v.push(c);
        }
        if b.is_over() {
            bail!("opening {t:?} already ends the game");
        }
        return Ok(v);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut b = Board::<u64>::new(COLUMNS, ROWS, CONNECT)?;
    let mut v = Vec::new();
    for _ in 0..RANDOM_PLIES {
        let legal: Vec<usize> = b
            .legal_moves()
            .into_iter()
            .filter(|&c| !b.is_winning_move(c))
            .collect();
        let c = legal[rng.random_range(0..legal.len())];
        b.play(c)?;
        v.push(c);
    }
    Ok(v)
}

fn digits(cols: &[usize]) -> String {
    cols.iter().map(|c| char::from(b'1' + *c as u8)).collect()
}

impl Arena for Connect4 {
    fn takes_openings(&self) -> bool {
        true
    }
    fn configure(&self, opts: &super::GameOptions) -> anyhow::Result<Option<Box<dyn Arena>>> {
        opts.refuse_exhaustion(self.name())?;
        Ok(opts.adjudicate.map(|nodes| {
            Box::new(Adjudicated {
                nodes: nodes.unwrap_or(ADJUDICATE_NODES),
            }) as Box<dyn Arena>
        }))
    }
    fn name(&self) -> &'static str {
        "connect4"
    }

    fn unit(&self) -> u64 {
        2
    }

    fn side_label(&self, slot: u64) -> String {
        if slot == 0 { "first" } else { "second" }.into()
    }

    fn check_spec(&self, spec: &str) -> anyhow::Result<()> {
        if super::external::is_cmd(spec) {
            return super::external::CmdSpec::parse("connect4", spec).map(|_| ());
        }
        parse(spec, None).map(|_| ())
    }

    fn play(&self, job: &Job) -> anyhow::Result<Played> {
        self.play_game(job, None)
    }

    fn replay(&self, record: &Value) -> anyhow::Result<Vec<(String, String)>> {
        Ok(walk(record)?
            .into_iter()
            .map(|p| (p.what, p.board.to_string()))
            .collect())
    }

    /// Connect Four positions on the record's own board size (`setup.columns`, `rows`,
    /// `connect`; 7 × 6, 4 when absent): `state` is `{"columns", "rows", "connect", "grid":
    /// [rows top to bottom as strings of '.', '1' (first), '2' (second)], "to_move": 0 | 1,
    /// "last": [col, row] | null (0-based, row 0 at the bottom), "win": [[col, row], ...]}`
    /// (`win`: the cells of the winning line once the game is won, else empty).
    fn positions(&self, record: &Value) -> anyhow::Result<Vec<Position>> {
        Ok(walk(record)?
            .into_iter()
            .map(|p| Position {
                state: position_state(&p.board, p.last),
                what: p.what,
            })
            .collect())
    }
}

impl Connect4 {
    /// Plays one game; with `adjudicate = Some(nodes)` the exact solver looks at the position
    /// before every move with a budget of `nodes` nodes, and the game ends with the result it
    /// proves (see [`Adjudicated`]).
    fn play_game(&self, job: &Job, adjudicate: Option<u64>) -> anyhow::Result<Played> {
        if super::external::is_cmd(job.a) || super::external::is_cmd(job.b) {
            anyhow::ensure!(
                adjudicate.is_none(),
                "--adjudicate is for built-in players: a cmd: game is played out on the server"
            );
            return super::external::connect4::play(job);
        }
        let (sa, sb) = (agent(job.a, job.tc_ms)?, agent(job.b, job.tc_ms)?);
        let open = opening(job.opening, job.unit_seed())?;
        let a_first = job.slot == 0;
        let (mut first, mut second) = if a_first { (sa, sb) } else { (sb, sa) };
        let mut thinks = Vec::new();
        let mut judge = adjudicate.map(Judge::new).transpose()?;
        let mut proven = None;
        let end = play_game(
            [&mut *first, &mut *second],
            [job.seed_for(1), job.seed_for(2)],
            &open,
            // Every built-in engine spec brings its own clock (see `parse`).
            TimeControl::infinite,
            |board| {
                let Some(v) = judge.as_mut().and_then(|j| j.prove(board)) else {
                    return false;
                };
                let mover = board.side_to_move();
                proven = Some(match v.signum() {
                    1 => Some(mover),
                    -1 => Some(mover.other()),
                    _ => None,
                });
                true
            },
            |m| {
                let c = m.decision.action;
                if !m.board.can_play(c) {
                    bail!("illegal column {} after {}", c + 1, digits(m.history));
                }
                thinks.push(think(m.decision).map(|mut t| {
                    t["seat"] = json!(m.seat);
                    t
                }));
                Ok(())
            },
        )?;
        let (board, history) = (end.board, end.history);
        let winner = proven.unwrap_or_else(|| board.winner());
        let outcome = match winner {
            None => Outcome::Draw,
            Some(p) if (p == Player::First) == a_first => Outcome::Win,
            Some(_) => Outcome::Loss,
        };
        let players = if a_first {
            [job.a, job.b]
        } else {
            [job.b, job.a]
        };
        // The record is built where the server builds its own (one notation, no drift).
        let setup = c4record::Setup {
            columns: COLUMNS,
            rows: ROWS,
            connect: CONNECT,
            opening: open.clone(),
        };
        let end = c4record::Ending {
            winner: winner.map(|p| usize::from(p != Player::First)),
            reason: match (proven, winner) {
                (Some(_), Some(Player::First)) => "adjudicated (proven win for first player)",
                (Some(_), Some(Player::Second)) => "adjudicated (proven win for second player)",
                (Some(_), None) => "adjudicated (proven draw)",
                (None, Some(_)) => "CONNECTED_LINE",
                (None, None) => "BOARD_FULL",
            }
            .into(),
            illegal: None,
        };
        let mut record = c4record::game(players, &setup, &history[open.len()..], &end);
        if thinks.iter().any(Option::is_some) {
            record["think"] = json!(thinks);
        }
        Ok(Played {
            outcome,
            plies: (history.len() - open.len()) as u32,
            record,
        })
    }
}

/// One ply of a recorded game: what happened, the board after it, and the cell played.
struct Ply {
    what: String,
    board: Board<u128>,
    last: Option<(usize, usize)>,
}

/// The start and every move of a Connect Four record on its own board size (`setup.columns`,
/// `rows`, `connect`; 7 × 6, 4 when absent: a server may play any size) and opening (absent:
/// empty), the last line marked with the result. The one walk behind `replay` and `positions`.
fn walk(record: &Value) -> anyhow::Result<Vec<Ply>> {
    let setup = &record["setup"];
    let dim = |k: &str, d: u64| -> anyhow::Result<usize> {
        match setup.get(k) {
            None => Ok(d as usize),
            Some(v) => v
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .with_context(|| format!("setup.{k} is not a size: {v}")),
        }
    };
    let (columns, rows, connect) = (dim("columns", 7)?, dim("rows", 6)?, dim("connect", 4)?);
    let mut b = Board::<u128>::new(columns, rows, connect)
        .map_err(|e| anyhow::anyhow!("board {columns}×{rows} connect {connect}: {e}"))?;
    let open = setup["opening"].as_str().unwrap_or("");
    for (i, ch) in open.chars().enumerate() {
        let c = ch
            .to_digit(10)
            .filter(|d| (1..=columns as u32).contains(d))
            .with_context(|| format!("opening {open:?}: {ch:?} is not a column"))?;
        b.play(c as usize - 1)
            .map_err(|e| anyhow::anyhow!("opening {open:?}, ply {}: {e}", i + 1))?;
    }
    let mut out = vec![Ply {
        what: format!("start, opening {open:?}"),
        board: b,
        last: None,
    }];
    for (i, m) in record["moves"]
        .as_array()
        .context("record has no moves")?
        .iter()
        .enumerate()
    {
        let c = m
            .as_u64()
            .filter(|c| (1..=columns as u64).contains(c))
            .with_context(|| format!("move {}: not a column of {columns}", i + 1))?
            as usize;
        let who = if b.side_to_move() == Player::First {
            "● first"
        } else {
            "○ second"
        };
        let row = b.height(c - 1);
        b.play(c - 1)
            .map_err(|e| anyhow::anyhow!("move {} (column {c}) is illegal: {e}", i + 1))?;
        out.push(Ply {
            what: format!("{}. {who} plays column {c}", i + 1),
            board: b,
            last: Some((c - 1, row)),
        });
    }
    if let Some(last) = out.last_mut() {
        last.what += match b.winner() {
            Some(Player::First) => "  — first player wins",
            Some(Player::Second) => "  — second player wins",
            None if b.is_full() => "  — draw",
            None => "",
        };
        if let Some(r) = record["result"]["reason"]
            .as_str()
            .filter(|r| r.starts_with("adjudicated"))
        {
            last.what += &format!("  — {r}");
        }
    }
    Ok(out)
}

/// The viewer's structured position (see [`Connect4::positions`]'s doc).
fn position_state(b: &Board<u128>, last: Option<(usize, usize)>) -> Value {
    let (columns, rows) = (b.columns(), b.rows());
    let grid: Vec<String> = (0..rows)
        .rev()
        .map(|r| {
            (0..columns)
                .map(|c| match b.cell(c, r) {
                    Some(Player::First) => '1',
                    Some(Player::Second) => '2',
                    None => '.',
                })
                .collect()
        })
        .collect();
    let win = match (b.winner(), last) {
        (Some(p), Some(cell)) => winning_line(b, p, cell),
        _ => Vec::new(),
    };
    json!({
        "columns": columns, "rows": rows, "connect": b.connect(), "grid": grid,
        "to_move": usize::from(b.side_to_move() == Player::Second),
        "last": last.map(|(c, r)| [c, r]), "win": win,
    })
}

/// The cells of `p`'s longest line through `(col, row)` (the stone that won), for the
/// viewer to mark; empty when that line is shorter than the board's `connect`.
fn winning_line(b: &Board<u128>, p: Player, (col, row): (usize, usize)) -> Vec<[usize; 2]> {
    let mut best: Vec<[usize; 2]> = Vec::new();
    for (dc, dr) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
        let owned = |k: i64| {
            let (c, r) = (col as i64 + k * dc, row as i64 + k * dr);
            (c >= 0 && r >= 0 && b.cell(c as usize, r as usize) == Some(p))
                .then_some([c as usize, r as usize])
        };
        let mut line: Vec<[usize; 2]> = (1..).map_while(|k| owned(-k)).collect();
        line.reverse();
        line.extend((0..).map_while(owned));
        if line.len() > best.len() {
            best = line;
        }
    }
    if best.len() < b.connect() {
        best.clear();
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_carry_what_the_search_thought_per_move() {
        let job = Job {
            a: "search:depth=4",
            b: "random",
            seed: 9,
            index: 0,
            unit: 0,
            slot: 0,
            opening: None,
            tc_ms: None,
            seating: crate::arena::Seating::single(2, 0),
        };
        let rec = Connect4.play(&job).unwrap().record;
        let moves = rec["moves"].as_array().unwrap();
        let think = rec["think"].as_array().unwrap();
        assert_eq!(think.len(), moves.len());
        let mut searched = 0;
        for (i, t) in think.iter().enumerate() {
            // A (search) is first: the moves after the opening alternate A, B, A, ...
            if i % 2 == 0 {
                assert_eq!(t["seat"], 0, "{i}");
                assert!(
                    t["nodes"].as_u64().is_some() && t["depth"].as_u64().is_some(),
                    "{t}"
                );
                if t["source"] == "search" {
                    // The line starts with the move played (1-based, as the moves).
                    assert_eq!(t["pv"][0], moves[i], "{t}");
                    searched += 1;
                } else {
                    assert!(t.get("pv").is_none(), "{t}");
                }
            } else {
                assert!(t.is_null(), "random thinks nothing: {t}");
            }
        }
        assert!(searched > 0, "no move of A came from the heuristic search");
        let quiet = Job { a: "random", ..job };
        assert!(Connect4.play(&quiet).unwrap().record.get("think").is_none());
    }

    #[test]
    fn engine_specs_take_node_budgets_tunables_and_the_default_time() {
        let AgentSpec::Engine(e) = parse("engine:nodes=3000,param.threat=30", None).unwrap() else {
            panic!("not an engine spec");
        };
        assert_eq!(e.nodes, Some(3000));
        assert_eq!(e.time_ms, Some(100), "--tc absent: 100 ms");
        assert_eq!(
            kibitz_search::params::Tunable::get_param(&e.params, "threat"),
            Some(30.0)
        );
        let AgentSpec::Engine(e) = parse("engine", Some(40)).unwrap() else {
            panic!("not an engine spec");
        };
        assert_eq!(e.time_ms, Some(40), "--tc 40");
        let AgentSpec::Engine(e) = parse("search", Some(40)).unwrap() else {
            panic!("not an engine spec");
        };
        assert_eq!(e.time_ms, None, "search is untimed");
        assert!(parse("engine:param.nope=1", None).is_err());
        assert!(parse("engine:param.threat=x", None).is_err());
        assert!(parse("search:param.threat=1", None).is_err());
        assert_eq!(parse("weak", None).unwrap(), AgentSpec::Weak);
    }
}
