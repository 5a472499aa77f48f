//! Exact solver: scores positions in the test-set convention (spec §11).
//!
//! Negamax with alpha-beta on bitboards, following Pons' strong solver and going past it:
//!
//! - non-losing move generation (never play under an opponent's threat, answer forced moves);
//! - score bounds from the number of moves left;
//! - wins with the mover's next stone decided exactly without search (two playable line
//!   cells, a blocked one with another line cell above it, or every opponent move filling
//!   the cell below one); without such a win the upper bound drops by one stone;
//! - optionally the opening book inside the tree ([`Solver::set_book`]);
//! - null-window searches narrowing on the exact score from the root;
//! - a transposition table of 8-byte entries, four to a bucket, exact partial keys, lower *and*
//!   upper bounds and the best move
//!   ([`crate::tt`]);
//! - move ordering: stored best move, then the number of own threats created (threats on the
//!   rows that favour the mover count extra; a little less for a move right below an own
//!   threat, a little more for three stacked in a column), then centre first;
//! - enhanced transposition cutoffs (children probed before any is searched);
//! - left-right symmetry: early positions share one table entry with their mirror image.
//!
//! The search reads the clock only every [`SolverConfig::check_every`] nodes. An aborted search
//! returns `None` and stores nothing from the unfinished part, so the table stays sound and
//! later searches reuse all finished work. The search itself is in `solver/search.rs`; the
//! parallel solve over a shared table in [`parallel`].

use crate::bitboard::Bits;
use crate::board::Board;
use crate::eval::parity_rows;
use crate::geometry::Geometry;
use crate::tt::{Tt, NO_MOVE};

mod config;
mod crew;
pub mod parallel;
pub mod prover;
mod research;
mod search;
pub use config::SolverConfig;
use kibitz_search::time::TimeControl;

/// The exact solver for one board geometry; keep it to reuse its table.
pub struct Solver<B: Bits> {
    geo: Geometry<B>,
    config: SolverConfig,
    tt: Table,
    /// Table of the positions near the leaves ([`SolverConfig::near_empty`]).
    near: Tt,
    nodes: u64,
    /// Abort once `nodes` reaches this (deterministic budgets).
    node_limit: u64,
    aborted: bool,
    tc: TimeControl,
    /// Columns centre first.
    order: Vec<usize>,
    column_masks: Vec<B>,
    /// Rows where a threat is worth most, for the first and for the second player.
    good_rows: [B; 2],
    /// Cutoff history per side and cell.
    history: Vec<u32>,
    /// Opening book inside the tree: (hashed canonical key, lower, upper), sorted by key.
    book: Vec<(u64, i8, i8)>,
    /// Most stones of a book position (no lookups beyond).
    book_moves: u32,
    /// Column stride (rows + 1) when the line test may use constant shifts (connect 4 with
    /// room in the word), else 0.
    stride4: u32,
    /// Positions being searched by some thread of a parallel solve (ABDADA), if any.
    busy: Option<std::sync::Arc<parallel::Busy>>,
    /// In a parallel solve with [`SolverConfig::split_root`], the stone count of the root
    /// for a helper that searches the root moves from the second one on (`u32::MAX`: none).
    split_root: u32,
    /// Whether the CPU has the `popcnt` instruction (the search then runs a copy using it).
    popcnt: bool,
    /// Research counters of the ABDADA part of a parallel solve (empty without the
    /// `research` feature).
    counters: research::Counters,
    /// A second stop flag looked at with the clock: the caller's, while the main thread of
    /// a parallel solve searches on a clock whose own flag is the test's
    /// ([`parallel::ParallelSolver`]).
    outer_stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Narrows the score range `[min, max)` to the exact score (clamped to the range) by
/// null-window tests: `probe(med)` is a fail-soft search of the window `(med, med + 1)`, or
/// `None` when it was aborted. `rule` is [`SolverConfig::probe_rule`].
fn narrow_root(
    mut min: i32,
    mut max: i32,
    rule: u32,
    mut probe: impl FnMut(i32) -> Option<i32>,
) -> Option<i32> {
    let mut pass = 0;
    let mut last_high = false;
    while min < max {
        let med = choose_probe(min, max, rule, pass, last_high);
        let r = probe(med)?;
        last_high = r > med;
        if r <= med {
            max = r.max(min);
        } else {
            min = r.min(max);
        }
        pass += 1;
    }
    Some(min)
}

/// The null window [`narrow_root`] tests next in `[min, max)`: `pass` tests are done, the
/// last one failed high if `last_high`; `rule` is [`SolverConfig::probe_rule`].
fn choose_probe(min: i32, max: i32, rule: u32, pass: u32, last_high: bool) -> i32 {
    let mut med = min + (max - min) / 2;
    if rule == 2 && pass > 0 {
        // MTD(f): step from the last fail-soft bound.
        med = if last_high { min } else { max - 1 };
    } else if rule >= 1 && pass == 0 {
        // Win or not first: most hard positions are close to a draw.
        med = 0;
    } else if med <= 0 && min / 2 < med {
        // Probe near zero first: most positions are close to a draw, and a win or
        // loss is proven faster with a bound far from the true value.
        med = min / 2;
    } else if med >= 0 && max / 2 > med {
        med = max / 2;
    }
    med.clamp(min, max - 1)
}

/// The main table: the solver's own, or one shared by the threads of a parallel solve.
enum Table {
    Own(Tt),
    Shared(std::sync::Arc<Tt>),
}

impl Table {
    #[inline(always)]
    fn get(&self) -> &Tt {
        match self {
            Table::Own(t) => t,
            Table::Shared(t) => t,
        }
    }
}

/// A move found by [`Solver::best_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// Column to play (0-based).
    pub column: usize,
    /// Exact score of the position if `exact`, else its sign (-1 loss, 0 draw, 1 win).
    pub score: i32,
    /// Whether `score` is exact and `column` reaches it.
    pub exact: bool,
}

/// Whether playing `col` lets the opponent win with the next stone (or is illegal).
pub fn loses_at_once<B: Bits>(board: &Board<B>, col: usize) -> bool {
    let mut child = *board;
    child.play(col).is_err()
        || child
            .legal_moves()
            .iter()
            .any(|&o| child.is_winning_move(o))
}

/// Score when the side to move wins with its next stone, `moves` stones being down.
#[inline(always)]
fn win_now(cells: u32, moves: u32) -> i32 {
    (cells as i32 + 1 - moves as i32) / 2
}

impl<B: Bits> Solver<B> {
    /// Whether the second stop flag ([`Self::outer_stop`]) is set (read with the clock only).
    #[inline(always)]
    fn outer_stopped(&self) -> bool {
        self.outer_stop
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// A solver for `geo` with a fresh table.
    pub fn new(geo: Geometry<B>, config: SolverConfig) -> Self {
        let w = geo.columns();
        let mut order: Vec<usize> = (0..w).collect();
        // Centre first, then alternating outwards (left of centre before right).
        order.sort_by_key(|&c| ((2 * c as i64 - (w as i64 - 1)).abs(), c));
        let column_masks = (0..w).map(|c| geo.column_mask(c)).collect();
        let good_rows = [parity_rows(&geo, 0), parity_rows(&geo, 1)];
        let h1 = geo.rows() as u32 + 1;
        let stride4 = if geo.connect() == 4 && 3 * (h1 + 1) < B::BITS {
            h1
        } else {
            0
        };
        #[cfg(target_arch = "x86_64")]
        let popcnt = std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2");
        #[cfg(not(target_arch = "x86_64"))]
        let popcnt = false;
        // Position keys have columns × (rows + 1) bits; wider ones are hashed to 64.
        let key_bits = (w * (geo.rows() + 1)).min(64) as u32;
        Self {
            busy: None,
            outer_stop: None,
            counters: research::Counters::new(),
            split_root: u32::MAX,
            popcnt,
            stride4,
            good_rows,
            history: vec![0; 2 * B::BITS as usize],
            tt: Table::Own(if config.grow_table {
                Tt::new(config.hash_mb, key_bits)
            } else {
                Tt::new_full(config.hash_mb, key_bits)
            }),
            near: Tt::with_bytes(config.near_kb << 10, key_bits),
            geo,
            config,
            nodes: 0,
            node_limit: u64::MAX,
            aborted: false,
            tc: TimeControl::infinite(),
            order,
            column_masks,
            book: Vec::new(),
            book_moves: 0,
        }
    }

    /// Consults `book` (if any) at every node with at most as many stones as its deepest
    /// position: an entry's exact score, or its win / draw / loss sign, bounds the node
    /// without search. The book must be for this geometry (it is made by this solver).
    pub fn set_book(&mut self, book: Option<&crate::book::Book>) {
        self.book.clear();
        self.book_moves = 0;
        let Some(book) = book else { return };
        let h1 = self.geo.rows() as u32 + 1;
        let (lo, hi) = self.score_range(0);
        for (&key, e) in book.entries() {
            let stones: u32 = (0..self.geo.columns() as u32)
                .map(|c| {
                    // A column of `k` stones holds a key in [2^k - 1, 2^(k+1) - 2].
                    let seg = key.checked_shr(c * h1).unwrap_or(0) & ((1 << h1) - 1);
                    63 - (seg + 1).leading_zeros()
                })
                .sum();
            // Keys of boards up to 64 bits hash the same in `u64` and `u128`.
            let hashed = <u128 as Bits>::hash64(key as u128);
            let s = e.score as i32;
            let (l, u) = if e.flags & crate::book::EXACT != 0 || s == 0 {
                (s, s)
            } else if s > 0 {
                (1, hi)
            } else {
                (lo, -1)
            };
            self.book.push((hashed, l as i8, u as i8));
            self.book_moves = self.book_moves.max(stones);
        }
        self.book.sort_unstable();
        self.book_moves = self.book_moves.min(self.config.symmetry_max_moves);
    }

    /// The geometry solved.
    pub fn geometry(&self) -> &Geometry<B> {
        &self.geo
    }

    /// The configuration in use.
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// Nodes searched since the last [`Self::reset_nodes`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Sets the node counter to zero.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// Makes searches fail (return `None`) once the node counter reaches `limit`; `None`
    /// removes the limit. Unlike a clock this is reproducible.
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_limit = limit.unwrap_or(u64::MAX);
    }

    /// The node limit set by [`Self::set_node_limit`], if any.
    pub fn node_limit(&self) -> Option<u64> {
        (self.node_limit != u64::MAX).then_some(self.node_limit)
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        match &mut self.tt {
            Table::Own(t) => t.clear(),
            Table::Shared(t) => t.clear_shared(),
        }
        self.near.clear();
    }

    /// Range of possible scores `(min, max)` of a position with `moves` stones down.
    pub fn score_range(&self, moves: u32) -> (i32, i32) {
        let cells = self.geo.cells();
        (-((cells as i32 - moves as i32) / 2), win_now(cells, moves))
    }

    /// The exact score of `board` (side to move's view), or `None` when `tc` ran out first.
    pub fn solve(&mut self, board: &Board<B>, tc: &TimeControl) -> Option<i32> {
        let (lo, hi) = self.score_range(board.moves_played() as u32);
        self.solve_window(board, lo, hi, tc)
    }

    /// The score of `board` clamped to `[lo, hi]`: exact inside, a bound at the ends
    /// (`solve_window(b, -1, 1)` is the weak solve: win, draw or loss).
    pub fn solve_window(
        &mut self,
        board: &Board<B>,
        lo: i32,
        hi: i32,
        tc: &TimeControl,
    ) -> Option<i32> {
        let (cur, mask, moves, min, max) = match self.root_window(board, lo, hi) {
            Ok(w) => w,
            Err(score) => return Some(score),
        };
        self.tc = tc.clone();
        self.aborted = false;
        narrow_root(min, max, self.config.probe_rule, |med| {
            let r = self.negamax(cur, mask, moves, med, med + 1);
            (!self.aborted).then_some(r)
        })
    }

    /// The root of a solve: `Err(score)` when `board` is decided without search (game over,
    /// an immediate win, an empty window), else its bitboards, stones and the score range
    /// `(min, max)` to narrow, inside `[lo, hi]`.
    #[allow(clippy::type_complexity)]
    fn root_window(
        &self,
        board: &Board<B>,
        lo: i32,
        hi: i32,
    ) -> Result<(B, B, u32, i32, i32), i32> {
        if board.is_over() {
            // The side to move has lost to the last stone, or the board is full.
            let score = match board.winner() {
                Some(_) => -win_now(self.geo.cells(), board.moves_played() as u32 - 1),
                None => 0,
            };
            return Err(score.clamp(lo, hi));
        }
        let (cur, mask) = board.bitboards();
        let moves = board.moves_played() as u32;
        let cells = self.geo.cells();
        if self.geo.winning_cells(cur, mask) & self.geo.possible(mask) != B::ZERO {
            return Err(win_now(cells, moves).clamp(lo, hi));
        }
        let (min0, max0) = self.score_range(moves);
        let (min, max) = (min0.max(lo), max0.min(hi));
        if min >= max {
            return Err(min);
        }
        Ok((cur, mask, moves, min, max))
    }

    /// Whether the side to move scores at least `target` (`None` when `tc` ran out).
    pub fn at_least(&mut self, board: &Board<B>, target: i32, tc: &TimeControl) -> Option<bool> {
        prover::Prover::at_least(self, board, target, tc)
    }

    /// The score of playing `col` now, from the mover's view (`None` on time-out).
    pub fn score_move(&mut self, board: &Board<B>, col: usize, tc: &TimeControl) -> Option<i32> {
        if board.is_winning_move(col) {
            return Some(win_now(self.geo.cells(), board.moves_played() as u32));
        }
        let mut child = *board;
        child.play(col).ok()?;
        self.solve(&child, tc).map(|s| -s)
    }

    /// Whether playing `col` now scores at least `target` for the mover.
    pub fn move_at_least(
        &mut self,
        board: &Board<B>,
        col: usize,
        target: i32,
        tc: &TimeControl,
    ) -> Option<bool> {
        prover::Prover::move_at_least(self, board, col, target, tc)
    }

    /// A perfect move: one keeping the win / draw / loss value (weak solve within `weak_tc`),
    /// refined within `exact_tc` to the exact score and the move reaching it (fastest win,
    /// slowest loss). `None` when not even the weak part finished; `exact` tells which one
    /// the result is. The board must have a legal move.
    pub fn best_move(
        &mut self,
        board: &Board<B>,
        weak_tc: &TimeControl,
        exact_tc: &TimeControl,
    ) -> Option<BestMove> {
        let order = self.ordered_moves(board);
        let first = *order.first()?;
        // 1. Weak value, then a move reaching it.
        let v = self.solve_window(board, -1, 1, weak_tc)?;
        let order = self.ordered_moves(board);
        let mut weak = None;
        if v < 0 {
            // Lost anyway: any move keeps the value; prefer one that does not lose at once.
            let c = order
                .iter()
                .copied()
                .find(|&c| !loses_at_once(board, c))
                .unwrap_or(first);
            weak = Some(BestMove {
                column: c,
                score: v,
                exact: false,
            });
        } else {
            for &c in &order {
                if self.move_at_least(board, c, v, weak_tc)? {
                    weak = Some(BestMove {
                        column: c,
                        score: v,
                        exact: false,
                    });
                    break;
                }
            }
        }
        let weak = weak?;
        // 2. Exact score and the move reaching it.
        let mut exact = || {
            let s = self.solve(board, exact_tc)?;
            for c in self.ordered_moves(board) {
                if self.move_at_least(board, c, s, exact_tc)? {
                    return Some(BestMove {
                        column: c,
                        score: s,
                        exact: true,
                    });
                }
            }
            None
        };
        Some(exact().unwrap_or(weak))
    }

    /// Bounds `(lower, upper)` on the score of `board` (side to move's view) that finished
    /// searches left in the table, if it holds the position. Used to carry proven facts about
    /// root moves across aborted searches, moves and pondering.
    pub fn probe_bounds(&self, board: &Board<B>) -> Option<(i32, i32)> {
        let (cur, mask) = board.bitboards();
        let moves = board.moves_played() as u32;
        let e = self
            .table(moves)
            .probe(self.tt_key(cur, mask, moves).0, moves)?;
        let (lo, hi) = self.score_range(moves);
        Some(((e.lower as i32).max(lo), (e.upper as i32).min(hi)))
    }

    /// Legal columns of `board` in the solver's preferred order (best guess first).
    pub fn ordered_moves(&self, board: &Board<B>) -> Vec<usize> {
        let (cur, mask) = board.bitboards();
        let possible = self.geo.possible(mask);
        let mut v: Vec<(i32, usize)> = self
            .order
            .iter()
            .enumerate()
            .filter(|&(_, &c)| possible & self.column_masks[c] != B::ZERO)
            .map(|(i, &c)| {
                let m = possible & self.column_masks[c];
                let threats = self.geo.winning_cells(cur | m, mask | m).popcount() as i32;
                (-(threats * 64) + i as i32, c)
            })
            .collect();
        v.sort();
        let mut order: Vec<usize> = v.into_iter().map(|(_, c)| c).collect();
        // The move that refuted a null window here last time goes first.
        let moves = board.moves_played() as u32;
        if let Some(e) = self
            .table(moves)
            .probe(self.tt_key(cur, mask, moves).0, moves)
        {
            if e.best != NO_MOVE {
                let mut best = e.best as usize;
                if self.tt_key(cur, mask, moves).1 {
                    best = self.geo.columns() - 1 - best;
                }
                if let Some(i) = order.iter().position(|&c| c == best) {
                    order[..=i].rotate_right(1);
                }
            }
        }
        order
    }
}
