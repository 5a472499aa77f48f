//! The round limit seen exactly (kibitz issue 38): the last plies before turn 60 solved by a
//! small minimax instead of estimated by the static evaluation.
//!
//! Why: at turn 60 the larger biggest swarm wins and BLUE makes the last move, which RED
//! cannot answer. A horizon that ends at turn 59 or 58 sees a static score (often a clear
//! plus for RED) where BLUE's last move captures a fish of RED's biggest swarm or grows its
//! own. [`limit_value`] replaces the evaluation there by the game-theoretic result of the
//! remaining one or two plies (win / draw / loss at turn 60, connections on the way
//! included), so the search's leaves near the limit are exact.

use crate::board::{Color, Move};
use crate::eval::cached_result;
use crate::movegen::{for_each_move, for_each_move_until};
use crate::result::{decide, GameResult};
use crate::state::{State, MAX_TURN};
use crate::swarm::{summary, summary_after, Swarms};

/// The score of a proven result at the round limit: below the search's win scores (which
/// are near ±31,000 and mean a proven result inside the tree), far above the static
/// evaluations of ordinary positions (a few hundred).
pub const LIMIT_WIN: i32 = 15_000;

/// The result of `state` after BLUE's last move (turn 60 or a connection) from `me`'s
/// view: `LIMIT_WIN`, 0 or `-LIMIT_WIN`; `None` while the game goes on.
#[inline]
fn result_value(state: &State, me: Color) -> Option<i32> {
    let r: GameResult = cached_result(state)?;
    Some(match r.winner {
        None => 0,
        Some(w) if w == me => LIMIT_WIN,
        Some(_) => -LIMIT_WIN,
    })
}

/// The exact value of the last move before the round limit (turn 59, BLUE to move) for the
/// side to move: the best result at turn 60 over its moves.
///
/// Why it is fast: at turn 60 the result needs only whether each colour is connected and its
/// biggest swarm ([`crate::result::decide`]), so a move is two bitboard updates and one
/// swarm summary of the mover's fish, from its swarms before the move (usually one or two
/// flood fills); the opponent's summary is computed once (again only after a capture). No
/// position is made or hashed, and the first winning move ends the loop (nothing beats a
/// win). The thread keeps the mover's summaries per move, the opponent's summary and the
/// last winning move between solves ([`LastMoveMemo`]): sibling leaves share them.
fn last_move(state: &State) -> i32 {
    let board = state.board();
    let me = state.current() as usize;
    let (own, opp) = (board.fish[me].0, board.fish[1 - me].0);
    if own.count_ones() > 16 {
        let own_swarms = Swarms::of(own);
        return last_move_with(state, LIMIT_WIN, summary(opp), &mut None, |from, to| {
            summary_after(&own_swarms, from, to)
        });
    }
    LAST_MEMO.with(|m| {
        let mut m = m.borrow_mut();
        let m = &mut *m;
        m.summaries.reset(own);
        if m.opp != Some(opp) {
            m.opp = Some(opp);
            m.opp_summary = summary(opp);
        }
        // The mover's swarms only when a summary is not memoised yet.
        let mut own_swarms = None;
        let summaries = &mut m.summaries;
        last_move_with(
            state,
            LIMIT_WIN,
            m.opp_summary,
            &mut m.killer,
            |from, to| summaries.get_with(from, to, &mut own_swarms),
        )
    })
}

/// What [`last_move`] keeps on the thread between solves: the solves of sibling leaves
/// (after different RED moves at turn 58) mostly share BLUE's fish, and often RED's.
#[derive(Default)]
struct LastMoveMemo {
    /// The mover's summaries after its moves.
    summaries: SummaryMemo,
    /// The opponent's fish of the last solve and their summary.
    opp: Option<u128>,
    /// Summary of `opp`.
    opp_summary: (bool, u32),
    /// The last winning move (tried first).
    killer: Option<Move>,
}

/// Swarm summaries (connected, biggest swarm) of one colour's fish after each of its
/// moves, by (index of the moving fish among the colour's, target), computed on demand.
/// At most 16 fish (the caller checks).
#[derive(Clone)]
struct SummaryMemo {
    fish: u128,
    /// `(biggest | connected << 6)` or [`SummaryMemo::NONE`].
    table: [u8; 16 * 128],
}

impl SummaryMemo {
    /// Not computed yet.
    const NONE: u8 = 0xff;

    /// An empty memo for `fish`.
    fn new(fish: u128) -> SummaryMemo {
        SummaryMemo {
            fish,
            table: [Self::NONE; 16 * 128],
        }
    }

    /// Keeps the memo if it is for `fish`, else empties it for `fish`.
    fn reset(&mut self, fish: u128) {
        if self.fish != fish {
            self.fish = fish;
            self.table.fill(Self::NONE);
        }
    }

    /// [`summary_after`] of this memo's fish for the move from `from` to `to`, memoised;
    /// `swarms` holds the swarms of the fish once a summary needed computing.
    #[inline(always)]
    fn get_with(&mut self, from: usize, to: usize, swarms: &mut Option<Swarms>) -> (bool, u32) {
        let below = self.fish & ((1u128 << (from & 127)) - 1);
        let i = (below.count_ones() as usize & 15) << 7 | (to & 127);
        let m = self.table[i];
        if m != Self::NONE {
            return (m & 64 != 0, (m & 63) as u32);
        }
        let fish = self.fish;
        let s = summary_after(swarms.get_or_insert_with(|| Swarms::of(fish)), from, to);
        self.table[i] = (s.1 as u8 & 63) | u8::from(s.0) << 6;
        s
    }
}

impl Default for SummaryMemo {
    fn default() -> Self {
        // Fish 0 never has moves, so nothing is looked up before a reset.
        SummaryMemo::new(0)
    }
}

/// [`last_move`]'s loop: the side to move's best result at turn 60, stopping as soon as it
/// reaches `beta` (a refutation needs no better one). `theirs` is the opponent's summary
/// (connected, biggest swarm) while nothing of it is captured; `mine(from, to)` the mover's
/// summary after its fish on `from` swam to `to`. `killer`, if legal here, is tried first;
/// a move that reaches `beta` is stored there (the same answer often refutes the next move
/// of the opponent's too).
#[inline(always)]
fn last_move_with(
    state: &State,
    beta: i32,
    theirs: (bool, u32),
    killer: &mut Option<Move>,
    mut mine: impl FnMut(usize, usize) -> (bool, u32),
) -> i32 {
    let me = state.current();
    let (mi, oi) = (me as usize, me.other() as usize);
    let opp = state.board().fish[oi].0;
    let turn = state.turn() + 1;
    let mut value = |from: usize, to: usize| {
        let to_bit = 1u128 << (to & 127);
        let after = if opp & to_bit != 0 {
            summary(opp ^ to_bit)
        } else {
            theirs
        };
        let (mut connected, mut swarm) = ([false; 2], [0; 2]);
        (connected[mi], swarm[mi]) = mine(from, to);
        (connected[oi], swarm[oi]) = after;
        match decide(turn, connected, swarm).and_then(|r| r.winner) {
            None => 0,
            Some(w) if w == me => LIMIT_WIN,
            Some(_) => -LIMIT_WIN,
        }
    };
    if let Some(k) = *killer {
        if let (Ok(to), Some(from)) = (state.check(k), k.square()) {
            let v = value(from, to);
            if v >= beta {
                return v;
            }
        }
    }
    let mut best = -LIMIT_WIN; // No legal move loses.
    for_each_move_until(state, |from, to, dir| {
        best = best.max(value(from, to));
        if best >= beta {
            *killer = Some(Move::from_square(from, dir));
        }
        best >= beta
    });
    best
}

/// Most moves a position can have: 16 fish (more only on boards built by hand, which then
/// take the plain [`solve`]) times 8 directions.
const MAX_MOVES: usize = 128;

/// The exact value of the last two moves before the round limit (turn 58: RED's last move,
/// then BLUE's answer) for the side to move, within the window `alpha..beta` (fail-hard:
/// a value at or beyond a bound stands for "that bound or beyond").
///
/// Why it is fast (about [`last_move`]'s cost per answer instead of a made position, a
/// win check and a one-ply solve per move):
/// - No win check runs after RED's move (the server checks after BLUE's moves only), and
///   the answers need no positions: one made position per RED move gives BLUE's move
///   distances, everything else is bitboards and swarm summaries.
/// - The best RED move of the thread's previous solve is tried first (sibling leaves of
///   the search share most moves): when it wins, no other move is generated. Then RED's
///   moves best-swarm first (the summary after each is needed anyway), so a winning move
///   usually comes early and ends the solve.
/// - BLUE's answers stop at the first refutation: a result no better for RED than its best
///   move so far.
/// - BLUE's swarm summary after its move (from, to) does not depend on RED's move unless RED
///   captured, so it is computed once per (from, to) and reused by every RED move.
fn last_two(state: &State, mut alpha: i32, beta: i32) -> i32 {
    let me = state.current() as usize;
    let board = state.board();
    let (own, opp) = (board.fish[me].0, board.fish[1 - me].0);
    if own.count_ones() > 16 || opp.count_ones() > 16 {
        return solve(state, alpha, beta);
    }
    let own_swarms = Swarms::of(own);
    let opp_swarms = Swarms::of(opp);
    // BLUE's summary after (from, to) while RED captured nothing, by (index of the fish
    // among BLUE's, to); NONE = not computed yet.
    const NONE: u8 = 0xff;
    let mut memo = [NONE; 16 * 128];
    let mut killer = None;
    // RED's value of its move (from, to) after which its summary is `mine`, below `alpha`
    // meaning "at most alpha".
    let mut value = |from: usize, to: usize, mine: (bool, u32), alpha: i32| {
        let child = state.make(from, to);
        // RED's summary is the opponent's for BLUE's answers (recomputed after a capture).
        if opp & (1u128 << to) == 0 {
            let memo = &mut memo;
            -last_move_with(&child, -alpha, mine, &mut killer, |f, t| {
                let i = ((opp & ((1u128 << f) - 1)).count_ones() as usize & 15) << 7 | (t & 127);
                let m = memo[i];
                if m != NONE {
                    return (m & 64 != 0, (m & 63) as u32);
                }
                let s = summary_after(&opp_swarms, f, t);
                memo[i] = (s.1 as u8 & 63) | u8::from(s.0) << 6;
                s
            })
        } else {
            let captured = Swarms::of(opp ^ (1u128 << to));
            -last_move_with(&child, -alpha, mine, &mut killer, |f, t| {
                summary_after(&captured, f, t)
            })
        }
    };
    // The best move of the last solve on this thread first (siblings in the search share
    // most moves): when it wins, nothing else is generated.
    let mut best = -LIMIT_WIN;
    let mut best_move = None;
    if let Some(k) = LAST_BEST.get() {
        if let (Ok(to), Some(from)) = (state.check(k), k.square()) {
            best = value(from, to, summary_after(&own_swarms, from, to), alpha);
            best_move = Some(k);
            alpha = alpha.max(best);
            if alpha >= beta {
                return best;
            }
        }
    }
    // RED's moves with its summary after each, best first.
    let mut moves = [(Move::default(), 0u8, 0u8); MAX_MOVES];
    let mut len = 0;
    for_each_move_until(state, |from, to, dir| {
        let (connected, biggest) = summary_after(&own_swarms, from, to);
        // Order key: connected first, then the biggest swarm.
        let key = (biggest as u8 & 63) | u8::from(connected) << 6;
        moves[len] = (Move::from_square(from, dir), to as u8, key);
        len += 1;
        len == MAX_MOVES
    });
    if len == 0 {
        return -LIMIT_WIN; // No legal move loses.
    }
    let moves = &mut moves[..len];
    moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.2));
    for &(m, to, key) in moves.iter() {
        let from = m.square().unwrap_or(0);
        let v = value(from, to as usize, (key & 64 != 0, (key & 63) as u32), alpha);
        if v > best {
            best = v;
            best_move = Some(m);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    LAST_BEST.set(best_move);
    best
}

thread_local! {
    /// [`last_move`]'s memory on this thread.
    static LAST_MEMO: std::cell::RefCell<LastMoveMemo> =
        std::cell::RefCell::new(LastMoveMemo::default());

    /// The best move of this thread's last [`last_two`] (tried first by the next one).
    static LAST_BEST: std::cell::Cell<Option<Move>> = const { std::cell::Cell::new(None) };
}

/// Negamax over the last plies with alpha-beta, every move generated and made: the plain
/// definition, kept for boards built by hand with more than 16 fish of a colour (which
/// [`last_two`]'s tables do not hold). Value from the side to move's view.
fn solve(state: &State, mut alpha: i32, beta: i32) -> i32 {
    if state.turn() + 1 == MAX_TURN as u32 {
        return last_move(state);
    }
    let me = state.current();
    let mut best = -LIMIT_WIN; // No legal move loses.
    let mut any = false;
    for_each_move(state, |from, to, _| {
        if alpha >= beta {
            return;
        }
        any = true;
        let child = state.make(from, to);
        let v = match result_value(&child, me) {
            Some(v) => v,
            None => -solve(&child, -beta, -alpha),
        };
        if v > best {
            best = v;
            alpha = alpha.max(v);
        }
    });
    if !any {
        return -LIMIT_WIN;
    }
    best
}

/// The exact value of `state` for the side to move when at most `plies` (1 or 2) moves are
/// left before the round limit (turn 59: BLUE's last move; turn 58: RED's last move and
/// BLUE's answer): `LIMIT_WIN` (the side to move wins at turn 60 or by a connection on the
/// way), 0 (draw) or `-LIMIT_WIN`. `None` when more moves are left, or `plies` is 0.
pub fn limit_value(state: &State, plies: u32) -> Option<i32> {
    let left = (MAX_TURN as u32).checked_sub(state.turn())?;
    if left == 0 || left > plies.min(2) {
        return None;
    }
    Some(if left == 2 {
        last_two(state, -LIMIT_WIN, LIMIT_WIN)
    } else {
        last_move(state)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    /// Plain minimax over every move, no pruning: the definition.
    fn brute(state: &State) -> i32 {
        let me = state.current();
        let moves = legal_moves(state);
        if moves.is_empty() {
            return -LIMIT_WIN;
        }
        moves
            .into_iter()
            .map(|m| {
                let child = state.apply(m).unwrap();
                match child.result() {
                    Some(r) => match r.winner {
                        None => 0,
                        Some(w) if w == me => LIMIT_WIN,
                        Some(_) => -LIMIT_WIN,
                    },
                    None => -brute(&child),
                }
            })
            .max()
            .unwrap()
    }

    #[test]
    fn limit_value_equals_brute_force_on_random_endings() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(38);
        let mut seen = [0u32; 3];
        for game in 0..120 {
            let mut s = State::start([(2 + game % 5, 3), (6, 7 - game % 3)]);
            let stop = 58 + game as u32 % 2;
            while s.turn() < stop && s.outcome().is_none() {
                let moves = legal_moves(&s);
                s = s.apply(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            if s.outcome().is_some() {
                continue;
            }
            let v = limit_value(&s, 2).expect("one or two plies left");
            assert_eq!(v, brute(&s), "{s}");
            seen[(v.signum() + 1) as usize] += 1;
            if s.turn() == 58 {
                assert_eq!(limit_value(&s, 1), None);
            }
        }
        // Random play reaches every kind of ending.
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
        let start = State::start([(3, 3), (6, 7)]);
        assert_eq!(limit_value(&start, 2), None);
        assert_eq!(limit_value(&start, 0), None);
    }

    /// Random endings at turn 58 (RED's last move and BLUE's answer) from several kinds of
    /// play: the two-ply solve equals the definition with the full window, and within any
    /// window it fails hard on the right side.
    #[test]
    fn two_ply_solve_equals_brute_force_in_every_window() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(58);
        let (mut seen, mut red_captures) = ([0u32; 3], 0);
        let w = LIMIT_WIN;
        for game in 0..300 {
            let mut s = State::start(crate::kraken::random_pair(&mut rng));
            while s.turn() < 58 && s.outcome().is_none() {
                let moves = legal_moves(&s);
                // Every third game prefers captures, so that captured fish and the answers
                // of a side that lost one are exercised often.
                let opp = s.board().fish_of(s.current().other());
                let caps: Vec<_> = moves
                    .iter()
                    .filter(|&&m| opp.has(s.check(m).unwrap()))
                    .collect();
                let m = if game % 3 == 0 && !caps.is_empty() {
                    *caps[rng.random_range(0..caps.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                s = s.apply(m).unwrap();
            }
            if s.outcome().is_some() {
                continue;
            }
            let want = brute(&s);
            assert_eq!(last_two(&s, -w, w), want, "{s}");
            assert_eq!(solve(&s, -w, w), want, "{s}");
            seen[(want.signum() + 1) as usize] += 1;
            let opp = s.board().fish_of(Color::Blue);
            red_captures += u32::from(
                legal_moves(&s)
                    .iter()
                    .any(|&m| opp.has(s.check(m).unwrap())),
            );
            for (alpha, beta) in [(-w, 0), (0, w), (-w, -w + 1), (w - 1, w), (-1, 1)] {
                let v = last_two(&s, alpha, beta);
                if want <= alpha {
                    assert!(v <= alpha, "{v} in ({alpha}, {beta}), want {want}\n{s}");
                } else if want >= beta {
                    assert!(v >= beta, "{v} in ({alpha}, {beta}), want {want}\n{s}");
                } else {
                    assert_eq!(v, want, "({alpha}, {beta})\n{s}");
                }
            }
        }
        assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
        assert!(red_captures >= 50, "{red_captures}");
    }

    /// A board built by hand with more fish than the game has takes the plain solve, with
    /// the same result.
    #[test]
    fn two_ply_solve_of_a_crowded_board_equals_brute_force() {
        use crate::board::{Board, Field};
        let mut b = Board::empty();
        for sq in 0..20 {
            b.set(sq % 10, sq / 10 * 3, Field::Red);
        }
        for sq in 0..17 {
            b.set(sq % 9, 1 + sq / 9 * 5, Field::Blue);
        }
        let s = State::from_board(b, 58).unwrap();
        assert_eq!(limit_value(&s, 2), Some(brute(&s)), "{s}");
    }

    /// The one-ply solve of siblings (every RED move of a turn-58 position: BLUE's fish
    /// shared, so the thread's memoised summaries and last winning move are reused, and
    /// RED's captures make them stale) equals the definition.
    #[test]
    fn one_ply_solves_of_siblings_equal_brute_force() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(59);
        let (mut solved, mut wins) = (0, 0);
        for _ in 0..60 {
            let mut s = State::start(crate::kraken::random_pair(&mut rng));
            while s.turn() < 58 && s.outcome().is_none() {
                let moves = legal_moves(&s);
                s = s.apply(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            if s.outcome().is_some() {
                continue;
            }
            for m in legal_moves(&s) {
                let child = s.apply(m).unwrap();
                let v = limit_value(&child, 1).expect("one ply left");
                assert_eq!(v, brute(&child), "{child}");
                solved += 1;
                wins += u32::from(v == LIMIT_WIN);
            }
        }
        assert!(solved > 1000 && wins > 100, "{solved} {wins}");
    }
}
