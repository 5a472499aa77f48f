//! Two-tier transposition table for the exact solver.
//!
//! Each bucket holds two entries: a *deep* slot that keeps the most valuable position seen
//! (fewest stones on the board, i.e. the biggest subtree) and an *always-replace* slot for the
//! rest. An entry keeps both a lower and an upper bound on the exact score plus the best move
//! found, so fail-high and fail-low results of null-window searches meet in one entry and
//! tighten into an exact score.
//!
//! The table lives in huge pages where possible ([`crate::hugemem`]).
//!
//! A fresh (or cleared) table starts small, [`START_BYTES`], and doubles in place whenever
//! half of its entries are in use, up to the size it was made with. Small searches then
//! stay inside the CPU caches instead of probing a random line of a big table at every
//! node, and clearing costs only the part in use. Doubling keeps every entry: the bucket
//! index is the top bits of a mixed key, so bucket `i` splits into `2i` and `2i + 1`.
//!
//! Keys are the 64-bit [`crate::bitboard::Bits::hash64`] of the position key; for boards that
//! fit a `u64` that hash is a bijection, so there are no false hits at all.

use crate::hugemem::HugeBuf;

/// One stored position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Entry {
    /// Full 64-bit key.
    pub key: u64,
    /// The exact score is at least this.
    pub lower: i8,
    /// The exact score is at most this.
    pub upper: i8,
    /// Best column found (`NO_MOVE` when unknown), in the orientation of the stored key.
    pub best: u8,
    /// Stones on the board (`EMPTY` marks an unused slot).
    pub moves: u8,
}

/// Marks "no best move" in [`Entry::best`].
pub const NO_MOVE: u8 = u8::MAX;
const EMPTY: u8 = u8::MAX;

impl Entry {
    const VACANT: Entry = Entry {
        key: 0,
        lower: i8::MIN,
        upper: i8::MAX,
        best: NO_MOVE,
        moves: EMPTY,
    };
}

/// Two entries on one half cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Bucket([Entry; 2]);

impl std::ops::Index<usize> for Bucket {
    type Output = Entry;
    fn index(&self, i: usize) -> &Entry {
        &self.0[i]
    }
}

/// Size a fresh or cleared table starts with (it fits the L2 cache of most CPUs).
pub const START_BYTES: usize = 512 << 10;

/// The table: a power-of-two number of two-entry buckets, of which the first
/// `2^(64 - shift)` are in use.
pub struct Tt {
    slots: HugeBuf<Bucket>,
    /// Buckets in use: `2^(64 - shift)`.
    shift: u32,
    /// `shift` of the whole allocation (the most the table grows to).
    min_shift: u32,
    /// `shift` after a clear.
    start_shift: u32,
    /// Occupied entries in the part in use.
    used: usize,
}

impl Tt {
    /// A table using at most `mb` MiB (at least 1024 buckets).
    pub fn new(mb: usize) -> Self {
        Self::with_bytes(mb.max(1) << 20)
    }

    /// A table of `mb` MiB in use from the start, also after a clear: it never grows, so no
    /// probe or store ever pays for a doubling (for searches under a clock).
    pub fn new_full(mb: usize) -> Self {
        let mut t = Self::new(mb);
        t.start_shift = t.min_shift;
        t.shift = t.min_shift;
        t
    }

    /// A table using at most `bytes` bytes (at least 1024 buckets), e.g. a small one meant
    /// to stay in the CPU caches.
    pub fn with_bytes(bytes: usize) -> Self {
        let buckets = (bytes / std::mem::size_of::<Bucket>()).max(1024);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        let min_shift = 64 - buckets.trailing_zeros();
        let start = (START_BYTES / std::mem::size_of::<Bucket>()).clamp(1024, buckets);
        let start_shift = 64 - start.trailing_zeros();
        Self {
            slots: HugeBuf::new(buckets, Bucket([Entry::VACANT; 2])),
            shift: start_shift,
            min_shift,
            start_shift,
            used: 0,
        }
    }

    /// Forgets everything; the table starts small again. Costs only the part in use (the
    /// rest is rewritten when the table grows into it).
    pub fn clear(&mut self) {
        let n = self.buckets_in_use();
        self.slots[..n].fill(Bucket([Entry::VACANT; 2]));
        self.shift = self.start_shift;
        self.used = 0;
    }

    /// Buckets currently in use.
    #[inline(always)]
    fn buckets_in_use(&self) -> usize {
        1usize << (64 - self.shift)
    }

    /// Bytes currently in use (grows with the search, up to [`Self::bytes`]).
    pub fn bytes_in_use(&self) -> usize {
        self.buckets_in_use() * std::mem::size_of::<Bucket>()
    }

    /// Doubles the part in use, moving every entry of bucket `i` to bucket `2i` or
    /// `2i + 1` (from the top down, so no bucket is overwritten before it is moved).
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let n = self.buckets_in_use();
        let shift = self.shift - 1;
        for i in (0..n).rev() {
            let old = self.slots[i];
            let mut halves = [Bucket([Entry::VACANT; 2]); 2];
            for e in old.0 {
                if e.moves != EMPTY {
                    let half = (Self::mix(e.key) >> shift) as usize & 1;
                    let b = &mut halves[half].0;
                    let j = usize::from(b[0].moves != EMPTY);
                    b[j] = e;
                }
            }
            self.slots[2 * i] = halves[0];
            self.slots[2 * i + 1] = halves[1];
        }
        self.shift = shift;
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Bucket>()
    }

    /// The key remixed; its top bits index the bucket.
    #[inline(always)]
    fn mix(key: u64) -> u64 {
        // The key is already a multiplicative hash: its high bits are the best mixed.
        key.rotate_left(17).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (Self::mix(key) >> self.shift) as usize
    }

    /// Hints the CPU to fetch the bucket of `key` (used before the entry is needed).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.slots[self.bucket(key)] as *const Bucket as *const i8;
            // SAFETY: prefetching is a pure hint on a valid pointer into our own vector.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = &self.slots[self.bucket(key)];
        if b[0].key == key && b[0].moves != EMPTY {
            Some(b[0])
        } else if b[1].key == key && b[1].moves != EMPTY {
            Some(b[1])
        } else {
            None
        }
    }

    /// Stores bounds for `key`, merging with what is already known about it.
    #[inline]
    pub fn store(&mut self, key: u64, moves: u32, lower: i32, upper: i32, best: u8) {
        let i = self.bucket(key);
        let b = &mut self.slots[i].0;
        let lower = lower.clamp(i8::MIN as i32, i8::MAX as i32) as i8;
        let upper = upper.clamp(i8::MIN as i32, i8::MAX as i32) as i8;
        for e in b.iter_mut() {
            if e.key == key && e.moves != EMPTY {
                e.lower = e.lower.max(lower);
                e.upper = e.upper.min(upper);
                if best != NO_MOVE {
                    e.best = best;
                }
                return;
            }
        }
        let new = Entry {
            key,
            lower,
            upper,
            best,
            moves: moves as u8,
        };
        let fills = usize::from(b[0].moves == EMPTY) + usize::from(b[1].moves == EMPTY) > 0;
        if b[0].moves == EMPTY || new.moves <= b[0].moves {
            // More valuable than the deep slot: demote the old one.
            b[1] = b[0];
            b[0] = new;
        } else {
            b[1] = new;
        }
        if fills {
            self.used += 1;
            // Half the entries in use: double while there is room (growing earlier costs more
            // copying and cache than the extra collisions it avoids).
            if self.used > self.buckets_in_use() && self.shift > self.min_shift {
                self.grow();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bits;

    #[test]
    fn bounds_merge_and_deep_slot_survives() {
        let mut tt = Tt::new(1);
        tt.store(42, 10, -5, 3, 2);
        tt.store(42, 10, -1, 7, NO_MOVE);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (-1, 3, 2));
        assert!(tt.probe(43).is_none());
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn a_full_table_is_in_use_from_the_start_and_after_a_clear() {
        let mut tt = Tt::new_full(8);
        assert_eq!(tt.bytes_in_use(), tt.bytes());
        tt.store(42, 10, -5, 3, 2);
        tt.clear();
        assert_eq!(tt.bytes_in_use(), tt.bytes());
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn growing_keeps_every_entry_and_clear_shrinks() {
        let mut tt = Tt::new(8);
        let start = tt.bytes_in_use();
        assert!(start < tt.bytes());
        let keys: Vec<u64> = (1..=3_000u64).map(Bits::hash64).collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, (i % 40) as u32, -(i as i32 % 7), 5, (i % 7) as u8);
        }
        let kept: Vec<u64> = keys
            .iter()
            .copied()
            .filter(|&k| tt.probe(k).is_some())
            .collect();
        assert!(kept.len() * 100 >= keys.len() * 99, "{} kept", kept.len());
        for _ in 0..3 {
            tt.grow();
        }
        assert_eq!(tt.bytes_in_use(), 8 * start);
        let after: Vec<u64> = keys
            .iter()
            .copied()
            .filter(|&k| tt.probe(k).is_some())
            .collect();
        assert_eq!(kept, after, "doubling loses no entry");
        for (i, &k) in keys.iter().enumerate() {
            if let Some(e) = tt.probe(k) {
                assert_eq!(
                    (e.lower, e.upper, e.best),
                    (-((i % 7) as i8), 5, (i % 7) as u8)
                );
            }
        }
        // Filling the table makes it grow by itself.
        for k in 10_000..200_000u64 {
            tt.store(k.hash64(), 20, 0, 0, NO_MOVE);
        }
        assert!(tt.bytes_in_use() > 8 * start);
        tt.clear();
        assert_eq!(tt.bytes_in_use(), start);
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    }
}
