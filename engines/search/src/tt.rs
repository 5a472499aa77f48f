//! A fixed-size transposition table with two-way buckets.
//!
//! Sized once from a megabyte budget (`--hash-mb`), single-threaded, entries packed: a 32-bit
//! verification key, the best move, a 16-bit score, the draft and a byte holding bound and age.
//! A bucket holds two entries: the probe checks both, the store replaces the matching entry,
//! else the one with the smaller draft (older generations first).

use crate::alphabeta::{Score, WIN};

/// Which side of the true value a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact minimax value (a PV node).
    Exact,
    /// A lower bound (the search failed high).
    Lower,
    /// An upper bound (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
struct Slot<M> {
    key: u32,
    mv: M,
    score: i16,
    depth: u8,
    /// bits 0-1: bound (0 = empty), bits 2-7: generation.
    meta: u8,
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit<M> {
    /// The move that was best (or caused the cutoff); `M::default()` when unknown.
    pub mv: M,
    /// The stored score, already adjusted to the probing ply.
    pub score: Score,
    /// The draft of the stored search.
    pub depth: u32,
    /// Which bound the score is.
    pub bound: Bound,
}

/// A transposition table keyed by 64-bit position hashes.
#[derive(Debug)]
pub struct TranspositionTable<M> {
    slots: Vec<Slot<M>>,
    buckets: usize,
    generation: u8,
}

impl<M: Copy + Default> TranspositionTable<M> {
    /// A table using about `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> Self {
        let slot = std::mem::size_of::<Slot<M>>().max(1);
        let buckets = ((mb << 20) / (2 * slot)).max(1);
        Self {
            slots: vec![Slot::default(); buckets * 2],
            buckets,
            generation: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.generation = 0;
    }

    /// Starts a new search generation, so that old entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
    }

    /// Number of entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    fn bucket(&self, hash: u64) -> usize {
        (((hash as u128) * (self.buckets as u128)) >> 64) as usize * 2
    }

    /// Looks `hash` up; `ply` adjusts win/loss scores to distance from the root.
    pub fn probe(&self, hash: u64, ply: u32) -> Option<Hit<M>> {
        let key = (hash >> 32) as u32;
        let b = self.bucket(hash);
        self.slots[b..b + 2]
            .iter()
            .find(|s| s.meta & 3 != 0 && s.key == key)
            .map(|s| Hit {
                mv: s.mv,
                score: from_tt(s.score as Score, ply),
                depth: s.depth as u32,
                bound: match s.meta & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
            })
    }

    /// Stores a search result for `hash` searched at distance `ply` from the root.
    pub fn store(&mut self, hash: u64, ply: u32, mv: M, score: Score, depth: u32, bound: Bound) {
        let key = (hash >> 32) as u32;
        let b = self.bucket(hash);
        let generation = self.generation;
        let value = |s: &Slot<M>| {
            let age = (generation.wrapping_sub(s.meta >> 2) & 0x3f) as i32;
            s.depth as i32 - 8 * age
        };
        let i = if self.slots[b].key == key || self.slots[b].meta & 3 == 0 {
            b
        } else if self.slots[b + 1].key == key || self.slots[b + 1].meta & 3 == 0 {
            b + 1
        } else if value(&self.slots[b]) <= value(&self.slots[b + 1]) {
            b
        } else {
            b + 1
        };
        let slot = &mut self.slots[i];
        // Keep a deeper exact entry of the same position unless this one is exact too.
        if slot.key == key
            && slot.meta & 3 == 1
            && bound != Bound::Exact
            && slot.depth as u32 > depth + 2
        {
            return;
        }
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *slot = Slot {
            key,
            mv,
            score: to_tt(score, ply) as i16,
            depth: depth.min(255) as u8,
            meta: bound_bits | (generation << 2),
        };
    }
}

/// Win/loss scores are stored relative to the node, not the root.
fn to_tt(score: Score, ply: u32) -> Score {
    let ply = ply as Score;
    if score >= WIN - 1000 {
        score + ply
    } else if score <= -(WIN - 1000) {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: Score, ply: u32) -> Score {
    let ply = ply as Score;
    if score >= WIN - 1000 {
        score - ply
    } else if score <= -(WIN - 1000) {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe_round_trips_and_adjusts_win_scores() {
        let mut tt = TranspositionTable::<u16>::new(1);
        tt.store(0xdead_beef_0000_0001, 3, 7, WIN - 10, 5, Bound::Exact);
        let hit = tt.probe(0xdead_beef_0000_0001, 5).expect("stored");
        assert_eq!(hit.mv, 7);
        assert_eq!(hit.depth, 5);
        assert_eq!(hit.bound, Bound::Exact);
        // WIN - 10 seen from ply 3 is a win 7 plies below the node; from ply 5 that is WIN - 12.
        assert_eq!(hit.score, WIN - 12);
        assert!(tt.probe(0x1234_5678_0000_0001, 0).is_none());
    }

    #[test]
    fn bucket_keeps_two_entries() {
        let mut tt = TranspositionTable::<u16>::new(0);
        assert_eq!(tt.capacity(), 2);
        tt.store(1 << 40, 0, 1, 10, 3, Bound::Lower);
        tt.store(2 << 40, 0, 2, 20, 4, Bound::Upper);
        assert_eq!(tt.probe(1 << 40, 0).map(|h| h.mv), Some(1));
        assert_eq!(tt.probe(2 << 40, 0).map(|h| h.bound), Some(Bound::Upper));
        // A third position evicts the shallower one.
        tt.store(3 << 40, 0, 3, 30, 9, Bound::Exact);
        assert!(tt.probe(1 << 40, 0).is_none());
        assert!(tt.probe(2 << 40, 0).is_some() && tt.probe(3 << 40, 0).is_some());
    }
}
