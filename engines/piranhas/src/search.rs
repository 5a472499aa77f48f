//! The alpha-beta player: [`Node`] plugs a position into `kibitz_search::alphabeta`, and
//! [`Engine`] keeps the searcher (transposition table, killers, history) between moves.
//!
//! Threads: `threads = 1` (the default) searches with a private transposition table;
//! `threads = N > 1` is Lazy SMP: N searchers (the main one and N − 1 helpers, helpers
//! starting one iteration deeper on alternate threads) share one lock-free
//! [`SharedTable`]; the main thread's result is played and the helpers stop when it returns.

use crate::bitboard::{Bitboard, BOARD_MASK};
use crate::board::Color;
use crate::board::Move;
use crate::captures::LastMove;
use crate::eval::{cached_features_with, cached_result, evaluate, evaluate_after, EvalParams};
use crate::movegen::{captures_into, for_each_move, legal_moves_into};
use crate::result::GameResult;
use crate::state::State;
use crate::state::MAX_TURN;
use kibitz_search::alphabeta::{
    Game, Outcome, Score, SearchConfig, SearchKnobs, SearchResult, Searcher,
};
use kibitz_search::time::TimeControl;
use kibitz_search::tt::{PackedMove, SharedTable, SharedTt};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Default soft budget: no new iteration after this (the one clock rule for the contest's 2 s
/// incl. network: [`kibitz_search::clock::PIRANHAS`], 1,300 ms).
pub const DEFAULT_SOFT: Duration = kibitz_search::clock::PIRANHAS.move_budget().soft;
/// Default hard deadline: abort the search here (the same rule, 1,500 ms).
pub const DEFAULT_HARD: Duration = kibitz_search::clock::PIRANHAS.move_budget().hard;

/// The default time control for one move: [`DEFAULT_SOFT`] / [`DEFAULT_HARD`] from now.
pub fn default_time_control() -> TimeControl {
    TimeControl::new(DEFAULT_SOFT, DEFAULT_HARD)
}

/// Interns evaluation weights so that search nodes can carry a `&'static` to them; each
/// distinct weight set is stored once (a tuning run uses a handful).
pub fn intern(p: EvalParams) -> &'static EvalParams {
    static POOL: OnceLock<Mutex<Vec<&'static EvalParams>>> = OnceLock::new();
    let mut pool = POOL
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(&q) = pool.iter().find(|&&q| *q == p) {
        return q;
    }
    let q: &'static EvalParams = Box::leak(Box::new(p));
    pool.push(q);
    q
}

impl PackedMove for Move {
    fn pack(self) -> u32 {
        self.x as u8 as u32 | (self.y as u8 as u32) << 8 | (self.direction as u32) << 16
    }
    fn unpack(bits: u32) -> Move {
        Move::new(
            bits as u8 as i8,
            (bits >> 8) as u8 as i8,
            crate::board::Direction::ALL[(bits >> 16) as usize & 7],
        )
    }
}

/// Piranhas-specific search switches (the generic ones are in [`SearchConfig`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeOptions {
    /// Null move allowed when RED is to move (with [`SearchConfig::null_move`] on). RED's
    /// pass changes who completes the round, and the win check runs after BLUE's moves only.
    pub null_red: bool,
    /// Null move allowed when BLUE is to move.
    pub null_blue: bool,
}

impl Default for NodeOptions {
    fn default() -> Self {
        NodeOptions {
            null_red: true,
            null_blue: true,
        }
    }
}

/// A position as the search sees it: the state plus the evaluation weights.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The position.
    pub state: State,
    params: &'static EvalParams,
    options: NodeOptions,
    end_plies: u32,
    end_qs: bool,
    /// The move that led here (none at the root and after a pass): the capture scan starts
    /// from the previous position's.
    last: Option<LastMove>,
}

impl Node {
    /// A search node for `state` evaluated with `params`, default [`NodeOptions`].
    pub fn new(state: State, params: &'static EvalParams) -> Node {
        Node::with_options(state, params, NodeOptions::default())
    }

    /// A search node with explicit Piranhas search switches.
    pub fn with_options(state: State, params: &'static EvalParams, options: NodeOptions) -> Node {
        Node {
            state,
            params,
            options,
            end_plies: 0,
            end_qs: true,
            last: None,
        }
    }

    /// The same node with leaves `plies` (0, 1 or 2) or fewer plies before the round limit
    /// solved exactly ([`crate::endgame::limit_value`]) instead of evaluated; 0 = `v4`.
    pub fn with_end_plies(self, plies: u32) -> Node {
        Node {
            end_plies: plies.min(2),
            ..self
        }
    }

    /// The same node with quiescence on (`true`, the default) or off below leaves whose value
    /// is the exact round-limit solve: their captures cannot change that value except to
    /// replace the solve's ±[`crate::endgame::LIMIT_WIN`] by a search win score.
    pub fn with_end_qs(self, on: bool) -> Node {
        Node { end_qs: on, ..self }
    }

    /// Whether this position's value is the exact round-limit solve (see
    /// [`Node::with_end_plies`]), which needs no quiescence unless `end_qs` asks for it.
    #[inline]
    fn solved(&self) -> bool {
        self.end_plies > 0 && self.state.turn() + self.end_plies >= MAX_TURN as u32
    }

    /// The static value of the position (or the exact round-limit value of its last plies),
    /// without the leaf cache.
    pub fn evaluate_uncached(&self) -> Score {
        if self.solved() {
            if let Some(v) = crate::endgame::limit_value(&self.state, self.end_plies) {
                return v;
            }
        }
        evaluate_after(&self.state, self.params, self.last)
    }

    /// Target square of a legal move.
    #[inline]
    fn target(&self, m: Move) -> usize {
        let sq = m.x as usize + 10 * m.y as usize;
        let d = self.state.distance(sq, m.direction) as i32;
        (sq as i32 + d * m.direction.offset()) as usize
    }
}

impl Game for Node {
    type Move = Move;

    fn hash(&self) -> u64 {
        self.state.hash()
    }

    fn moves(&self, out: &mut Vec<Move>) {
        legal_moves_into(&self.state, out);
    }

    fn play(&self, m: Move) -> Self {
        let from = m.x as usize + 10 * m.y as usize;
        let to = self.target(m);
        let captured = self
            .state
            .board()
            .fish_of(self.state.current().other())
            .has(to);
        Node {
            state: self.state.make(from, to),
            last: Some(LastMove {
                from: from as u8,
                to: to as u8,
                captured,
            }),
            ..*self
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        // A position with no legal move is scored as a loss by the search itself.
        // Fast path: the win check runs only after BLUE's moves (even turns), and needs a
        // connected colour or the round limit; the swarm counts come from the feature cache
        // that the evaluation shares.
        let r = cached_result(&self.state)?;
        Some(match r.winner {
            None => Outcome::Draw,
            Some(w) if w == self.state.current() => Outcome::Win,
            Some(_) => Outcome::Loss,
        })
    }

    fn evaluate(&self) -> Score {
        // Through the per-thread leaf cache: the same positions are evaluated in every
        // iteration (the key is exact, so a hit is the value computed below).
        let params = self.params as *const EvalParams as usize;
        crate::leaf_cache::cached_eval(&self.state, params, self.end_plies, || {
            self.evaluate_uncached()
        })
    }

    fn move_key(&self, m: Move) -> usize {
        (self.state.current() as usize * 100 + m.x as usize + 10 * m.y as usize) * 8
            + m.direction as usize
    }

    fn order_hint(&self, m: Move) -> i32 {
        // Captures first, then moves that bring the fish closer to its colour's centre.
        let me = self.state.current();
        let n = self.state.fish_count(me) as i32;
        let (sx, sy) = self.state.coordinate_sums(me);
        let (sx, sy) = (sx as i32, sy as i32);
        let dist = |sq: usize| {
            let dx = (n * (sq % 10) as i32 - sx).abs();
            let dy = (n * (sq / 10) as i32 - sy).abs();
            dx.max(dy)
        };
        let from = m.x as usize + 10 * m.y as usize;
        let to = self.target(m);
        let capture = self.state.board().fish_of(me.other()).has(to);
        (dist(from) - dist(to)) * 16 / n.max(1) + if capture { 64 } else { 0 }
    }

    fn is_noisy(&self, m: Move) -> bool {
        let to = self.target(m);
        self.state
            .board()
            .fish_of(self.state.current().other())
            .has(to)
    }

    fn noisy_moves(&self, out: &mut Vec<Move>) {
        // Quiescence evaluates (stand pat) before it asks for the captures: the evaluation's
        // capture scan of this very position usually has them already.
        if !self.end_qs && self.solved() {
            return;
        }
        // When it does not (the value came from the leaf cache), a scan from the parent's is
        // still cheaper than generating the captures.
        if !crate::captures::recall_captures(&self.state, out) {
            crate::captures::scan_and_remember(&self.state, self.last);
            if !crate::captures::recall_captures(&self.state, out) {
                captures_into(&self.state, out);
            }
        }
    }

    fn null_move(&self) -> Option<Self> {
        // Passing is not a legal move; near the round limit the parity matters too much.
        let allowed = match self.state.current() {
            Color::Red => self.options.null_red,
            Color::Blue => self.options.null_blue,
        };
        (allowed && self.state.turn() + 4 < 60).then(|| Node {
            state: self.state.pass(),
            last: None,
            ..*self
        })
    }

    fn threats(&self) -> u8 {
        u8::from(union_threat(&self.state, Color::Red))
            | u8::from(union_threat(&self.state, Color::Blue)) << 1
    }
}

/// Whether the fish of `c` are united or can be united by one move of `c` (a union threat;
/// the win check itself runs after BLUE's moves only). Cheap bitboard filter first: the
/// target square must touch every swarm except, possibly, a single fish that moves.
pub fn union_threat(state: &State, c: Color) -> bool {
    let fish = state.board().fish_of(c);
    let f = cached_features_with(fish, state.coordinate_sums(c), false);
    if f.groups <= 1 {
        return f.fish > 0;
    }
    if f.groups > 4 {
        return false;
    }
    // Squares next to every swarm (`all`), and next to every swarm but one single fish.
    let mut swarms = [Bitboard::EMPTY; 4];
    let mut rest = fish;
    for s in swarms.iter_mut().take(f.groups as usize) {
        *s = crate::swarm::flood(rest, Bitboard::square(rest.lowest()));
        rest ^= *s;
    }
    let swarms = &swarms[..f.groups as usize];
    let touching = |skip: Option<usize>| {
        swarms
            .iter()
            .enumerate()
            .filter(|&(i, _)| Some(i) != skip)
            .fold(Bitboard(BOARD_MASK), |acc, (_, s)| acc & s.dilate())
    };
    let mut targets = touching(None);
    for (i, s) in swarms.iter().enumerate() {
        if s.count() == 1 {
            targets |= touching(Some(i));
        }
    }
    targets &= !fish;
    if targets.is_empty() {
        return false;
    }
    let mover = if state.current() == c {
        *state
    } else {
        state.pass()
    };
    let mut found = false;
    for_each_move(&mover, |from, to, _| {
        if !found && targets.has(to) {
            found =
                crate::swarm::is_connected((fish ^ Bitboard::square(from)) | Bitboard::square(to));
        }
    });
    found
}

/// Engine settings: search switches and sizes plus evaluation weights.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Alpha-beta settings (hash size, depth limit, quiescence, LMR, null move).
    pub search: SearchConfig,
    /// Evaluation weights.
    pub eval: EvalParams,
    /// Piranhas-specific search switches (null move by colour).
    pub node: NodeOptions,
    /// Search threads: 1 = plain search, N > 1 = Lazy SMP over a shared table.
    pub threads: usize,
    /// Leaves this many plies (0, 1 or 2) or fewer before the round limit are solved exactly
    /// ([`crate::endgame::limit_value`]) instead of evaluated: BLUE's last move, which RED
    /// cannot answer, decides many games at turn 60 (issue 38). 0 is the `v4` behaviour;
    /// the default is 1 (BLUE's last move only): the two-ply solve wins at a fixed depth but
    /// cost 5.5× the CPU per node from turn 50 on and lost strength under time; the
    /// bitboard solve ([`crate::endgame`]) brought that to 2.0–2.4× (issue 38, third round).
    pub end_plies: u32,
    /// Quiescence below the exactly solved leaves of `end_plies` (true, the behaviour until
    /// issue 38's second round) or not (false): their captures only turn a solved win or loss
    /// into a search win score, at about a third of the nodes from turn 50 on.
    pub end_qs: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            search: SearchConfig {
                hash_mb: 32,
                smart_time: true,
                // Poll the clock every 256 nodes (about 1-3 ms) to stop close to the deadline.
                check_every: 256,
                // Aspiration windows of ± 30 at the root: SPRT [-10, 10] at 5,000 nodes/move
                // against full windows, 792 games, Elo +21.5 ± 23.4, LLR 3.04 (H1).
                aspiration: 30,
                // Issue 38: no prediction of the next iteration's time. With it the bot
                // stopped at a median of about 0.7 s of its 2 s, because the next depth
                // costs 3–6×; without it every move searches on to the soft budget and keeps
                // a better root move found by the unfinished iteration. Self-play through
                // our server at 1/5 of the contest clock, 2 threads each: see the knobs'
                // line in `tuning/README.md` ("Piranhas: time use").
                knobs: SearchKnobs {
                    growth_min: 0.0,
                    growth_max: 0.0,
                    ..SearchKnobs::default()
                },
                ..SearchConfig::default()
            },
            eval: EvalParams::default(),
            node: NodeOptions::default(),
            threads: 1,
            // Issue 38: BLUE's last move before turn 60 solved exactly. At a fixed depth 5 the
            // last two plies (2) beat v4 (0) by +25.2 ± 10.9 over 400 games, but a two-ply
            // solve per leaf cuts nodes/s ~5.5× from turn 50 on. Against 885fa0d's bot through
            // our server at 1/5 of the contest clock (both seatings): 2 scored 40.6–47.5 %
            // (327 games), 0 48.4 % (400), 1 51.0 % (200). Third round: the two-ply solve on
            // bitboards is 3.0× faster (late_bench 50-58 at end_plies=2: 10.2 → 3.4 s CPU,
            // same nodes); from turn 50 on it still costs 2.0× (end_qs=0) to 2.4× the CPU per
            // node of end_plies=1, 2.5× to 2.9× per search of the same depth (end_choices).
            end_plies: 1,
            end_qs: true,
        }
    }
}

/// What the engine decided and why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choice {
    /// The move; `None` only when there is no legal move.
    pub mv: Option<Move>,
    /// Score from the mover's view (centi-units; wins near ±31,000).
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// The searchers of one engine: a private table, or Lazy SMP threads sharing one.
enum Searchers {
    Single(Box<Searcher<Node>>),
    Smp {
        table: Arc<SharedTable>,
        threads: Vec<Searcher<Node, SharedTt>>,
    },
}

/// The alpha-beta player. Keep it for a whole game to reuse its tables.
pub struct Engine {
    searchers: Searchers,
    params: &'static EvalParams,
    config: EngineConfig,
}

impl Engine {
    /// An engine with a fresh transposition table (shared by `config.threads` searchers
    /// when that is more than 1).
    pub fn new(config: EngineConfig) -> Engine {
        let searchers = if config.threads <= 1 {
            Searchers::Single(Box::new(Searcher::new(config.search.clone())))
        } else {
            let table = Arc::new(SharedTable::new(config.search.hash_mb));
            let threads = (0..config.threads.min(64))
                .map(|i| {
                    let mut cfg = config.search.clone();
                    if i > 0 {
                        // Helpers run until the main thread stops them.
                        cfg.smart_time = false;
                    }
                    let mut s = Searcher::with_table(cfg, SharedTt(Arc::clone(&table)));
                    s.set_first_depth(1 + (i as u32 % 2));
                    s
                })
                .collect();
            Searchers::Smp { table, threads }
        };
        Engine {
            searchers,
            params: intern(config.eval),
            config,
        }
    }

    /// The configuration in use.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Forgets the tables (e.g. between games).
    pub fn clear(&mut self) {
        match &mut self.searchers {
            Searchers::Single(s) => s.clear(),
            Searchers::Smp { threads, .. } => threads.iter_mut().for_each(|s| s.clear()),
        }
    }

    /// The search's root node for `state`, with this engine's weights and switches.
    fn root(&self, state: &State) -> Node {
        Node::with_options(*state, self.params, self.config.node)
            .with_end_plies(self.config.end_plies)
            .with_end_qs(self.config.end_qs)
    }

    /// Thinks about `state` (the opponent to move) on one thread until `tc` stops it or its
    /// search ends, only to fill the tables the next [`Engine::choose`] reuses (pondering).
    /// One thread, whatever [`EngineConfig::threads`] says: the opponent thinks meanwhile and
    /// should keep a core. Returns the nodes searched.
    pub fn ponder(&mut self, state: &State, tc: &TimeControl) -> u64 {
        let root = self.root(state);
        match &mut self.searchers {
            Searchers::Single(s) => s.search(&root, tc, |_| {}).nodes,
            Searchers::Smp { table, threads } => {
                table.new_search();
                threads[0].search(&root, tc, |_| {}).nodes
            }
        }
    }

    /// Searches `state` within `tc` and returns the best move found.
    pub fn choose(&mut self, state: &State, tc: &TimeControl) -> Choice {
        self.choose_with(state, tc, |_| {})
    }

    /// Like [`Engine::choose`], reporting every completed iteration to `on_iteration`
    /// (node counts there are the main thread's).
    pub fn choose_with(
        &mut self,
        state: &State,
        tc: &TimeControl,
        mut on_iteration: impl FnMut(&Choice),
    ) -> Choice {
        let root = self.root(state);
        let mut report = |it: &SearchResult<Move>| {
            on_iteration(&Choice {
                mv: it.best,
                score: it.score,
                depth: it.depth,
                nodes: it.nodes,
                pv: it.pv.clone(),
            })
        };
        let (r, nodes) = match &mut self.searchers {
            Searchers::Single(s) => {
                let r = s.search(&root, tc, report);
                let n = r.nodes;
                (r, n)
            }
            Searchers::Smp { table, threads } => {
                table.new_search();
                let stop = Arc::new(AtomicBool::new(false));
                let helper_tc = TimeControl::infinite().with_stop_flag(Arc::clone(&stop));
                let (main, helpers) = threads.split_first_mut().expect("threads >= 2");
                std::thread::scope(|scope| {
                    let handles: Vec<_> = helpers
                        .iter_mut()
                        .map(|h| {
                            let tc = helper_tc.clone();
                            scope.spawn(move || h.search(&root, &tc, |_| {}).nodes)
                        })
                        .collect();
                    let r = main.search(&root, tc, &mut report);
                    stop.store(true, Ordering::Relaxed);
                    let helper_nodes: u64 =
                        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
                    let n = r.nodes + helper_nodes;
                    (r, n)
                })
            }
        };
        let mv = r.best.filter(|&m| state.is_legal(m)).or_else(|| {
            // Never hand out an illegal move, whatever the tables say.
            let mut v = Vec::new();
            legal_moves_into(state, &mut v);
            v.first().copied()
        });
        Choice {
            mv,
            score: r.score,
            depth: r.depth,
            nodes,
            pv: r.pv,
        }
    }
}

/// The one-ply greedy choice: an immediate win if there is one, else the move whose resulting
/// position evaluates best for the mover (ties: first in generation order).
pub fn greedy_move(state: &State, params: &EvalParams) -> Option<Move> {
    let me = state.current();
    let mut best: Option<(i32, Move)> = None;
    for_each_move(state, |from, to, dir| {
        let child = state.make(from, to);
        let score = match child.result() {
            Some(GameResult {
                winner: Some(w), ..
            }) if w == me => i32::MAX,
            Some(GameResult {
                winner: Some(_), ..
            }) => i32::MIN + 1,
            Some(_) => 0,
            None => -evaluate(&child, params),
        };
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, Move::from_square(from, dir)));
        }
    });
    best.map(|(_, m)| m)
}

#[cfg(test)]
mod tests;
