//! The bitboard word: `u64` for boards with `columns · (rows + 1) ≤ 64`, `u128` up to 128 bits.
//!
//! Layout (7 × 6 shown; every column has one extra *sentinel* bit on top that is never set,
//! so lines cannot wrap from the top of one column into the bottom of the next):
//!
//! ```text
//!   .  .  .  .  .  .  .     sentinel row
//!   5 12 19 26 33 40 47     top row
//!   4 11 18 25 32 39 46
//!   3 10 17 24 31 38 45
//!   2  9 16 23 30 37 44
//!   1  8 15 22 29 36 43
//!   0  7 14 21 28 35 42     bottom row
//! ```
//!
//! Bit `c · (rows + 1) + r` is column `c`, row `r` (row 0 at the bottom). Shifts by 1, rows,
//! rows + 1 and rows + 2 step along the vertical, the two diagonals and the horizontal.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{
    Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub,
};

/// An unsigned integer used as a bitboard (`u64` or `u128`).
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + BitXorAssign
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
{
    /// Number of bits in the word.
    const BITS: u32;
    /// All bits clear.
    const ZERO: Self;
    /// Only bit 0 set.
    const ONE: Self;
    /// Number of set bits.
    fn popcount(self) -> u32;
    /// Index of the lowest set bit (`BITS` when zero).
    fn lowest(self) -> u32;
    /// A 64-bit hash; a bijection for `u64`, so keys of small boards are exact.
    fn hash64(self) -> u64;
    /// `self - 1` wrapping (used for "all bits below").
    fn wrapping_dec(self) -> Self;
    /// `self << n`, zero when `n ≥ BITS` (plain shifts would wrap the amount).
    fn shl_z(self, n: u32) -> Self;
    /// `self >> n`, zero when `n ≥ BITS`.
    fn shr_z(self, n: u32) -> Self;
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn popcount(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn hash64(self) -> u64 {
                fold(self as u128)
            }
            #[inline(always)]
            fn wrapping_dec(self) -> Self {
                self.wrapping_sub(1)
            }
            #[inline(always)]
            fn shl_z(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            #[inline(always)]
            fn shr_z(self, n: u32) -> Self {
                self.checked_shr(n).unwrap_or(0)
            }
        }
    };
}

/// Folds a 128-bit key into 64 bits; for keys below 2^64 this is a bijection (multiplication
/// by an odd constant modulo 2^64), so TT keys of `u64` boards never collide.
#[inline(always)]
fn fold(x: u128) -> u64 {
    let lo = x as u64;
    let hi = (x >> 64) as u64;
    (lo ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl_bits!(u64);
impl_bits!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_injective_on_small_keys() {
        let mut seen = std::collections::HashSet::new();
        for k in 0u64..10_000 {
            assert!(seen.insert(k.hash64()));
        }
        assert_ne!((1u128 << 70).hash64(), 0u128.hash64());
    }
}
