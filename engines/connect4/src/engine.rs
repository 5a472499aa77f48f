//! The player: opening book, then the exact solver, then heuristic alpha-beta, within a
//! [`TimeControl`].
//!
//! Order of business for one move:
//! 1. an immediate win is played at once;
//! 2. on 7 × 6 / connect 4, a book move is played when the position is in the book;
//! 3. the solver *weak-solves* the position (win / draw / loss, two null-window searches) and
//!    finds a move that keeps that value — this is already perfect play;
//! 4. with time left it refines to the exact score and the move that wins fastest or loses
//!    slowest;
//! 5. if the solver runs out of its share of the budget, heuristic alpha-beta
//!    ([`kibitz_search::alphabeta`]) with the threat evaluation ([`crate::eval`]) picks the
//!    move in the remaining time.
//!
//! The solver's and the searcher's tables live in the [`Engine`] and survive between moves and
//! aborted (pondering) searches.

use crate::bitboard::Bits;
use crate::board::Board;
use crate::book::{self, Book};
use crate::eval::SearchPos;
use crate::geometry::Geometry;
use crate::solver::{Solver, SolverConfig};
use crate::Error;
use kibitz_search::alphabeta::{SearchConfig, Searcher, WIN};
use kibitz_search::time::TimeControl;
use std::time::Duration;

/// Share of the remaining soft budget the solver may use before the heuristic search takes over.
pub const SOLVER_SHARE: f64 = 0.8;

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
    /// Where the move came from: `"book"`, `"solver"`, `"search"` or `"none"`.
    pub source: &'static str,
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
    solver: Solver<B>,
    searcher: Searcher<SearchPos<B>>,
    book: Book,
}

impl Engine {
    /// An engine for `columns × rows`, connect `connect`, with about `hash_mb` MiB of tables.
    ///
    /// Boards with `columns · (rows + 1) ≤ 64` use 64-bit bitboards, up to 128 bits 128-bit
    /// ones; larger boards are an error.
    pub fn new(columns: usize, rows: usize, connect: usize, hash_mb: usize) -> Result<Self, Error> {
        let inner = match Geometry::<u64>::new(columns, rows, connect) {
            Ok(geo) => Inner::Small(Box::new(Core::new(geo, hash_mb))),
            Err(_) => Inner::Large(Box::new(Core::new(
                Geometry::<u128>::new(columns, rows, connect)?,
                hash_mb,
            ))),
        };
        Ok(Self { inner })
    }

    /// Replaces the opening book (e.g. an empty one to test the solver alone).
    pub fn set_book(&mut self, book: Book) {
        match &mut self.inner {
            Inner::Small(c) => c.book = book,
            Inner::Large(c) => c.book = book,
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
    /// (nearly) expired; `max_depth` limits the heuristic search and skips the solver unless
    /// at most that many cells are empty.
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

impl<B: Bits + Into<u128>> Core<B> {
    fn new(geo: Geometry<B>, hash_mb: usize) -> Self {
        let solver_mb = (hash_mb * 3 / 4).max(1);
        let search_mb = (hash_mb / 4).max(1);
        let is_standard = geo.columns() == 7 && geo.rows() == 6 && geo.connect() == 4;
        Self {
            geo,
            solver: Solver::new(
                geo,
                SolverConfig {
                    hash_mb: solver_mb,
                    ..Default::default()
                },
            ),
            searcher: Searcher::new(SearchConfig {
                hash_mb: search_mb,
                quiescence: false,
                null_move: false,
                check_every: 512,
                ..Default::default()
            }),
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
        if max_depth.is_none() {
            if let Some(e) = self.book.lookup(&board) {
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
        if max_depth.is_none_or(|d| d >= empty) {
            self.solver.reset_nodes();
            let stc = phase(tc, SOLVER_SHARE);
            if let Some(m) = self.solver.best_move(&board, &stc, &stc) {
                return Choice {
                    column: m.column,
                    score: Some(m.score),
                    exact: m.exact,
                    nodes: self.solver.nodes(),
                    depth: empty,
                    source: "solver",
                };
            }
            choice.nodes = self.solver.nodes();
        }
        // 5. Heuristic search in the remaining time.
        let (cur, mask) = board.bitboards();
        let root = SearchPos::new(self.geo, cur, mask, moves);
        let htc = phase(tc, 1.0);
        let depth_cap = max_depth.unwrap_or(u32::MAX).clamp(1, 120);
        let mut best = None;
        let r = {
            let searcher = &mut self.searcher;
            searcher.search(&root, &htc, |it| {
                if it.depth <= depth_cap {
                    best = Some(it.clone());
                }
            })
        };
        let it = best.unwrap_or(r);
        if let Some(m) = it.best {
            choice.column = SearchPos::<B>::column(m);
        }
        choice.depth = it.depth;
        choice.nodes += it.nodes;
        choice.source = "search";
        if it.score.abs() >= WIN - 1000 {
            // A proven result: convert "mate in n plies" to the §11 score.
            let n = WIN - it.score.abs();
            let s = (cells as i32 + 2 - moves as i32 - n) / 2;
            choice.score = Some(if it.score > 0 { s } else { -s });
        }
        choice
    }
}

/// How long the engine would like to think at most on one move (the bot's default budget).
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(200);
