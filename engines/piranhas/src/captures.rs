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
use crate::movegen::TARGETS;
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

/// Direction of each generation index (inverse of [`GEN_INDEX`]).
const GEN_ORDER: [usize; 8] = [0, 4, 2, 6, 1, 5, 3, 7];

/// Most captures a position can have: 16 fish times 8 directions (boards built by hand with
/// more fish may have more; the mover's list then says so and the caller generates it).
const MAX_KEPT: usize = 128;

/// What one scan of a position found: both colours' captures by line kind. It depends on
/// the two fish bitboards only (the Kraken never lies on a capture's target and does not
/// block), so the position a move leads to can be scanned from the one before it by
/// redoing only the lines through the move's two squares ([`Scan::after_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scan {
    /// Opponent fish capturable by RED (`[0]`) and by BLUE (`[1]`).
    pub by: [u128; 2],
    /// `kind[k][c]`: the opponent fish that colour `c` captures along lines of kind `k`
    /// (either direction).
    kind: [[u128; 2]; 4],
}

impl Scan {
    /// A scan that found nothing (that of a board without fish).
    const EMPTY: Scan = Scan {
        by: [0; 2],
        kind: [[0; 2]; 4],
    };

    /// Sets [`Scan::by`] from the captures by line kind.
    #[inline(always)]
    fn sum(&mut self) {
        let k = &self.kind;
        self.by = [
            k[0][0] | k[1][0] | k[2][0] | k[3][0],
            k[0][1] | k[1][1] | k[2][1] | k[3][1],
        ];
    }

    /// The scan of `fish` (both colours' bitboards), given this scan of a board that differs
    /// from it on squares `a` and `b` only (a move's start and target): every line through
    /// one of them is scanned again (a capture depends on its own line only), the rest is
    /// kept. In place, as the scan cache wants it.
    #[inline(always)]
    fn redo_lines(&mut self, fish: [u128; 2], a: usize, b: usize) {
        let occ = fish[0] | fish[1];
        let (a, b) = (a & 127, b & 127);
        macro_rules! kind {
            ($k:literal) => {{
                let (la, lb) = (
                    TABLES.line_id[a][$k] as usize & 63,
                    TABLES.line_id[b][$k] as usize & 63,
                );
                let (ma, mb) = (LINE_MASK[la], LINE_MASK[lb]);
                let clear = !(ma | mb);
                self.kind[$k][0] &= clear;
                self.kind[$k][1] &= clear;
                let d = (occ & ma).count_ones();
                if d >= 2 {
                    line_captures($k, d, ma, fish, &mut self.kind[$k]);
                }
                if lb != la {
                    let d = (occ & mb).count_ones();
                    if d >= 2 {
                        line_captures($k, d, mb, fish, &mut self.kind[$k]);
                    }
                }
            }};
        }
        kind!(0);
        kind!(1);
        kind!(2);
        kind!(3);
        self.sum();
    }

    /// The scan of `fish` (both colours' bitboards) from this scan of a board that differs
    /// from it on squares `a` and `b` only (see `Scan::redo_lines`).
    pub fn after_move(&self, fish: [u128; 2], a: usize, b: usize) -> Scan {
        let mut s = *self;
        redo_dispatch(&mut s, fish, a, b);
        s
    }

    /// Appends the captures of `state`'s side to move to `out` in generation order (as
    /// [`crate::movegen::captures_into`] lists them); `self` must be the scan of `state`.
    /// False (and nothing appended) if there are more than a game can have.
    pub fn push_mover_captures(&self, state: &State, out: &mut Vec<Move>) -> bool {
        let mover = state.current() as usize;
        let (own, opp) = (state.board().fish[mover].0, state.board().fish[1 - mover].0);
        // Bit tests on the 64-bit halves (square 127, "off the board", is never a fish).
        let halves = [own as u64, (own >> 64) as u64];
        let is_own = |sq: usize| (halves[(sq >> 6) & 1] >> (sq & 63)) & 1 != 0;
        let mut keys = [0u16; MAX_KEPT];
        let mut len = 0;
        for (kind, hits) in self.kind.iter().enumerate() {
            let mut h = hits[mover];
            let (up, down, _) = KIND_DIRS[kind];
            while h != 0 {
                let t = h.trailing_zeros() as usize & 127;
                h &= h - 1;
                // The capture runs along the line through its target: the same count d.
                // The fish that reached it stands d steps back in one of the two
                // directions; when both are the mover's, the path decides.
                let d = state.line_count(t, kind) as usize & 15;
                let row = &TARGETS[t];
                let from_up = row[down * 16 + d] as usize;
                let from_down = row[up * 16 + d] as usize;
                let (a, b) = (is_own(from_up), is_own(from_down));
                let clear = |dir: usize, from: usize| {
                    let path = TABLES.ray[dir][from & 127] ^ TABLES.ray[dir][t] ^ (1u128 << t);
                    path & opp == 0
                };
                let both = a && b;
                for (ok, dir, from) in [(a, up, from_up), (b, down, from_down)] {
                    if !ok || (both && !clear(dir, from)) {
                        continue;
                    }
                    if len == MAX_KEPT {
                        return false;
                    }
                    keys[len] = from as u16 * 8 + GEN_INDEX[dir];
                    len += 1;
                }
            }
        }
        let keys = &mut keys[..len];
        keys.sort_unstable();
        out.extend(keys.iter().map(|&k| {
            let k = k as usize;
            Move::from_square(k / 8, Direction::ALL[GEN_ORDER[k % 8]])
        }));
        true
    }
}

/// The move that led to a position, so that its capture scan can start from the previous
/// position's ([`scan_and_remember`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// Start square of the fish that moved.
    pub from: u8,
    /// Its target square.
    pub to: u8,
    /// Whether it captured a fish there.
    pub captured: bool,
}

/// Log2 of the slots of the per-thread scan cache.
const SLOT_BITS: u32 = 6;

/// One slot of the scan cache: the position's fish bitboards and its scan.
#[derive(Clone, Copy)]
struct Slot {
    fish: [u128; 2],
    scan: Scan,
}

thread_local! {
    /// The last scans on this thread, direct-mapped by the fish bitboards (a hit is exact:
    /// the key is both bitboards, everything a scan depends on). An empty slot holds the
    /// scan of a board without fish, which is correct for that board.
    static SCANS: std::cell::RefCell<Box<[Slot]>> = std::cell::RefCell::new(
        vec![Slot { fish: [0; 2], scan: Scan::EMPTY }; 1 << SLOT_BITS].into_boxed_slice(),
    );
}

/// Empties this thread's scan cache (tests: a scan must not come from an earlier one).
#[cfg(test)]
pub(crate) fn clear_cache() {
    SCANS.with(|c| {
        c.borrow_mut().fill(Slot {
            fish: [0; 2],
            scan: Scan::EMPTY,
        })
    });
}

/// The cache slot of a pair of fish bitboards.
#[inline(always)]
fn slot(fish: [u128; 2]) -> usize {
    let [r, b] = fish;
    let h = (r as u64 ^ (r >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (b as u64 ^ (b >> 64) as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    (h >> (64 - SLOT_BITS)) as usize
}

/// Both fish bitboards of a position.
#[inline(always)]
fn fish_of(state: &State) -> [u128; 2] {
    let b = state.board();
    [b.fish[0].0, b.fish[1].0]
}

/// Both colours' capture targets of `state` (as [`capture_targets_both`]), remembered on this
/// thread: from the cache if this board was scanned lately, else from the scan of the
/// position before `last` (the move that led here) if that one is cached, by rescanning the
/// lines through the move's squares; else by a full scan, from which the previous position's
/// scan is derived and cached too (its other children will start from it).
/// [`recall_captures`] then lists the mover's captures without a new scan.
pub fn scan_and_remember(state: &State, last: Option<LastMove>) -> [u128; 2] {
    let fish = fish_of(state);
    SCANS.with(|c| {
        let mut c = c.borrow_mut();
        let i = slot(fish);
        if c[i].fish == fish {
            return c[i].scan.by;
        }
        let Some(m) = last else {
            let scan = full_scan(state);
            c[i] = Slot { fish, scan };
            return scan.by;
        };
        let (from, to) = (1u128 << (m.from & 127), 1u128 << (m.to & 127));
        let mover = state.current().other() as usize;
        let mut before = fish;
        before[mover] ^= from | to;
        if m.captured {
            before[1 - mover] |= to;
        }
        let j = slot(before);
        if c[j].fish == before {
            c[i] = c[j];
            c[i].fish = fish;
            redo_dispatch(&mut c[i].scan, fish, m.from as usize, m.to as usize);
        } else {
            let scan = full_scan(state);
            c[j] = Slot {
                fish: before,
                scan: scan.after_move(before, m.from as usize, m.to as usize),
            };
            c[i] = Slot { fish, scan };
        }
        c[i].scan.by
    })
}

/// Appends the side to move's captures (in generation order) from this thread's scan
/// cache if it holds this position; false if not (nothing appended).
pub fn recall_captures(state: &State, out: &mut Vec<Move>) -> bool {
    let fish = fish_of(state);
    SCANS.with(|c| {
        let c = c.borrow();
        let e = &c[slot(fish)];
        e.fish == fish && e.scan.push_mover_captures(state, out)
    })
}

/// The captures along the lines `lines` of kind `kind` whose fish count is `d`, in both
/// directions and for both colours, added to `hits` (by colour). Inlined
/// with constant `kind` and `d` into the full scan, so that every shift and mask there is a
/// constant; with a variable `d` for the lines a move changed.
#[inline(always)]
fn line_captures(kind: usize, d: u32, lines: u128, fish: [u128; 2], hits: &mut [u128; 2]) {
    let (up, down, step) = KIND_DIRS[kind];
    let amount = d * step;
    let s = step as i32;
    let dd = d as usize & 15;
    let (red, blue) = (fish[0], fish[1]);
    let from = lines & STEP_OK[up][dd];
    let (r, b) = ((red & from) << amount, (blue & from) << amount);
    if r & blue != 0 {
        hits[0] |= keep_clear_paths(r & blue, blue, up, d, s);
    }
    if b & red != 0 {
        hits[1] |= keep_clear_paths(b & red, red, up, d, s);
    }
    let from = lines & STEP_OK[down][dd];
    let (r, b) = ((red & from) >> amount, (blue & from) >> amount);
    if r & blue != 0 {
        hits[0] |= keep_clear_paths(r & blue, blue, down, d, -s);
    }
    if b & red != 0 {
        hits[1] |= keep_clear_paths(b & red, red, down, d, -s);
    }
}

/// The captures along the lines of kind `KIND`: buckets the lines by fish count, then runs
/// [`line_captures`] for every count of 2 or more that occurs (10 at most: a line has 10
/// squares).
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
                    line_captures(KIND, $d, buckets[$d], fish, &mut scan.kind[KIND]);
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

/// Both colours' captures, by one full pass over the lines.
pub fn scan(state: &State) -> Scan {
    full_scan(state)
}

crate::popcnt::dispatch! {
    /// [`Scan::redo_lines`], with `popcnt` where the CPU has it.
    fn redo_dispatch(scan: &mut Scan, fish: [u128; 2], a: usize, b: usize) -> () = Scan::redo_lines
}

crate::popcnt::dispatch! {
    /// [`scan`], with `popcnt` where the CPU has it.
    fn full_scan(state: &State) -> Scan = scan_impl
}

/// The body of [`scan`].
#[inline(always)]
fn scan_impl(state: &State) -> Scan {
    let fish = fish_of(state);
    let mut scan = Scan::EMPTY;
    kind_captures::<0>(state, fish, &mut scan);
    kind_captures::<1>(state, fish, &mut scan);
    kind_captures::<2>(state, fish, &mut scan);
    kind_captures::<3>(state, fish, &mut scan);
    scan.sum();
    scan
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
                        clear_cache();
                        assert!(!recall_captures(&s, &mut listed));
                        scan_and_remember(&s, None);
                        assert!(recall_captures(&s, &mut listed));
                        assert_eq!(listed, caps, "{c} in\n{s}");
                        // The same board with the other side to move: its captures.
                        let (mut theirs, mut recalled) = (Vec::new(), Vec::new());
                        crate::movegen::captures_into(&s.pass(), &mut theirs);
                        assert!(recall_captures(&s.pass(), &mut recalled));
                        assert_eq!(recalled, theirs, "{c} in\n{s}");
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

    /// The previous position's scan with the lines through a move's squares scanned again
    /// equals the full scan, through the cache or not, the previous position cached or not
    /// (then it is derived from the new one), captures included.
    #[test]
    fn scans_from_the_previous_position_equal_full_scans() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        let (mut moves, mut captures) = (0, 0);
        for game in 0..80 {
            let mut s = State::start(crate::kraken::random_pair(&mut rng));
            for ply in 0..(game % 70) {
                let Some(&m) = s.legal_moves().choose(&mut rng) else {
                    break;
                };
                let to = s.check(m).expect("legal");
                let from = m.square().expect("on the board");
                let captured = s.board().fish_of(s.current().other()).has(to);
                let before = s;
                s = s.apply(m).expect("legal");
                let full = scan(&s);
                let after = scan(&before).after_move(fish_of(&s), from, to);
                assert_eq!(after, full, "{m} from\n{before}");
                let last = LastMove {
                    from: from as u8,
                    to: to as u8,
                    captured,
                };
                // Every other ply the previous position is in the cache, else not.
                clear_cache();
                if ply % 2 == 0 {
                    scan_and_remember(&before, None);
                }
                assert_eq!(scan_and_remember(&s, Some(last)), full.by, "{m}\n{before}");
                for p in [s, before] {
                    if p == before && slot(fish_of(&p)) == slot(fish_of(&s)) {
                        continue; // One slot for both: the new position stays.
                    }
                    let (mut want, mut got) = (Vec::new(), Vec::new());
                    crate::movegen::captures_into(&p, &mut want);
                    assert!(recall_captures(&p, &mut got), "{p}");
                    assert_eq!(got, want, "{p}");
                    assert_eq!(scan_and_remember(&p, None), scan(&p).by);
                }
                moves += 1;
                captures += usize::from(captured);
            }
        }
        assert!(moves > 1000 && captures > 50, "{moves} {captures}");
    }

    /// A target two of the mover's fish reach along one line: both listed when both paths
    /// are clear, only the clear one when an opponent fish blocks the other.
    #[test]
    fn a_target_reached_from_both_sides_lists_each_clear_path() {
        use crate::board::{Board, Field};
        for (fish, want) in [
            // Row 0: RED 1 and 7, BLUE 4: three fish, both reach 4.
            (&[(1, Field::Red), (4, Field::Blue), (7, Field::Red)][..], 2),
            // RED 0 and 8, BLUE 2 and 4: four fish, BLUE 2 blocks RED 0's way to 4.
            (
                &[
                    (0, Field::Red),
                    (2, Field::Blue),
                    (4, Field::Blue),
                    (8, Field::Red),
                ][..],
                1,
            ),
        ] {
            let mut b = Board::empty();
            for &(x, f) in fish {
                b.set(x, 0, f);
            }
            b.set(5, 5, Field::Blue);
            let s = State::from_board(b, 0).unwrap();
            let mut caps = Vec::new();
            crate::movegen::captures_into(&s, &mut caps);
            let to_four: Vec<_> = caps.iter().filter(|m| s.check(**m) == Ok(4)).collect();
            assert_eq!(to_four.len(), want, "{caps:?}");
            clear_cache();
            scan_and_remember(&s, None);
            let mut listed = Vec::new();
            assert!(recall_captures(&s, &mut listed));
            assert_eq!(listed, caps, "{s}");
        }
    }
}
