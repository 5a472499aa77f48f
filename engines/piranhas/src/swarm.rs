//! Swarms: 8-connected sets of same-coloured fish, found by bitwise flood fill.

use crate::bitboard::{Bitboard, NOT_COL0, NOT_COL9};

/// The swarm of `fish` containing the squares of `seed` (a subset of `fish`).
#[inline]
pub fn flood(fish: Bitboard, seed: Bitboard) -> Bitboard {
    Bitboard(flood_raw(fish.0, seed.0))
}

/// [`flood`] on raw bits. Each round grows the set by one king step (the 3×3 dilation: a
/// shift by ±1 with the edge column masked off, then by ±10 for the rows above and below)
/// and keeps only fish; it stops when a round adds nothing, so it runs as many rounds as the
/// swarm is wide from the seed, a handful of word operations each. `fish` lies inside the
/// board, so the bits a shift pushes past square 99 are dropped by `& fish`.
#[inline(always)]
fn flood_raw(fish: u128, seed: u128) -> u128 {
    let mut cur = seed;
    loop {
        let h = cur | ((cur & NOT_COL9) << 1) | ((cur & NOT_COL0) >> 1);
        let next = (h | (h << 10) | (h >> 10)) & fish;
        if next == cur {
            return cur;
        }
        cur = next;
    }
}

/// Size of the largest swarm of `fish` (0 when there is none).
pub fn biggest_swarm(fish: Bitboard) -> u32 {
    biggest_dispatch(fish.0).1
}

/// The largest swarm of `fish` as a set: among swarms of the largest size, the one holding
/// the lowest square (empty when there are no fish).
pub fn biggest_swarm_set(fish: Bitboard) -> Bitboard {
    Bitboard(biggest_dispatch(fish.0).0)
}

crate::popcnt::dispatch! {
    /// The largest swarm of `fish` and its size, with `popcnt` where the CPU has it (the
    /// baseline x86-64 `count_ones` of a `u128` is a long bit trick, run once per swarm).
    fn biggest_dispatch(fish: u128) -> (u128, u32) = biggest_impl
}

/// The body of [`biggest_dispatch`]: flood fills from the lowest fish not yet in a swarm,
/// until the fish left cannot make a larger swarm than the best so far (ties keep the
/// first, i.e. the swarm with the lowest square).
#[inline(always)]
fn biggest_impl(fish: u128) -> (u128, u32) {
    let mut rest = fish;
    let mut left = fish.count_ones();
    let (mut best, mut best_n) = (0u128, 0u32);
    while left > best_n {
        let s = flood_raw(rest, rest & rest.wrapping_neg());
        let n = s.count_ones();
        if n > best_n {
            best = s;
            best_n = n;
        }
        rest ^= s;
        left -= n;
    }
    (best, best_n)
}

crate::popcnt::dispatch! {
    /// What the win evaluation needs of one colour's fish: whether they form one swarm (no
    /// fish counts as connected) and the size of the biggest swarm (all the fish when
    /// connected), in one pass: a single flood fill decides a connected set.
    fn summary(fish: u128) -> (bool, u32) = summary_impl
}

/// The body of [`summary`].
#[inline(always)]
fn summary_impl(fish: u128) -> (bool, u32) {
    if fish == 0 {
        return (true, 0);
    }
    let first = flood_raw(fish, fish & fish.wrapping_neg());
    if first == fish {
        return (true, fish.count_ones());
    }
    // Not connected: the other swarms as in `biggest_impl`, starting from the first one.
    let mut best_n = first.count_ones();
    let mut rest = fish ^ first;
    let mut left = rest.count_ones();
    while left > best_n {
        let s = flood_raw(rest, rest & rest.wrapping_neg());
        let n = s.count_ones();
        best_n = best_n.max(n);
        rest ^= s;
        left -= n;
    }
    (false, best_n)
}

/// The swarms of one colour's fish, kept to [`summary_after`] many one-fish moves of that
/// colour (the last move before the round limit tries every move).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Swarms {
    fish: u128,
    list: [u128; 16],
    len: usize,
}

impl Swarms {
    /// The swarms of `fish` (at most 16 fish, as in the game).
    pub(crate) fn of(fish: u128) -> Swarms {
        let mut sw = Swarms {
            fish,
            list: [0; 16],
            len: 0,
        };
        let mut rest = fish;
        while rest != 0 && sw.len < 16 {
            let s = flood_raw(rest, rest & rest.wrapping_neg());
            sw.list[sw.len] = s;
            sw.len += 1;
            rest ^= s;
        }
        sw
    }
}

crate::popcnt::dispatch! {
    /// [`summary`] of the fish after the fish on `from` moved to the empty (of this colour)
    /// square `to`, from the swarms before the move: one flood fill from `to`, the swarms
    /// that neither held `from` nor joined `to` unchanged, and flood fills only for what is
    /// left of the swarm that held `from`.
    fn summary_after(before: &Swarms, from: usize, to: usize) -> (bool, u32) = summary_after_impl
}

/// The body of [`summary_after`]. Every old swarm without `from` is still connected after
/// the move, so it lies inside the swarm of `to` or is a whole swarm by itself; the rest of
/// the fish are the pieces of the swarm that held `from`.
#[inline(always)]
fn summary_after_impl(before: &Swarms, from: usize, to: usize) -> (bool, u32) {
    let (from_bit, to_bit) = (1u128 << (from & 127), 1u128 << (to & 127));
    if before.len >= 16 || before.fish & from_bit == 0 || before.fish & to_bit != 0 {
        // Not a move of this colour (or too many swarms kept): from scratch.
        return summary_impl(before.fish ^ from_bit ^ to_bit);
    }
    let fish = before.fish ^ from_bit ^ to_bit;
    let joined = flood_raw(fish, to_bit);
    if joined == fish {
        return (true, fish.count_ones());
    }
    let mut best = joined.count_ones();
    let mut rest = fish & !joined;
    for &s in &before.list[..before.len] {
        if s & from_bit == 0 && s & joined == 0 {
            best = best.max(s.count_ones());
            rest &= !s;
        }
    }
    while rest != 0 {
        let piece = flood_raw(rest, rest & rest.wrapping_neg());
        best = best.max(piece.count_ones());
        rest ^= piece;
    }
    (false, best)
}

/// Whether all of `fish` form one swarm; no fish counts as connected.
#[inline]
pub fn is_connected(fish: Bitboard) -> bool {
    let f = fish.0;
    f == 0 || flood_raw(f, f & f.wrapping_neg()) == f
}

/// The swarms of `fish`, largest first.
pub fn swarms(fish: Bitboard) -> Vec<Bitboard> {
    let mut rest = fish;
    let mut out = Vec::new();
    while !rest.is_empty() {
        let s = flood(rest, Bitboard::square(rest.lowest()));
        out.push(s);
        rest ^= s;
    }
    out.sort_by_key(|s| std::cmp::Reverse(s.count()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::SQUARES;

    #[test]
    fn diagonal_chain_is_one_swarm_and_edges_do_not_wrap() {
        let chain = Bitboard::at(0, 0) | Bitboard::at(1, 1) | Bitboard::at(2, 2);
        assert!(is_connected(chain));
        assert_eq!(biggest_swarm(chain), 3);
        // (9,0) and (0,1) are adjacent as indices 9 and 10 but not on the board.
        let wrap = Bitboard::at(9, 0) | Bitboard::at(0, 1);
        assert!(!is_connected(wrap));
        assert_eq!(biggest_swarm(wrap), 1);
        assert_eq!(swarms(wrap).len(), 2);
        assert!(is_connected(Bitboard::EMPTY));
        assert_eq!(biggest_swarm(Bitboard::EMPTY), 0);
    }

    /// The biggest swarm straight from the definition: every swarm by the plain flood
    /// fill on [`Bitboard::dilate`], the first of the largest size (lowest square).
    fn reference_biggest(fish: Bitboard) -> Bitboard {
        let mut rest = fish;
        let mut best = Bitboard::EMPTY;
        while !rest.is_empty() {
            let mut s = Bitboard::square(rest.lowest());
            loop {
                let next = s.dilate() & rest;
                if next == s {
                    break;
                }
                s = next;
            }
            if s.count() > best.count() {
                best = s;
            }
            rest ^= s;
        }
        best
    }

    #[test]
    fn fast_swarm_functions_match_the_definition_on_random_fish() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(19);
        for i in 0..20_000 {
            let count = i % 20;
            // Dense corners now and then, so that big swarms and ties occur.
            let span = [20, 40, 100][i % 3];
            let mut fish = Bitboard::EMPTY;
            while fish.count() < count.min(span) as u32 {
                fish |= Bitboard::square(rng.random_range(0..span));
            }
            let want = reference_biggest(fish);
            assert_eq!(biggest_swarm_set(fish), want, "{fish:?}");
            assert_eq!(biggest_swarm(fish), want.count(), "{fish:?}");
            assert_eq!(is_connected(fish), want == fish, "{fish:?}");
            assert_eq!(summary(fish.0), (want == fish, want.count()), "{fish:?}");
            // Every move of one fish to a free square, summarised from the swarms before.
            if let Some(from) = fish.iter().nth(i % 7) {
                let before = Swarms::of(fish.0);
                for to in (0..SQUARES).filter(|&t| !fish.has(t)).step_by(1 + i % 5) {
                    let after = fish.0 ^ (1u128 << from) ^ (1u128 << to);
                    assert_eq!(
                        summary_after(&before, from, to),
                        summary(after),
                        "{fish:?} {from} {to}"
                    );
                }
            }
        }
    }
}
