//! Safe root search: the solver's weak solve done move by move at the root, so that an
//! aborted search still leaves proven facts about every root move.
//!
//! [`MoveBounds`] holds, per column, proven bounds on the score of playing it (mover's view).
//! It starts from what the transposition table already knows (earlier moves, pondering,
//! aborted searches — the solver stores only finished work) and is narrowed by every
//! null-window test [`solve_root`] finishes. When the budget runs out before the solve ends,
//! [`MoveBounds::candidates`] names the moves a fallback may still play: those reaching the
//! best proven bound, so that no move already shown worse is ever chosen.
//!
//! The search order is "secure, then improve": first a move keeping the value the caller
//! already knows the position has (e.g. from the opening book entry two plies earlier), then
//! draw-or-better, then a win. An abort therefore loses at most the improvement being tried,
//! never a value already proven.
//!
//! Everything here runs on any [`Prover`]: the serial solver, or the parallel one when the
//! engine has more than one thread ([`crate::Engine::with_threads`]); node caps and limits
//! are then in the main thread's nodes ([`crate::solver::prover`]).

use crate::bitboard::Bits;
use crate::board::Board;
use crate::solver::prover::Prover;
use crate::solver::{loses_at_once, BestMove};
use kibitz_search::time::TimeControl;

/// Proven bounds on the score of each root move, from the mover's view (spec §11 scores).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveBounds {
    /// Lower bound per column (`i32::MIN` for illegal columns).
    pub lo: Vec<i32>,
    /// Upper bound per column (`i32::MIN` for illegal columns).
    pub hi: Vec<i32>,
    /// Where an aborted [`solve_root`] stopped its widening rounds, so that a resumed solve
    /// goes on from there instead of starting again with the smallest cap (issue 39: a
    /// resume restarting at 16k nodes per move spent its whole share re-running rounds the
    /// table had mostly kept, and never reached the cap that proves the win).
    round: Option<Round>,
}

/// The state of the widening rounds of [`find_at_least`] when the budget ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Round {
    /// The score asked for.
    t: i32,
    /// The per-move node cap of the round.
    cap: u64,
    /// Moves already tested (and left open) at that cap in that round.
    tested: Vec<usize>,
}

impl MoveBounds {
    /// Bounds for the legal moves of `board` from the score range, immediate wins, moves that
    /// hand the opponent an immediate win, and the solver's table.
    pub fn new<B: Bits, P: Prover<B> + ?Sized>(solver: &P, board: &Board<B>) -> Self {
        let w = board.columns();
        let mut lo = vec![i32::MIN; w];
        let mut hi = vec![i32::MIN; w];
        let moves = board.moves_played() as u32;
        let (_, win_now) = solver.score_range(moves);
        for c in board.legal_moves() {
            if board.is_winning_move(c) {
                (lo[c], hi[c]) = (win_now, win_now);
                continue;
            }
            let mut child = *board;
            if child.play(c).is_err() {
                continue;
            }
            let (clo, chi) = solver.score_range(moves + 1);
            let (clo, chi) = solver
                .probe_bounds(&child)
                .map_or((clo, chi), |(l, h)| (l.max(clo), h.min(chi)));
            (lo[c], hi[c]) = (-chi, -clo);
            if loses_at_once(board, c) {
                // The opponent wins with its next stone: the worst score there is.
                let s = -solver.score_range(moves + 1).1;
                (lo[c], hi[c]) = (s, s);
            } else {
                // The opponent wins with its second stone at the earliest.
                lo[c] = lo[c].max(-solver.score_range(moves + 3).1);
            }
        }
        Self {
            lo,
            hi,
            round: None,
        }
    }

    /// Narrows the bounds with the opening book's value of each child position (the child's
    /// entry scores it for the opponent, exactly or by its sign): a cheap proof for every move
    /// leading into the book, so that the fallback never plays a move the book shows worse.
    /// Returns how many moves the book bounded.
    pub fn apply_book<B: Bits + Into<u128>>(
        &mut self,
        book: &crate::book::Book,
        board: &Board<B>,
    ) -> usize {
        let mut n = 0;
        for c in board.legal_moves() {
            let mut child = *board;
            if child.play(c).is_err() || child.is_over() || !self.is_legal(c) {
                continue;
            }
            let Some(e) = book.lookup(&child) else {
                continue;
            };
            let s = -(e.score as i32);
            let (lo, hi) = if e.flags & crate::book::EXACT != 0 || s == 0 {
                (s, s)
            } else if s > 0 {
                // The opponent loses: we win at least by the smallest margin.
                (1, i32::MAX)
            } else {
                (i32::MIN, -1)
            };
            // Keep the bounds consistent if a (wrong) book disagreed with proven facts.
            let (nlo, nhi) = (self.lo[c].max(lo), self.hi[c].min(hi));
            if nlo <= nhi {
                (self.lo[c], self.hi[c]) = (nlo, nhi);
                n += 1;
            }
        }
        n
    }

    /// Whether column `c` is a legal move.
    pub fn is_legal(&self, c: usize) -> bool {
        self.hi.get(c).is_some_and(|&h| h != i32::MIN)
    }

    /// Legal columns.
    pub fn legal(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.lo.len()).filter(|&c| self.is_legal(c))
    }

    /// The best proven lower bound over all moves (the value the position is known to have
    /// at least), or `None` without legal moves.
    pub fn best_proven(&self) -> Option<i32> {
        self.legal().map(|c| self.lo[c]).max()
    }

    /// Moves a fallback may play, given `known`, a lower bound on the position's value known
    /// from elsewhere. Judged by value (win / draw / loss: bounds clamped to [-1, 1]), so that
    /// a trivial bound such as "loses no sooner than in 17 stones" singles out no move:
    /// 1. the moves proven to reach the best proven value `W` (the larger of `known` and the
    ///    best move's); if none does (a wrong `known`), those not proven below `W`;
    /// 2. of those, the ones that may still be worth the most (largest upper bound by value),
    ///    so a move proven to lose is never preferred to one that is open;
    /// 3. none proven worse than another by the exact bounds (upper bound below another's
    ///    lower bound).
    ///
    /// A move outside could give away a value the finished search already secured.
    pub fn candidates(&self, known: Option<i32>) -> Vec<usize> {
        let value = |x: i32| x.clamp(-1, 1);
        let Some(best) = self.legal().map(|c| value(self.lo[c])).max() else {
            return Vec::new();
        };
        let w = known.map_or(best, |k| value(k).max(best));
        let mut set: Vec<usize> = self.legal().filter(|&c| value(self.lo[c]) >= w).collect();
        if set.is_empty() {
            set = self.legal().filter(|&c| self.hi[c] >= w).collect();
        }
        if set.is_empty() {
            // `known` was wrong: fall back to the proven facts alone.
            set = self
                .legal()
                .filter(|&c| value(self.lo[c]) >= best)
                .collect();
        }
        let top = set.iter().map(|&c| value(self.hi[c])).max();
        set.retain(|&c| Some(value(self.hi[c])) == top);
        let best_lo = set.iter().map(|&c| self.lo[c]).max();
        set.retain(|&c| Some(self.hi[c]) >= best_lo);
        set
    }

    /// Records that playing `c` scores at least `t` (`holds`) or at most `t - 1`.
    fn record(&mut self, c: usize, t: i32, holds: bool) {
        if holds {
            self.lo[c] = self.lo[c].max(t);
        } else {
            self.hi[c] = self.hi[c].min(t - 1);
        }
    }
}

/// First per-move node cap of the widening rounds in [`find_at_least`].
const FIRST_CAP: u64 = 16_384;

/// Finds a move scoring at least `t` among `order`, testing only moves not yet decided;
/// `Ok(None)` when every move is proven below `t`, `Err(())` when the budget ran out.
///
/// The tests run in widening rounds: every undecided move gets a node cap that grows 4× per
/// round, so cheap refutations and cheap proofs come first and an abort leaves as many moves
/// decided as possible. When `known` says the position scores at least `t`, the last move
/// not refuted is proven by elimination.
///
/// The rounds go on where `bounds` says an earlier call stopped: after an abort at the same
/// `t` (the resumed solve of [`crate::Engine`]) in the same round, skipping the moves that
/// round already tested; after a success at `t < 1`, the question `t + 1` starts at the cap
/// that succeeded. Both keep the rounds from starting again at [`FIRST_CAP`]: the table
/// keeps only finished subtrees, so the small rounds would mostly repeat work, and the
/// share of the budget they take is what a harder move's proof needed.
fn find_at_least<B: Bits, P: Prover<B> + ?Sized>(
    solver: &mut P,
    board: &Board<B>,
    order: &[usize],
    bounds: &mut MoveBounds,
    t: i32,
    known: bool,
    tc: &TimeControl,
) -> Result<Option<usize>, ()> {
    let global = solver.node_limit();
    // Go on from the round an earlier, aborted call stopped in, if it asked the same.
    let (mut cap, mut skip) = match bounds.round.take_if(|r| r.t == t) {
        Some(r) => (r.cap, r.tested),
        None => (FIRST_CAP, Vec::new()),
    };
    let result = loop {
        if let Some(&c) = order.iter().find(|&&c| bounds.lo[c] >= t) {
            break Ok(Some(c));
        }
        let open: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&c| bounds.hi[c] >= t)
            .collect();
        match open[..] {
            [] => break Ok(None),
            [c] if known => {
                bounds.record(c, t, true);
                break Ok(Some(c));
            }
            _ => {}
        }
        let last_round = open.len() == 1;
        let mut decided = None;
        let mut tested = Vec::new();
        for &c in &open {
            if skip.contains(&c) && !last_round {
                tested.push(c);
                continue;
            }
            let limit = if last_round {
                global
            } else {
                Some(
                    solver
                        .nodes()
                        .saturating_add(cap)
                        .min(global.unwrap_or(u64::MAX)),
                )
            };
            solver.set_node_limit(limit);
            let r = solver.move_at_least(board, c, t, tc);
            solver.set_node_limit(global);
            match r {
                Some(holds) => {
                    bounds.record(c, t, holds);
                    if holds {
                        decided = Some(c);
                        break;
                    }
                }
                None if tc.hard_expired()
                    || global.is_some_and(|g| solver.nodes() >= g)
                    || last_round =>
                {
                    bounds.round = Some(Round { t, cap, tested });
                    return Err(());
                }
                None => tested.push(c),
            }
        }
        skip.clear();
        if let Some(c) = decided {
            if t < 1 {
                // The next question (a win, once a draw is secured) starts at this cap:
                // the moves are as hard to decide for it, and the small rounds again would
                // spend the rest of the budget (issue 39: `427761773521` kept its win so).
                bounds.round = Some(Round {
                    t: t + 1,
                    cap,
                    tested: Vec::new(),
                });
            }
            break Ok(Some(c));
        }
        cap = cap.saturating_mul(4);
    };
    result
}

/// Cheap proofs before a heuristic pick (issue 39): when the solve of the root ran out of
/// budget with several `candidates` left, each of them gets a null-window test at the value
/// just above the best proven one `w` (clamped to loss / draw / win): "does it avoid the
/// loss" when no move is proven to draw, "does it win" when one is; once a move reaches
/// the step, the next one is tried with what is left. All tests of a step share out the
/// rest of `nodes` equally (the table keeps what the root solve finished, so a test goes on
/// where that one stopped), in the solver's move order. A move proven to reach `w + 1`
/// then leads the candidates, one proven below stays out while another is open
/// ([`MoveBounds::candidates`]). Stops at `tc`'s deadline; the solver's node limit is
/// restored. Returns the number of tests that finished.
pub fn cheap_proofs<B: Bits, P: Prover<B> + ?Sized>(
    solver: &mut P,
    board: &Board<B>,
    bounds: &mut MoveBounds,
    candidates: &[usize],
    nodes: u64,
    tc: &TimeControl,
) -> usize {
    let value = |x: i32| x.clamp(-1, 1);
    let Some(w) = bounds.legal().map(|c| value(bounds.lo[c])).max() else {
        return 0;
    };
    if candidates.len() < 2 {
        return 0;
    }
    let global = solver.node_limit();
    let end = solver.nodes().saturating_add(nodes);
    let order = solver.ordered_moves(board);
    let mut done = 0;
    let mut t = w + 1;
    'steps: while t <= 1 {
        let open: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&c| candidates.contains(&c) && bounds.lo[c] < t && bounds.hi[c] >= t)
            .collect();
        if open.is_empty() {
            break;
        }
        let cap = (end.saturating_sub(solver.nodes()) / open.len() as u64).max(1);
        let mut reached = false;
        for c in open {
            if tc.hard_expired() || solver.nodes() >= end {
                break 'steps;
            }
            solver.set_node_limit(Some(solver.nodes().saturating_add(cap).min(end)));
            if let Some(holds) = solver.move_at_least(board, c, t, tc) {
                bounds.record(c, t, holds);
                done += 1;
                if holds {
                    reached = true;
                    break;
                }
            }
        }
        if !reached {
            break;
        }
        t += 1;
    }
    solver.set_node_limit(global);
    done
}

/// A perfect move for `board` like [`crate::Solver::best_move`], narrowing `bounds` (made by
/// [`MoveBounds::new`]) with every finished test so that the caller can fall back safely
/// when this returns `None` (budget spent before the weak value and a move keeping it were
/// proven).
///
/// `known` is a lower bound on the position's value already known to the caller (e.g. the
/// book's value two plies earlier); the search first secures it. With `weak_tc` the weak
/// value (win / draw / loss) and a move keeping it are found; with `exact_tc` the result is
/// refined to the exact score and the move reaching it (fastest win, slowest loss).
pub fn solve_root<B: Bits, P: Prover<B> + ?Sized>(
    solver: &mut P,
    board: &Board<B>,
    bounds: &mut MoveBounds,
    known: Option<i32>,
    weak_tc: &TimeControl,
    exact_tc: &TimeControl,
) -> Option<BestMove> {
    let order = solver.ordered_moves(board);
    solve_root_in_order(solver, board, bounds, known, &order, weak_tc, exact_tc)
}

/// [`solve_root`] whose weak solve tries the root moves in `order` (every legal move, e.g.
/// ranked by an evaluation) instead of the solver's static order: the move tested first
/// in each widening round is the one most likely proven within the budget.
pub fn solve_root_in_order<B: Bits, P: Prover<B> + ?Sized>(
    solver: &mut P,
    board: &Board<B>,
    bounds: &mut MoveBounds,
    known: Option<i32>,
    order: &[usize],
    weak_tc: &TimeControl,
    exact_tc: &TimeControl,
) -> Option<BestMove> {
    let first = *order.first()?;
    // Weak value: secure the known value, then improve one step at a time (draw, win).
    let start = known.map_or(0, |k| k.signum()).max(0);
    let mut weak: Option<BestMove> = None;
    let mut t = start;
    loop {
        match find_at_least(
            solver,
            board,
            order,
            bounds,
            t,
            known.is_some_and(|k| k >= t),
            weak_tc,
        ) {
            Err(()) => return None,
            Ok(Some(c)) => {
                weak = Some(BestMove {
                    column: c,
                    score: t,
                    exact: false,
                });
                if t >= 1 {
                    break;
                }
                t += 1;
            }
            // A wrong `known` bound: look lower instead of calling the position lost.
            Ok(None) if weak.is_none() && t > 0 => t -= 1,
            Ok(None) => break,
        }
    }
    let weak = match weak {
        Some(w) => w,
        None => {
            // Lost whatever we do (or the known bound was wrong and nothing draws): keep the
            // game going as long as possible; prefer a move that does not lose at once.
            let c = order
                .iter()
                .rev()
                .copied()
                .max_by_key(|&c| (bounds.hi[c], !loses_at_once(board, c)))
                .unwrap_or(first);
            BestMove {
                column: c,
                score: -1,
                exact: false,
            }
        }
    };
    // Exact score and a move reaching it.
    let Some(s) = solver.solve(board, exact_tc) else {
        return Some(weak);
    };
    let order = solver.ordered_moves(board);
    match find_at_least(solver, board, &order, bounds, s, true, exact_tc) {
        Ok(Some(c)) => Some(BestMove {
            column: c,
            score: s,
            exact: true,
        }),
        _ => Some(weak),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::solver::{Solver, SolverConfig};

    fn solver() -> Solver<u64> {
        Solver::new(
            Geometry::new(7, 6, 4).unwrap(),
            SolverConfig {
                hash_mb: 8,
                ..Default::default()
            },
        )
    }

    #[test]
    fn bounds_see_immediate_wins_and_blunders() {
        let s = solver();
        // First player has three in column 1: playing column 1 wins, the second player to
        // move after "1212 12" must block.
        let b = Board::<u64>::from_digits(7, 6, 4, "12121").unwrap();
        let mb = MoveBounds::new(&s, &b);
        // The second player must play column 1; everything else loses at once.
        assert_eq!(mb.candidates(None), vec![0]);
        assert!(mb.legal().all(|c| c == 0 || mb.hi[c] < mb.lo[0]));
    }

    #[test]
    fn candidates_judge_by_value_not_by_trivial_bounds() {
        // Nothing proven but a trivial "loses no sooner" bound that differs by one stone:
        // every open move stays a candidate (before, column 2 alone was played).
        let mut mb = MoveBounds {
            lo: vec![-17, -17, -16, -17],
            hi: vec![18, 18, 18, 18],
            round: None,
        };
        assert_eq!(mb.candidates(None), vec![0, 1, 2, 3]);
        // A proven loss is dropped while other moves are open.
        mb.hi[1] = -1;
        assert_eq!(mb.candidates(None), vec![0, 2, 3]);
        // A proven draw is kept over open moves (it is never given away).
        mb.lo[3] = 0;
        assert_eq!(mb.candidates(None), vec![3]);
        // A known win with no move proven to reach it: the moves not proven below it.
        mb.hi[0] = 0;
        assert_eq!(mb.candidates(Some(1)), vec![2, 3]);
        // All lost: the slowest loss is not excluded.
        let mb = MoveBounds {
            lo: vec![-5, -9],
            hi: vec![-5, -9],
            round: None,
        };
        assert_eq!(mb.candidates(None), vec![0]);
    }

    #[test]
    fn book_values_of_children_are_bounds() {
        let s = solver();
        // "54" is outside the book (the bot opens 4) but every child is in it.
        let b = Board::<u64>::from_digits(7, 6, 4, "54").unwrap();
        let book = crate::book::Book::embedded();
        let mut mb = MoveBounds::new(&s, &b);
        assert_eq!(mb.apply_book(&book, &b), 7);
        for c in 0..7 {
            let mut child = b;
            child.play(c).unwrap();
            let v = -(book.lookup(&child).unwrap().score as i32).signum();
            assert!(
                mb.lo[c].signum() == v || mb.hi[c].signum() == v,
                "column {c}"
            );
            assert!(mb.lo[c] <= mb.hi[c]);
        }
        let best = mb.best_proven().unwrap();
        assert!(mb.candidates(None).iter().all(|&c| mb.lo[c] >= best));
    }

    #[test]
    fn finds_perfect_moves_and_keeps_proofs() {
        let mut s = solver();
        let b = Board::<u64>::from_digits(7, 6, 4, "2541266355551").unwrap();
        let mut mb = MoveBounds::new(&s, &b);
        let inf = TimeControl::infinite();
        let m = solve_root(&mut s, &b, &mut mb, None, &inf, &inf).unwrap();
        assert!(m.exact);
        let exact = s.solve(&b, &inf).unwrap();
        assert_eq!(m.score, exact);
        assert_eq!(s.score_move(&b, m.column, &inf), Some(exact));
        // Every recorded bound is true.
        for c in mb.legal().collect::<Vec<_>>() {
            let v = s.score_move(&b, c, &inf).unwrap();
            assert!(
                mb.lo[c] <= v && v <= mb.hi[c],
                "column {c}: {v} not in bounds"
            );
        }
    }

    #[test]
    fn cheap_proofs_single_out_a_proven_move_and_keep_bounds_true() {
        // Audit position 57625421343 (issue 39): at 200k nodes the root solve proves only a
        // draw (column 4); column 3 wins. Cheap proofs with room enough settle it.
        let b = Board::<u64>::from_digits(7, 6, 4, "57625421343").unwrap();
        let inf = TimeControl::infinite();
        let mut s = solver();
        s.set_node_limit(Some(20_000));
        let mut mb = MoveBounds::new(&s, &b);
        assert!(solve_root(&mut s, &b, &mut mb, None, &inf, &inf).is_none());
        let before = mb.candidates(None);
        assert!(before.len() > 1, "{before:?}");
        s.set_node_limit(Some(s.nodes()));
        let done = cheap_proofs(&mut s, &b, &mut mb, &before, 5_000_000, &inf);
        assert!(done > 0);
        // The node limit of the caller is restored.
        assert!(s.node_limit().is_some_and(|l| l < s.nodes()));
        let after = mb.candidates(None);
        let mut oracle = solver();
        for c in mb.legal().collect::<Vec<_>>() {
            let v = oracle.score_move(&b, c, &inf).unwrap();
            assert!(mb.lo[c] <= v && v <= mb.hi[c], "column {c}: {v}");
        }
        let best = after
            .iter()
            .map(|&c| oracle.score_move(&b, c, &inf).unwrap().signum())
            .min();
        assert_eq!(best, Some(1), "{after:?} all win");
    }
}
