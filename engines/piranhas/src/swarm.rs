//! Swarms: 8-connected sets of same-coloured fish, found by bitwise flood fill.

use crate::bitboard::Bitboard;

/// The swarm of `fish` containing the squares of `seed` (a subset of `fish`).
#[inline]
pub fn flood(fish: Bitboard, seed: Bitboard) -> Bitboard {
    let mut cur = seed;
    loop {
        let next = cur.dilate() & fish;
        if next == cur {
            return cur;
        }
        cur = next;
    }
}

/// Size of the largest swarm of `fish` (0 when there is none).
pub fn biggest_swarm(fish: Bitboard) -> u32 {
    biggest_swarm_set(fish).count()
}

/// The largest swarm of `fish` as a set: among swarms of the largest size, the one holding
/// the lowest square (empty when there are no fish).
pub fn biggest_swarm_set(fish: Bitboard) -> Bitboard {
    let mut rest = fish;
    let mut best = Bitboard::EMPTY;
    while rest.count() > best.count() {
        let s = flood(rest, Bitboard::square(rest.lowest()));
        if s.count() > best.count() {
            best = s;
        }
        rest ^= s;
    }
    best
}

/// Whether all of `fish` form one swarm; no fish counts as connected.
#[inline]
pub fn is_connected(fish: Bitboard) -> bool {
    fish.is_empty() || flood(fish, Bitboard::square(fish.lowest())) == fish
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
}
