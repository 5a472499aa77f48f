//! Legal move generation by line counts, and perft.
//!
//! For each own fish and each of its four lines the distance is the line's fish count, kept
//! incrementally in the [`State`] (it equals the popcount of the occupancy masked with the
//! precomputed line mask); the path test is one mask built from two precomputed rays.

use crate::bitboard::TABLES;
use crate::board::{Direction, Move};
use crate::state::State;

/// Calls `f(from, to, direction)` for every legal move of the side to move.
#[inline]
pub fn for_each_move(state: &State, mut f: impl FnMut(usize, usize, Direction)) {
    let board = state.board();
    let me = state.current() as usize;
    let own = board.fish[me].0;
    let opp = board.fish[1 - me].0;
    let blocked_target = own | board.kraken.0;
    let occ = own | opp;
    for sq in board.fish[me].iter() {
        for (kind, dirs) in LINE_DIRS.iter().enumerate() {
            let d = state.line_count(sq, kind) as i32;
            debug_assert_eq!(d as u32, (occ & TABLES.line[kind][sq]).count_ones());
            for dir in [Direction::ALL[dirs[0]], Direction::ALL[dirs[1]]] {
                let di = dir as usize;
                if d > TABLES.steps[di][sq & 127] as i32 {
                    continue;
                }
                let to = (sq as i32 + d * dir.offset()) as usize & 127;
                let to_bit = 1u128 << to;
                if to_bit & blocked_target != 0 {
                    continue;
                }
                let path = TABLES.ray[di][sq & 127] ^ TABLES.ray[di][to] ^ to_bit;
                if path & opp != 0 {
                    continue;
                }
                f(sq, to, dir);
            }
        }
    }
}

/// Direction indices of each line kind (0 column, 1 row, 2 rising, 3 falling).
const LINE_DIRS: [[usize; 2]; 4] = [[0, 4], [2, 6], [1, 5], [3, 7]];

/// Appends every legal move of the side to move to `out`.
pub fn legal_moves_into(state: &State, out: &mut Vec<Move>) {
    for_each_move(state, |from, _, dir| out.push(Move::from_square(from, dir)));
}

/// Every legal move of the side to move (generation order: by square, then line).
pub fn legal_moves(state: &State) -> Vec<Move> {
    let mut v = Vec::with_capacity(64);
    legal_moves_into(state, &mut v);
    v
}

/// Number of legal moves of the side to move.
pub fn count_moves(state: &State) -> u32 {
    let mut n = 0;
    for_each_move(state, |_, _, _| n += 1);
    n
}

/// Leaf count of pure move generation to `depth` plies (no game-end checks), as in
/// `perft.txt`.
pub fn perft(state: &State, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(state) as u64,
        _ => {
            let mut n = 0;
            for_each_move(state, |from, to, _| {
                n += perft(&state.make(from, to), depth - 1);
            });
            n
        }
    }
}

impl State {
    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        legal_moves(self)
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut any = false;
        for_each_move(self, |_, _, _| any = true);
        any
    }
}
