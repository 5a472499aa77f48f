//! The player: opening book, then the exact solver, then heuristic alpha-beta, within a
//! [`TimeControl`].
//!
//! Order of business for one move:
//! 1. an immediate win is played at once;
//! 2. on 7 × 6 / connect 4, a book move is played when the position is in the book;
//! 3. the solver *weak-solves* the position move by move at the root ([`crate::root`]):
//!    first it secures the value already known (the book's or our own proven value two plies
//!    earlier, or the table's), then tries to improve it (draw, then win) — a move keeping
//!    the value is already perfect play;
//! 4. with time left it refines to the exact score and the move that wins fastest or loses
//!    slowest;
//! 5. if the solver runs out of its share of the budget, it resumes the root solve with the
//!    tunable share `resume_share` of the rest (the table and the bounds keep every finished
//!    test, so no finished test is repeated; issue 39: at the bot's budget this turns proven draws
//!    into proven wins the heuristic would have given away); a move found is played as
//!    the solver's;
//! 6. if that runs out too, the moves reaching the best proven
//!    bound are the only candidates ([`crate::root::MoveBounds::candidates`]): one is played
//!    at once (source `"bounds"`), between several heuristic alpha-beta
//!    ([`kibitz_search::alphabeta`]) with the threat evaluation ([`crate::eval`]) picks in the
//!    remaining time; before the heuristic search, cheap proofs ([`root::cheap_proofs`],
//!    with the tunable share `cheap_share` of what is left, off by default: one null window
//!    per candidate, one step above the best proven value) may single out a move that wins or does not lose and drop moves
//!    shown worse. The fallback never plays a move the finished exact work showed worse.
//!
//! The solver's and the searcher's tables live in the [`Engine`] and survive between moves and
//! aborted (pondering) searches; so do the proven values of the last few choices.
//!
//! Steps 3–6 prove on one thread (the serial solver) or, with [`Engine::with_threads`], on
//! the parallel solver; the heuristic search of step 6 stays on the calling thread.

use crate::bitboard::Bits;
use crate::board::Board;
use crate::book::{self, Book};
use crate::eval::{learned, SearchPos};
use crate::geometry::Geometry;
use crate::root::{self, MoveBounds};
use crate::solver::prover::{EngineSolver, Prover};
use crate::solver::SolverConfig;
use crate::Error;
use kibitz_search::alphabeta::{SearchConfig, Searcher, WIN};
use kibitz_search::time::TimeControl;
use std::time::Duration;

/// A chosen move and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Column to play (0-based); always legal unless the board has no legal move at all.
    pub column: usize,
    /// Score for the side to move: the exact spec §11 score when `exact`; otherwise the
    /// game-theoretic sign (-1 loss, 0 draw, 1 win) when the solver proved it ("solver"
    /// source), or a proven heuristic result, or `None` when unknown.
    pub score: Option<i32>,
    /// Whether `score` is the exact score and `column` achieves it.
    pub exact: bool,
    /// Search depth reached (empty cells for solver results).
    pub depth: u32,
    /// Nodes searched for this choice.
    pub nodes: u64,
    /// Where the move came from: `"book"`, `"solver"` (proven), `"bounds"` (the only move
    /// reaching the best proven bound when the solver ran out of time), `"search"`
    /// (heuristic among the moves reaching the best proven bound) or `"none"`.
    pub source: &'static str,
    /// The heuristic search's principal variation (0-based columns, `column` first) when
    /// `source` is `"search"`; empty otherwise (the book and the solver keep no line).
    pub pv: Vec<usize>,
}

/// How a depth-limited choice (`max_depth` given to [`Engine::choose`]) behaves.
///
/// The defaults make a weaker variant of the contest bot: no book, the solver only once at
/// most `max_depth` cells are empty. The arena's untimed `search` player turns the book on
/// and solves from a fixed number of empty cells instead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DepthLimited {
    /// Consult the opening book even under a depth limit.
    pub book: bool,
    /// Run the exact solver once at most this many cells are empty (`None`: the depth limit).
    pub solve_empty: Option<u32>,
}

/// Picks moves for one board size; keeps its tables between moves.
pub struct Engine {
    inner: Inner,
}

enum Inner {
    Small(Box<Core<u64>>),
    Large(Box<Core<u128>>),
}

struct Core<B: Bits> {
    geo: Geometry<B>,
    /// The root proofs' solver: serial with one thread, parallel with more.
    solver: EngineSolver<B>,
    searcher: Searcher<SearchPos<B>>,
    search_config: SearchConfig,
    book: Book,
    /// Recent choices: history after the chosen move and a proven lower bound on the
    /// chooser's score there (newest last).
    proven: Vec<(Vec<usize>, i32)>,
    /// Node budget of the solver per move (deterministic stand-in for the clock).
    node_limit: Option<u64>,
    /// Tunables.
    params: crate::params::EngineParams,
    /// Behaviour under a depth limit.
    limited: DepthLimited,
}

/// How many recent proven choices the engine remembers.
const PROVEN_KEPT: usize = 8;

impl Engine {
    /// An engine for `columns × rows`, connect `connect`, with about `hash_mb` MiB of tables.
    ///
    /// Boards with `columns · (rows + 1) ≤ 64` use 64-bit bitboards, up to 128 bits 128-bit
    /// ones; larger boards are an error.
    /// A size on which no line of `connect` stones fits (e.g. 2 × 2, connect 4) is refused:
    /// every game there is a draw and a contest on it is a configuration mistake.
    pub fn new(columns: usize, rows: usize, connect: usize, hash_mb: usize) -> Result<Self, Error> {
        Self::with_threads(columns, rows, connect, hash_mb, 1)
    }

    /// [`Engine::new`] whose root proofs run on `threads` threads (0 counts as 1): with
    /// more than one, on the parallel solver ([`crate::solver::parallel::ParallelSolver`],
    /// Lazy SMP over one shared table), whose node limit ([`Engine::set_node_limit`])
    /// counts the main thread's nodes ([`crate::solver::prover`]); with one, on the serial
    /// solver, bit for bit the single-threaded engine. The heuristic search stays on the
    /// calling thread.
    pub fn with_threads(
        columns: usize,
        rows: usize,
        connect: usize,
        hash_mb: usize,
        threads: usize,
    ) -> Result<Self, Error> {
        if !crate::line_fits(columns, rows, connect) {
            return Err(Error::BadSize {
                columns,
                rows,
                connect,
                reason: "no line of that length fits on the board (connect must not exceed both columns and rows)",
            });
        }
        let inner = match Geometry::<u64>::new(columns, rows, connect) {
            Ok(geo) => Inner::Small(Box::new(Core::new(geo, hash_mb, threads))),
            Err(_) => Inner::Large(Box::new(Core::new(
                Geometry::<u128>::new(columns, rows, connect)?,
                hash_mb,
                threads,
            ))),
        };
        Ok(Self { inner })
    }

    /// Threads the root proofs run on.
    pub fn threads(&self) -> usize {
        match &self.inner {
            Inner::Small(c) => c.solver.threads(),
            Inner::Large(c) => c.solver.threads(),
        }
    }

    /// Replaces the opening book (e.g. an empty one to test the solver alone).
    pub fn set_book(&mut self, book: Book) {
        match &mut self.inner {
            Inner::Small(c) => c.book = book,
            Inner::Large(c) => c.book = book,
        }
    }

    /// Applies tunables (evaluation weights, LMR, solver share); tables are kept except the
    /// heuristic search's (rebuilt when its configuration changes).
    pub fn set_params(&mut self, params: crate::params::EngineParams) {
        match &mut self.inner {
            Inner::Small(c) => c.set_params(params),
            Inner::Large(c) => c.set_params(params),
        }
    }

    /// Limits every move to `nodes` solver nodes, plus `nodes · (1 − solver_share) /
    /// solver_share · resume_share` solver nodes resuming the solve (the part of the move
    /// the clock would give it), plus `nodes × cheap_share` solver nodes of cheap proofs
    /// among the fallback's candidates, plus `nodes` heuristic-search nodes (`None`: no
    /// limit). Unlike the clock this is reproducible, for tests and audits.
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        match &mut self.inner {
            Inner::Small(c) => c.set_node_limit(nodes),
            Inner::Large(c) => c.set_node_limit(nodes),
        }
    }

    /// Sets how depth-limited choices behave (book, when to solve exactly).
    pub fn set_depth_limited(&mut self, limited: DepthLimited) {
        match &mut self.inner {
            Inner::Small(c) => c.limited = limited,
            Inner::Large(c) => c.limited = limited,
        }
    }

    /// Forgets everything learnt (tables), keeps the book.
    pub fn clear(&mut self) {
        match &mut self.inner {
            Inner::Small(c) => c.clear(),
            Inner::Large(c) => c.clear(),
        }
    }

    /// Best move for the side to move after `history` (0-based columns from the empty board).
    ///
    /// Moves of `history` that are illegal (or come after the game ended) are ignored from the
    /// first bad one on. Always returns at once with a legal column when the time control is
    /// (nearly) expired.
    ///
    /// `max_depth` limits the heuristic search to that many plies (also under an infinite
    /// time control, where the choice is then reproducible), skips the book and runs the
    /// solver only once at most that many cells are empty (both adjustable with
    /// [`Engine::set_depth_limited`]). A node limit ([`Engine::set_node_limit`]) bounds the
    /// solver and the search whatever the time control. With an infinite time control and
    /// neither limit, only the stop flag ends a search that the solver cannot finish.
    pub fn choose(
        &mut self,
        history: &[usize],
        tc: &TimeControl,
        max_depth: Option<u32>,
    ) -> Choice {
        match &mut self.inner {
            Inner::Small(c) => c.choose(history, tc, max_depth),
            Inner::Large(c) => c.choose(history, tc, max_depth),
        }
    }
}

/// A time control for a phase: at most `share` of what is left of `tc`'s soft budget (hard
/// deadline still respected), sharing `tc`'s stop flag.
fn phase(tc: &TimeControl, share: f64) -> TimeControl {
    match (tc.soft(), tc.remaining_hard()) {
        (Some(soft), Some(hard_left)) => {
            let soft_left = soft.saturating_sub(tc.elapsed());
            let d = soft_left.mul_f64(share).min(hard_left);
            TimeControl::new(d, d).with_stop_flag(tc.stop_flag())
        }
        _ => TimeControl::infinite().with_stop_flag(tc.stop_flag()),
    }
}

/// The heuristic fallback search's settings with a `hash_mb` table: no quiescence and no
/// null move (zugzwang is common in Connect Four), the clock read every 512 nodes. Research
/// tools that replay the fallback start from this, so they search as the engine does.
pub fn fallback_search_config(hash_mb: usize) -> SearchConfig {
    SearchConfig {
        hash_mb,
        quiescence: false,
        null_move: false,
        check_every: 512,
        ..Default::default()
    }
}

impl<B: Bits + Into<u128> + Send + 'static> Core<B> {
    fn new(geo: Geometry<B>, hash_mb: usize, threads: usize) -> Self {
        let is_standard = geo.columns() == 7 && geo.rows() == 6 && geo.connect() == 4;
        let search_config = fallback_search_config((hash_mb / 4).max(1));
        Self {
            geo,
            solver: EngineSolver::new(geo, SolverConfig::for_engine(hash_mb), threads),
            searcher: Searcher::new(search_config.clone()),
            search_config,
            proven: Vec::new(),
            node_limit: None,
            params: Default::default(),
            limited: DepthLimited::default(),
            book: if is_standard {
                Book::embedded()
            } else {
                Book::new()
            },
        }
    }

    fn clear(&mut self) {
        self.solver.clear();
        self.searcher.clear();
        self.proven.clear();
    }

    fn set_params(&mut self, params: crate::params::EngineParams) {
        if self.search_config.lmr != params.lmr || self.search_config.knobs != params.search {
            self.search_config.lmr = params.lmr;
            self.search_config.knobs = params.search;
            self.searcher = Searcher::new(self.search_config.clone());
        }
        self.params = params;
    }

    fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.node_limit = nodes;
        self.solver.set_node_limit(nodes);
        self.search_config.max_nodes = nodes.unwrap_or(0);
        self.searcher = Searcher::new(self.search_config.clone());
    }

    /// Remembers that after `history` the side that just moved scores at least `lo`.
    fn remember(&mut self, history: &[usize], column: usize, lo: i32) {
        let mut h = history.to_vec();
        h.push(column);
        self.proven.retain(|(p, _)| *p != h);
        if self.proven.len() >= PROVEN_KEPT {
            self.proven.remove(0);
        }
        self.proven.push((h, lo));
    }

    /// A lower bound on the value of `board` (after `history`) for the side to move, known
    /// without search: the book's or our own proven value two plies earlier (the opponent's
    /// move in between cannot lower it), or the solver's table.
    fn known_value(&self, history: &[usize], board: &Board<B>) -> Option<i32> {
        let n = board.moves_played();
        let history = &history[..n.min(history.len())];
        let mut known = self.solver.probe_bounds(board).map(|(lo, _)| lo);
        let mut raise = |v: i32| known = Some(known.map_or(v, |k| k.max(v)));
        if n >= 1 {
            for (h, lo) in &self.proven {
                if h.as_slice() == &history[..n - 1] {
                    raise(*lo);
                }
            }
        }
        if n >= 2 {
            let mut parent = Board::<B>::empty(self.geo);
            if history[..n - 2].iter().all(|&c| parent.play(c).is_ok()) {
                if let Some(e) = self.book.lookup(&parent) {
                    if let (true, Some(lo)) = (e.column as usize == history[n - 2], book_bound(&e))
                    {
                        raise(lo);
                    }
                }
            }
        }
        known
    }

    /// The order the root solve tries the moves of `board` in: the solver's, or with
    /// `learned_order` the learned evaluation's ([`learned_order`]).
    fn root_order(&self, board: &Board<B>) -> Vec<usize> {
        let order = self.solver.ordered_moves(board);
        if self.params.learned_order {
            learned_order(board, order)
        } else {
            order
        }
    }

    fn choose(&mut self, history: &[usize], tc: &TimeControl, max_depth: Option<u32>) -> Choice {
        let mut board = Board::<B>::empty(self.geo);
        for &c in history {
            if board.play(c).is_err() {
                break;
            }
        }
        let legal = board.legal_moves();
        let cells = self.geo.cells();
        let moves = board.moves_played() as u32;
        let empty = cells - moves;
        let mut choice = Choice {
            column: legal.first().copied().unwrap_or(0),
            score: None,
            exact: false,
            depth: 0,
            nodes: 0,
            source: "none",
            pv: Vec::new(),
        };
        if legal.is_empty() {
            return choice;
        }
        // 1. Immediate win.
        if let Some(&c) = legal.iter().find(|&&c| board.is_winning_move(c)) {
            let score = (cells as i32 + 1 - moves as i32) / 2;
            return Choice {
                column: c,
                score: Some(score),
                exact: true,
                depth: 1,
                source: "solver",
                ..choice
            };
        }
        // 2. Book.
        if max_depth.is_none() || self.limited.book {
            if let Some(e) = self.book.lookup(&board) {
                if let Some(lo) = book_bound(&e) {
                    self.remember(history, e.column as usize, lo);
                }
                return Choice {
                    column: e.column as usize,
                    score: Some(e.score as i32),
                    exact: e.flags & book::EXACT != 0,
                    depth: empty,
                    source: "book",
                    ..choice
                };
            }
        }
        // 3-4. Solver: weak value and a move keeping it, then the exact score if time allows.
        let mut bounds = MoveBounds::new(&self.solver, &board);
        if max_depth.is_none() || self.limited.book {
            // Cheap proofs first: the book's value of every child.
            bounds.apply_book(&self.book, &board);
        }
        let mut known = None;
        let solve = max_depth.is_none_or(|d| empty <= self.limited.solve_empty.unwrap_or(d));
        if solve {
            self.solver.reset_nodes();
            let stc = phase(tc, self.params.solver_share);
            known = self.known_value(history, &board);
            let order = self.root_order(&board);
            let mut found = root::solve_root_in_order(
                &mut self.solver,
                &board,
                &mut bounds,
                known,
                &order,
                &stc,
                &stc,
            );
            // 5a. Out of the solver's share: go on proving with part of the rest (the
            //     table and the bounds keep every finished test, so this resumes the solve
            //     where it stopped) rather than leave it all to the heuristic.
            let share = self.params.resume_share;
            if found.is_none() && share > 0.0 {
                let rtc = phase(tc, share);
                let global = self.solver.node_limit();
                if let Some(n) = self.node_limit {
                    // The same part of the move as under the clock: the solver's share is
                    // `n`, the rest of the soft budget `n · (1 − s) / s`.
                    let s = self.params.solver_share.clamp(0.05, 1.0);
                    let extra = (n as f64 * (1.0 - s) / s * share) as u64;
                    self.solver
                        .set_node_limit(Some(self.solver.nodes().saturating_add(extra)));
                }
                let best = bounds.best_proven().map(|b| b.clamp(-1, 1));
                let k = match (known, best) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    (a, b) => a.or(b),
                };
                let order = self.root_order(&board);
                found = root::solve_root_in_order(
                    &mut self.solver,
                    &board,
                    &mut bounds,
                    k,
                    &order,
                    &rtc,
                    &rtc,
                );
                self.solver.set_node_limit(global);
            }
            if let Some(m) = found {
                let lo = if m.exact || m.score >= 0 {
                    m.score
                } else {
                    bounds.lo[m.column]
                };
                self.remember(history, m.column, lo.max(bounds.lo[m.column]));
                return Choice {
                    column: m.column,
                    score: Some(m.score),
                    exact: m.exact,
                    nodes: self.solver.total_nodes(),
                    depth: empty,
                    source: "solver",
                    pv: Vec::new(),
                };
            }
            choice.nodes = self.solver.total_nodes();
        }
        // 6. Fallback: only moves reaching the best proven bound; heuristic search among
        //    several in the remaining time. First cheap proofs among the candidates (a
        //    null window each, one step above the best proven value) with a share of what
        //    is left: a move shown to win (or not to lose) decides, one shown worse drops.
        let mut candidates = bounds.candidates(known);
        if solve && candidates.len() > 1 {
            let share = self.params.cheap_share;
            if share > 0.0 {
                let ctc = phase(tc, share);
                let extra = self
                    .node_limit
                    .map_or(u64::MAX, |n| (n as f64 * share) as u64);
                root::cheap_proofs(
                    &mut self.solver,
                    &board,
                    &mut bounds,
                    &candidates,
                    extra,
                    &ctc,
                );
                choice.nodes = self.solver.total_nodes();
                candidates = bounds.candidates(known);
            }
        }
        if let [c] = candidates[..] {
            self.remember(history, c, bounds.lo[c]);
            return Choice {
                column: c,
                source: "bounds",
                ..choice
            };
        }
        let (cur, mask) = board.bitboards();
        let root = SearchPos::new(self.geo, cur, mask, moves)
            .with_root_filter(&candidates)
            .with_weights(self.params.weights);
        let htc = phase(tc, 1.0);
        // The searcher's own depth limit ends the iterations, so that an infinite time
        // control returns too.
        let depth_cap = max_depth.map_or(SearchConfig::default().max_depth, |d| d.max(1));
        if self.search_config.max_depth != depth_cap {
            self.search_config.max_depth = depth_cap;
            self.searcher = Searcher::new(self.search_config.clone());
        }
        let it = self.searcher.search(&root, &htc, |_| {});
        if let Some(m) = it.best {
            choice.column = SearchPos::<B>::column(m);
        }
        if !candidates.is_empty() && !candidates.contains(&choice.column) {
            choice.column = candidates[0];
        }
        if bounds.is_legal(choice.column) {
            self.remember(history, choice.column, bounds.lo[choice.column]);
        }
        choice.depth = it.depth;
        choice.nodes += it.nodes;
        choice.source = "search";
        let pv: Vec<usize> = it.pv.iter().map(|&m| SearchPos::<B>::column(m)).collect();
        // The line is the search's only while its first move is the one played.
        choice.pv = if pv.first() == Some(&choice.column) {
            pv
        } else {
            vec![choice.column]
        };
        if it.score.abs() >= WIN - 1000 {
            // A proven result: convert "mate in n plies" to the §11 score.
            let n = WIN - it.score.abs();
            let s = (cells as i32 + 2 - moves as i32 - n) / 2;
            choice.score = Some(if it.score > 0 { s } else { -s });
        }
        choice
    }
}

/// `order` (the solver's order of the root moves) re-ranked by the learned evaluation of the
/// position after each move, best for the mover first (ties keep `order`); unchanged on any
/// board but 7 × 6, connect 4.
fn learned_order<B: Bits>(board: &Board<B>, order: Vec<usize>) -> Vec<usize> {
    let Some(b) = (board as &dyn std::any::Any).downcast_ref::<Board<u64>>() else {
        return order;
    };
    let g = b.geometry();
    if (g.columns(), g.rows(), g.connect()) != (learned::COLUMNS, learned::ROWS, 4) {
        return order;
    }
    let model = learned::Model::embedded();
    let value = |c: usize| {
        let mut child = *b;
        if b.is_winning_move(c) {
            2.0
        } else if child.play(c).is_err() {
            -2.0
        } else {
            let (cur, mask) = child.bitboards();
            -model.value(g, cur, mask, child.moves_played() as u32)
        }
    };
    let mut scored: Vec<(f32, usize)> = order.into_iter().map(|c| (value(c), c)).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().map(|(_, c)| c).collect()
}

/// The lower bound a book entry proves for the side to move: its exact score, or the sign of
/// a win or draw (a weak loss bounds nothing).
fn book_bound(e: &book::Entry) -> Option<i32> {
    if e.flags & book::EXACT != 0 {
        Some(e.score as i32)
    } else if e.score >= 0 {
        Some((e.score as i32).signum())
    } else {
        None
    }
}

/// How long the engine would like to think at most on one move (the bot's default budget).
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(200);
