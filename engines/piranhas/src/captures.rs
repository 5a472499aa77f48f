//! Capture sets of both colours at once, line-parallel: the evaluation's hottest part.
//!
//! A fish moves as far as its line holds fish, so every fish on lines of the same kind and
//! the same count moves the same distance. The lines are bucketed by kind and count (one OR
//! per line, shared by both colours); per bucket and direction one masked shift gives the
//! targets of all those fish at once. A capture needs a line with at least two fish, so
//! buckets below 2 are skipped; the path test (no opponent fish strictly between) runs
//! per candidate, and candidates are rare.

use crate::bitboard::{LINES, SQUARES, TABLES};
use crate::board::{Direction, Move};
use crate::state::State;

/// Line ids of each kind as `start..end` (see `Tables::line_id`).
const KIND_IDS: [(usize, usize); 4] = [(0, 10), (10, 20), (20, 39), (39, 58)];

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

/// Index of each direction in move generation order (by line kind: column, row, rising,
/// falling; per line the positive direction first), see [`crate::movegen::for_each_move`].
const GEN_INDEX: [u16; 8] = [0, 4, 2, 6, 1, 5, 3, 7];

/// Most captures of the side to move a scan keeps as moves (more happen only in contrived
/// positions; the scan then says so and the caller generates them itself).
const MAX_KEPT: usize = 48;

/// What one scan of a position found.
#[derive(Clone, Copy, Debug)]
pub struct Scan {
    /// Opponent fish capturable by RED (`[0]`) and by BLUE (`[1]`).
    pub by: [u128; 2],
    mover: usize,
    /// The side to move's captures as `from · 8 + generation index of the direction`.
    keys: [u16; MAX_KEPT],
    len: usize,
    overflow: bool,
}

impl Scan {
    /// A scan that found nothing.
    const EMPTY: Scan = Scan {
        by: [0; 2],
        mover: 0,
        keys: [0; MAX_KEPT],
        len: 0,
        overflow: false,
    };

    /// Notes the captures of the side to move landing on `hits`, `d` steps along `dir`.
    #[inline(always)]
    fn record(&mut self, c: usize, mut hits: u128, dir: usize, d: usize, step: i32) {
        if c != self.mover {
            return;
        }
        while hits != 0 {
            let t = hits.trailing_zeros() as i32;
            hits &= hits - 1;
            let from = (t - d as i32 * step) as u16;
            if self.len < MAX_KEPT {
                self.keys[self.len] = from * 8 + GEN_INDEX[dir];
                self.len += 1;
            } else {
                self.overflow = true;
            }
        }
    }

    /// Appends the side to move's captures to `out` in generation order (as
    /// [`crate::movegen::captures_into`] lists them); false (and nothing appended) if there
    /// were too many to keep.
    pub fn push_mover_captures(&self, out: &mut Vec<Move>) -> bool {
        if self.overflow {
            return false;
        }
        let mut keys = self.keys;
        let keys = &mut keys[..self.len];
        keys.sort_unstable();
        out.extend(keys.iter().map(|&k| {
            let k = k as usize;
            Move::from_square(k / 8, Direction::ALL[GEN_ORDER[k % 8]])
        }));
        true
    }
}

/// The last scan on this thread and the position it belongs to (both fish bitboards and
/// the side to move: everything captures depend on).
struct Memo {
    key: (u128, u128, bool),
    valid: bool,
    scan: Scan,
}

thread_local! {
    static LAST: std::cell::RefCell<Memo> = const {
        std::cell::RefCell::new(Memo { key: (0, 0, false), valid: false, scan: Scan::EMPTY })
    };
}

fn memo_key(state: &State) -> (u128, u128, bool) {
    let b = state.board();
    (b.fish[0].0, b.fish[1].0, state.turn() % 2 == 1)
}

/// [`scan`], remembered on this thread so that [`recall_captures`] on the same position
/// (quiescence: the stand-pat evaluation, then the captures) need not search again.
pub fn scan_and_remember(state: &State) -> [u128; 2] {
    LAST.with(|m| {
        let mut m = m.borrow_mut();
        m.key = memo_key(state);
        m.valid = true;
        scan_dispatch(state, &mut m.scan);
        m.scan.by
    })
}

/// Appends the side to move's captures (in generation order) from this thread's last
/// [`scan_and_remember`] if it was of this position; false if not (nothing appended).
pub fn recall_captures(state: &State, out: &mut Vec<Move>) -> bool {
    LAST.with(|m| {
        let m = m.borrow();
        m.valid && m.key == memo_key(state) && m.scan.push_mover_captures(out)
    })
}

/// Direction of each generation index (inverse of [`GEN_INDEX`]).
const GEN_ORDER: [usize; 8] = [0, 4, 2, 6, 1, 5, 3, 7];

/// The captures along the lines of kind `KIND` whose fish count is `D` (their squares are
/// `lines`), in both directions and for both colours, added to the scan. Generic over the
/// kind and the distance so that every shift and mask is a constant.
#[inline(always)]
fn bucket<const KIND: usize, const D: usize>(lines: u128, fish: [u128; 2], scan: &mut Scan) {
    let (up, down, step) = KIND_DIRS[KIND];
    let amount = D as u32 * step;
    let s = step as i32;
    let (red, blue) = (fish[0], fish[1]);
    let from = lines & STEP_OK[up][D];
    let (r, b) = ((red & from) << amount, (blue & from) << amount);
    if r & blue != 0 {
        let hits = keep_clear_paths(r & blue, blue, up, D as u32, s);
        scan.by[0] |= hits;
        scan.record(0, hits, up, D, s);
    }
    if b & red != 0 {
        let hits = keep_clear_paths(b & red, red, up, D as u32, s);
        scan.by[1] |= hits;
        scan.record(1, hits, up, D, s);
    }
    let from = lines & STEP_OK[down][D];
    let (r, b) = ((red & from) >> amount, (blue & from) >> amount);
    if r & blue != 0 {
        let hits = keep_clear_paths(r & blue, blue, down, D as u32, -s);
        scan.by[0] |= hits;
        scan.record(0, hits, down, D, -s);
    }
    if b & red != 0 {
        let hits = keep_clear_paths(b & red, red, down, D as u32, -s);
        scan.by[1] |= hits;
        scan.record(1, hits, down, D, -s);
    }
}

/// The captures along the lines of kind `KIND`: buckets the lines by fish count, then runs
/// [`bucket`] for every count of 2 or more that occurs (10 at most: a line has 10 squares).
#[inline(always)]
fn kind_captures<const KIND: usize>(state: &State, fish: [u128; 2], scan: &mut Scan) {
    let (start, end) = KIND_IDS[KIND];
    let mut buckets = [0u128; 16];
    for (i, &mask) in LINE_MASK[start..end].iter().enumerate() {
        let d = state.line_count_by_id(start + i) as usize & 15;
        buckets[d] |= mask;
    }
    // One test per count, in straight-line code: each branch site learns its own pattern
    // (a jump table over the counts that occur mispredicted about every other time).
    macro_rules! counts {
        ($($d:literal)*) => {
            $(
                if buckets[$d] != 0 {
                    bucket::<KIND, $d>(buckets[$d], fish, scan);
                }
            )*
        };
    }
    counts!(2 3 4 5 6 7 8 9 10);
}

/// Opponent fish each colour can capture with one legal move: `[by RED, by BLUE]` as
/// bitboards (a capture never lands on the Kraken or an own fish, so only the path needs
/// checking).
pub fn capture_targets_both(state: &State) -> [u128; 2] {
    scan(state).by
}

/// Both colours' capture targets and the side to move's capture moves, in one pass.
pub fn scan(state: &State) -> Scan {
    let mut sc = Scan::EMPTY;
    scan_dispatch(state, &mut sc);
    sc
}

crate::popcnt::dispatch! {
    /// [`scan`] into `scan`, with `popcnt` where the CPU has it.
    fn scan_dispatch(state: &State, scan: &mut Scan) -> () = scan_impl
}

/// The body of [`scan`]: overwrites `scan` (the kept keys beyond the new length are stale).
#[inline(always)]
fn scan_impl(state: &State, scan: &mut Scan) {
    let board = state.board();
    let fish = [board.fish[0].0, board.fish[1].0];
    scan.by = [0; 2];
    scan.mover = state.current() as usize;
    scan.len = 0;
    scan.overflow = false;
    kind_captures::<0>(state, fish, scan);
    kind_captures::<1>(state, fish, scan);
    kind_captures::<2>(state, fish, scan);
    kind_captures::<3>(state, fish, scan);
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
                    // The incremental fish count too.
                    assert_eq!(s.fish_count(c), s.board().fish_of(c).count());
                    let view = if s.current() == c { s } else { s.pass() };
                    let opp = s.board().fish_of(c.other());
                    let mut expect = 0u128;
                    crate::movegen::for_each_move(&view, |_, to, _| {
                        if opp.has(to) {
                            expect |= 1u128 << to;
                        }
                    });
                    assert_eq!(both[c as usize], expect, "{c} in\n{s}");
                    if c == s.current() {
                        let mut caps = Vec::new();
                        crate::movegen::captures_into(&s, &mut caps);
                        let mut listed = Vec::new();
                        assert!(!recall_captures(&s.pass(), &mut listed));
                        scan_and_remember(&s);
                        assert!(recall_captures(&s, &mut listed));
                        assert_eq!(listed, caps, "{c} in\n{s}");
                    }
                    checked += expect.count_ones();
                }
            }
        }
        assert!(checked > 100, "too few captures exercised: {checked}");
    }

    #[test]
    fn step_masks_match_the_step_table() {
        for (dir, masks) in STEP_OK.iter().enumerate() {
            for sq in 0..SQUARES {
                let steps = TABLES.steps[dir][sq] as usize;
                for (d, &mask) in masks.iter().enumerate().take(11) {
                    assert_eq!(mask >> sq & 1 == 1, d <= steps);
                }
            }
        }
    }
}
