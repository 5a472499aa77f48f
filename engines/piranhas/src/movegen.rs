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
    for_each_move_until(state, |from, to, dir| {
        f(from, to, dir);
        false
    });
}

/// Like [`for_each_move`], but stops as soon as `f` returns true (a search that found what
/// it needs skips the rest of the generation); returns whether it stopped early.
#[inline]
pub fn for_each_move_until(
    state: &State,
    mut f: impl FnMut(usize, usize, Direction) -> bool,
) -> bool {
    let board = state.board();
    let me = state.current() as usize;
    let own = board.fish[me].0;
    let opp = board.fish[1 - me].0;
    let blocked_target = own | board.kraken.0;
    for sq in board.fish[me].iter() {
        for (kind, dirs) in LINE_DIRS.iter().enumerate() {
            let d = state.line_count(sq, kind) as i32;
            debug_assert_eq!(d as u32, ((own | opp) & TABLES.line[kind][sq]).count_ones());
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
                if f(sq, to, dir) {
                    return true;
                }
            }
        }
    }
    false
}

/// `TARGETS[sq][dir * 16 + d]`: the square `d` steps from `sq` in direction `dir`, or
/// [`NO_SQUARE`] (127, never occupied) when that leaves the board. Line counts are at most 10.
pub(crate) static TARGETS: [[u8; 128]; 128] = build_targets();

/// The target of a move that leaves the board: bit 127 is never set in any bitboard.
pub(crate) const NO_SQUARE: u8 = 127;

const fn build_targets() -> [[u8; 128]; 128] {
    let mut t = [[NO_SQUARE; 128]; 128];
    let mut sq = 0;
    while sq < 100 {
        let mut di = 0;
        while di < 8 {
            let (dx, dy) = Direction::ALL[di].delta();
            let mut d = 0;
            while d < 16 {
                let x = (sq % 10) as i32 + dx * d as i32;
                let y = (sq / 10) as i32 + dy * d as i32;
                if x >= 0 && x < 10 && y >= 0 && y < 10 {
                    t[sq][di * 16 + d] = (x + 10 * y) as u8;
                }
                d += 1;
            }
            di += 1;
        }
        sq += 1;
    }
    t
}

/// Opponent fish of `c` capturable by one legal move of `c` (a capture never lands on the
/// Kraken or an own fish, so only the path needs checking).
#[inline]
pub fn capture_targets(state: &State, c: crate::board::Color) -> u128 {
    let mut hits = 0u128;
    for_each_capture(state, c, |_, _, to| hits |= 1u128 << to);
    hits
}

/// Directions in generation order (by line kind: column, row, rising, falling; each
/// line's two directions in [`LINE_DIRS`] order).
const GEN_ORDER: [usize; 8] = [0, 4, 2, 6, 1, 5, 3, 7];

/// Calls `f(from, direction index, to)` for every capture by the fish of `c`, in
/// [`for_each_move`]'s order. Per fish, the eight targets are looked up first and only
/// those on an opponent fish get the path test.
#[inline]
fn for_each_capture(state: &State, c: crate::board::Color, mut f: impl FnMut(usize, usize, usize)) {
    let board = state.board();
    let opp = board.fish[1 - c as usize].0;
    let halves = [opp as u64, (opp >> 64) as u64];
    for sq in board.fish[c as usize].iter() {
        let sq = sq & 127;
        let row = &TARGETS[sq];
        let d = [
            state.line_count(sq, 0) as usize & 15,
            state.line_count(sq, 1) as usize & 15,
            state.line_count(sq, 2) as usize & 15,
            state.line_count(sq, 3) as usize & 15,
        ];
        // Targets in generation order (index j = direction GEN_ORDER[j]), 127 off the board.
        let to: [usize; 8] = [
            row[d[0]] as usize,
            row[64 + d[0]] as usize,
            row[32 + d[1]] as usize,
            row[96 + d[1]] as usize,
            row[16 + d[2]] as usize,
            row[80 + d[2]] as usize,
            row[48 + d[3]] as usize,
            row[112 + d[3]] as usize,
        ];
        // Bit tests on the 64-bit halves: a variable u128 shift costs several instructions.
        let mut any = 0u8;
        for (j, &t) in to.iter().enumerate() {
            any |= (((halves[(t >> 6) & 1] >> (t & 63)) & 1) as u8) << j;
        }
        while any != 0 {
            let j = any.trailing_zeros() as usize;
            any &= any - 1;
            let (di, t) = (GEN_ORDER[j], to[j]);
            let to_bit = 1u128 << t;
            let path = TABLES.ray[di][sq] ^ TABLES.ray[di][t] ^ to_bit;
            if path & opp == 0 {
                f(sq, di, t);
            }
        }
    }
}

/// Direction indices of each line kind (0 column, 1 row, 2 rising, 3 falling).
pub(crate) const LINE_DIRS: [[usize; 2]; 4] = [[0, 4], [2, 6], [1, 5], [3, 7]];

/// Appends the captures of the side to move to `out`, in the same order as
/// [`for_each_move`] generates them.
pub fn captures_into(state: &State, out: &mut Vec<Move>) {
    for_each_capture(state, state.current(), |sq, di, _| {
        out.push(Move::from_square(sq, Direction::ALL[di]))
    });
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;

    /// The capture generators agree with full generation filtered to captures, along random
    /// games (both colours, both generators).
    #[test]
    fn capture_generators_match_full_generation() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for game in 0..40 {
            let mut s = State::start(crate::kraken::random_pair(&mut rng));
            for _ in 0..(game % 60) {
                let Some(&m) = s.legal_moves().choose(&mut rng) else {
                    break;
                };
                s = s.apply(m).expect("legal");
                let me = s.current();
                let opp = s.board().fish_of(me.other());
                let mut all = Vec::new();
                for_each_move(&s, |from, to, dir| {
                    if opp.has(to) {
                        all.push((Move::from_square(from, dir), to));
                    }
                });
                let mut caps = Vec::new();
                captures_into(&s, &mut caps);
                assert_eq!(caps, all.iter().map(|p| p.0).collect::<Vec<_>>());
                let targets = all.iter().fold(0u128, |acc, p| acc | 1u128 << p.1);
                assert_eq!(capture_targets(&s, me), targets);
                let flipped = s.pass();
                let mut theirs = 0u128;
                for_each_move(&flipped, |_, to, _| {
                    if s.board().fish_of(me).has(to) {
                        theirs |= 1u128 << to;
                    }
                });
                assert_eq!(capture_targets(&s, me.other()), theirs);
            }
        }
    }

    /// The stoppable generator lists the same moves in the same order, and stops right
    /// after the move that asks it to.
    #[test]
    fn stoppable_generation_matches_and_stops() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut s = State::start([(3, 3), (6, 7)]);
        for _ in 0..40 {
            let all = legal_moves(&s);
            let mut seen = Vec::new();
            let stopped = for_each_move_until(&s, |from, _, dir| {
                seen.push(Move::from_square(from, dir));
                false
            });
            assert!(!stopped);
            assert_eq!(seen, all);
            let k = all.len() / 2;
            let mut n = 0;
            assert!(for_each_move_until(&s, |_, _, _| {
                n += 1;
                n == k + 1
            }));
            assert_eq!(n, k + 1);
            let Some(&m) = all.choose(&mut rng) else {
                break;
            };
            s = s.apply(m).unwrap();
        }
    }
}
