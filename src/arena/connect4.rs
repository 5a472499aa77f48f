//! Connect Four (7 × 6, connect 4) in the arena: both colours per opening. Openings are
//! [`RANDOM_PLIES`] random moves drawn from the unit seed, or `--openings` lines of 1-based
//! column digits.
//!
//! Specs (this adapter's own, until the engine grows a spec parser):
//! - `engine[:time=MS,nodes=N,hash=MB,book=0|1,param.NAME=V...]` (alias `kibitz`): the contest
//!   engine (book, solver, heuristic search) with a time budget per move (default 100 ms or
//!   `--tc`; soft and hard times by `kibitz_search::clock`: half of it soft, all of it hard), or with `nodes=N` a reproducible node budget per move (N solver plus N search
//!   nodes); `param.NAME=V` sets an engine tunable (`kibitz connect4 params`).
//! - `search[:depth=D,nodes=N,hash=MB,book=0|1,solve=E]`: untimed and reproducible: the
//!   contest engine's own move choice with an infinite time control and a depth limit
//!   (default 8): the book, the exact solver once at most `E` cells are empty (default 12),
//!   otherwise heuristic alpha-beta to depth `D`; `nodes=N` bounds the solver and the search
//!   per move.
//! - `random`: uniformly random legal columns.
//! - `cmd:PROGRAM ARGS` with `{host} {port} {name}`: an external bot over the contest's UDP
//!   protocol on our server, from the empty board (see [`super::external`]).
//!
//! `--adjudicate[=NODES]` ([`Adjudicated`]): the exact solver ends a game as soon as it
//! proves the result within NODES nodes per move (default [`ADJUDICATE_NODES`]).

mod adjudicate;

use super::{split_spec, Arena, Job, Outcome, Played, Position};
use adjudicate::Judge;
pub use adjudicate::{Adjudicated, ADJUDICATE_NODES};
use anyhow::{bail, Context};
use kibitz_bots_connect4::record as c4record;
use kibitz_connect4::book::Book;
use kibitz_connect4::params::EngineParams;
use kibitz_connect4::{
    Board, DepthLimited, Engine, Geometry, Player, Solver, SolverConfig, TimeControl,
};
use kibitz_search::clock::MoveBudget;
use kibitz_search::params::Tunable;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::time::Duration;

/// Random plies of a default opening.
pub const RANDOM_PLIES: usize = 4;
const COLUMNS: usize = 7;
const ROWS: usize = 6;
const CONNECT: usize = 4;

/// The Connect Four adapter.
pub struct Connect4;

/// A parsed Connect Four player spec.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    /// Uniformly random.
    Random,
    /// The contest engine with a time budget.
    Engine {
        /// Soft time per move in ms.
        time_ms: u64,
        /// Node budget per move instead of the clock (reproducible).
        nodes: Option<u64>,
        /// Table size in MiB.
        hash_mb: usize,
        /// Use the opening book.
        book: bool,
        /// The engine's tunables.
        params: EngineParams,
    },
    /// Untimed: book, solver near the end, depth/node-limited alpha-beta.
    Search {
        /// Deepest iteration.
        depth: u32,
        /// Node limit (0 = none).
        nodes: u64,
        /// Table size in MiB.
        hash_mb: usize,
        /// Use the opening book.
        book: bool,
        /// Solve exactly from this many empty cells on.
        solve: u32,
    },
}

/// Parses a spec; `tc_ms` is the default time when the spec sets no limit.
pub fn parse(spec: &str, tc_ms: Option<u64>) -> anyhow::Result<Spec> {
    let (kind, opts) = split_spec(spec);
    let bad = |o: &str| anyhow::anyhow!("connect4 spec {spec:?}: bad option {o:?}");
    match kind {
        "random" => {
            if let Some((k, _)) = opts.first() {
                return Err(bad(k));
            }
            Ok(Spec::Random)
        }
        "engine" | "kibitz" | "search" => {
            let (mut time_ms, mut depth, mut nodes, mut hash_mb, mut book, mut solve) =
                (None, None, None, 16, true, 12);
            let mut params = EngineParams::default();
            for (k, v) in opts {
                let num = || v.parse::<u64>().map_err(|_| bad(k));
                if let Some(name) = k.strip_prefix("param.").filter(|_| kind != "search") {
                    params
                        .apply(&format!("{name}={v}"))
                        .map_err(|e| anyhow::anyhow!("connect4 spec {spec:?}: {e}"))?;
                    continue;
                }
                match k {
                    "time" if kind != "search" => time_ms = Some(num()?),
                    "depth" if kind == "search" => depth = Some(num()?.clamp(1, 42) as u32),
                    "nodes" => nodes = Some(num()?.max(1)),
                    "solve" if kind == "search" => solve = num()? as u32,
                    "hash" => hash_mb = num()?.max(1) as usize,
                    "book" => book = num()? != 0,
                    _ => return Err(bad(k)),
                }
            }
            Ok(if kind == "search" {
                Spec::Search {
                    depth: depth.unwrap_or(if nodes.is_some() { 42 } else { 8 }),
                    nodes: nodes.unwrap_or(0),
                    hash_mb,
                    book,
                    solve,
                }
            } else {
                Spec::Engine {
                    time_ms: time_ms.unwrap_or(tc_ms.unwrap_or(100)),
                    nodes,
                    hash_mb,
                    book,
                    params,
                }
            })
        }
        other => bail!(
            "connect4 spec {spec:?}: unknown player {other:?} (expected engine, search or random)"
        ),
    }
}

/// A player ready to move.
pub enum Mover {
    /// Random with its generator.
    Random(Box<ChaCha8Rng>),
    /// The contest engine with its move budget in ms (soft and hard times by
    /// [`MoveBudget::in_process`]; ignored under a node budget).
    Engine(Box<Engine>, u64, bool),
    /// The untimed searcher.
    Search(Box<Fixed>),
}

/// The untimed player of `search` specs: the contest engine under an infinite time control
/// and a depth limit, so that its moves are reproducible.
pub struct Fixed {
    engine: Engine,
    depth: u32,
}

impl Mover {
    /// Builds the player of `spec` seeded with `seed`.
    pub fn new(spec: &Spec, seed: u64) -> anyhow::Result<Self> {
        Ok(match spec {
            Spec::Random => Mover::Random(Box::new(ChaCha8Rng::seed_from_u64(seed))),
            Spec::Engine {
                time_ms,
                nodes,
                hash_mb,
                book,
                params,
            } => {
                let mut e = Engine::new(COLUMNS, ROWS, CONNECT, *hash_mb)?;
                if !book {
                    e.set_book(Book::new());
                }
                e.set_params(*params);
                e.set_node_limit(*nodes);
                Mover::Engine(Box::new(e), *time_ms, nodes.is_some())
            }
            Spec::Search {
                depth,
                nodes,
                hash_mb,
                book,
                solve,
            } => {
                let mut engine = Engine::new(COLUMNS, ROWS, CONNECT, *hash_mb)?;
                if !book {
                    engine.set_book(Book::new());
                }
                engine.set_depth_limited(DepthLimited {
                    book: *book,
                    solve_empty: Some(*solve),
                });
                engine.set_node_limit((*nodes > 0).then_some(*nodes));
                Mover::Search(Box::new(Fixed {
                    engine,
                    depth: *depth,
                }))
            }
        })
    }

    /// The column (0-based) to play after `history` on `board` (which has a legal move).
    pub fn choose(&mut self, board: &Board<u64>, history: &[usize]) -> usize {
        self.choose_thinking(board, history).0
    }

    /// [`Mover::choose`] plus what the search knew, for the record's `think` key (see
    /// `arena::record`): `{"score", "exact", "depth", "nodes", "source", "ms", "pv"}` with the
    /// score from the mover's side (`None` score: not proven, left out); `None` for the random
    /// player, which knows nothing.
    pub fn choose_thinking(
        &mut self,
        board: &Board<u64>,
        history: &[usize],
    ) -> (usize, Option<Value>) {
        let legal = board.legal_moves();
        let started = std::time::Instant::now();
        let choice = match self {
            Mover::Random(rng) => return (legal[rng.random_range(0..legal.len())], None),
            Mover::Engine(e, ms, by_nodes) => {
                let tc = engine_time_control(*ms, *by_nodes);
                e.choose(history, &tc, None)
            }
            Mover::Search(f) => f
                .engine
                .choose(history, &TimeControl::infinite(), Some(f.depth)),
        };
        let mut think = json!({
            "exact": choice.exact,
            "depth": choice.depth,
            "nodes": choice.nodes,
            "source": choice.source,
            "ms": started.elapsed().as_millis() as u64,
        });
        if let Some(score) = choice.score {
            think["score"] = json!(score);
        }
        if !choice.pv.is_empty() {
            // 1-based columns, as the record's moves.
            think["pv"] = json!(choice.pv.iter().map(|c| c + 1).collect::<Vec<_>>());
        }
        (choice.column, Some(think))
    }
}

/// The contest engine's clock for one move: `ms` is the move budget under the one clock rule
/// ([`MoveBudget::in_process`]); under a node budget the clock is only a guard against a
/// runaway move (60 s soft, 75 s hard).
fn engine_time_control(ms: u64, by_nodes: bool) -> TimeControl {
    if by_nodes {
        let guard = Duration::from_secs(60);
        TimeControl::new(guard, guard + guard / 4)
    } else {
        MoveBudget::in_process_ms(ms).time_control()
    }
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
        let (sa, sb) = (parse(job.a, job.tc_ms)?, parse(job.b, job.tc_ms)?);
        let open = opening(job.opening, job.unit_seed())?;
        let a_first = job.slot == 0;
        let mut first = Mover::new(if a_first { &sa } else { &sb }, job.seed_for(1))?;
        let mut second = Mover::new(if a_first { &sb } else { &sa }, job.seed_for(2))?;
        let mut board = Board::<u64>::new(COLUMNS, ROWS, CONNECT)?;
        let mut history = Vec::new();
        for &c in &open {
            board.play(c)?;
            history.push(c);
        }
        let mut thinks = Vec::new();
        let mut judge = adjudicate.map(Judge::new).transpose()?;
        let mut proven = None;
        while !board.is_over() {
            if let Some(j) = judge.as_mut() {
                if let Some(v) = j.prove(&board) {
                    let mover = board.side_to_move();
                    proven = Some(match v.signum() {
                        1 => Some(mover),
                        -1 => Some(mover.other()),
                        _ => None,
                    });
                    break;
                }
            }
            let seat = usize::from(board.side_to_move() == Player::Second);
            let (c, think) = if seat == 0 {
                first.choose_thinking(&board, &history)
            } else {
                second.choose_thinking(&board, &history)
            };
            thinks.push(think.map(|mut t| {
                t["seat"] = json!(seat);
                t
            }));
            board
                .play(c)
                .with_context(|| format!("illegal column {} after {}", c + 1, digits(&history)))?;
            history.push(c);
        }
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
    fn engine_time_is_the_move_budget_under_the_clock_rule() {
        let ms = Duration::from_millis;
        // Before the one clock rule: soft 200, hard 1.25 · 200 = 250.
        let tc = engine_time_control(200, false);
        assert_eq!((tc.soft(), tc.hard()), (Some(ms(100)), Some(ms(200))));
        let tc = engine_time_control(200, true);
        assert_eq!((tc.soft(), tc.hard()), (Some(ms(60_000)), Some(ms(75_000))));
    }

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
    fn engine_specs_take_node_budgets_and_tunables() {
        let Spec::Engine { nodes, params, .. } =
            parse("engine:nodes=3000,param.threat=30", None).unwrap()
        else {
            panic!("not an engine spec");
        };
        assert_eq!(nodes, Some(3000));
        assert_eq!(params.get_param("threat"), Some(30.0));
        assert!(parse("engine:param.nope=1", None).is_err());
        assert!(parse("engine:param.threat=x", None).is_err());
        assert!(parse("search:param.threat=1", None).is_err());
    }
}
