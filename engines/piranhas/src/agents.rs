//! Every Piranhas player as one [`Agent`] of [`Piranhas`]: random, greedy (best one-ply
//! evaluation) and the alpha-beta engine, built from a one-line spec. The arena, `kibitz
//! play`, the bot client (`piranhas-bot`) and the tournament all drive these same agents.
//!
//! Spec syntax: `kind[:key=value,key=value,...]`
//!
//! - `random[:seed=N]` — [`kibitz_search::agent::RandomAgent`], seeded with the seed
//!   [`Agent::new_game`] gives (as given: callers give each seat its own); `seed` fixes it.
//! - `greedy[:eval=v1|v2|v3|v4|v5|tuned|default,param.NAME=V,...]`
//! - `search[:time=MS,hard=MS,depth=D,nodes=N,hash=MB,eval=v1|v2|v3|v4|v5|tuned|default,qs=0|1,lmr=0|1,null=0|1,
//!   smart=0|1,threads=N,param.NAME=V,...]` — `smart` switches the time management
//!   (default on), `threads` > 1 searches with Lazy SMP; `time` is the agent's own budget per
//!   move (default [`DEFAULT_BUDGET`], the contest's 2 s), turned into soft and hard times by
//!   the one clock rule ([`MoveBudget::in_process`]: half of it soft, all of it hard); `hard`
//!   overrides the hard deadline; with `depth` or `nodes` and no `time` the search is untimed
//!   and reproducible. An own budget is combined with the caller's clock: the tighter of the
//!   two applies, and the caller's stop flag still stops the search.
//!
//! Two agents playing one game through the [`Agent`] trait:
//!
//! ```
//! use kibitz_piranhas::agents::AgentSpec;
//! use kibitz_piranhas::game_impl::{Piranhas, PiranhasConfig};
//! use kibitz_search::agent::{Played, View};
//! use kibitz_search::game::{Game, Turn};
//! use kibitz_search::time::TimeControl;
//!
//! let mut agents = ["search:depth=1,hash=1", "random"]
//!     .map(|s| s.parse::<AgentSpec>().unwrap().build());
//! for (seat, a) in agents.iter_mut().enumerate() {
//!     a.new_game(seat, 7);
//! }
//! let mut game = Piranhas::new_game(&PiranhasConfig::default(), 7);
//! while let Some(seat) = View::mover(&game) {
//!     let d = agents[seat].choose(&View::new(&game, seat), &TimeControl::infinite());
//!     game.apply(&d.action).unwrap();
//!     let event = Played { actor: Turn::Seat(seat), action: d.action };
//!     agents.iter_mut().for_each(|a| a.observe(&event));
//! }
//! assert!(game.is_terminal());
//! ```

use crate::eval::EvalParams;
use crate::game_impl::Piranhas;
use crate::search::{greedy_move, Choice, Engine, EngineConfig};
use crate::State;
use kibitz_search::agent::{Agent, Decision, RandomAgent, View};
use kibitz_search::clock::MoveBudget;
use kibitz_search::params::{ParamError, Tunable};
use kibitz_search::time::TimeControl;
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// A malformed agent spec.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SpecError {
    /// Unknown agent kind.
    #[error("unknown player kind {0:?} (expected random, greedy or search)")]
    Kind(String),
    /// Unknown or malformed option.
    #[error("bad option {0:?} for player {1:?}")]
    Option(String, String),
    /// A known tunable refused its value (out of its range, or not 0/1 for a switch).
    #[error("option {0:?}: {1}")]
    Param(String, String),
}

/// Which kind of agent a spec builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentKind {
    /// Uniformly random legal moves ([`RandomAgent`]).
    Random,
    /// Best one-ply evaluation ([`GreedyAgent`]).
    Greedy,
    /// The alpha-beta engine ([`SearchAgent`]).
    Search,
}

impl AgentKind {
    /// The kind's name as specs write it (and as agents call themselves).
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Greedy => "greedy",
            AgentKind::Search => "search",
        }
    }
}

/// A parsed agent spec; [`AgentSpec::build`] makes the agent. Callers may adjust the fields
/// before building (the arena's `--tc`, the bot's flags).
#[derive(Clone, Debug)]
pub struct AgentSpec {
    /// The spec as written (the kind's name for specs built in code).
    pub text: String,
    /// The kind.
    pub kind: AgentKind,
    /// Engine settings (search and greedy use the evaluation weights).
    pub config: EngineConfig,
    /// The search agent's own budget per move; `None` = the caller's clock alone.
    pub time: Option<Duration>,
    /// Hard deadline per move, overriding the clock rule's (only with `time`).
    pub hard: Option<Duration>,
    /// Seed fixed for random agents, overriding the one [`Agent::new_game`] gives.
    pub seed: Option<u64>,
}

impl AgentSpec {
    /// A spec of `kind` with `config`, no own budget and no fixed seed (for callers that
    /// build the settings from flags, like `piranhas-bot`).
    pub fn new(kind: AgentKind, config: EngineConfig) -> AgentSpec {
        AgentSpec {
            text: kind.name().to_string(),
            kind,
            config,
            time: None,
            hard: None,
            seed: None,
        }
    }

    /// The time control a search agent of this spec starts for each move when the caller
    /// sets no limit ([`TimeControl::infinite`]).
    pub fn time_control(&self) -> TimeControl {
        own_clock(self.time, self.hard, &TimeControl::infinite())
    }

    /// Builds the agent; seed it with [`Agent::new_game`].
    pub fn build(&self) -> Box<dyn Agent<Piranhas> + Send> {
        match self.kind {
            AgentKind::Random => Box::new(SeededRandom {
                inner: RandomAgent::new(self.seed.unwrap_or(0)),
                seed: self.seed,
            }),
            AgentKind::Greedy => Box::new(GreedyAgent::new(self.config.eval)),
            AgentKind::Search => Box::new(SearchAgent::with_budget(
                self.config.clone(),
                self.time,
                self.hard,
            )),
        }
    }
}

/// Parses `text` as an [`AgentSpec`] and builds the agent: the one spec parser of Piranhas.
pub fn agent(text: &str) -> Result<Box<dyn Agent<Piranhas> + Send>, SpecError> {
    Ok(text.parse::<AgentSpec>()?.build())
}

impl std::str::FromStr for AgentSpec {
    type Err = SpecError;
    fn from_str(text: &str) -> Result<Self, SpecError> {
        let (kind, opts) = text.split_once(':').unwrap_or((text, ""));
        let kind = match kind.trim() {
            "random" => AgentKind::Random,
            "greedy" => AgentKind::Greedy,
            "search" | "ab" | "alphabeta" => AgentKind::Search,
            k => return Err(SpecError::Kind(k.to_string())),
        };
        let mut spec = AgentSpec {
            text: text.to_string(),
            ..AgentSpec::new(kind, EngineConfig::default())
        };
        let mut limited = false;
        for opt in opts.split(',').map(str::trim).filter(|o| !o.is_empty()) {
            let bad = || SpecError::Option(opt.to_string(), text.to_string());
            let (k, v) = opt.split_once('=').ok_or_else(bad)?;
            let num = || v.parse::<u64>().map_err(|_| bad());
            let flag = || match v {
                "1" | "true" | "on" => Ok(true),
                "0" | "false" | "off" => Ok(false),
                _ => Err(bad()),
            };
            match k {
                "time" => spec.time = Some(Duration::from_millis(num()?)),
                "hard" => spec.hard = Some(Duration::from_millis(num()?)),
                "depth" => {
                    spec.config.search.max_depth = num()? as u32;
                    limited = true;
                }
                "nodes" => {
                    spec.config.search.max_nodes = num()?;
                    limited = true;
                }
                "hash" => spec.config.search.hash_mb = num()? as usize,
                "threads" => spec.config.threads = num()? as usize,
                "seed" => spec.seed = Some(num()?),
                "qs" => spec.config.search.quiescence = flag()?,
                "lmr" => spec.config.search.lmr = flag()?,
                "null" => spec.config.search.null_move = flag()?,
                "smart" => spec.config.search.smart_time = flag()?,
                "eval" => spec.config.eval = EvalParams::preset(v).ok_or_else(bad)?,
                _ => {
                    let name = k.strip_prefix("param.").ok_or_else(bad)?;
                    let value = v
                        .parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(bad)?;
                    spec.config.set_param(name, value).map_err(|e| match e {
                        ParamError::Unknown(_) => bad(),
                        e => SpecError::Param(opt.to_string(), e.to_string()),
                    })?;
                }
            }
        }
        if spec.kind == AgentKind::Search && spec.time.is_none() && !limited {
            spec.time = Some(DEFAULT_BUDGET);
        }
        Ok(spec)
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A search agent's default budget per move: the contest's 2 s (spec §5).
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(2000);

/// The clock of one move: the caller's `given` clock alone without an own budget `time`;
/// else the own budget by the clock rule (`hard` overriding its hard time), tightened to what
/// is left of `given`, sharing `given`'s stop flag.
fn own_clock(time: Option<Duration>, hard: Option<Duration>, given: &TimeControl) -> TimeControl {
    let Some(budget) = time else {
        return given.clone();
    };
    let b = MoveBudget::in_process(budget);
    let mut hard = hard.unwrap_or(b.hard);
    if let Some(left) = given.remaining_hard() {
        hard = hard.min(left);
    }
    let mut soft = b.soft.min(hard);
    if let Some(s) = given.soft() {
        soft = soft.min(s.saturating_sub(given.elapsed()));
    }
    TimeControl::new(soft, hard).with_stop_flag(given.stop_flag())
}

/// [`RandomAgent`] seeded for each game with the seed [`Agent::new_game`] gives, as given
/// (callers hand each seat its own seed, so the seat is not mixed in: random games stay the
/// games they were before the agents), or with the spec's fixed seed (`random:seed=N`).
struct SeededRandom {
    inner: RandomAgent,
    seed: Option<u64>,
}

impl Agent<Piranhas> for SeededRandom {
    fn name(&self) -> String {
        AgentKind::Random.name().into()
    }

    fn new_game(&mut self, _seat: usize, seed: u64) {
        self.inner = RandomAgent::new(self.seed.unwrap_or(seed));
    }

    fn choose(&mut self, view: &View<'_, Piranhas>, clock: &TimeControl) -> Decision<crate::Move> {
        self.inner.choose(view, clock)
    }
}

/// Best one-ply evaluation, an immediate win first ([`greedy_move`]).
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    params: EvalParams,
}

impl GreedyAgent {
    /// A greedy agent evaluating with `params`.
    pub fn new(params: EvalParams) -> GreedyAgent {
        GreedyAgent { params }
    }
}

impl Agent<Piranhas> for GreedyAgent {
    fn name(&self) -> String {
        AgentKind::Greedy.name().into()
    }

    /// The greedy move: depth 1, one node per legal move evaluated, no score (the greedy
    /// choice does not report one).
    fn choose(&mut self, view: &View<'_, Piranhas>, clock: &TimeControl) -> Decision<crate::Move> {
        let legal = view.legal_actions();
        let state = view.observation().0;
        let action = greedy_move(&state, &self.params)
            .or_else(|| legal.first().copied())
            .unwrap_or_default();
        Decision {
            depth: Some(1),
            nodes: legal.len() as u64,
            elapsed: clock.elapsed(),
            ..Decision::action(action)
        }
    }
}

/// Called after every completed iteration of a [`SearchAgent`] with what the iteration found
/// and the time since the move's clock started (for logs).
pub type Progress = Box<dyn FnMut(&Choice, Duration) + Send>;

/// The alpha-beta [`Engine`] as an [`Agent`]: its [`Choice`] becomes a [`Decision`] (score in
/// the engine's centi-units from the mover's view, depth of the last completed iteration,
/// nodes, principal variation). The engine keeps its tables from move to move, and it
/// ponders (see [`Agent::ponder`] below) the reply its last search expected.
pub struct SearchAgent {
    engine: Engine,
    time: Option<Duration>,
    hard: Option<Duration>,
    progress: Option<Progress>,
    /// The position after our last move and the reply our search expected there (its
    /// principal variation's second move), for pondering.
    expected: Option<(State, crate::Move)>,
    /// The position the last ponder searched, and its nodes (reported by the next choice).
    pondered: Option<(State, u64)>,
}

impl SearchAgent {
    /// What the last ponder did for a choice in `state`, for the decision's stats:
    /// `ponder_hit` (1 when it searched `state` itself, 0 when another position) and
    /// `ponder_nodes`; nothing when there was no ponder since the last choice.
    fn ponder_stats(&mut self, state: &State) -> Vec<(&'static str, f64)> {
        match self.pondered.take() {
            Some((pondered, nodes)) => vec![
                ("ponder_hit", f64::from(u8::from(pondered == *state))),
                ("ponder_nodes", nodes as f64),
            ],
            None => Vec::new(),
        }
    }

    /// An agent searching with `config` on the caller's clock alone.
    pub fn new(config: EngineConfig) -> SearchAgent {
        SearchAgent::with_budget(config, None, None)
    }

    /// An agent with its own budget per move (`time`, `hard` as in the spec; see the module
    /// docs), combined with the caller's clock.
    pub fn with_budget(
        config: EngineConfig,
        time: Option<Duration>,
        hard: Option<Duration>,
    ) -> SearchAgent {
        SearchAgent {
            engine: Engine::new(config),
            time,
            hard,
            progress: None,
            expected: None,
            pondered: None,
        }
    }

    /// This agent reporting every completed iteration to `progress` (the bot logs them).
    pub fn with_progress(mut self, progress: Progress) -> SearchAgent {
        self.progress = Some(progress);
        self
    }
}

impl Agent<Piranhas> for SearchAgent {
    fn name(&self) -> String {
        AgentKind::Search.name().into()
    }

    /// The engine's move; should it find none (never, while the seat is to move), the first
    /// legal one.
    fn choose(&mut self, view: &View<'_, Piranhas>, clock: &TimeControl) -> Decision<crate::Move> {
        let state = view.observation().0;
        let tc = own_clock(self.time, self.hard, clock);
        let c = match &mut self.progress {
            Some(p) => self
                .engine
                .choose_with(&state, &tc, |it| p(it, tc.elapsed())),
            None => self.engine.choose(&state, &tc),
        };
        let action =
            c.mv.or_else(|| view.legal_actions().first().copied())
                .unwrap_or_default();
        self.expected = match (c.pv.first(), c.pv.get(1), state.apply(action)) {
            (Some(&first), Some(&reply), Ok(next)) if first == action => Some((next, reply)),
            _ => None,
        };
        Decision {
            action,
            score: Some(c.score as f64),
            depth: Some(c.depth),
            nodes: c.nodes,
            pv: c.pv,
            stats: self.ponder_stats(&state),
            elapsed: tc.elapsed(),
        }
    }

    /// Searches on one thread until `clock` stops ([`Engine::ponder`]): the position after the
    /// reply our last search expected, where the next search starts on a hit ("ponder hit");
    /// without an expected reply (or another position than the one our move left), the
    /// opponent's position itself, which warms the tables for every reply a little.
    fn ponder(&mut self, view: &View<'_, Piranhas>, clock: &TimeControl) {
        let state = view.observation().0;
        if state.result().is_some() {
            return;
        }
        let target = match self.expected.take() {
            Some((after, reply)) if after == state => state.apply(reply).ok(),
            _ => None,
        };
        let target = target
            .filter(|next| next.result().is_none())
            .unwrap_or(state);
        let nodes = self.engine.ponder(&target, clock);
        self.pondered = Some((target, nodes));
    }
}
