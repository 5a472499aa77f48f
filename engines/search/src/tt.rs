//! A fixed-size transposition table with two-way buckets.
//!
//! Sized once from a megabyte budget (`--hash-mb`), single-threaded, entries packed: a 32-bit
//! verification key, the best move, a 16-bit score, the draft and a byte holding bound and age.
//! A bucket holds two entries: the probe checks both, the store replaces the matching entry,
//! else the one with the smaller draft (older generations first).
//!
//! [`SharedTable`] is the same table for Lazy SMP: lock-free, shared by every search thread
//! through an `Arc`. Each entry is two `AtomicU64` words, `hash ^ data` and `data` (data = the
//! packed move, score, draft, bound and age); a probe accepts an entry only if the two words
//! agree with its hash, so a torn write by a concurrent store is read as a miss, never as a
//! wrong entry. The search reaches either table through [`Table`].

use crate::alphabeta::{Score, WIN};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

/// What the search needs from a transposition table; implemented by the single-threaded
/// [`TranspositionTable`] and by [`SharedTt`] (a handle on a [`SharedTable`]).
pub trait Table<M> {
    /// Looks `hash` up; `ply` adjusts win/loss scores to distance from the root.
    fn probe(&self, hash: u64, ply: u32) -> Option<Hit<M>>;
    /// Stores a search result for `hash` searched at distance `ply` from the root.
    fn store(&mut self, hash: u64, ply: u32, mv: M, score: Score, depth: u32, bound: Bound);
    /// Starts a new search generation (a no-op for shared handles: the owner of the shared
    /// table advances it once for all threads).
    fn new_search(&mut self);
    /// Forgets everything.
    fn clear(&mut self);
}

/// A move that fits in 32 bits, so that the shared table can store it in an atomic word.
/// `unpack` must accept any bits (a racing write can hand it garbage that passed the check
/// only by chance) and return some value; the search then verifies moves it plays from the
/// table against the legal move list.
pub trait PackedMove: Copy + Default {
    /// The move as 32 bits.
    fn pack(self) -> u32;
    /// The move from [`PackedMove::pack`]'s bits.
    fn unpack(bits: u32) -> Self;
}

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

impl<M: Copy + Default> Table<M> for TranspositionTable<M> {
    fn probe(&self, hash: u64, ply: u32) -> Option<Hit<M>> {
        TranspositionTable::probe(self, hash, ply)
    }
    fn store(&mut self, hash: u64, ply: u32, mv: M, score: Score, depth: u32, bound: Bound) {
        TranspositionTable::store(self, hash, ply, mv, score, depth, bound)
    }
    fn new_search(&mut self) {
        TranspositionTable::new_search(self)
    }
    fn clear(&mut self) {
        TranspositionTable::clear(self)
    }
}

/// A lock-free transposition table shared by the threads of a Lazy SMP search.
#[derive(Debug)]
pub struct SharedTable {
    /// Per entry: `[hash ^ data, data]`; two entries per bucket.
    slots: Vec<[AtomicU64; 2]>,
    buckets: usize,
    generation: AtomicU8,
}

/// Data word layout: move bits 0-31, score 32-47, draft 48-55, meta 56-63 (bound in bits
/// 0-1, 0 = empty, generation in bits 2-7).
fn unpack_data(d: u64) -> (u32, i16, u8, u8) {
    (
        d as u32,
        (d >> 32) as u16 as i16,
        (d >> 48) as u8,
        (d >> 56) as u8,
    )
}

impl SharedTable {
    /// A table using about `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> Self {
        let buckets = ((mb << 20) / 32).max(1);
        Self {
            slots: (0..buckets * 2)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// Forgets everything (call only while no search runs).
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation, for all threads at once.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 0x3f, Ordering::Relaxed);
    }

    /// Number of entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    fn bucket(&self, hash: u64) -> usize {
        (((hash as u128) * (self.buckets as u128)) >> 64) as usize * 2
    }

    fn read(&self, i: usize) -> (u64, u64) {
        let d = self.slots[i][1].load(Ordering::Relaxed);
        (self.slots[i][0].load(Ordering::Relaxed) ^ d, d)
    }

    /// Looks `hash` up; `ply` adjusts win/loss scores to distance from the root.
    pub fn probe<M: PackedMove>(&self, hash: u64, ply: u32) -> Option<Hit<M>> {
        let b = self.bucket(hash);
        (b..b + 2).find_map(|i| {
            let (key, d) = self.read(i);
            let (mv, score, depth, meta) = unpack_data(d);
            (key == hash && meta & 3 != 0).then(|| Hit {
                mv: M::unpack(mv),
                score: from_tt(score as Score, ply),
                depth: depth as u32,
                bound: match meta & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
            })
        })
    }

    /// Stores a search result for `hash` searched at distance `ply` from the root, with the
    /// same replacement rule as [`TranspositionTable::store`].
    #[allow(clippy::too_many_arguments)]
    pub fn store<M: PackedMove>(
        &self,
        hash: u64,
        ply: u32,
        mv: M,
        score: Score,
        depth: u32,
        bound: Bound,
    ) {
        let b = self.bucket(hash);
        let generation = self.generation.load(Ordering::Relaxed);
        let e = [self.read(b), self.read(b + 1)];
        let meta = |d: u64| unpack_data(d).3;
        let value = |d: u64| {
            let (_, _, depth, m) = unpack_data(d);
            let age = (generation.wrapping_sub(m >> 2) & 0x3f) as i32;
            depth as i32 - 8 * age
        };
        let j = if e[0].0 == hash || meta(e[0].1) & 3 == 0 {
            0
        } else if e[1].0 == hash || meta(e[1].1) & 3 == 0 {
            1
        } else if value(e[0].1) <= value(e[1].1) {
            0
        } else {
            1
        };
        let (key, old) = e[j];
        let (_, _, old_depth, old_meta) = unpack_data(old);
        if key == hash && old_meta & 3 == 1 && bound != Bound::Exact && old_depth as u32 > depth + 2
        {
            return;
        }
        let bound_bits: u64 = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let data = mv.pack() as u64
            | ((to_tt(score, ply) as i16 as u16 as u64) << 32)
            | ((depth.min(255) as u64) << 48)
            | ((bound_bits | (generation as u64) << 2) << 56);
        self.slots[b + j][0].store(hash ^ data, Ordering::Relaxed);
        self.slots[b + j][1].store(data, Ordering::Relaxed);
    }
}

/// One search thread's handle on a [`SharedTable`].
#[derive(Clone, Debug)]
pub struct SharedTt(pub Arc<SharedTable>);

impl<M: PackedMove> Table<M> for SharedTt {
    fn probe(&self, hash: u64, ply: u32) -> Option<Hit<M>> {
        self.0.probe(hash, ply)
    }
    fn store(&mut self, hash: u64, ply: u32, mv: M, score: Score, depth: u32, bound: Bound) {
        self.0.store(hash, ply, mv, score, depth, bound)
    }
    fn new_search(&mut self) {}
    fn clear(&mut self) {
        self.0.clear()
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

    impl PackedMove for u16 {
        fn pack(self) -> u32 {
            self as u32
        }
        fn unpack(bits: u32) -> u16 {
            bits as u16
        }
    }

    #[test]
    fn shared_table_round_trips_and_replaces_like_the_plain_one() {
        let tt = SharedTable::new(0);
        assert_eq!(tt.capacity(), 2);
        tt.store(0xdead_beef_0000_0001, 3, 7u16, WIN - 10, 5, Bound::Exact);
        let hit = tt.probe::<u16>(0xdead_beef_0000_0001, 5).expect("stored");
        assert_eq!((hit.mv, hit.depth, hit.bound), (7, 5, Bound::Exact));
        assert_eq!(hit.score, WIN - 12);
        tt.store(2 << 40, 0, 2u16, -20, 4, Bound::Upper);
        assert_eq!(tt.probe::<u16>(2 << 40, 0).map(|h| h.score), Some(-20));
        tt.store(3 << 40, 0, 3u16, 30, 9, Bound::Lower);
        // The shallower entry (draft 4) made room.
        assert!(tt.probe::<u16>(2 << 40, 0).is_none());
        assert!(tt.probe::<u16>(3 << 40, 0).is_some());
        assert!(tt.probe::<u16>(4 << 40, 0).is_none());
        tt.clear();
        assert!(tt.probe::<u16>(3 << 40, 0).is_none());
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
