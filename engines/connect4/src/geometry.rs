//! Board geometry: size, line length and the bitboard tricks that depend on them.
//!
//! Everything here works on raw bitboards (`current`, `mask`) so the solver and the heuristic
//! search can keep their hot positions lean; [`crate::Board`] wraps it for everyone else.

use crate::bitboard::Bits;
use crate::Error;

/// Size and line length of a board, with the masks derived from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry<B: Bits> {
    columns: u8,
    rows: u8,
    connect: u8,
    /// One bit at the bottom of every column.
    bottom: B,
    /// Every playable cell (no sentinels).
    full: B,
    /// Connect 4 with all shifts of the unrolled line test inside the word.
    fast4: bool,
}

impl<B: Bits> Geometry<B> {
    /// Checks that `columns · (rows + 1)` bits fit into `B` and the line length is usable.
    pub fn new(columns: usize, rows: usize, connect: usize) -> Result<Self, Error> {
        if columns == 0 || rows == 0 || connect == 0 {
            return Err(Error::BadSize {
                columns,
                rows,
                connect,
                reason: "all must be positive",
            });
        }
        if columns.saturating_mul(rows + 1) > B::BITS as usize || columns > 255 || rows > 254 {
            return Err(Error::BadSize {
                columns,
                rows,
                connect,
                reason: "columns · (rows + 1) must not exceed the bitboard width",
            });
        }
        if connect > 255 {
            return Err(Error::BadSize {
                columns,
                rows,
                connect,
                reason: "line too long",
            });
        }
        let h1 = rows as u32 + 1;
        let mut bottom = B::ZERO;
        let mut full = B::ZERO;
        let col = (B::ONE << rows as u32).wrapping_dec();
        for c in 0..columns as u32 {
            bottom |= B::ONE << (c * h1);
            full |= col << (c * h1);
        }
        let fast4 = connect == 4 && 3 * (h1 + 1) < B::BITS;
        Ok(Self {
            columns: columns as u8,
            rows: rows as u8,
            connect: connect as u8,
            bottom,
            full,
            fast4,
        })
    }

    /// Number of columns.
    #[inline(always)]
    pub fn columns(&self) -> usize {
        self.columns as usize
    }

    /// Number of rows.
    #[inline(always)]
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Stones in a row needed to win.
    #[inline(always)]
    pub fn connect(&self) -> usize {
        self.connect as usize
    }

    /// Number of cells.
    #[inline(always)]
    pub fn cells(&self) -> u32 {
        self.columns as u32 * self.rows as u32
    }

    /// Bit stride between neighbouring columns.
    #[inline(always)]
    fn h1(&self) -> u32 {
        self.rows as u32 + 1
    }

    /// The bottom bit of every column.
    #[inline(always)]
    pub fn bottom(&self) -> B {
        self.bottom
    }

    /// Every playable cell.
    #[inline(always)]
    pub fn full(&self) -> B {
        self.full
    }

    /// All cells of column `col`.
    #[inline(always)]
    pub fn column_mask(&self, col: usize) -> B {
        ((B::ONE << self.rows as u32).wrapping_dec()) << (col as u32 * self.h1())
    }

    /// The top cell of column `col`.
    #[inline(always)]
    pub fn top_mask(&self, col: usize) -> B {
        B::ONE << (self.rows as u32 - 1 + col as u32 * self.h1())
    }

    /// The bottom cell of column `col`.
    #[inline(always)]
    pub fn bottom_mask(&self, col: usize) -> B {
        B::ONE << (col as u32 * self.h1())
    }

    /// The column of a single-bit board.
    #[inline(always)]
    pub fn column_of(&self, bit: B) -> usize {
        (bit.lowest() / self.h1()) as usize
    }

    /// Cells where the next stone can go (one per non-full column).
    #[inline(always)]
    pub fn possible(&self, mask: B) -> B {
        (mask + self.bottom) & self.full
    }

    /// Whether `stones` contain a line of at least `connect`.
    pub fn has_line(&self, stones: B) -> bool {
        let n = self.connect as u32;
        let h1 = self.h1();
        for s in [1, h1 - 1, h1, h1 + 1] {
            if s == 0 {
                continue;
            }
            // Runs of length `len` ending at each bit, built by doubling.
            let mut run = stones;
            let mut len = 1;
            while len < n {
                let step = len.min(n - len);
                run = run & run.shr_z(step * s);
                len += step;
            }
            if run != B::ZERO {
                return true;
            }
        }
        false
    }

    /// Empty cells (not necessarily playable yet) where a stone of `stones` completes a line.
    ///
    /// The solver calls this several times per node: the connect-4 case is inlined, the
    /// general loop is not (it would bloat every caller).
    #[inline(always)]
    pub fn winning_cells(&self, stones: B, mask: B) -> B {
        if self.fast4 {
            return self.winning_cells4(stones) & (self.full ^ mask);
        }
        self.winning_cells_any(stones, mask)
    }

    /// [`Self::winning_cells`] for any line length.
    #[inline(never)]
    fn winning_cells_any(&self, stones: B, mask: B) -> B {
        let n = self.connect as u32;
        let h1 = self.h1();
        let mut win = B::ZERO;
        if n <= 1 {
            return self.full ^ mask;
        }
        // Vertical: only the stones below matter.
        let mut below = stones << 1;
        for i in 2..n {
            below &= stones.shl_z(i);
        }
        win |= below;
        // Horizontal and both diagonals: a run of `k` own stones on one side and `n-1-k` on the
        // other.
        for s in [h1 - 1, h1, h1 + 1] {
            if s == 0 {
                continue;
            }
            let mut right = [B::ZERO; 16];
            let mut left = [B::ZERO; 16];
            if n as usize > right.len() {
                win |= self.winning_cells_slow(stones, s);
                continue;
            }
            right[0] = !B::ZERO;
            left[0] = !B::ZERO;
            for j in 1..n as usize {
                right[j] = right[j - 1] & stones.shr_z(j as u32 * s);
                left[j] = left[j - 1] & stones.shl_z(j as u32 * s);
            }
            for k in 0..n as usize {
                win |= left[k] & right[n as usize - 1 - k];
            }
        }
        win & (self.full ^ mask)
    }

    /// Connect-4 special case of [`Self::winning_cells`] (before masking), unrolled.
    #[inline(always)]
    fn winning_cells4(&self, p: B) -> B {
        lines4(p, self.h1())
    }

    /// [`Self::winning_cells`] for one direction with long lines (no fixed-size arrays).
    fn winning_cells_slow(&self, stones: B, s: u32) -> B {
        let n = self.connect as u32;
        let mut win = B::ZERO;
        for k in 0..n {
            let mut w = !B::ZERO;
            for j in 1..=k {
                w &= stones.shl_z(j * s);
            }
            for j in 1..n - k {
                w &= stones.shr_z(j * s);
            }
            win |= w;
        }
        win
    }

    /// The board mirrored left to right.
    #[inline]
    pub fn mirror(&self, b: B) -> B {
        let h1 = self.h1();
        let w = self.columns as u32;
        let col = (B::ONE << h1).wrapping_dec();
        let mut out = B::ZERO;
        for c in 0..w / 2 {
            let d = (w - 1 - 2 * c) * h1;
            out |= (b & (col << (c * h1))) << d;
            out |= (b >> d) & (col << (c * h1));
        }
        if w % 2 == 1 {
            out |= b & (col << ((w / 2) * h1));
        }
        out
    }

    /// A unique key of the position (`current + mask` encodes both with the sentinel row).
    #[inline(always)]
    pub fn key(&self, current: B, mask: B) -> B {
        current + mask
    }
}

/// Cells (empty or not) where a stone completes a line of four of `p`, for a column stride
/// of `h1` bits (rows + 1); the word must hold `3 · (h1 + 1)` more bits than are used.
/// Always inlined: a caller passing a constant stride (the solver on 6 and 7 rows) gets
/// every shift as an immediate.
#[inline(always)]
pub(crate) fn lines4<B: Bits>(p: B, h1: u32) -> B {
    // Vertical: three own stones directly below.
    let mut r = (p << 1) & (p << 2) & (p << 3);
    for s in [h1 - 1, h1, h1 + 1] {
        let l = (p << s) & (p << (2 * s));
        r |= l & (p << (3 * s));
        r |= l & (p >> s);
        let q = (p >> s) & (p >> (2 * s));
        r |= q & (p << s);
        r |= q & (p >> (3 * s));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert!(Geometry::<u64>::new(7, 6, 4).is_ok());
        assert!(Geometry::<u64>::new(8, 7, 4).is_ok());
        assert!(Geometry::<u64>::new(9, 7, 4).is_err());
        assert!(Geometry::<u128>::new(9, 7, 4).is_ok());
        assert!(Geometry::<u128>::new(10, 6, 4).is_ok());
        assert!(Geometry::<u64>::new(0, 6, 4).is_err());
    }

    #[test]
    fn mirror_is_an_involution() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let b = 0b1011u64 | (0b11 << 7) | (0b1 << 42);
        assert_eq!(g.mirror(g.mirror(b)), b);
        assert_eq!(g.mirror(1), 1 << 42);
        let g = Geometry::<u128>::new(8, 8, 5).unwrap();
        assert_eq!(g.mirror(1), 1 << 63);
    }
}
