//! Iterative-deepening negamax alpha-beta with PVS, a transposition table, killer and history
//! move ordering, and optional quiescence search, late-move reductions and null-move pruning;
//! root aspiration windows and threat extensions are off by default (Piranhas turns the
//! windows on).
//!
//! A game plugs in through [`Game`]. The search is copy-make (positions are small bitboard
//! structs), reads the clock only every [`SearchConfig::check_every`] nodes, and keeps its
//! transposition table, killers and history between calls so that a bot thinking move after
//! move (or on the opponent's time) reuses its work.

use crate::time::TimeControl;
use crate::tt::{Bound, Table, TranspositionTable};

mod game;
mod iteration;
mod knobs;
pub use game::{Game, Outcome};
pub use knobs::SearchKnobs;
use std::time::Duration;

/// A score in centi-units of the game's evaluation, from the side to move's view.
pub type Score = i32;
/// Larger than any score.
pub const INF: Score = 32_000;
/// The score of a win on the spot; a win in `n` plies scores `WIN - n`.
pub const WIN: Score = 31_000;
/// Size of the history table; [`Game::move_key`] must be below it.
pub const HISTORY_SIZE: usize = 1 << 14;
/// Deepest ply the search will reach (including quiescence).
pub const MAX_PLY: usize = 128;

/// Search switches and sizes; every field is a tunable.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Deepest iteration.
    pub max_depth: u32,
    /// Node budget (0 = none); exact, so results with it are reproducible.
    pub max_nodes: u64,
    /// Search noisy moves at the horizon.
    pub quiescence: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Null-move pruning (only where [`Game::null_move`] allows it).
    pub null_move: bool,
    /// Aspiration windows: from the second iteration on, the root is searched in a window of
    /// ± this many centi-units around the previous iteration's score, widened (doubling)
    /// on a fail; 0 = off (the default: every iteration uses the full window).
    pub aspiration: Score,
    /// Threat extensions: a move that creates a new [`Game::threats`] bit is searched one
    /// ply deeper (not beyond ply 2 × the iteration depth). Off by default.
    pub extensions: bool,
    /// Nodes between two reads of the clock.
    pub check_every: u64,
    /// Time management beyond "no new iteration after the soft budget": do not start an
    /// iteration predicted (from the last two) to end after the hard deadline, stretch the
    /// soft budget (up to 2×) while the best move changes or the score drops between
    /// iterations, and on a hard abort keep a root move that already beat the previous best.
    /// Off by default (Connect Four keeps the plain rule).
    pub smart_time: bool,
    /// Reduction sizes, history aging and time-stretch constants (named tunables).
    pub knobs: SearchKnobs,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            hash_mb: 64,
            max_depth: 64,
            max_nodes: 0,
            quiescence: true,
            lmr: true,
            null_move: true,
            aspiration: 0,
            extensions: false,
            check_every: 1024,
            smart_time: false,
            knobs: SearchKnobs::default(),
        }
    }
}

/// The result of a search (or of one completed iteration).
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The best move found; `None` only when the root has no legal move.
    pub best: Option<M>,
    /// Its score from the root side's view.
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes visited by the whole search so far.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<M>,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// An alpha-beta searcher; keep it between moves to reuse its tables.
///
/// `T` is the transposition table: the single-threaded [`TranspositionTable`] by default, or
/// a [`crate::tt::SharedTt`] handle for Lazy SMP, where several searchers (one per thread)
/// share one lock-free table ([`Searcher::with_table`]).
pub struct Searcher<G: Game, T: Table<G::Move> = TranspositionTable<<G as Game>::Move>> {
    config: SearchConfig,
    tt: T,
    killers: Vec<[G::Move; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<G::Move>>,
    buffers: Vec<Vec<G::Move>>,
    keys: Vec<Vec<i64>>,
    nodes: u64,
    aborted: bool,
    /// Depth the iterations start at (Lazy SMP helpers start one deeper to diverge).
    first_depth: u32,
    /// The best root move of the running iteration, once one has a full score.
    root_best: Option<(G::Move, Score)>,
    /// Depth of the running iteration (bounds the threat extensions).
    root_depth: u32,
}

impl<G: Game> Searcher<G> {
    /// A searcher with a freshly allocated transposition table.
    pub fn new(config: SearchConfig) -> Self {
        let tt = TranspositionTable::new(config.hash_mb);
        Searcher::with_table(config, tt)
    }
}

impl<G: Game, T: Table<G::Move>> Searcher<G, T> {
    /// A searcher using `tt` as its transposition table (`config.hash_mb` is not used).
    pub fn with_table(config: SearchConfig, tt: T) -> Self {
        Self {
            tt,
            killers: vec![[G::Move::default(); 2]; MAX_PLY + 1],
            history: vec![0; HISTORY_SIZE],
            pv: vec![Vec::new(); MAX_PLY + 1],
            buffers: vec![Vec::new(); MAX_PLY + 1],
            keys: vec![Vec::new(); MAX_PLY + 1],
            nodes: 0,
            aborted: false,
            first_depth: 1,
            root_best: None,
            root_depth: 1,
            config,
        }
    }

    /// Starts iterative deepening at `depth` (at least 1) instead of 1; Lazy SMP helpers
    /// use it so that the threads do not all search the same iteration.
    pub fn set_first_depth(&mut self, depth: u32) {
        self.first_depth = depth.max(1);
    }

    /// The configuration in use.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Forgets everything learnt (TT, killers, history).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers.fill([G::Move::default(); 2]);
        self.history.fill(0);
    }

    /// Nodes visited by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Iterative deepening from `root` until the soft budget, the depth or node limit, or a
    /// proven result; `on_iteration` sees every completed iteration.
    pub fn search(
        &mut self,
        root: &G,
        tc: &TimeControl,
        mut on_iteration: impl FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        self.nodes = 0;
        self.aborted = false;
        let keep = self.config.knobs.history_keep_div.max(1);
        for h in &mut self.history {
            *h /= keep;
        }
        let mut moves = Vec::new();
        root.moves(&mut moves);
        let mut result = SearchResult {
            best: moves.first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: moves.first().copied().into_iter().collect(),
            elapsed: tc.elapsed(),
        };
        if moves.is_empty() || root.outcome().is_some() {
            return result;
        }
        // A forced move needs no deliberation: one iteration gives its score.
        let max_depth = if moves.len() == 1 {
            1
        } else {
            self.config.max_depth.clamp(1, MAX_PLY as u32 - 1)
        };
        let smart = self.config.smart_time && tc.soft().is_some();
        // Smart time: durations of the last two completed iterations and the soft stretch.
        let (mut last_iter, mut prev_iter) = (Duration::ZERO, Duration::ZERO);
        let mut stretch = 1.0f64;
        let first = self.first_depth.min(max_depth);
        for depth in first..=max_depth {
            if depth > first {
                if smart {
                    if self.out_of_time(tc, stretch, last_iter, prev_iter) {
                        break;
                    }
                } else if tc.soft_expired() {
                    break;
                }
            }
            let started = tc.elapsed();
            self.root_best = None;
            self.root_depth = depth;
            let score = if self.config.aspiration > 0 && depth > first {
                self.aspirate(root, depth, result.score, tc)
            } else {
                self.negamax(root, depth, 0, -INF, INF, tc)
            };
            if self.aborted {
                // Keep a root move that already beat the previous iteration's choice.
                if let Some((m, s)) = self.root_best.filter(|_| smart) {
                    if Some(m) != result.best {
                        result.best = Some(m);
                        result.score = s;
                        result.pv = vec![m];
                    }
                }
                break;
            }
            let previous = result.clone();
            result = SearchResult {
                best: self.pv[0].first().copied().or(result.best),
                score,
                depth,
                nodes: self.nodes,
                pv: self.pv[0].clone(),
                elapsed: tc.elapsed(),
            };
            on_iteration(&result);
            prev_iter = last_iter;
            last_iter = tc.elapsed().saturating_sub(started);
            if depth > first {
                // Unstable best move or a falling score: think longer (up to 2× the soft
                // budget); calm iterations let the stretch decay back to 1.
                let k = &self.config.knobs;
                stretch = 1.0 + (stretch - 1.0) * k.stretch_calm;
                if previous.best != result.best {
                    stretch += k.stretch_unstable;
                }
                let drop = previous.score - score;
                if drop > k.stretch_drop {
                    stretch += if drop > k.stretch_big_drop {
                        k.stretch_big_drop_add
                    } else {
                        k.stretch_drop_add
                    };
                }
                stretch = stretch.min(k.stretch_max);
            }
            // A proven win or loss within the horizon will not change with more depth.
            if score.abs() >= WIN - 1000 && (WIN - score.abs()) as u32 <= depth {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = tc.elapsed();
        result
    }

    fn tick(&mut self, tc: &TimeControl) -> bool {
        self.nodes += 1;
        let out_of_nodes = self.config.max_nodes > 0 && self.nodes >= self.config.max_nodes;
        let poll = self.nodes.is_multiple_of(self.config.check_every.max(1));
        if out_of_nodes || (poll && tc.hard_expired()) {
            self.aborted = true;
        }
        self.aborted
    }

    fn negamax(
        &mut self,
        pos: &G,
        depth: u32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        tc: &TimeControl,
    ) -> Score {
        self.pv[ply].clear();
        if self.tick(tc) {
            return 0;
        }
        // 1. Game over?
        if let Some(outcome) = pos.outcome() {
            return outcome_score(outcome, ply);
        }
        // 2. Horizon.
        if depth == 0 || ply >= MAX_PLY - 1 {
            return if self.config.quiescence {
                self.quiescence(pos, ply, alpha, beta, tc)
            } else {
                pos.evaluate()
            };
        }
        let pv_node = beta - alpha > 1;
        // 3. Probe the transposition table.
        let hash = pos.hash();
        let mut tt_move = G::Move::default();
        if let Some(hit) = self.tt.probe(hash, ply as u32) {
            tt_move = hit.mv;
            if !pv_node && hit.depth >= depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    return hit.score;
                }
            }
        }
        // 4. Null move: if passing still fails high, so will a real move.
        let SearchKnobs {
            null_min_depth,
            null_r,
            null_r_div,
            lmr_min_depth,
            lmr_min_index,
            lmr_late_index,
            history_max,
            ..
        } = self.config.knobs;
        if self.config.null_move && !pv_node && depth >= null_min_depth && beta.abs() < WIN - 1000 {
            if let Some(passed) = pos.null_move() {
                if pos.evaluate() >= beta {
                    let r = null_r + depth / null_r_div.max(1);
                    let score = -self.negamax(
                        &passed,
                        depth.saturating_sub(1 + r),
                        ply + 1,
                        -beta,
                        -beta + 1,
                        tc,
                    );
                    if self.aborted {
                        return 0;
                    }
                    if score >= beta {
                        return score.min(WIN - 1001);
                    }
                }
            }
        }
        // 5. Generate and order moves.
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.moves(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return outcome_score(Outcome::Loss, ply);
        }
        let mut keys = std::mem::take(&mut self.keys[ply]);
        keys.clear();
        for &m in &moves {
            keys.push(self.order_key(pos, m, tt_move, ply));
        }
        // Threat extensions: only below ply 2 × the iteration depth, so lines stay finite.
        let threats =
            (self.config.extensions && ply < 2 * self.root_depth as usize).then(|| pos.threats());
        // 6. Search each move: the first with the full window, the rest with a null window
        //    (reduced when late and quiet), re-searched when they beat alpha.
        let original_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move = moves[0];
        for i in 0..moves.len() {
            pick_best(&mut moves, &mut keys, i);
            let m = moves[i];
            let child = pos.play(m);
            let ext = threats.is_some_and(|t| child.threats() & !t != 0);
            let new_depth = depth - 1 + u32::from(ext);
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha, tc);
            } else {
                let quiet = !ext && !pos.is_noisy(m) && !self.killers[ply].contains(&m);
                let r = if self.config.lmr
                    && depth >= lmr_min_depth.max(2)
                    && i >= lmr_min_index
                    && quiet
                {
                    (1 + u32::from(i >= lmr_late_index)).min(depth - 2)
                } else {
                    0
                };
                score = -self.negamax(&child, new_depth - r, ply + 1, -alpha - 1, -alpha, tc);
                if score > alpha && r > 0 && !self.aborted {
                    score = -self.negamax(&child, new_depth, ply + 1, -alpha - 1, -alpha, tc);
                }
                if score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha, tc);
                }
            }
            if self.aborted {
                self.buffers[ply] = moves;
                self.keys[ply] = keys;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if ply == 0 {
                        self.root_best = Some((m, score));
                    }
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                }
                if alpha >= beta {
                    // 7. Remember the refutation.
                    if !pos.is_noisy(m) {
                        let k = &mut self.killers[ply];
                        if k[0] != m {
                            k[1] = k[0];
                            k[0] = m;
                        }
                        let bonus = (depth * depth) as i32;
                        let max = history_max.max(1);
                        let h = &mut self.history[pos.move_key(m) % HISTORY_SIZE];
                        *h += bonus - *h * bonus / max;
                        for &q in &moves[..i] {
                            let h = &mut self.history[pos.move_key(q) % HISTORY_SIZE];
                            *h -= bonus + *h * bonus / max;
                        }
                    }
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        self.keys[ply] = keys;
        // 8. Store.
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(hash, ply as u32, best_move, best_score, depth, bound);
        best_score
    }

    fn quiescence(
        &mut self,
        pos: &G,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        tc: &TimeControl,
    ) -> Score {
        self.pv[ply].clear();
        if ply > 0 && self.tick(tc) {
            return 0;
        }
        if let Some(outcome) = pos.outcome() {
            return outcome_score(outcome, ply);
        }
        let stand_pat = pos.evaluate();
        if stand_pat >= beta || ply >= MAX_PLY - 1 {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.noisy_moves(&mut moves);
        let mut keys = std::mem::take(&mut self.keys[ply]);
        keys.clear();
        keys.extend(moves.iter().map(|&m| pos.order_hint(m) as i64));
        let mut best = stand_pat;
        for i in 0..moves.len() {
            pick_best(&mut moves, &mut keys, i);
            let score = -self.quiescence(&pos.play(moves[i]), ply + 1, -beta, -alpha, tc);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        self.keys[ply] = keys;
        best
    }

    fn order_key(&self, pos: &G, m: G::Move, tt_move: G::Move, ply: usize) -> i64 {
        if m == tt_move && tt_move != G::Move::default() {
            return i64::MAX;
        }
        let mut key =
            pos.order_hint(m) as i64 + self.history[pos.move_key(m) % HISTORY_SIZE] as i64;
        if self.killers[ply][0] == m {
            key += 1 << 40;
        } else if self.killers[ply][1] == m {
            key += 1 << 39;
        }
        key
    }
}

/// Swaps the best-keyed move of `moves[i..]` into place `i` (lazy selection sort: most
/// cutoffs come from the first move or two).
fn pick_best<M>(moves: &mut [M], keys: &mut [i64], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    keys.swap(i, best);
}

fn outcome_score(outcome: Outcome, ply: usize) -> Score {
    match outcome {
        Outcome::Win => WIN - ply as Score,
        Outcome::Loss => -(WIN - ply as Score),
        Outcome::Draw => 0,
    }
}
