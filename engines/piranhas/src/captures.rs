//! Capture sets of both colours at once, line-parallel: the evaluation's hottest part.
//!
//! A fish moves as far as its line holds fish, so every fish on lines of the same kind and
//! the same count moves the same distance. The lines are bucketed by kind and count (one OR
//! per line, shared by both colours); per bucket and direction one masked shift gives the
//! targets of all those fish at once. A capture needs a line with at least two fish, so
//! buckets below 2 are skipped; the path test (no opponent fish strictly between) runs
//! per candidate, and candidates are rare.

use crate::bitboard::{LINES, SQUARES, TABLES};
use crate::state::State;

/// Line ids of each kind as `start..end` (see `Tables::line_id`).
const KIND_IDS: [(usize, usize); 4] = [(0, 10), (10, 20), (20, 39), (39, 58)];

/// Longest possible move distance (a line holds at most 10 squares).
const MAX_DIST: usize = 10;

/// `LINE_MASK[id]`: the squares of line `id`.
static LINE_MASK: [u128; LINES] = build_line_masks();

/// `STEP_OK[dir][d]`: the squares from which `d` steps in direction `dir` stay on the board.
const STEP_OK: [[u128; 16]; 8] = build_step_ok();

const fn build_line_masks() -> [u128; LINES] {
    let mut m = [0u128; LINES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut k = 0;
        while k < 4 {
            m[TABLES.line_id[sq][k] as usize] |= 1u128 << sq;
            k += 1;
        }
        sq += 1;
    }
    m
}

const fn build_step_ok() -> [[u128; 16]; 8] {
    let mut t = [[0u128; 16]; 8];
    let mut dir = 0;
    while dir < 8 {
        let mut sq = 0;
        while sq < SQUARES {
            let mut d = 0;
            while d <= TABLES.steps[dir][sq] as usize {
                t[dir][d] |= 1u128 << sq;
                d += 1;
            }
            sq += 1;
        }
        dir += 1;
    }
    t
}

/// Per line kind: the direction with a positive square offset, the opposite one, and the
/// offset's size (column 10, row 1, rising 11, falling 9).
const KIND_DIRS: [(usize, usize, u32); 4] = [(0, 4, 10), (2, 6, 1), (1, 5, 11), (7, 3, 9)];

/// Captures by `own` of `opp` among the targets `cand` reached `d` steps along a direction
/// whose square offset is `step` (negative: backwards). Drops candidates whose path holds an
/// opponent fish.
#[inline(always)]
fn keep_clear_paths(mut cand: u128, opp: u128, dir: usize, d: u32, step: i32) -> u128 {
    if d == 2 {
        // The only square between is one step back from the target.
        let between = if step > 0 {
            cand >> step
        } else {
            cand << -step
        };
        let blocked = between & opp;
        return cand
            & !(if step > 0 {
                blocked << step
            } else {
                blocked >> -step
            });
    }
    let mut hits = 0;
    while cand != 0 {
        let t = cand.trailing_zeros() as usize & 127;
        cand &= cand - 1;
        let s = (t as i32 - d as i32 * step) as usize & 127;
        let to_bit = 1u128 << t;
        let path = TABLES.ray[dir][s] ^ TABLES.ray[dir][t] ^ to_bit;
        if path & opp == 0 {
            hits |= to_bit;
        }
    }
    hits
}

/// The captures along the lines of kind `KIND` whose fish count is `D` (their squares are
/// `lines`), in both directions and for both colours, added to `by` (by RED, by BLUE).
/// Generic over the kind and the distance so that every shift and mask is a constant.
#[inline(always)]
fn bucket<const KIND: usize, const D: usize>(lines: u128, fish: [u128; 2], by: &mut [u128; 2]) {
    let (up, down, step) = KIND_DIRS[KIND];
    let amount = D as u32 * step;
    let (red, blue) = (fish[0], fish[1]);
    let from = lines & STEP_OK[up][D];
    let (r, b) = ((red & from) << amount, (blue & from) << amount);
    if r & blue != 0 {
        by[0] |= keep_clear_paths(r & blue, blue, up, D as u32, step as i32);
    }
    if b & red != 0 {
        by[1] |= keep_clear_paths(b & red, red, up, D as u32, step as i32);
    }
    let from = lines & STEP_OK[down][D];
    let (r, b) = ((red & from) >> amount, (blue & from) >> amount);
    if r & blue != 0 {
        by[0] |= keep_clear_paths(r & blue, blue, down, D as u32, -(step as i32));
    }
    if b & red != 0 {
        by[1] |= keep_clear_paths(b & red, red, down, D as u32, -(step as i32));
    }
}

/// The captures along the lines of kind `KIND`: buckets the lines by fish count, then runs
/// [`bucket`] for every count of 2 or more that occurs.
#[inline(always)]
fn kind_captures<const KIND: usize>(state: &State, fish: [u128; 2], by: &mut [u128; 2]) {
    let (start, end) = KIND_IDS[KIND];
    let mut buckets = [0u128; 16];
    let mut present = 0u32;
    for id in start..end {
        let d = state.line_count_by_id(id) as usize & 15;
        buckets[d] |= LINE_MASK[id];
        present |= 1 << d;
    }
    present &= !3;
    while present != 0 {
        let d = present.trailing_zeros() as usize;
        present &= present - 1;
        let lines = buckets[d & 15];
        match d {
            2 => bucket::<KIND, 2>(lines, fish, by),
            3 => bucket::<KIND, 3>(lines, fish, by),
            4 => bucket::<KIND, 4>(lines, fish, by),
            5 => bucket::<KIND, 5>(lines, fish, by),
            6 => bucket::<KIND, 6>(lines, fish, by),
            7 => bucket::<KIND, 7>(lines, fish, by),
            8 => bucket::<KIND, 8>(lines, fish, by),
            9 => bucket::<KIND, 9>(lines, fish, by),
            // A line holds at most 10 squares, hence at most 10 fish.
            _ => bucket::<KIND, MAX_DIST>(lines, fish, by),
        }
    }
}

/// Opponent fish each colour can capture with one legal move: `[by RED, by BLUE]` as
/// bitboards (a capture never lands on the Kraken or an own fish, so only the path needs
/// checking).
pub fn capture_targets_both(state: &State) -> [u128; 2] {
    let board = state.board();
    let fish = [board.fish[0].0, board.fish[1].0];
    let mut by = [0u128; 2];
    kind_captures::<0>(state, fish, &mut by);
    kind_captures::<1>(state, fish, &mut by);
    kind_captures::<2>(state, fish, &mut by);
    kind_captures::<3>(state, fish, &mut by);
    by
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;

    /// Both colours' capture sets equal those of full move generation along random games.
    #[test]
    fn line_parallel_captures_match_full_generation() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut checked = 0;
        for game in 0..60 {
            let mut s = State::start(crate::kraken::random_pair(&mut rng));
            for _ in 0..(game % 70) {
                let Some(&m) = s.legal_moves().choose(&mut rng) else {
                    break;
                };
                s = s.apply(m).expect("legal");
                let both = capture_targets_both(&s);
                for c in Color::BOTH {
                    let view = if s.current() == c { s } else { s.pass() };
                    let opp = s.board().fish_of(c.other());
                    let mut expect = 0u128;
                    crate::movegen::for_each_move(&view, |_, to, _| {
                        if opp.has(to) {
                            expect |= 1u128 << to;
                        }
                    });
                    assert_eq!(both[c as usize], expect, "{c} in\n{s}");
                    checked += expect.count_ones();
                }
            }
        }
        assert!(checked > 100, "too few captures exercised: {checked}");
    }

    #[test]
    fn step_masks_match_the_step_table() {
        for dir in 0..8 {
            for sq in 0..SQUARES {
                let steps = TABLES.steps[dir][sq] as usize;
                for d in 0..=MAX_DIST {
                    assert_eq!(STEP_OK[dir][d] >> sq & 1 == 1, d <= steps);
                }
            }
        }
    }
}
