//! Static evaluation: what decides Piranhas is how close each colour is to one swarm.
//!
//! Per colour: the share of fish in the biggest swarm, the number of swarms, how concentrated
//! the fish are (mean Chebyshev distance to their centre of mass, weighted by game phase),
//! fish on the rim, mobility, fish the opponent can capture, and, towards the round limit, the
//! absolute size of the biggest swarm (turn 60 compares absolute sizes), stragglers and the
//! gap to the next union, fish without a neighbour and the second swarm's size. The score is
//! the difference between the side to move and the opponent, plus a tempo bonus and a colour
//! term (BLUE moves last).
//!
//! From turn 30 on, `v5` adds the round-limit terms of issue 38 ([`limit_sides`]): the
//! projected turn-60 biggest-swarm difference, its sign, and the fish of each biggest swarm the
//! opponent can capture, all ramping up to turn 60 (`v5`; it played worse than `v4`).
//!
//! Every weight is a named field of [`EvalParams`], settable by name (`--param name=value`).

use crate::bitboard::{Bitboard, BOARD_MASK, NOT_COL0, NOT_COL9};
use crate::board::Color;
use crate::captures::LastMove;
use crate::movegen::for_each_move;
use crate::state::{State, MAX_TURN};
use crate::swarm::biggest_swarm_set;

pub use crate::weights::EvalParams;

/// The outer ring: columns 0 and 9, rows 0 and 9.
const RIM: u128 = (BOARD_MASK & !(NOT_COL0 & NOT_COL9)) | 0x3ff | (0x3ff << 90);

/// Per-colour features (integers, before weighting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Fish count.
    pub fish: u32,
    /// Biggest swarm.
    pub biggest: u32,
    /// Number of swarms.
    pub groups: u32,
    /// Σ over fish of n·(Chebyshev distance to the centre of mass); mean = `spread / n²`.
    pub spread: u32,
    /// Fish on the outer ring.
    pub rim: u32,
    /// Σ over fish outside the biggest swarm of (king distance to it − 1).
    pub join: u32,
    /// King distance − 1 from the biggest swarm to the nearest other fish (0 if none).
    pub gap: u32,
    /// Fish with no neighbour of their colour.
    pub isolated: u32,
    /// Size of the second-biggest swarm (0 with one swarm).
    pub second: u32,
}

/// Computes the static features of one colour's fish.
pub fn features(fish: Bitboard) -> Features {
    let (mut sx, mut sy) = (0u32, 0u32);
    for sq in fish.iter() {
        sx += (sq % 10) as u32;
        sy += (sq / 10) as u32;
    }
    features_with_sums(fish, (sx, sy))
}

/// `(x, y)` of every square (index `x + 10·y`; entries 100..127 unused).
static SQ_XY: [(u8, u8); 128] = {
    let mut t = [(0u8, 0u8); 128];
    let mut sq = 0;
    while sq < 100 {
        t[sq] = ((sq % 10) as u8, (sq / 10) as u8);
        sq += 1;
    }
    t
};

/// The 3×3 dilation of `s` without clearing bits 100..127: callers intersect with a subset of
/// the board, so those bits never matter (and a shift by 10 cannot wrap a row).
#[inline(always)]
fn dilate_raw(s: u128) -> u128 {
    let h = s | ((s & NOT_COL9) << 1) | ((s & NOT_COL0) >> 1);
    h | (h << 10) | (h >> 10)
}

crate::popcnt::dispatch! {
    /// [`features`] with the coordinate sums (Σ x, Σ y) already known.
    fn features_with_sums(fish: Bitboard, sums: (u32, u32)) -> Features = features_all
}

crate::popcnt::dispatch! {
    /// [`features_with_sums`] without [`Features::join`] (left 0): the distances of the
    /// stragglers are followed only to the nearest one ([`Features::gap`]). The default
    /// weights do not use `join`, and its rings are a good part of the features' cost.
    fn features_without_join(fish: Bitboard, sums: (u32, u32)) -> Features = features_lean
}

/// Every feature ([`features_with_sums`]).
#[inline(always)]
fn features_all(fish: Bitboard, sums: (u32, u32)) -> Features {
    features_impl(fish, sums, true)
}

/// Every feature but `join` ([`features_without_join`]).
#[inline(always)]
fn features_lean(fish: Bitboard, sums: (u32, u32)) -> Features {
    features_impl(fish, sums, false)
}

/// The body of [`features_with_sums`] (with `join`) and [`features_without_join`].
#[inline(always)]
fn features_impl(fish: Bitboard, sums: (u32, u32), join: bool) -> Features {
    let all = fish.0;
    let n = all.count_ones();
    let mut f = Features {
        fish: n,
        rim: (all & RIM).count_ones(),
        ..Features::default()
    };
    if n == 0 {
        return f;
    }
    // Fish with no neighbour are swarms of one: counted at once, without a flood fill each
    // (whose data-dependent loop exit is a branch mispredict).
    let row = ((all & NOT_COL9) << 1) | ((all & NOT_COL0) >> 1);
    let with_self = row | all;
    let isolated = all & !(row | (with_self << 10) | (with_self >> 10));
    f.groups = isolated.count_ones();
    f.isolated = f.groups;
    // The other swarms by flood fill from the lowest fish not yet in a swarm. The biggest
    // swarm is the first one found (lowest square) of the largest size.
    let mut rest = all ^ isolated;
    let mut main = 0u128;
    while rest != 0 {
        let mut cur = rest & rest.wrapping_neg();
        loop {
            let next = dilate_raw(cur) & rest;
            if next == cur {
                break;
            }
            cur = next;
        }
        let size = cur.count_ones();
        if size > f.biggest {
            f.second = f.biggest;
            f.biggest = size;
            main = cur;
        } else if size > f.second {
            f.second = size;
        }
        f.groups += 1;
        rest ^= cur;
    }
    if main == 0 {
        // Every fish is alone: the biggest swarm is the lowest fish.
        f.biggest = 1;
        main = all & all.wrapping_neg();
    }
    if f.second == 0 && f.isolated > u32::from(f.biggest == 1) {
        f.second = 1;
    }
    // Distance of the stragglers to the biggest swarm, by repeated dilation: after k
    // dilations every straggler not yet reached is more than k steps away.
    if f.groups > 1 {
        let mut reach = dilate_raw(main);
        let first = all & !reach;
        let mut out = first;
        if join {
            while out != 0 {
                if out == first {
                    f.gap += 1;
                }
                f.join += out.count_ones();
                reach = dilate_raw(reach);
                out &= !reach;
            }
        } else {
            // Only up to the ring that reaches the nearest straggler.
            while out != 0 && out == first {
                f.gap += 1;
                reach = dilate_raw(reach);
                out &= !reach;
            }
        }
    }
    let (sx, sy) = (sums.0 as i32, sums.1 as i32);
    let n = n as i32;
    // Square by square over the two 64-bit halves: clearing the lowest bit of a `u64` is one
    // instruction, of a `u128` a handful.
    for (half, base) in [(all as u64, 0usize), ((all >> 64) as u64, 64)] {
        let mut bits = half;
        while bits != 0 {
            let sq = base + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (x, y) = SQ_XY[sq & 127];
            let dx = (n * x as i32 - sx).abs();
            let dy = (n * y as i32 - sy).abs();
            f.spread += dx.max(dy) as u32;
        }
    }
    f
}

/// Log2 of the per-thread feature cache's size.
const CACHE_BITS: u32 = 12;
/// Entries of the per-thread feature cache.
const CACHE_SIZE: usize = 1 << CACHE_BITS;

/// One cache entry: the fish bitboard and its [`Features`] packed into 16 bytes, so that an
/// entry is 32 bytes (two per cache line; 4096 entries are 128 KiB, within L2: measured faster than 8K or 16K).
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Entry {
    key: u128,
    spread: u16,
    join: u16,
    /// fish, biggest, groups, rim, gap, isolated, second.
    small: [u8; 7],
}

impl Entry {
    /// `join` not computed ([`features_without_join`]).
    const NO_JOIN: u16 = u16::MAX;

    /// The entry of `key`'s features; `with_join`: whether `f.join` was computed.
    fn pack(key: u128, f: &Features, with_join: bool) -> Entry {
        // Bounds: 16 fish, spread ≤ 16·16·9, join ≤ 16·9, gap ≤ 9.
        Entry {
            key,
            spread: f.spread as u16,
            join: if with_join {
                f.join as u16
            } else {
                Self::NO_JOIN
            },
            small: [
                f.fish as u8,
                f.biggest as u8,
                f.groups as u8,
                f.rim as u8,
                f.gap as u8,
                f.isolated as u8,
                f.second as u8,
            ],
        }
    }

    fn unpack(&self) -> Features {
        Features {
            fish: self.small[0] as u32,
            biggest: self.small[1] as u32,
            groups: self.small[2] as u32,
            spread: self.spread as u32,
            rim: self.small[3] as u32,
            join: if self.join == Self::NO_JOIN {
                0
            } else {
                self.join as u32
            },
            gap: self.small[4] as u32,
            isolated: self.small[5] as u32,
            second: self.small[6] as u32,
        }
    }
}

thread_local! {
    /// A direct-mapped cache of [`features`] keyed by the exact fish bitboard (no collisions
    /// possible: the key is the whole board of one colour). Siblings in the search share the
    /// bitboard of the colour that did not move, so about half the lookups hit. Key 0 (no
    /// fish) maps to the default features, which are those of no fish.
    static CACHE: std::cell::RefCell<Box<[Entry]>> =
        std::cell::RefCell::new(vec![Entry::default(); CACHE_SIZE].into_boxed_slice());
}

/// [`features`] through the per-thread cache.
#[inline]
pub fn cached_features(fish: Bitboard, sums: (u32, u32)) -> Features {
    cached_features_with(fish, sums, true)
}

/// [`cached_features`]; with `join` false the caller does not read [`Features::join`]
/// (it may be 0): the features are computed without it when not cached.
#[inline]
pub fn cached_features_with(fish: Bitboard, sums: (u32, u32), join: bool) -> Features {
    let k = fish.0;
    let h = ((k as u64) ^ ((k >> 64) as u64).rotate_left(17)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let i = (h >> (64 - CACHE_BITS)) as usize & (CACHE_SIZE - 1);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let e = &mut c[i];
        if e.key == k && (!join || e.join != Entry::NO_JOIN) {
            return e.unpack();
        }
        let f = if join {
            features_with_sums(fish, sums)
        } else {
            features_without_join(fish, sums)
        };
        *e = Entry::pack(k, &f, join);
        f
    })
}

/// [`State::result`] with the swarm figures (connected: at most one swarm; the biggest
/// swarm) taken from the feature cache: the search asks for the result of every node after
/// BLUE's moves, and the evaluation of the same bitboards usually has them cached already.
#[inline]
pub fn cached_result(s: &State) -> Option<crate::GameResult> {
    if s.turn() % 2 == 1 {
        return None;
    }
    if s.turn() >= MAX_TURN as u32 {
        // The game is over here and nothing evaluates this position: the two swarm figures
        // alone, without computing (and caching) every feature.
        let [red, blue] = [0, 1].map(|c| crate::swarm::summary(s.board().fish[c].0));
        return crate::result::decide(s.turn(), [red.0, blue.0], [red.1, blue.1]);
    }
    let f = |c: Color| cached_features_with(s.board().fish_of(c), s.coordinate_sums(c), false);
    let (red, blue) = (f(Color::Red), f(Color::Blue));
    crate::result::decide(
        s.turn(),
        [red.groups <= 1, blue.groups <= 1],
        [red.biggest, blue.biggest],
    )
}

/// Opponent fish that the fish of `c` can capture with one legal move.
pub fn captures(state: &State, c: Color) -> Bitboard {
    Bitboard(crate::movegen::capture_targets(state, c))
}

/// The first turn of the round-limit terms (`proj`, `outcome`, `exposed`): they ramp linearly
/// from 0 here to their full weight at turn 60. Turn 30 fitted better than 35 or 40
/// (validation MSE on 40,244 replayed positions from turn 30 on: 0.1695 / 0.1723 / 0.1754;
/// tuning/piranhas_limit_fit.py).
pub const LIMIT_FROM: u32 = 30;

/// Moves `c` still makes before the round limit when `turn` moves have been made (RED moves
/// on even turns, BLUE on odd ones, the last move is BLUE's at turn 59).
pub fn moves_left(turn: u32, c: Color) -> u32 {
    let turn = turn.min(MAX_TURN as u32);
    let own = turn.is_multiple_of(2) == (c == Color::Red);
    let first = if own { turn } else { turn + 1 };
    (MAX_TURN as u32).saturating_sub(first).div_ceil(2)
}

/// What the round limit will compare, for one colour (the inputs of the `v5` terms).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LimitSide {
    /// Moves this colour makes before turn 60 ([`moves_left`]).
    pub moves_left: u32,
    /// Size of its biggest swarm now.
    pub biggest: u32,
    /// The biggest swarm at turn 60 if each of the moves both colours still make joined one
    /// more fish to it: biggest + min((60 − turn) / 2, fish outside it). The same number of
    /// moves for both colours, whoever is to move: counting BLUE's extra move only when BLUE
    /// is to move made the score jump by a whole fish between plies (both countings lost to
    /// `v4` at fixed nodes, see tuning/README.md); BLUE's last move itself is solved by the
    /// search (`end_plies`).
    pub projected: u32,
    /// Fish of its biggest swarm that the opponent can capture with one move now.
    pub exposed: u32,
}

/// [`LimitSide`] of RED and BLUE (indexed by `Color as usize`); `hits[c]` are the opponent
/// fish that colour `c` can capture with one move (as [`crate::captures::scan_and_remember`]
/// returns them).
pub fn limit_sides(state: &State, hits: [u128; 2]) -> [LimitSide; 2] {
    let side = |c: Color| {
        let fish = state.board().fish_of(c);
        let main = biggest_swarm_set(fish);
        let biggest = main.count();
        let both = (MAX_TURN as u32).saturating_sub(state.turn()) / 2;
        LimitSide {
            moves_left: moves_left(state.turn(), c),
            biggest,
            projected: biggest + both.min(fish.count() - biggest),
            exposed: (main.0 & hits[c.other() as usize]).count_ones(),
        }
    };
    [side(Color::Red), side(Color::Blue)]
}

/// The round-limit features from the side to move's view, before weighting and ramp: the
/// projected difference, its sign and the exposed fish (own minus the opponent's).
pub fn limit_terms(state: &State, hits: [u128; 2]) -> [i64; 3] {
    let me = state.current();
    let sides = limit_sides(state, hits);
    let (a, b) = (sides[me as usize], sides[me.other() as usize]);
    let d = a.projected as i64 - b.projected as i64;
    [d, d.signum(), a.exposed as i64 - b.exposed as i64]
}

/// Evaluates `state` from the side to move's view.
pub fn evaluate(state: &State, p: &EvalParams) -> i32 {
    evaluate_after(state, p, None)
}

/// [`evaluate`], told the move that led to `state` (if known), so that the capture scan can
/// start from the previous position's ([`crate::captures::scan_and_remember`]); the value
/// is the same.
pub fn evaluate_after(state: &State, p: &EvalParams, last: Option<LastMove>) -> i32 {
    let me = state.current();
    let turn = state.turn().min(MAX_TURN as u32) as i64;
    let conc = p.conc_open as i64 + (p.conc_end as i64 - p.conc_open as i64) * turn / 60;
    let side = |c: Color| -> i64 {
        let f = cached_features_with(
            state.board().fish_of(c),
            state.coordinate_sums(c),
            p.join != 0,
        );
        if f.fish == 0 {
            return 0;
        }
        let n = f.fish as i64;
        div_small(p.swarm_share as i64 * f.biggest as i64, n)
            - p.groups as i64 * (f.groups as i64 - 1)
            - div_small(conc * f.spread as i64, n * n)
            - p.rim as i64 * f.rim as i64
            + p.fish as i64 * n
            + p.big_late as i64 * f.biggest as i64 * turn / 60
            - p.join as i64 * f.join as i64
            - p.stragglers as i64 * (n - f.biggest as i64)
            - p.gap as i64 * f.gap as i64
            + p.limit as i64 * f.biggest as i64 * (turn - 40).max(0) / 20
            - p.isolated as i64 * f.isolated as i64
            + p.second as i64 * f.second as i64
    };
    let colour = if me == Color::Blue { p.blue } else { -p.blue };
    let mut score = side(me) - side(me.other()) + p.tempo as i64 + colour as i64;
    let late = turn >= LIMIT_FROM as i64 && (p.proj != 0 || p.outcome != 0 || p.exposed != 0);
    let mut scanned = None;
    if p.mobility == 0 && (p.capturable != 0 || late) {
        let hits = crate::captures::scan_and_remember(state, last);
        let (hits_opp, hits_me) = (hits[me as usize], hits[me.other() as usize]);
        score -= p.capturable as i64 * (hits_me.count_ones() as i64 - hits_opp.count_ones() as i64);
        scanned = Some(hits);
    } else if p.mobility != 0 || p.capturable != 0 {
        let (mob_me, hits_opp) = mobility(state);
        let (mob_opp, hits_me) = mobility(&flipped(state));
        score += p.mobility as i64 * (mob_me as i64 - mob_opp as i64);
        score -= p.capturable as i64 * (hits_me.count() as i64 - hits_opp.count() as i64);
        let mut hits = [0u128; 2];
        hits[me as usize] = hits_opp.0;
        hits[me.other() as usize] = hits_me.0;
        scanned = Some(hits);
    }
    if late {
        let hits = scanned.unwrap_or_else(|| {
            [
                captures(state, Color::Red).0,
                captures(state, Color::Blue).0,
            ]
        });
        let [d, sign, exposed] = limit_terms(state, hits);
        let ramp = turn - LIMIT_FROM as i64;
        let span = MAX_TURN as i64 - LIMIT_FROM as i64;
        score += (p.proj as i64 * d + p.outcome as i64 * sign - p.exposed as i64 * exposed) * ramp
            / span;
    }
    score.clamp(-20_000, 20_000) as i32
}

/// `RECIPROCAL[d]` = ⌈2⁴⁰ / d⌉ for d in 1..=256 (index 0 unused). See [`div_small`].
static RECIPROCAL: [u64; 257] = {
    let mut t = [1u64 << 40; 257];
    let mut d = 1;
    while d < 257 {
        t[d] = (1u64 << 40).div_ceil(d as u64);
        d += 1;
    }
    t
};

/// `num / den` exactly as `/` on `i64` (rounded towards zero). The evaluation divides by
/// the fish count and its square (1..=256) twice per colour; an `i64` division costs tens
/// of cycles on many CPUs, a multiply a few. Fast path for |num| < 2²⁴ and 1 ≤ den ≤ 256:
/// with the rounded-up reciprocal the quotient is off by less than |num| / 2⁴⁰ < 2⁻¹⁶,
/// less than the 1/den gap to the next integer, so it truncates the same; anything else
/// (weights set to huge values) divides.
#[inline(always)]
fn div_small(num: i64, den: i64) -> i64 {
    let a = num.unsigned_abs();
    if a < 1 << 24 && (1..=256).contains(&den) {
        let q = ((a * RECIPROCAL[den as usize]) >> 40) as i64;
        if num < 0 {
            -q
        } else {
            q
        }
    } else {
        num / den
    }
}

/// Legal move count of the side to move and the opponent fish it can capture.
fn mobility(state: &State) -> (u32, Bitboard) {
    let opp = state.board().fish_of(state.current().other());
    let mut n = 0;
    let mut hits = 0u128;
    for_each_move(state, |_, to, _| {
        n += 1;
        hits |= 1u128 << to;
    });
    (n, Bitboard(hits) & opp)
}

/// The same board with the other side to move.
fn flipped(state: &State) -> State {
    state.pass()
}

#[cfg(test)]
mod tests;
