//! The round limit seen exactly (kibitz issue 38): the last plies before turn 60 solved by a
//! small minimax instead of estimated by the static evaluation.
//!
//! Why: at turn 60 the larger biggest swarm wins and BLUE makes the last move, which RED
//! cannot answer. A horizon that ends at turn 59 or 58 sees a static score (often a clear
//! plus for RED) where BLUE's last move captures a fish of RED's biggest swarm or grows its
//! own. [`limit_value`] replaces the evaluation there by the game-theoretic result of the
//! remaining one or two plies (win / draw / loss at turn 60, connections on the way
//! included), so the search's leaves near the limit are exact.

use crate::board::Color;
use crate::eval::cached_result;
use crate::movegen::for_each_move;
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
/// flood fills); the opponent's summary is computed once (again only after a capture). No position is made, hashed or cached, and the first winning move ends
/// the loop (nothing beats a win).
fn last_move(state: &State) -> i32 {
    let me = state.current();
    let (mi, oi) = (me as usize, me.other() as usize);
    let board = state.board();
    let (own, opp) = (board.fish[mi].0, board.fish[oi].0);
    let opp_summary = summary(opp);
    let own_swarms = Swarms::of(own);
    let turn = state.turn() + 1;
    let mut best = -LIMIT_WIN; // No legal move loses.
    for_each_move(state, |from, to, _| {
        if best == LIMIT_WIN {
            return;
        }
        let to_bit = 1u128 << to;
        let mine = summary_after(&own_swarms, from, to);
        let theirs = if opp & to_bit != 0 {
            summary(opp ^ to_bit)
        } else {
            opp_summary
        };
        let (mut connected, mut swarm) = ([false; 2], [0; 2]);
        (connected[mi], swarm[mi]) = mine;
        (connected[oi], swarm[oi]) = theirs;
        let v = match decide(turn, connected, swarm).and_then(|r| r.winner) {
            None => 0,
            Some(w) if w == me => LIMIT_WIN,
            Some(_) => -LIMIT_WIN,
        };
        best = best.max(v);
    });
    best
}

/// Negamax over the last plies with alpha-beta, every move generated (the trees are at
/// most two plies deep). Value from the side to move's view.
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
    Some(solve(state, -LIMIT_WIN, LIMIT_WIN))
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
}
