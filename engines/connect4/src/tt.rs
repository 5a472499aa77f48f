//! Bucketed transposition table for the exact solver, with 8-byte entries.
//!
//! An entry packs a partial key (36 bits), a lower and an upper bound on the exact score
//! (7 bits each), the best move (7 bits) and the number of stones on the board (7 bits) into
//! one `u64`. A bucket is [`WAYS`] entries on half a cache line, so a probe costs one memory
//! access however many entries it compares (four ways, not eight on a whole line: as few
//! nodes, and half the compares per probe). Lower and upper bounds meet in one entry, so
//! fail-high and fail-low results of null-window searches tighten into an exact score.
//!
//! # Keys, and why a partial key is exact
//!
//! The table is made for keys of `key_bits` = k bits (at most 64): the solver passes
//! [`crate::bitboard::Bits::hash64`] of the position key, and for a board whose key has
//! k = columns × (rows + 1) ≤ 64 bits (49 on 7×6) that hash is a multiplication by an odd
//! constant, so distinct keys stay distinct modulo 2^k. The table maps the low k bits through
//! a bijection of the k-bit space (a multiplication by an odd constant modulo 2^k); the
//! top index bits of the result choose the bucket and the next 36 bits are stored. Bucket and
//! stored bits together are the whole k-bit value, so no two positions can be mistaken for
//! each other, whenever k − index bits ≤ 36 ([`Tt::is_exact`]): on 7×6 from 2^13 buckets
//! (256 KiB) on, which is why no table for such keys is smaller. Pons' solver reaches the
//! same with a prime number of slots and the Chinese remainder theorem; a power of two keeps
//! the index a shift and lets the table double.
//!
//! Wider keys (boards over 64 key bits, whose `hash64` already folds 128 bits into 64, and
//! 64-bit keys on tables of fewer than 2^28 buckets) are not exact: a probe then takes a
//! stranger's entry only if its 36 stored bits match and it has the same number of stones
//! on the board (every probe compares the stone count too), a chance below [`WAYS`] · 2^-36
//! per probe (the 16-byte entries before held a 64-bit check key: 2^-63 there).
//!
//! # Growth
//!
//! A growing table ([`Tt::new`], [`Tt::with_bytes`]) starts at [`START_BYTES`] after every
//! clear and doubles in place whenever three quarters of its entries are in use (four ways
//! and the replacement below keep collisions cheap at that load), up to the size it was
//! made with: small searches stay inside the CPU caches, and clearing costs only the part in
//! use. Bucket `i` splits into `2i` and `2i + 1` by the top stored bit, and the stored bits
//! move up by one, so doubling keeps every entry of an exact table. A table that is not
//! exact at its start size has no spare stored bit to split by and is in full use from the
//! start instead ([`Tt::new_full`] asks for that anyway, for searches under a clock).
//!
//! # Replacement
//!
//! A new position goes into a free slot of its bucket, else replaces the entry with the most
//! stones on the board (the smallest subtree, the cheapest to search again); ties go to the
//! later slot. Every store is kept, so the latest results are always there. Measured on
//! Test_L1_R3 (first 8, 4 MiB table): 18.1 M nodes, against 38.4 M when the oldest entry
//! goes instead.
//!
//! The table lives in huge pages where possible ([`crate::hugemem`]).

use crate::hugemem::HugeBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// One stored position, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The exact score is at least this.
    pub lower: i8,
    /// The exact score is at most this.
    pub upper: i8,
    /// Best column found (`NO_MOVE` when unknown), in the orientation of the stored key.
    pub best: u8,
    /// Stones on the board.
    pub moves: u8,
}

/// Marks "no best move" in [`Entry::best`].
pub const NO_MOVE: u8 = u8::MAX;

/// Entries per bucket (32 bytes, half a cache line).
pub const WAYS: usize = 4;

/// Bits of the key stored in an entry.
pub const STORED_BITS: u32 = 36;

/// Packed layout, from bit 0: stones + 1 (0 = free slot), best (127 = none), lower, upper
/// (7-bit two's complement), then the stored key bits.
const FIELD: u32 = 7;
/// Odd multiplier of [`Tt::mix`].
const MIX: u64 = 0xD1B5_4A32_D192_ED03;
const FIELD_MASK: u64 = (1 << FIELD) - 1;
const BEST_AT: u32 = FIELD;
const LOWER_AT: u32 = 2 * FIELD;
const UPPER_AT: u32 = 3 * FIELD;
const KEY_AT: u32 = 64 - STORED_BITS;
const KEY_MASK: u64 = !0 << KEY_AT;
const PACKED_NO_MOVE: u64 = FIELD_MASK;
/// Score bounds fit 7 bits: on boards of at most 128 cells every score is in [-64, 63].
const SCORE_MIN: i32 = -(1 << (FIELD - 1));
const SCORE_MAX: i32 = (1 << (FIELD - 1)) - 1;

/// What a probe compares: the stored key bits and the stone count.
const CHECK_MASK: u64 = KEY_MASK | FIELD_MASK;

/// The packed stone count of a position with `moves` stones (never 0, the free mark).
#[inline(always)]
fn stones_field(moves: u32) -> u64 {
    (u64::from(moves) + 1).min(FIELD_MASK)
}

#[inline(always)]
fn signed_field(e: u64, at: u32) -> i8 {
    (((e << (64 - FIELD - at)) as i64) >> (64 - FIELD)) as i8
}

#[inline(always)]
fn unpack(e: u64) -> Entry {
    let best = (e >> BEST_AT) & FIELD_MASK;
    Entry {
        lower: signed_field(e, LOWER_AT),
        upper: signed_field(e, UPPER_AT),
        best: if best == PACKED_NO_MOVE {
            NO_MOVE
        } else {
            best as u8
        },
        moves: ((e & FIELD_MASK) as u8).wrapping_sub(1),
    }
}

#[inline(always)]
fn pack_bounds(lower: i32, upper: i32) -> u64 {
    let l = lower.clamp(SCORE_MIN, SCORE_MAX) as u64 & FIELD_MASK;
    let u = upper.clamp(SCORE_MIN, SCORE_MAX) as u64 & FIELD_MASK;
    (l << LOWER_AT) | (u << UPPER_AT)
}

/// [`WAYS`] packed entries on half a cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Bucket([u64; WAYS]);

/// A free slot: stones field 0, bounds that cut nothing, no move.
const FREE_ENTRY: u64 = ((SCORE_MIN as u64 & FIELD_MASK) << LOWER_AT)
    | ((SCORE_MAX as u64 & FIELD_MASK) << UPPER_AT)
    | (PACKED_NO_MOVE << BEST_AT);
const FREE: Bucket = Bucket([FREE_ENTRY; WAYS]);

/// Size a fresh or cleared table starts with (it fits the L2 cache of most CPUs).
pub const START_BYTES: usize = 512 << 10;

/// Fewest buckets of any table.
const MIN_BUCKETS: usize = 1024;

/// The table: a power-of-two number of buckets, of which the first `2^(64 - shift)` are in
/// use.
pub struct Tt {
    slots: HugeBuf<Bucket>,
    /// Buckets in use: `2^(64 - shift)`.
    shift: u32,
    /// `shift` of the whole allocation (the most the table grows to).
    min_shift: u32,
    /// `shift` after a clear.
    start_shift: u32,
    /// Key bits `k` (1..=64).
    key_bits: u32,
    /// `64 - key_bits`: keys are left-aligned by this shift.
    align: u32,
    /// Occupied entries in the part in use.
    used: usize,
}

impl Tt {
    /// A growing table for `key_bits`-bit keys using at most `mb` MiB.
    pub fn new(mb: usize, key_bits: u32) -> Self {
        Self::with_bytes(mb.max(1) << 20, key_bits)
    }

    /// A table of `mb` MiB in use from the start, also after a clear: it never grows, so no
    /// probe or store ever pays for a doubling (for searches under a clock).
    pub fn new_full(mb: usize, key_bits: u32) -> Self {
        let mut t = Self::new(mb, key_bits);
        t.start_shift = t.min_shift;
        t.shift = t.min_shift;
        t
    }

    /// A growing table for `key_bits`-bit keys using at most `bytes` bytes (at least 1024
    /// buckets, and at least as many as make it exact if that takes at most [`START_BYTES`]),
    /// e.g. a small one meant to stay in the CPU caches.
    pub fn with_bytes(bytes: usize, key_bits: u32) -> Self {
        let key_bits = key_bits.clamp(1, 64);
        let size = std::mem::size_of::<Bucket>();
        let exact_min = 1usize
            .checked_shl(key_bits.saturating_sub(STORED_BITS))
            .unwrap_or(usize::MAX);
        let floor = if exact_min <= START_BYTES / size {
            exact_min.max(MIN_BUCKETS)
        } else {
            MIN_BUCKETS
        };
        let buckets = (bytes / size).max(floor);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        let min_shift = 64 - buckets.trailing_zeros();
        let start = (START_BYTES / size).clamp(floor, buckets);
        let mut start_shift = 64 - start.trailing_zeros();
        if key_bits > 64 - start_shift + STORED_BITS {
            // Not exact when small: no stored bit to split buckets by, so no growing.
            start_shift = min_shift;
        }
        Self {
            slots: HugeBuf::new(buckets, FREE),
            shift: start_shift,
            min_shift,
            start_shift,
            key_bits,
            align: 64 - key_bits,
            used: 0,
        }
    }

    /// Whether two different keys can never share an entry at the size in use.
    pub fn is_exact(&self) -> bool {
        self.key_bits <= 64 - self.shift + STORED_BITS
    }

    /// Forgets everything; the table starts small again. Costs only the part in use (the
    /// rest is rewritten when the table grows into it).
    pub fn clear(&mut self) {
        let n = self.buckets_in_use();
        self.slots[..n].fill(FREE);
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

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Bucket>()
    }

    /// Doubles the part in use (as a filling [`Self::store`] does) until it is at least
    /// `bytes` or the whole allocation: for a shared table, which no store grows, between two
    /// searches, when no thread is using it.
    ///
    /// All doublings are made in one pass, which writes only the entries, not every new
    /// bucket: the buckets past the part in use are always free (a fresh table is all free,
    /// a clear frees the whole part in use before it shrinks, and growing rewrites the
    /// buckets it takes in), so only the new buckets that overlap the old part need
    /// freeing. Issue 39: a parallel solve grows its table from 512 KiB to 8 MiB or more
    /// in the middle of a 40 ms solve; doubling by doubling that rewrote twice the final
    /// size (2.1 ms per Test_L1_R2 position at 2 threads).
    pub fn grow_to(&mut self, bytes: usize) {
        if !self.is_exact() {
            return;
        }
        let size = std::mem::size_of::<Bucket>();
        let n = self.buckets_in_use();
        let mut d = 0;
        while (n << d) * size < bytes && self.shift - d > self.min_shift {
            d += 1;
        }
        if d == 0 {
            return;
        }
        let k = 1usize << d;
        // From the top down: the new buckets of old bucket `i` are `k i .. k i + k`, at or
        // above `i`, so every old bucket is read before anything is written over it.
        for i in (0..n).rev() {
            let old = self.slots[i];
            let base = i * k;
            if base < n {
                // New buckets over the old part: free them first (`old` is read).
                self.slots[base..(base + k).min(n)].fill(FREE);
            }
            for e in old.0 {
                if e & FIELD_MASK == 0 {
                    continue;
                }
                let to = &mut self.slots[base + (e >> (64 - d)) as usize].0;
                // At most `WAYS` entries come from one old bucket: a free slot is left.
                if let Some(slot) = to.iter_mut().find(|s| **s & FIELD_MASK == 0) {
                    *slot = ((e & KEY_MASK) << d) | (e & !KEY_MASK);
                }
            }
        }
        self.shift -= d;
    }

    /// Doubles the part in use: every entry of bucket `i` moves to bucket `2i` or `2i + 1`
    /// by its top stored bit, and its stored bits move up by one (from the top down, so no
    /// bucket is overwritten before it is moved). Only called on an exact table, whose
    /// lowest stored bit is zero in every key, so nothing is lost.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let n = self.buckets_in_use();
        for i in (0..n).rev() {
            let old = self.slots[i];
            let mut halves = [FREE; 2];
            let mut fill = [0usize; 2];
            for e in old.0 {
                if e & FIELD_MASK != 0 {
                    let half = (e >> 63) as usize;
                    halves[half].0[fill[half]] = ((e & KEY_MASK) << 1) | (e & !KEY_MASK);
                    fill[half] += 1;
                }
            }
            self.slots[2 * i] = halves[0];
            self.slots[2 * i + 1] = halves[1];
        }
        self.shift -= 1;
    }

    /// The key mapped by a bijection of the k-bit space, left-aligned in 64 bits: a
    /// multiplication by an odd constant modulo 2^k (the solver's keys are already one, so
    /// the top bits, which index the bucket, depend on every key bit).
    #[inline(always)]
    fn mix(&self, key: u64) -> u64 {
        // Left-aligned, multiplication modulo 2^k is multiplication modulo 2^64.
        (key << self.align).wrapping_mul(MIX)
    }

    /// Bucket index and the stored key bits (in place) of `key`.
    #[inline(always)]
    fn locate(&self, key: u64) -> (usize, u64) {
        let z = self.mix(key);
        (
            (z >> self.shift) as usize,
            (z << (64 - self.shift)) & KEY_MASK,
        )
    }

    /// Hints the CPU to fetch the bucket of `key` (used before the entry is needed).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.slots[self.locate(key).0] as *const Bucket as *const i8;
            // SAFETY: prefetching is a pure hint on a valid pointer into our own vector.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key` of a position with `moves` stones, if stored. The stone count
    /// must match too: free for an exact table (the key fixes the stones), and on a table
    /// that is not exact a stranger with the same check bits but another stone count is no
    /// hit (free slots have stone field 0 and never match).
    #[inline(always)]
    pub fn probe(&self, key: u64, moves: u32) -> Option<Entry> {
        let (i, tag) = self.locate(key);
        let tag = tag | stones_field(moves);
        let b = self.load_bucket(i);
        // Branch-free: one bit per matching slot.
        let mut hits = 0u32;
        for (j, &e) in b.iter().enumerate() {
            hits |= u32::from((e ^ tag) & CHECK_MASK == 0) << j;
        }
        // Not `bool::then`: its closure was left out of line (callgrind, issue 39).
        if hits == 0 {
            None
        } else {
            Some(unpack(b[hits.trailing_zeros() as usize]))
        }
    }

    /// The atomic view of bucket `i` (`i` in range).
    #[inline(always)]
    fn bucket(&self, i: usize) -> &[AtomicU64; WAYS] {
        assert!(i < self.slots.len());
        // SAFETY: in bounds (checked above); a bucket is `WAYS` u64 on 32 aligned bytes,
        // the layout of `[AtomicU64; WAYS]`, and the pointer carries the allocation's write
        // permission. Every access that can race (shared tables) is atomic; plain accesses
        // happen only through `&mut self`, when no other reference exists.
        unsafe { &*(self.slots.raw().add(i) as *const [AtomicU64; WAYS]) }
    }

    /// The atomic view of slot `j` of bucket `i` (`i` in range).
    #[inline(always)]
    fn slot(&self, i: usize, j: usize) -> &AtomicU64 {
        &self.bucket(i)[j]
    }

    /// The entries of bucket `i`, each read atomically (relaxed: an entry is self-checking,
    /// so a slot changed by another thread in between is only a miss or another hit).
    /// An index loop over one bounds-checked bucket: `std::array::from_fn` and `zip` here
    /// were left out of line (issue 39, callgrind: a call per probe and per shared store).
    #[inline(always)]
    fn load_bucket(&self, i: usize) -> [u64; WAYS] {
        let b = self.bucket(i);
        let mut out = [0; WAYS];
        for j in 0..WAYS {
            out[j] = b[j].load(Ordering::Relaxed);
        }
        out
    }

    /// [`Self::store`] for a table shared by the threads of a parallel solve: atomic slot
    /// writes, no growth (share only tables made by [`Self::new_full`]) and no fill count.
    /// Two threads storing into one bucket at once may lose one of the two entries, never
    /// mix them: every slot holds one whole entry, and every entry is a true bound.
    #[inline(always)]
    pub fn store_shared(&self, key: u64, moves: u32, lower: i32, upper: i32, best: u8) {
        let (i, tag) = self.locate(key);
        let b = self.load_bucket(i);
        let mut victim = 0;
        let mut victim_moves = 0;
        for (j, &e) in b.iter().enumerate() {
            let m = e & FIELD_MASK;
            if m == 0 {
                victim = j;
                break;
            }
            if (e ^ tag) & CHECK_MASK == stones_field(moves) {
                let old = unpack(e);
                let lower = lower.max(old.lower as i32);
                let upper = upper.min(old.upper as i32);
                let best = if best == NO_MOVE { old.best } else { best };
                let new = Self::pack(tag, moves, lower, upper, best);
                // An entry that stays the same is not written: the line stays shared in
                // the other threads' caches (two threads often store the same bound).
                if new != e {
                    self.slot(i, j).store(new, Ordering::Relaxed);
                }
                return;
            }
            if m >= victim_moves {
                victim = j;
                victim_moves = m;
            }
        }
        self.slot(i, victim).store(
            Self::pack(tag, moves, lower, upper, best),
            Ordering::Relaxed,
        );
    }

    /// [`Self::clear`] through a shared reference, for a full-size table no search is using:
    /// every slot is freed atomically.
    pub fn clear_shared(&self) {
        for i in 0..self.buckets_in_use() {
            for j in 0..WAYS {
                self.slot(i, j).store(FREE_ENTRY, Ordering::Relaxed);
            }
        }
    }

    /// Stores bounds for `key`, merging with what is already known about it.
    #[inline(always)]
    pub fn store(&mut self, key: u64, moves: u32, lower: i32, upper: i32, best: u8) {
        let (i, tag) = self.locate(key);
        let b = &mut self.slots[i].0;
        let mut victim = 0;
        let mut victim_moves = 0;
        for (j, e) in b.iter_mut().enumerate() {
            let m = *e & FIELD_MASK;
            if m == 0 {
                // A free slot: the key is in no later one (slots fill from the front and
                // are never freed but by a clear).
                victim = j;
                victim_moves = u64::MAX;
                break;
            }
            if (*e ^ tag) & CHECK_MASK == stones_field(moves) {
                // Same key bits and stone count: the same position.
                let old = unpack(*e);
                let lower = lower.max(old.lower as i32);
                let upper = upper.min(old.upper as i32);
                let best = if best == NO_MOVE { old.best } else { best };
                *e = Self::pack(tag, moves, lower, upper, best);
                return;
            }
            if m >= victim_moves {
                victim = j;
                victim_moves = m;
            }
        }
        b[victim] = Self::pack(tag, moves, lower, upper, best);
        if victim_moves == u64::MAX {
            self.used += 1;
            // Three quarters of the entries in use: double while there is room (growing
            // earlier costs more copying and cache than the extra collisions it avoids).
            if 4 * self.used > 3 * WAYS * self.buckets_in_use() && self.shift > self.min_shift {
                self.grow();
            }
        }
    }

    #[inline(always)]
    fn pack(tag: u64, moves: u32, lower: i32, upper: i32, best: u8) -> u64 {
        let best = if best == NO_MOVE {
            PACKED_NO_MOVE
        } else {
            u64::from(best) & FIELD_MASK
        };
        tag | pack_bounds(lower, upper) | (best << BEST_AT) | stones_field(moves)
    }
}

#[cfg(test)]
mod tests;
