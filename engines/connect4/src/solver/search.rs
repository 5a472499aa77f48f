//! The solver's search proper: null-window negamax with the table, the opening book,
//! exact next-stone wins, move ordering and enhanced transposition cutoffs.

use super::{Solver, NO_MOVE};
use crate::bitboard::Bits;
use crate::geometry::lines4;
use crate::tt::Tt;
use std::mem::MaybeUninit;

mod moves;
use moves::MoveList;

/// Table size (in use) from which children's buckets are prefetched: beyond the L2 cache.
const PREFETCH_MIN_BYTES: usize = 2 << 20;

impl<B: Bits> Solver<B> {
    /// [`crate::Geometry::winning_cells`], with the column stride a constant for boards of 6
    /// and 7 rows (connect 4): every shift becomes an immediate, and the line test is most of
    /// the work per node.
    #[inline(always)]
    pub(super) fn wins(&self, stones: B, mask: B) -> B {
        let empty = self.geo.full() ^ mask;
        match self.stride4 {
            7 => lines4(stones, 7) & empty,
            8 => lines4(stones, 8) & empty,
            _ => self.geo.winning_cells(stones, mask),
        }
    }

    /// The table holding positions with `moves` stones down.
    #[inline(always)]
    pub(super) fn table(&self, moves: u32) -> &Tt {
        if self.geo.cells() - moves < self.config.near_empty {
            &self.near
        } else {
            self.tt.get()
        }
    }

    /// The table key of a position and whether it was mirrored.
    #[inline(always)]
    pub(super) fn tt_key(&self, cur: B, mask: B, moves: u32) -> (u64, bool) {
        let k = self.geo.key(cur, mask);
        if moves <= self.config.symmetry_max_moves {
            // `cur + mask` never carries from one column into the next, so the mirror of
            // the key is the key of the mirror.
            let m = self.geo.mirror(k);
            if m < k {
                return (m.hash64(), true);
            }
        }
        (k.hash64(), false)
    }

    /// Null-window-friendly negamax. Precondition: the side to move cannot win at once and
    /// the board is not full. Returns a bound in the usual fail-soft sense.
    ///
    /// Runs the copy of the search compiled with the `popcnt` instruction when the CPU has
    /// it: the workspace builds for baseline x86-64, where counting the bits of a word (the
    /// threat counts of the move ordering, twice per move) is a dozen instructions.
    ///
    /// A parallel solve's nodes near the root (ABDADA, [`SolverConfig::abdada_min_empty`])
    /// run a copy of their own (`SHARED`), so the copy every other node runs, the serial
    /// solver's included, is compiled as if there were no busy set: issue 39, the ABDADA
    /// code in the one copy cost the serial search 7-13 % wall time for no extra node.
    ///
    /// [`SolverConfig::abdada_min_empty`]: super::SolverConfig::abdada_min_empty
    pub(super) fn negamax(&mut self, cur: B, mask: B, moves: u32, alpha: i32, beta: i32) -> i32 {
        let opp_win = self.wins(cur ^ mask, mask);
        if self.shared_at(moves) {
            self.recurse::<true, true>(cur, mask, moves, alpha, beta, opp_win)
        } else {
            self.recurse::<true, false>(cur, mask, moves, alpha, beta, opp_win)
        }
    }

    /// Whether a node with `moves` stones runs the ABDADA copy of the search (a parallel
    /// solve, near the root).
    #[inline(always)]
    fn shared_at(&self, moves: u32) -> bool {
        self.busy.is_some() && self.geo.cells() - moves >= self.config.abdada_min_empty
    }

    /// Calls the search of a child: the `popcnt` copy if `FAST` and the CPU has it, else the
    /// portable one. A copy only ever calls itself, so the check is made once per search.
    #[inline(always)]
    fn recurse<const FAST: bool, const SHARED: bool>(
        &mut self,
        cur: B,
        mask: B,
        moves: u32,
        alpha: i32,
        beta: i32,
        opp_win: B,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if FAST && self.popcnt {
            // SAFETY: `self.popcnt` is set only when the CPU has the instruction.
            return unsafe {
                self.negamax_popcnt::<SHARED>(cur, mask, moves, alpha, beta, opp_win)
            };
        }
        self.negamax_portable::<SHARED>(cur, mask, moves, alpha, beta, opp_win)
    }

    /// [`Self::negamax_body`] compiled with `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    fn negamax_popcnt<const SHARED: bool>(
        &mut self,
        cur: B,
        mask: B,
        moves: u32,
        alpha: i32,
        beta: i32,
        opp_win: B,
    ) -> i32 {
        self.negamax_body::<true, SHARED>(cur, mask, moves, alpha, beta, opp_win)
    }

    /// [`Self::negamax_body`] for any CPU.
    fn negamax_portable<const SHARED: bool>(
        &mut self,
        cur: B,
        mask: B,
        moves: u32,
        alpha: i32,
        beta: i32,
        opp_win: B,
    ) -> i32 {
        self.negamax_body::<false, SHARED>(cur, mask, moves, alpha, beta, opp_win)
    }

    /// The search of one node (see [`Self::negamax`]); `FAST` tells which copy recurses,
    /// `SHARED` whether this is the ABDADA copy (only for [`Self::shared_at`] nodes).
    /// `opp_win` is the opponent's [`Self::wins`]: the parent computed it for the move that
    /// led here (the line test is most of the work of a node; no need to make it twice).
    #[inline(always)]
    fn negamax_body<const FAST: bool, const SHARED: bool>(
        &mut self,
        cur: B,
        mask: B,
        moves: u32,
        mut alpha: i32,
        mut beta: i32,
        opp_win: B,
    ) -> i32 {
        // 0. Count the node; poll the clock now and then.
        self.nodes += 1;
        if self.nodes & (self.config.check_every - 1) == 0
            && (self.tc.hard_expired() || self.nodes >= self.node_limit || self.outer_stopped())
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let geo = self.geo;
        let cells = geo.cells();
        // 1. Non-losing moves: answer a single threat, never play below an opponent's threat.
        let possible = geo.possible(mask);
        let forced = possible & opp_win;
        let mut next = possible;
        if forced != B::ZERO {
            if forced & forced.wrapping_dec() != B::ZERO {
                return -((cells - moves) as i32 / 2); // two threats: lost next move
            }
            next = forced;
        }
        next &= !(opp_win >> 1);
        if next == B::ZERO {
            return -((cells - moves) as i32 / 2);
        }
        if moves + 2 >= cells {
            return 0;
        }
        // 2. Bounds from the moves left: the opponent cannot win next move, we cannot now.
        let min = -((cells - 2 - moves) as i32 / 2);
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let max = (cells - 1 - moves) as i32 / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        // 2a. The opening book, for positions it can hold (their table key is canonical).
        if moves <= self.book_moves {
            let key = self.tt_key(cur, mask, moves).0;
            if let Ok(i) = self.book.binary_search_by_key(&key, |e| e.0) {
                let (l, u) = (self.book[i].1 as i32, self.book[i].2 as i32);
                if let Some(score) = narrow(&mut alpha, &mut beta, l, u) {
                    return score;
                }
            }
        }
        // 2b. Wins with the next own stone, decided exactly without search: after our move
        //     `m` (the opponent has no immediate win then), let `w` be the cells completing
        //     a line of ours and `p` the playable cells. Two playable line cells cannot both
        //     be blocked; one is blocked, but wins if the cell above it completes a line too;
        //     none wins only if every opponent move fills the cell below a line cell. If no
        //     move wins that way, the earliest win is one own stone later.
        //     The same loop scores the moves for ordering (step 4): threats created (those
        //     on rows favouring the mover count extra, see `shape` for the cell above the
        //     move), then centre first.
        let mut list = MoveList::new();
        // The line test of each move's child, by column (only the columns of `list` set).
        let mut child_wins = [MaybeUninit::<B>::uninit(); 64];
        let side = (moves & 1) as usize * B::BITS as usize;
        let pw = self.config.parity_weight as u64;
        let odd_rows = self.good_rows[(moves & 1) as usize];
        for (i, &c) in self.order.iter().enumerate() {
            let m = next & self.column_masks[c];
            if m == B::ZERO {
                continue;
            }
            let w = self.wins(cur | m, mask | m);
            child_wins[c].write(w);
            let p = geo.possible(mask | m);
            let a = w & p;
            if self.config.next_win_bound {
                let wins = if a == B::ZERO {
                    p != B::ZERO && (p << 1) & !w == B::ZERO
                } else {
                    a & a.wrapping_dec() != B::ZERO || (a << 1) & w != B::ZERO
                };
                if wins {
                    return max;
                }
            }
            let good = (w & odd_rows).popcount() as u64;
            let h = if self.config.history {
                self.history[side + m.lowest() as usize] as u64
            } else {
                0
            };
            let forcing = (a != B::ZERO) as u64 * self.config.forcing_weight as u64;
            // The cell right above `m` completes a line of ours: the opponent answers there.
            // Either `m` made it by stacking three (a forcing move: a good try), or it was a
            // threat before (thrown away: a poor try).
            let above = (m << 1) & w != B::ZERO;
            let stacked = above && m & (cur << 1) & (cur << 2) != B::ZERO;
            let keep = self.config.keep_threat_weight as u64;
            let shape = if stacked {
                keep + self.config.stack_weight as u64
            } else if above {
                0
            } else {
                keep
            };
            let threat_score =
                (w.popcount() as u64 * 4 + good * pw + forcing + shape).min((1 << 20) - 1);
            list.insert((threat_score << 44) | (h << 12) | ((63 - i as u64) << 6) | c as u64);
        }
        if self.config.next_win_bound {
            let later = (cells as i32 - 3 - moves as i32) / 2;
            if beta > later {
                beta = later;
                if alpha >= beta {
                    return beta;
                }
            }
        }
        // 3. Probe the table (not right above the leaves, where a probe costs more than the
        //    few nodes it saves).
        let use_tt = cells - moves >= self.config.tt_min_empty;
        let (key, mirrored) = self.tt_key(cur, mask, moves);
        let mut tt_best = usize::MAX;
        if let Some(e) = if use_tt {
            self.table(moves).probe(key, moves)
        } else {
            None
        } {
            let (l, u) = (e.lower as i32, e.upper as i32);
            if let Some(score) = narrow(&mut alpha, &mut beta, l, u) {
                return score;
            }
            if e.best != NO_MOVE {
                tt_best = e.best as usize;
                if mirrored {
                    tt_best = geo.columns() - 1 - tt_best;
                }
            }
        }
        // 4. The table's move first, the rest as scored in step 2b.
        if tt_best != usize::MAX {
            list.move_to_front(tt_best);
        }
        // 5. Enhanced transposition cutoffs: a child already known to be bad enough for the
        //    opponent refutes this node without any search.
        //    All children's buckets are fetched first so that the misses overlap (the table
        //    is far bigger than the caches; a probe is a trip to memory).
        let child_cur = cur ^ mask;
        // Not zeroed (a memset per node cost more than the search step around it).
        let mut child_keys = [MaybeUninit::<u64>::uninit(); 64];
        //    While the table is small it sits in the caches and prefetching only costs.
        let prefetch = self.config.prefetch
            && cells - moves > self.config.tt_min_empty
            && self.table(moves + 1).bytes_in_use() >= PREFETCH_MIN_BYTES;
        if prefetch {
            for (i, c) in list.columns().enumerate() {
                let m = next & self.column_masks[c];
                let (ck, _) = self.tt_key(child_cur, mask | m, moves + 1);
                self.table(moves + 1).prefetch(ck);
                child_keys[i].write(ck);
            }
        }
        if cells - moves >= self.config.etc_min_empty {
            for (i, c) in list.columns().enumerate() {
                let m = next & self.column_masks[c];
                let ck = if prefetch {
                    // SAFETY: the prefetch loop above wrote a key for every entry of `list`.
                    unsafe { child_keys[i].assume_init() }
                } else {
                    self.tt_key(child_cur, mask | m, moves + 1).0
                };
                if let Some(e) = self.table(moves + 1).probe(ck, moves + 1) {
                    let s = -(e.upper as i32);
                    if s >= beta {
                        self.store(key, mirrored, moves, s, i32::MAX, c);
                        return s;
                    }
                }
            }
        }
        // 6. Search.
        let alpha0 = alpha;
        let mut best_col = NO_MOVE as usize;
        // One child: search it, return on a cutoff (7. store a lower bound and the refuting
        // move; remember it for ordering) or an abort, else raise alpha.
        macro_rules! search_child {
            ($c:expr, $m:expr) => {{
                let (c, m) = ($c, $m);
                // SAFETY: step 2b wrote the entry of every column in `list`.
                let w = unsafe { child_wins[c].assume_init() };
                let s = if SHARED && self.shared_at(moves + 1) {
                    -self.recurse::<FAST, true>(cur ^ mask, mask | m, moves + 1, -beta, -alpha, w)
                } else {
                    -self.recurse::<FAST, false>(cur ^ mask, mask | m, moves + 1, -beta, -alpha, w)
                };
                if self.aborted {
                    return 0;
                }
                if s >= beta {
                    self.store(key, mirrored, moves, s, i32::MAX, c);
                    if self.config.history {
                        let e = cells - moves;
                        let h = &mut self.history[side + m.lowest() as usize];
                        *h = (*h + e * e).min(1 << 30);
                    }
                    return s;
                }
                if s > alpha {
                    alpha = s;
                    best_col = c;
                }
            }};
        }
        match &self.busy {
            Some(b) if SHARED => {
                // A parallel solve near the root (big subtrees): a child another thread is
                // searching right now waits until the other moves are done (ABDADA); by
                // then its result is likely in the table.
                // SAFETY: `self.busy` is set only when the solver is made (never during a
                // search), and the `Arc` it holds keeps the paths alive meanwhile. Borrowing
                // through the pointer instead of cloning the `Arc` spares two atomic updates
                // of a count both threads write at every node here.
                let b: &super::parallel::Busy = unsafe { &*std::sync::Arc::as_ptr(b) };
                self.counters.busy_node(moves, key, self.nodes);
                // The first child is deferred too near the root when asked to.
                let first = if cells - moves < self.config.abdada_first_min_empty {
                    self.config.abdada_min_index as usize
                } else {
                    0
                };
                // Children by their index in `list` (one byte each: a small stack frame at
                // every node), their keys as the prefetch loop made them when it ran.
                let n = list.len();
                let rotate = moves == self.split_root && n > 1;
                let child_key = |s: &Self, i: usize, m: B| {
                    if prefetch {
                        // SAFETY: the prefetch loop wrote a key for every entry of `list`.
                        unsafe { child_keys[i].assume_init() }
                    } else {
                        s.tt_key(child_cur, mask | m, moves + 1).0
                    }
                };
                let mut deferred = arrayvec::ArrayVec::<u8, 64>::new();
                for j in 0..n {
                    // A helper splitting the root moves starts with the second one.
                    let i = if rotate { (j + 1) % n } else { j };
                    let c = list.column(i);
                    let m = next & self.column_masks[c];
                    let ck = child_key(self, i, m);
                    if b.is_busy(ck, moves + 1) {
                        self.counters.busy_child(j == 0, j >= first);
                        if j >= first {
                            deferred.push(i as u8);
                            continue;
                        }
                        self.counters.open_dup(moves + 1, ck, self.nodes);
                    }
                    b.enter(ck, moves + 1);
                    let guard = LeaveOnDrop(b, moves + 1);
                    search_child!(c, m);
                    drop(guard);
                    self.counters.left_child(moves + 1, ck, self.nodes);
                }
                for i in deferred {
                    let c = list.column(i as usize);
                    let m = next & self.column_masks[c];
                    let ck = child_key(self, i as usize, m);
                    if cfg!(feature = "research") && b.is_busy(ck, moves + 1) {
                        self.counters.open_dup(moves + 1, ck, self.nodes);
                    }
                    search_child!(c, m);
                    self.counters.left_child(moves + 1, ck, self.nodes);
                }
            }
            _ => {
                for c in list.columns() {
                    let m = next & self.column_masks[c];
                    search_child!(c, m);
                }
            }
        }
        // 8. Store: exact if alpha rose, else an upper bound.
        if alpha > alpha0 {
            self.store(key, mirrored, moves, alpha, alpha, best_col);
        } else {
            self.store(key, mirrored, moves, i32::MIN, alpha, NO_MOVE as usize);
        }
        alpha
    }

    #[inline(always)]
    fn store(&mut self, key: u64, mirrored: bool, moves: u32, lower: i32, upper: i32, col: usize) {
        if self.geo.cells() - moves < self.config.tt_min_empty {
            return;
        }
        let best = if col >= self.geo.columns() {
            NO_MOVE
        } else if mirrored {
            (self.geo.columns() - 1 - col) as u8
        } else {
            col as u8
        };
        let near = self.geo.cells() - moves < self.config.near_empty;
        match (near, &mut self.tt) {
            (true, _) => self.near.store(key, moves, lower, upper, best),
            (false, super::Table::Own(t)) => t.store(key, moves, lower, upper, best),
            (false, super::Table::Shared(t)) => t.store_shared(key, moves, lower, upper, best),
        }
    }
}

/// Unmarks the child this thread entered (by its stone count) however its search ends
/// (cutoff, abort).
struct LeaveOnDrop<'a>(&'a super::parallel::Busy, u32);

impl Drop for LeaveOnDrop<'_> {
    fn drop(&mut self) {
        self.0.leave(self.1);
    }
}

/// Narrows the window `(alpha, beta)` to proven bounds `[l, u]` (from the table or the book);
/// returns the score to cut off with when the window closes.
#[inline(always)]
fn narrow(alpha: &mut i32, beta: &mut i32, l: i32, u: i32) -> Option<i32> {
    if l > *alpha {
        *alpha = l;
        if *alpha >= *beta {
            return Some(*alpha);
        }
    }
    if u < *beta {
        *beta = u;
        if *alpha >= *beta {
            return Some(*beta);
        }
    }
    None
}

#[cfg(test)]
mod tests;
