//! The moves of a node, kept sorted as they are scored (the search's move ordering).

use std::mem::MaybeUninit;

/// The moves of one node as sortable keys (score in the high bits, column in the low six),
/// best first; a fixed array, since a geometry has at most 64 columns (each column takes at
/// least two of at most 128 bits).
pub(super) struct MoveList {
    /// The first `len` are initialised.
    keys: [MaybeUninit<u64>; 64],
    len: usize,
}

impl MoveList {
    /// An empty list, with its keys left unwritten. Built in place rather than from a
    /// struct literal: the literal's constant (undefined keys, zero length) was lowered
    /// to a 520-byte zero `memset` at every node (issue 39, callgrind).
    #[inline(always)]
    pub(super) fn new() -> Self {
        let mut list = MaybeUninit::<Self>::uninit();
        // SAFETY: `keys` is an array of `MaybeUninit`, valid unwritten; `len` is written
        // before the value is assumed initialised.
        unsafe {
            std::ptr::addr_of_mut!((*list.as_mut_ptr()).len).write(0);
            list.assume_init()
        }
    }

    /// The initialised keys.
    #[inline(always)]
    fn as_slice(&self) -> &[u64] {
        // SAFETY: the first `len` entries are initialised (`insert` writes before counting).
        unsafe { std::slice::from_raw_parts(self.keys.as_ptr().cast::<u64>(), self.len) }
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [u64] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.keys.as_mut_ptr().cast::<u64>(), self.len) }
    }

    /// Inserts `key` keeping the list sorted, highest first (stable for equal keys).
    #[inline(always)]
    pub(super) fn insert(&mut self, key: u64) {
        let n = self.len.min(63);
        self.keys[n].write(key);
        self.len = n + 1;
        let s = self.as_mut_slice();
        let mut j = n;
        while j > 0 && s[j - 1] < key {
            s[j] = s[j - 1];
            j -= 1;
        }
        s[j] = key;
    }

    /// Moves column `c` to the front if it is in the list.
    #[inline(always)]
    pub(super) fn move_to_front(&mut self, c: usize) {
        // A plain shift: `rotate_right` and the range index were left out of line
        // (callgrind, issue 39).
        let s = self.as_mut_slice();
        if let Some(mut i) = s.iter().position(|&k| (k & 63) as usize == c) {
            let key = s[i];
            while i > 0 {
                s[i] = s[i - 1];
                i -= 1;
            }
            s[0] = key;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The column of the `i`-th best move (`i < len`).
    #[inline(always)]
    pub(super) fn column(&self, i: usize) -> usize {
        (self.as_slice()[i] & 63) as usize
    }

    /// The columns, best first.
    #[inline(always)]
    pub(super) fn columns(&self) -> impl Iterator<Item = usize> + '_ {
        self.as_slice().iter().map(|&k| (k & 63) as usize)
    }
}
