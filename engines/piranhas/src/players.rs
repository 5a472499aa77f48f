//! Players for in-process matches and tuning: random, greedy (best one-ply evaluation) and
//! the alpha-beta engine, built from a one-line spec.
//!
//! Spec syntax: `kind[:key=value,key=value,...]`
//!
//! - `random[:seed=N]`
//! - `greedy[:eval=v1|v2|v3|v4|tuned|default,param.NAME=V,...]`
//! - `search[:time=MS,hard=MS,depth=D,nodes=N,hash=MB,eval=v1|v2|v3|v4|tuned|default,qs=0|1,lmr=0|1,null=0|1,
//!   smart=0|1,threads=N,param.NAME=V,...]` — `smart` switches the time management
//!   (default on), `threads` > 1 searches with Lazy SMP; `time` is the budget per move (default
//!   [`DEFAULT_BUDGET`], the contest's 2 s), turned into soft and hard times by the one clock
//!   rule ([`MoveBudget::in_process`]: half of it soft, all of it hard); `hard` overrides the
//!   hard deadline; with `depth` or `nodes` and no `time` the search is untimed and
//!   reproducible.

use crate::board::Move;
use crate::eval::EvalParams;
use crate::search::{greedy_move, Engine, EngineConfig};
use crate::state::State;
use kibitz_search::clock::MoveBudget;
use kibitz_search::params::Tunable;
use kibitz_search::time::TimeControl;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// A malformed player spec.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SpecError {
    /// Unknown player kind.
    #[error("unknown player kind {0:?} (expected random, greedy or search)")]
    Kind(String),
    /// Unknown or malformed option.
    #[error("bad option {0:?} for player {1:?}")]
    Option(String, String),
}

/// Which kind of player.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    /// Uniformly random legal moves.
    Random,
    /// Best one-ply evaluation.
    Greedy,
    /// The alpha-beta engine.
    Search,
}

/// A parsed player spec; [`PlayerSpec::build`] makes the player.
#[derive(Clone, Debug)]
pub struct PlayerSpec {
    /// The spec as written.
    pub text: String,
    /// The kind.
    pub kind: PlayerKind,
    /// Engine settings (search and greedy use the evaluation weights).
    pub config: EngineConfig,
    /// Time budget per move; `None` = untimed (depth / node limited).
    pub time: Option<Duration>,
    /// Hard deadline per move, overriding the clock rule's.
    pub hard: Option<Duration>,
    /// Seed override for random players.
    pub seed: Option<u64>,
}

impl std::str::FromStr for PlayerSpec {
    type Err = SpecError;
    fn from_str(text: &str) -> Result<Self, SpecError> {
        let (kind, opts) = text.split_once(':').unwrap_or((text, ""));
        let kind = match kind.trim() {
            "random" => PlayerKind::Random,
            "greedy" => PlayerKind::Greedy,
            "search" | "ab" | "alphabeta" => PlayerKind::Search,
            k => return Err(SpecError::Kind(k.to_string())),
        };
        let mut spec = PlayerSpec {
            text: text.to_string(),
            kind,
            config: EngineConfig::default(),
            time: None,
            hard: None,
            seed: None,
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
                    spec.config.set_param(name, value).map_err(|_| bad())?;
                }
            }
        }
        if spec.kind == PlayerKind::Search && spec.time.is_none() && !limited {
            spec.time = Some(DEFAULT_BUDGET);
        }
        Ok(spec)
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A search player's default budget per move: the contest's 2 s (spec §5).
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(2000);

/// The time control of one move under `time` (budget) and `hard` (override), as
/// [`PlayerSpec::time`] and [`PlayerSpec::hard`] describe.
fn move_time_control(time: Option<Duration>, hard: Option<Duration>) -> TimeControl {
    match time {
        Some(budget) => {
            let b = MoveBudget::in_process(budget);
            TimeControl::new(b.soft, hard.unwrap_or(b.hard))
        }
        None => TimeControl::infinite(),
    }
}

impl PlayerSpec {
    /// The time control a search player of this spec starts for each move.
    pub fn time_control(&self) -> TimeControl {
        move_time_control(self.time, self.hard)
    }

    /// Builds the player; `seed` feeds random choices (per game, for reproducible matches).
    pub fn build(&self, seed: u64) -> Box<dyn Player> {
        let seed = self.seed.unwrap_or(seed);
        match self.kind {
            PlayerKind::Random => Box::new(RandomPlayer(ChaCha8Rng::seed_from_u64(seed))),
            PlayerKind::Greedy => Box::new(GreedyPlayer(self.config.eval)),
            PlayerKind::Search => Box::new(SearchPlayer {
                engine: Engine::new(self.config.clone()),
                time: self.time,
                hard: self.hard,
                last: None,
            }),
        }
    }
}

/// What a search player knew about its last move: for game records (`think`) and viewers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Think {
    /// Score from the mover's view (centi-units; wins near ±31,000).
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time the choice took, in ms.
    pub ms: u64,
    /// Principal variation, the chosen move first, as the engine prints moves (`x,y,DIR`).
    pub pv: Vec<String>,
}

/// Something that picks moves in in-process games.
pub trait Player: Send {
    /// Picks a move for the side to move; `None` when it has none.
    fn choose(&mut self, state: &State) -> Option<Move>;

    /// What the player's search knew about its last [`Player::choose`]; `None` for players
    /// without a search (the default) or before the first move.
    fn last_think(&self) -> Option<Think> {
        None
    }
}

/// Uniformly random legal moves.
pub struct RandomPlayer(ChaCha8Rng);

impl Player for RandomPlayer {
    fn choose(&mut self, state: &State) -> Option<Move> {
        state.legal_moves().choose(&mut self.0).copied()
    }
}

/// Best one-ply evaluation (an immediate win first).
pub struct GreedyPlayer(EvalParams);

impl Player for GreedyPlayer {
    fn choose(&mut self, state: &State) -> Option<Move> {
        greedy_move(state, &self.0)
    }
}

/// The alpha-beta engine with a per-move budget.
pub struct SearchPlayer {
    engine: Engine,
    time: Option<Duration>,
    hard: Option<Duration>,
    last: Option<Think>,
}

impl Player for SearchPlayer {
    fn choose(&mut self, state: &State) -> Option<Move> {
        let tc = move_time_control(self.time, self.hard);
        let started = std::time::Instant::now();
        let c = self.engine.choose(state, &tc);
        self.last = Some(Think {
            score: c.score,
            depth: c.depth,
            nodes: c.nodes,
            ms: started.elapsed().as_millis() as u64,
            pv: c.pv.iter().map(|m| m.to_string()).collect(),
        });
        c.mv
    }

    fn last_think(&self) -> Option<Think> {
        self.last.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_reject_garbage() {
        let s: PlayerSpec = "search:time=100,depth=6,param.rim=9,eval=v1"
            .parse()
            .unwrap();
        assert_eq!(s.kind, PlayerKind::Search);
        assert_eq!(s.time, Some(Duration::from_millis(100)));
        assert_eq!(s.config.search.max_depth, 6);
        // eval=v1 comes after param.rim, so it resets the weights.
        assert_eq!(s.config.eval, EvalParams::V1);
        let s: PlayerSpec = "search:depth=3".parse().unwrap();
        assert_eq!(s.time, None);
        assert!("search:param.nope=1".parse::<PlayerSpec>().is_err());
        let s: PlayerSpec = "search:nodes=9,param.lmr=0,param.fish=12".parse().unwrap();
        assert!(!s.config.search.lmr);
        assert_eq!(s.config.eval.fish, 12);
        let s: PlayerSpec = "search:depth=2,eval=v2".parse().unwrap();
        assert_eq!(s.config.eval, EvalParams::TUNED);
        assert!("search:time=x".parse::<PlayerSpec>().is_err());
        assert!("chess".parse::<PlayerSpec>().is_err());
        assert!("greedy".parse::<PlayerSpec>().is_ok());
    }

    #[test]
    fn search_players_tell_what_they_thought_and_others_do_not() {
        let state = State::start([(2, 3), (6, 6)]);
        let s: PlayerSpec = "search:depth=3".parse().unwrap();
        let mut p = s.build(1);
        assert!(p.last_think().is_none());
        let mv = p.choose(&state).unwrap();
        let t = p.last_think().unwrap();
        assert_eq!(t.depth, 3);
        assert!(t.nodes > 0);
        assert_eq!(t.pv.first(), Some(&mv.to_string()));
        let mut r = "random".parse::<PlayerSpec>().unwrap().build(1);
        r.choose(&state);
        assert!(r.last_think().is_none());
    }

    #[test]
    fn time_is_the_move_budget_under_the_clock_rule() {
        let ms = Duration::from_millis;
        let s: PlayerSpec = "search:time=1200".parse().unwrap();
        let tc = s.time_control();
        // Before the one clock rule: soft 1200, hard 4/3 · 1200 = 1600.
        assert_eq!((tc.soft(), tc.hard()), (Some(ms(600)), Some(ms(1200))));
        let s: PlayerSpec = "search:time=1200,hard=1500".parse().unwrap();
        assert_eq!(s.time_control().hard(), Some(ms(1500)));
        let s: PlayerSpec = "search".parse().unwrap();
        let tc = s.time_control();
        assert_eq!((tc.soft(), tc.hard()), (Some(ms(1000)), Some(ms(2000))));
        let s: PlayerSpec = "search:depth=4".parse().unwrap();
        assert_eq!(s.time_control().hard(), None);
    }
}
