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

/// The table: a power-of-two number of two-entry buckets.
pub struct Tt {
    slots: HugeBuf<Bucket>,
    shift: u32,
}

impl Tt {
    /// A table using at most `mb` MiB (at least 1024 buckets).
    pub fn new(mb: usize) -> Self {
        Self::with_bytes(mb.max(1) << 20)
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
        Self {
            slots: HugeBuf::new(buckets, Bucket([Entry::VACANT; 2])),
            shift: 64 - buckets.trailing_zeros(),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(Bucket([Entry::VACANT; 2]));
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Bucket>()
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        // The key is already a multiplicative hash: its high bits are the best mixed.
        (key.rotate_left(17).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
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
        if b[0].moves == EMPTY || new.moves <= b[0].moves {
            // More valuable than the deep slot: demote the old one.
            b[1] = b[0];
            b[0] = new;
        } else {
            b[1] = new;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
