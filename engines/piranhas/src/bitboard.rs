//! The 100-square board as a `u128` bitboard and the precomputed line and ray tables.
//!
//! Bit layout (square index = x + 10·y, y = 0 is the bottom row, as in the spec):
//!
//! ```text
//!  y=9 | 90 91 92 93 94 95 96 97 98 99
//!  y=8 | 80 81 ...                  89
//!  ...
//!  y=1 | 10 11 12 13 14 15 16 17 18 19
//!  y=0 |  0  1  2  3  4  5  6  7  8  9
//!        x=0                       x=9
//! ```
//!
//! Bits 100..127 are always zero.

use crate::board::Direction;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Number of squares.
pub const SQUARES: usize = 100;
/// Mask of the 100 board bits.
pub const BOARD_MASK: u128 = (1u128 << SQUARES) - 1;

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding square `sq` only.
    #[inline]
    pub const fn square(sq: usize) -> Bitboard {
        Bitboard(1u128 << sq)
    }

    /// The set holding square (x, y) only.
    #[inline]
    pub const fn at(x: usize, y: usize) -> Bitboard {
        Bitboard::square(x + 10 * y)
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether square `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: usize) -> bool {
        (self.0 >> sq) & 1 != 0
    }

    /// The lowest square of a non-empty set.
    #[inline]
    pub const fn lowest(self) -> usize {
        self.0.trailing_zeros() as usize
    }

    /// The set of squares a king step away from a square of `self`, plus `self` (3×3 dilation).
    #[inline]
    pub const fn dilate(self) -> Bitboard {
        let s = self.0;
        let h = s | ((s & NOT_COL9) << 1) | ((s & NOT_COL0) >> 1);
        Bitboard((h | (h << 10) | (h >> 10)) & BOARD_MASK)
    }

    /// Iterates over the squares of the set, lowest first.
    #[inline]
    pub fn iter(self) -> Squares {
        Squares(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`].
#[derive(Clone, Copy, Debug)]
pub struct Squares(u128);

impl Iterator for Squares {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_MASK)
    }
}

const fn col_mask(x: usize) -> u128 {
    let mut m = 0u128;
    let mut y = 0;
    while y < 10 {
        m |= 1u128 << (x + 10 * y);
        y += 1;
    }
    m
}

/// All squares except column x = 0.
pub const NOT_COL0: u128 = BOARD_MASK & !col_mask(0);
/// All squares except column x = 9.
pub const NOT_COL9: u128 = BOARD_MASK & !col_mask(9);

/// Length of the per-square tables: 128, so that an index masked with `& 127` needs no
/// bounds check in the hot loops (entries 100..127 are zero).
pub const TABLE_SQUARES: usize = 128;

/// Precomputed per-square tables for move generation.
pub struct Tables {
    /// `line[k][sq]`: the whole line of kind k (0 column, 1 row, 2 rising x−y, 3 falling x+y)
    /// through `sq`, including `sq`.
    pub line: [[u128; TABLE_SQUARES]; 4],
    /// `ray[dir][sq]`: the squares strictly beyond `sq` in direction `dir`, up to the edge.
    pub ray: [[u128; TABLE_SQUARES]; 8],
    /// `steps[dir][sq]`: how many steps fit on the board from `sq` in direction `dir`.
    pub steps: [[u8; TABLE_SQUARES]; 8],
    /// `column[x]` and `row[y]` masks.
    pub column: [u128; 10],
    /// Row masks by y.
    pub row: [u128; 10],
    /// `line_id[sq][k]`: index (0..58) of the line of kind k through `sq`: columns 0..9,
    /// rows 10..19, rising diagonals 20..38 (x − y + 29), falling diagonals 39..57 (x + y + 39).
    pub line_id: [[u8; 4]; TABLE_SQUARES],
}

/// Size of the per-line count array: 58 distinct lines (10 columns, 10 rows, 19 + 19
/// diagonals), rounded up to 64 so that `id & 63` needs no bounds check.
pub const LINES: usize = 64;

const fn build_tables() -> Tables {
    let mut t = Tables {
        line: [[0; TABLE_SQUARES]; 4],
        ray: [[0; TABLE_SQUARES]; 8],
        steps: [[0; TABLE_SQUARES]; 8],
        column: [0; 10],
        row: [0; 10],
        line_id: [[0; 4]; TABLE_SQUARES],
    };
    let mut sq = 0;
    while sq < SQUARES {
        let (x, y) = ((sq % 10) as i32, (sq / 10) as i32);
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = Direction::ALL[d].delta();
            let (mut cx, mut cy, mut n) = (x + dx, y + dy, 0u8);
            while cx >= 0 && cx < 10 && cy >= 0 && cy < 10 {
                t.ray[d][sq] |= 1u128 << (cx + 10 * cy);
                n += 1;
                cx += dx;
                cy += dy;
            }
            t.steps[d][sq] = n;
            d += 1;
        }
        sq += 1;
    }
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 8 {
            let k = Direction::ALL[d].line_kind();
            t.line[k][sq] |= t.ray[d][sq] | (1u128 << sq);
            d += 1;
        }
        sq += 1;
    }
    let mut sq = 0;
    while sq < SQUARES {
        let (x, y) = (sq % 10, sq / 10);
        t.line_id[sq] = [
            x as u8,
            10 + y as u8,
            (x + 29 - y) as u8,
            (x + y + 39) as u8,
        ];
        sq += 1;
    }
    let mut i = 0;
    while i < 10 {
        t.column[i] = col_mask(i);
        t.row[i] = 0x3ffu128 << (10 * i);
        i += 1;
    }
    t
}

/// The move-generation tables, built at compile time.
pub static TABLES: Tables = build_tables();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_have_expected_sizes() {
        // (0,0): column 10, row 10, rising diagonal 10, falling diagonal 1.
        assert_eq!(TABLES.line[0][0].count_ones(), 10);
        assert_eq!(TABLES.line[1][0].count_ones(), 10);
        assert_eq!(TABLES.line[2][0].count_ones(), 10);
        assert_eq!(TABLES.line[3][0].count_ones(), 1);
        // (9,0): falling diagonal is the long one.
        assert_eq!(TABLES.line[3][9].count_ones(), 10);
        assert_eq!(TABLES.steps[Direction::Up as usize][0], 9);
        assert_eq!(TABLES.steps[Direction::DownLeft as usize][0], 0);
    }

    #[test]
    fn dilate_does_not_wrap() {
        let b = Bitboard::at(9, 5).dilate();
        assert_eq!(b.count(), 6);
        assert!(!b.has(10 * 5 + 10)); // (0,6) would be a wrap
        assert_eq!(Bitboard::at(0, 0).dilate().count(), 4);
    }
}
