//! ABDADA's shared set of the positions being searched right now.

use std::sync::atomic::{AtomicU64, Ordering};

/// The positions the threads of a parallel solve are searching right now (one key per
/// slot, hashed; a collision only changes the move order, never a result).
pub struct Busy {
    slots: Vec<AtomicU64>,
}

/// Slots of [`Busy`] (a power of two).
const BUSY_SLOTS: usize = 1 << 14;

impl Busy {
    pub(super) fn new() -> Self {
        Self {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50) as usize & (BUSY_SLOTS - 1)]
    }

    /// Whether some thread is searching the position of `key`.
    #[inline(always)]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` as being searched.
    #[inline(always)]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Unmarks `key` (unless another position took the slot meanwhile). A plain load and
    /// store, not a locked compare-and-swap: a mark lost or left behind by a race only
    /// changes the move order of a node.
    #[inline(always)]
    pub fn leave(&self, key: u64) {
        let slot = self.slot(key);
        if slot.load(Ordering::Relaxed) == key {
            slot.store(0, Ordering::Relaxed);
        }
    }
}
