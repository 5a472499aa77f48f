//! Every Connect Four player as one [`Agent<ConnectFour>`]: the contest engine (book, solver,
//! heuristic search; timed, node-limited or untimed), the weak rule-of-thumb player and the
//! shared [`RandomAgent`]. [`AgentSpec::parse`] is the one spec parser of the arena,
//! `kibitz play`, the bot and the audits; [`AgentSpec::build`] turns a spec into a
//! `Box<dyn Agent<ConnectFour> + Send>`.
//!
//! Specs (`name[:key=value,...]`):
//! - `engine[:time=MS,nodes=N,depth=D,hash=MB,threads=T,book=0|1,open=K,fresh=0|1,param.NAME=V...]`
//!   (alias `kibitz`): the contest engine. Without `time` it thinks within the caller's clock;
//!   with `time=MS` within its own (soft half, hard all of it, [`MoveBudget::in_process_ms`]);
//!   with `nodes=N` it searches N solver plus N search nodes per move, and a spec with both
//!   only guards against a runaway move with its clock (60 s soft, 75 s hard). `depth=D` is
//!   the bot's weaker variant (no book, solver only once at most D cells are empty),
//!   `open=K` plays the first K plies of a game at random (self-play games differ),
//!   `fresh=1` clears the tables before every move. `threads=T` (1 to 64, default 1) runs
//!   the solver's root proofs on T threads ([`Engine::with_threads`]; a node budget then
//!   counts the main thread's nodes).
//! - `search[:depth=D,nodes=N,hash=MB,threads=T,book=0|1,solve=E]`: untimed and reproducible: the book,
//!   the solver once at most E cells are empty (default 12), else alpha-beta to depth D
//!   (default 8; 42 with `nodes`).
//! - `weak`: wins if it can, blocks a single threat, else a random move that does not hand
//!   over an immediate win.
//! - `random`: uniformly random legal columns ([`RandomAgent`]).
//!
//! What the engine knew goes into the [`Decision`]: score (the engine's integer score),
//! depth, nodes, the heuristic search's principal variation, and the stats `exact` (0/1) and
//! `source` (an index into [`SOURCES`]; [`source`] reads it back).
//!
//! Two agents playing one game:
//!
//! ```
//! use kibitz_connect4::agents::AgentSpec;
//! use kibitz_connect4::game_impl::{C4Config, ConnectFour};
//! use kibitz_search::agent::{Played, View};
//! use kibitz_search::game::{Game, Turn};
//! use kibitz_search::time::TimeControl;
//!
//! let config = C4Config::default();
//! let mut agents = [
//!     AgentSpec::parse("search:depth=2,nodes=2000").unwrap().build(&config).unwrap(),
//!     AgentSpec::parse("weak").unwrap().build(&config).unwrap(),
//! ];
//! for (seat, a) in agents.iter_mut().enumerate() {
//!     a.new_game(seat, 42);
//! }
//! let mut game = ConnectFour::new_game(&config, 42);
//! while let Some(seat) = View::mover(&game) {
//!     let decision = agents[seat].choose(&View::new(&game, seat), &TimeControl::infinite());
//!     game.apply(&decision.action).unwrap();
//!     let event = Played { actor: Turn::Seat(seat), action: decision.action };
//!     agents.iter_mut().for_each(|a| a.observe(&event));
//! }
//! assert!(game.is_terminal());
//! ```

use crate::bitboard::Bits;
use crate::board::Board;
use crate::book::Book;
use crate::engine::{Choice, DepthLimited, Engine};
use crate::game_impl::{C4Config, ConnectFour};
use crate::params::EngineParams;
use crate::Error;
use kibitz_search::agent::{Agent, Decision, Played, RandomAgent, View};
use kibitz_search::clock::MoveBudget;
use kibitz_search::params::Tunable;
use kibitz_search::time::TimeControl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// Most threads an engine spec may ask for (`threads=T`).
pub const MAX_THREADS: u64 = 64;

/// What [`Decision::stats`]' `source` numbers: where the engine's move came from
/// ([`Choice::source`]), by index.
pub const SOURCES: [&str; 5] = ["none", "book", "solver", "bounds", "search"];

/// Where the move of `decision` came from (`"book"`, `"solver"`, `"bounds"`, `"search"`,
/// `"none"`), or `None` for players without a search.
pub fn source(decision: &Decision<usize>) -> Option<&'static str> {
    stat(decision, "source").and_then(|i| SOURCES.get(i as usize).copied())
}

/// Whether `decision`'s score is the exact score and its move achieves it (engine only).
pub fn exact(decision: &Decision<usize>) -> bool {
    stat(decision, "exact") == Some(1.0)
}

fn stat(decision: &Decision<usize>, name: &str) -> Option<f64> {
    decision
        .stats
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
}

/// A parsed player spec (see the module doc); [`AgentSpec::build`] makes the player.
// One spec per player, parsed once: the size of the engine variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// Uniformly random legal columns.
    Random,
    /// The weak rule-of-thumb player ([`weak_move`]).
    Weak,
    /// The contest engine, timed or untimed.
    Engine(EngineSpec),
}

/// The settings of an engine player (`engine` and `search` specs).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Untimed (`search`): an infinite clock, the book and the solver from `solve` empty cells.
    pub untimed: bool,
    /// Own move budget in ms (`None`: the caller's clock).
    pub time_ms: Option<u64>,
    /// Node budget per move for the solver and the search each.
    pub nodes: Option<u64>,
    /// Depth limit of the heuristic search.
    pub depth: Option<u32>,
    /// Table size in MiB.
    pub hash_mb: usize,
    /// Threads of the solver's root proofs (1: the serial solver; more: the parallel one).
    pub threads: usize,
    /// Use the opening book.
    pub book: bool,
    /// `search`: solve exactly from this many empty cells on.
    pub solve: u32,
    /// Random plies at the start of a game.
    pub open: usize,
    /// Clear the tables before every move.
    pub fresh: bool,
    /// The engine's tunables.
    pub params: EngineParams,
}

impl EngineSpec {
    /// The contest engine with `hash_mb` MiB, the book, the caller's clock.
    pub fn engine(hash_mb: usize) -> EngineSpec {
        EngineSpec {
            untimed: false,
            time_ms: None,
            nodes: None,
            depth: None,
            hash_mb,
            threads: 1,
            book: true,
            solve: 12,
            open: 0,
            fresh: false,
            params: EngineParams::default(),
        }
    }
}

impl AgentSpec {
    /// Parses `name[:key=value,...]` (see the module doc); an unknown name, key or value is
    /// an [`Error::BadSpec`] naming it.
    pub fn parse(spec: &str) -> Result<AgentSpec, Error> {
        let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let kind = kind.trim();
        let opts: Vec<(&str, &str)> = rest
            .split([',', ':'])
            .map(str::trim)
            .filter(|o| !o.is_empty())
            .map(|o| o.split_once('=').unwrap_or((o, "")))
            .collect();
        let bad = |why: String| Error::BadSpec(format!("connect4 spec {spec:?}: {why}"));
        let option = |k: &str| bad(format!("bad option {k:?}"));
        match kind {
            "random" | "weak" => {
                if let Some((k, _)) = opts.first() {
                    return Err(option(k));
                }
                Ok(if kind == "random" {
                    AgentSpec::Random
                } else {
                    AgentSpec::Weak
                })
            }
            "engine" | "kibitz" | "search" => {
                let untimed = kind == "search";
                let mut e = EngineSpec {
                    untimed,
                    ..EngineSpec::engine(16)
                };
                for (k, v) in opts {
                    let num = || v.parse::<u64>().map_err(|_| option(k));
                    if let Some(name) = k.strip_prefix("param.").filter(|_| !untimed) {
                        e.params
                            .apply(&format!("{name}={v}"))
                            .map_err(|err| bad(err.to_string()))?;
                        continue;
                    }
                    match k {
                        "time" if !untimed => e.time_ms = Some(num()?),
                        "depth" => e.depth = Some(num()?.clamp(1, 42) as u32),
                        "nodes" => e.nodes = Some(num()?.max(1)),
                        "solve" if untimed => e.solve = num()?.min(u64::from(u32::MAX)) as u32,
                        "hash" => e.hash_mb = num()?.clamp(1, 1 << 20) as usize,
                        "threads" => match num()? {
                            n @ 1..=MAX_THREADS => e.threads = n as usize,
                            _ => {
                                return Err(bad(format!(
                                    "threads={v}: give a count from 1 to {MAX_THREADS}"
                                )))
                            }
                        },
                        "book" => e.book = num()? != 0,
                        "open" if !untimed => e.open = num()?.min(64) as usize,
                        "fresh" if !untimed => e.fresh = num()? != 0,
                        _ => return Err(option(k)),
                    }
                }
                if untimed && e.depth.is_none() {
                    e.depth = Some(if e.nodes.is_some() { 42 } else { 8 });
                }
                Ok(AgentSpec::Engine(e))
            }
            other => Err(bad(format!(
                "unknown player {other:?} (expected engine, search, weak or random)"
            ))),
        }
    }

    /// The opponents of `kibitz connect4 games` and `audit` by name: `random`, `weak`, or
    /// `self` (alias `engine`): the engine with `hash_mb` MiB on the caller's clock, its first
    /// two plies of a game random so that self-play games differ.
    pub fn opponent(name: &str, hash_mb: usize) -> Result<AgentSpec, Error> {
        Ok(match name {
            "random" => AgentSpec::Random,
            "weak" => AgentSpec::Weak,
            "self" | "engine" => AgentSpec::Engine(EngineSpec {
                open: 2,
                ..EngineSpec::engine(hash_mb)
            }),
            _ => {
                return Err(Error::BadSpec(format!(
                    "unknown opponent {name:?} (random, weak, self)"
                )))
            }
        })
    }

    /// The spec with `ms` as the engine's own move budget where it sets no time (timed
    /// `engine` specs only): the arena's `--tc` (default 100 ms).
    pub fn with_default_time(mut self, ms: u64) -> AgentSpec {
        if let AgentSpec::Engine(e) = &mut self {
            if !e.untimed && e.time_ms.is_none() {
                e.time_ms = Some(ms);
            }
        }
        self
    }

    /// The player of this spec for boards of `config` (its randomness seeded by
    /// [`Agent::new_game`]); an unsupported board size is an error.
    pub fn build(&self, config: &C4Config) -> Result<Box<dyn Agent<ConnectFour> + Send>, Error> {
        Ok(match self {
            AgentSpec::Random => Box::new(RandomAgent::new(0)),
            AgentSpec::Weak => Box::new(WeakAgent::new(0)),
            AgentSpec::Engine(e) => Box::new(EngineAgent::new(e, config)?),
        })
    }
}

/// The weak player: [`weak_move`] with its own generator.
#[derive(Clone, Debug)]
pub struct WeakAgent {
    rng: ChaCha8Rng,
}

impl WeakAgent {
    /// A weak player seeded with `seed` (reseeded by [`Agent::new_game`]).
    pub fn new(seed: u64) -> WeakAgent {
        WeakAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent<ConnectFour> for WeakAgent {
    fn name(&self) -> String {
        "weak".into()
    }

    fn new_game(&mut self, seat: usize, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(kibitz_search::seed::mix(seed, seat as u64));
    }

    fn choose(&mut self, view: &View<'_, ConnectFour>, clock: &TimeControl) -> Decision<usize> {
        let board = view.observation().0;
        Decision {
            elapsed: clock.elapsed(),
            nodes: 1,
            ..Decision::action(weak_move(&board, &mut self.rng))
        }
    }
}

/// The weak player's move: wins if it can, blocks a single threat, else a random move that
/// does not hand over an immediate win (if there is one). `b` must have a legal move.
pub fn weak_move<B: Bits>(b: &Board<B>, rng: &mut impl Rng) -> usize {
    let legal = b.legal_moves();
    if let Some(&c) = legal.iter().find(|&&c| b.is_winning_move(c)) {
        return c;
    }
    // Moves after which the opponent wins at once (not blocking, or playing under a threat).
    let threats: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&c| {
            let mut t = *b;
            t.play(c).is_ok() && t.legal_moves().iter().any(|&o| t.is_winning_move(o))
        })
        .collect();
    let safe: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|c| !threats.contains(c))
        .collect();
    let pool = if safe.is_empty() { &legal } else { &safe };
    pool[rng.random_range(0..pool.len())]
}

/// The contest engine as a player: keeps its tables between moves and games, and the game's
/// moves as it is told them ([`Agent::observe`]), which the book and its proven values need.
pub struct EngineAgent {
    engine: Engine,
    spec: EngineSpec,
    history: Vec<usize>,
    rng: ChaCha8Rng,
}

impl EngineAgent {
    /// An engine player of `spec` for boards of `config`.
    pub fn new(spec: &EngineSpec, config: &C4Config) -> Result<EngineAgent, Error> {
        let mut engine = Engine::with_threads(
            config.columns,
            config.rows,
            config.connect,
            spec.hash_mb,
            spec.threads,
        )?;
        if !spec.book {
            engine.set_book(Book::new());
        }
        if spec.untimed {
            engine.set_depth_limited(DepthLimited {
                book: spec.book,
                solve_empty: Some(spec.solve),
            });
        } else {
            engine.set_params(spec.params);
        }
        engine.set_node_limit(spec.nodes);
        Ok(EngineAgent::with_engine(engine, spec))
    }

    /// A player of `spec` around an engine set up by the caller (its book, limits and
    /// tunables are kept as they are; `spec` gives the clock, depth, `open` and `fresh`).
    pub fn with_engine(engine: Engine, spec: &EngineSpec) -> EngineAgent {
        EngineAgent {
            engine,
            spec: spec.clone(),
            history: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }

    /// The clock of one move: the caller's unless the spec has its own (module doc); the
    /// caller's stop flag is kept either way.
    fn clock(&self, given: &TimeControl) -> TimeControl {
        let s = &self.spec;
        let own = if s.untimed {
            TimeControl::infinite()
        } else if let (Some(_), Some(_)) = (s.nodes, s.time_ms) {
            let guard = Duration::from_secs(60);
            TimeControl::new(guard, guard + guard / 4)
        } else if let Some(ms) = s.time_ms {
            MoveBudget::in_process_ms(ms).time_control()
        } else {
            return given.clone();
        };
        own.with_stop_flag(given.stop_flag())
    }

    /// The moves leading to `pos`: the ones this agent was told when they lead there, else
    /// one order of the stones that does (a caller that did not tell every move).
    fn history_to(&self, pos: &crate::Position) -> Vec<usize> {
        let mut b = crate::Position::empty(*pos.geometry());
        if self.history.iter().all(|&c| b.play(c).is_ok()) && b == *pos {
            return self.history.clone();
        }
        let mut line = Vec::new();
        let mut budget = 1_000_000u32;
        let mut start = crate::Position::empty(*pos.geometry());
        if reconstruct(&mut start, pos, &mut line, &mut budget) {
            line
        } else {
            Vec::new()
        }
    }
}

/// Finds an order of `target`'s stones from `b` (depth first, at most `budget` steps).
fn reconstruct<B: Bits>(
    b: &mut Board<B>,
    target: &Board<B>,
    line: &mut Vec<usize>,
    budget: &mut u32,
) -> bool {
    if b.moves_played() == target.moves_played() {
        return b == target;
    }
    let mover = b.side_to_move();
    for c in 0..b.columns() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let h = b.height(c);
        if h >= target.height(c) || target.cell(c, h) != Some(mover) {
            continue;
        }
        let mut next = *b;
        if next.play(c).is_err() || next.is_over() && next.moves_played() < target.moves_played() {
            continue;
        }
        line.push(c);
        if reconstruct(&mut next, target, line, budget) {
            *b = next;
            return true;
        }
        line.pop();
    }
    false
}

impl Agent<ConnectFour> for EngineAgent {
    fn name(&self) -> String {
        if self.spec.untimed {
            "search"
        } else {
            "engine"
        }
        .into()
    }

    /// Forgets the last game's moves (the tables stay) and reseeds the opening randomness.
    fn new_game(&mut self, seat: usize, seed: u64) {
        self.history.clear();
        self.rng = ChaCha8Rng::seed_from_u64(kibitz_search::seed::mix(seed, seat as u64));
    }

    fn observe(&mut self, event: &Played<usize>) {
        self.history.push(event.action);
    }

    fn choose(&mut self, view: &View<'_, ConnectFour>, clock: &TimeControl) -> Decision<usize> {
        let pos = view.observation().0;
        if pos.moves_played() < self.spec.open {
            let legal = view.legal_actions();
            if !legal.is_empty() {
                let c = legal[self.rng.random_range(0..legal.len())];
                return Decision {
                    elapsed: clock.elapsed(),
                    nodes: 1,
                    ..Decision::action(c)
                };
            }
        }
        let history = self.history_to(&pos);
        if self.spec.fresh {
            self.engine.clear();
        }
        let tc = self.clock(clock);
        let choice = self.engine.choose(&history, &tc, self.spec.depth);
        decision(choice, tc.elapsed())
    }
}

/// The [`Decision`] of an engine [`Choice`].
fn decision(c: Choice, elapsed: Duration) -> Decision<usize> {
    let source = SOURCES.iter().position(|s| *s == c.source).unwrap_or(0);
    Decision {
        action: c.column,
        score: c.score.map(f64::from),
        depth: Some(c.depth),
        nodes: c.nodes,
        pv: c.pv,
        stats: vec![
            ("exact", f64::from(u8::from(c.exact))),
            ("source", source as f64),
        ],
        elapsed,
    }
}

#[cfg(test)]
mod tests;
