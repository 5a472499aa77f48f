//! A Connect Four position of any size and line length, for players and protocol code.
//!
//! [`Board`] is the convenient, checked type (column numbers, errors, winner, diagram); the
//! solver works on its raw bitboards through [`Geometry`].

use crate::bitboard::Bits;
use crate::geometry::Geometry;
use crate::Error;
use std::fmt;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Moves first (home), drawn as `●`.
    First,
    /// Moves second (away), drawn as `○`.
    Second,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// A position on a `columns × rows` board where `connect` stones in a line win.
///
/// `B` is the bitboard word: `u64` when `columns · (rows + 1) ≤ 64`, `u128` up to 128 bits.
/// [`crate::Position`] is the `u128` version that takes every supported size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board<B: Bits> {
    geo: Geometry<B>,
    /// Stones of the side to move.
    current: B,
    /// All stones.
    mask: B,
    moves: u16,
    winner: Option<Player>,
}

impl<B: Bits> Board<B> {
    /// The empty board; fails when the size does not fit `B` or is degenerate.
    pub fn new(columns: usize, rows: usize, connect: usize) -> Result<Self, Error> {
        Ok(Self::empty(Geometry::new(columns, rows, connect)?))
    }

    /// The empty board of a geometry.
    pub fn empty(geo: Geometry<B>) -> Self {
        Self {
            geo,
            current: B::ZERO,
            mask: B::ZERO,
            moves: 0,
            winner: None,
        }
    }

    /// The position after playing `moves` (0-based columns) from the empty board.
    pub fn from_moves(
        columns: usize,
        rows: usize,
        connect: usize,
        moves: &[usize],
    ) -> Result<Self, Error> {
        let mut b = Self::new(columns, rows, connect)?;
        for &m in moves {
            b.play(m)?;
        }
        Ok(b)
    }

    /// Parses a move string of 1-based column digits (the test-set format, columns ≤ 9).
    pub fn from_digits(
        columns: usize,
        rows: usize,
        connect: usize,
        s: &str,
    ) -> Result<Self, Error> {
        let mut b = Self::new(columns, rows, connect)?;
        for (i, ch) in s.trim().chars().enumerate() {
            let d = ch.to_digit(10).ok_or(Error::BadMoveString(ch))? as usize;
            if d == 0 {
                return Err(Error::BadMoveString(ch));
            }
            b.play(d - 1).map_err(|e| one_based(e, i + 1, columns))?;
        }
        Ok(b)
    }

    /// The position after `moves` given as 1-based columns (as typed by a user): like
    /// [`Self::from_moves`], but an unplayable move is reported with its 1-based column.
    pub fn from_one_based(
        columns: usize,
        rows: usize,
        connect: usize,
        moves: &[usize],
    ) -> Result<Self, Error> {
        let mut b = Self::new(columns, rows, connect)?;
        for (i, &m) in moves.iter().enumerate() {
            let e = match m.checked_sub(1) {
                Some(c) => b.play(c),
                None => Err(Error::NoSuchColumn(usize::MAX)),
            };
            e.map_err(|e| one_based(e, i + 1, columns))?;
        }
        Ok(b)
    }

    /// The geometry (size, line length, masks).
    pub fn geometry(&self) -> &Geometry<B> {
        &self.geo
    }

    /// Number of columns.
    pub fn columns(&self) -> usize {
        self.geo.columns()
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.geo.rows()
    }

    /// Stones in a line needed to win.
    pub fn connect(&self) -> usize {
        self.geo.connect()
    }

    /// Number of stones on the board.
    pub fn moves_played(&self) -> usize {
        self.moves as usize
    }

    /// Whose turn it is.
    pub fn side_to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The player with a line, if any.
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.moves as u32 == self.geo.cells()
    }

    /// Whether the game is over (a line or a full board).
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.is_full()
    }

    /// Stones in column `col` (0 when out of range).
    pub fn height(&self, col: usize) -> usize {
        if col >= self.columns() {
            return 0;
        }
        (self.mask & self.geo.column_mask(col)).popcount() as usize
    }

    /// Whether column `col` exists and is not full (ignores whether the game is over).
    pub fn can_play(&self, col: usize) -> bool {
        col < self.columns() && (self.mask & self.geo.top_mask(col)) == B::ZERO
    }

    /// Columns that can be played now (empty when the game is over).
    pub fn legal_moves(&self) -> Vec<usize> {
        if self.is_over() {
            return Vec::new();
        }
        (0..self.columns()).filter(|&c| self.can_play(c)).collect()
    }

    /// Whether playing `col` now makes a line for the side to move.
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.can_play(col)
            && self.winner.is_none()
            && (self.geo.winning_cells(self.current, self.mask)
                & self.geo.possible(self.mask)
                & self.geo.column_mask(col))
                != B::ZERO
    }

    /// Drops a stone of the side to move into `col`.
    pub fn play(&mut self, col: usize) -> Result<(), Error> {
        if col >= self.columns() {
            return Err(Error::NoSuchColumn(col));
        }
        if self.is_over() {
            return Err(Error::GameOver);
        }
        if !self.can_play(col) {
            return Err(Error::ColumnFull(col));
        }
        let mover = self.side_to_move();
        self.play_unchecked(col);
        // After the move `current` is the opponent's; the mover's stones are the rest.
        if self.geo.has_line(self.current ^ self.mask) {
            self.winner = Some(mover);
        }
        Ok(())
    }

    /// Plays a legal move without checks or winner detection (for search code).
    #[inline]
    pub(crate) fn play_unchecked(&mut self, col: usize) {
        self.current ^= self.mask;
        self.mask |= self.mask + self.geo.bottom_mask(col);
        self.moves += 1;
    }

    /// The raw bitboards `(stones of the side to move, all stones)`.
    pub fn bitboards(&self) -> (B, B) {
        (self.current, self.mask)
    }

    /// The stone at `(col, row)`, row 0 at the bottom.
    pub fn cell(&self, col: usize, row: usize) -> Option<Player> {
        if col >= self.columns() || row >= self.rows() {
            return None;
        }
        let bit = self.geo.bottom_mask(col) << row as u32;
        if self.mask & bit == B::ZERO {
            return None;
        }
        let mine = self.current & bit != B::ZERO;
        let to_move = self.side_to_move();
        Some(if mine { to_move } else { to_move.other() })
    }

    /// A unique key of the position (for books and tables).
    pub fn key(&self) -> B {
        self.geo.key(self.current, self.mask)
    }

    /// The key of the position or of its mirror image, whichever is smaller, and whether the
    /// mirror was taken.
    pub fn canonical_key(&self) -> (B, bool) {
        let k = self.key();
        let m = self
            .geo
            .key(self.geo.mirror(self.current), self.geo.mirror(self.mask));
        if m < k {
            (m, true)
        } else {
            (k, false)
        }
    }
}

impl<B: Bits> fmt::Display for Board<B> {
    /// A Unicode diagram: `●` first player, `○` second, `·` empty, column numbers (1-based)
    /// below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.columns();
        for row in (0..self.rows()).rev() {
            write!(f, "│")?;
            for col in 0..w {
                let s = match self.cell(col, row) {
                    Some(Player::First) => "●",
                    Some(Player::Second) => "○",
                    None => "·",
                };
                write!(f, " {s}")?;
            }
            writeln!(f, " │")?;
        }
        write!(f, "└")?;
        for _ in 0..w {
            write!(f, "──")?;
        }
        writeln!(f, "─┘")?;
        write!(f, " ")?;
        for col in 0..w {
            write!(f, "{:>2}", (col + 1) % 100)?;
        }
        writeln!(f)
    }
}

/// Restates an error of [`Board::play`] for the `index`-th move of a 1-based move string.
fn one_based(e: Error, index: usize, columns: usize) -> Error {
    let reason = match e {
        Error::NoSuchColumn(c) if c == usize::MAX => {
            format!("no column 0 (the board has columns 1 to {columns})")
        }
        Error::NoSuchColumn(c) => {
            format!("no column {} (the board has columns 1 to {columns})", c + 1)
        }
        Error::ColumnFull(c) => format!("column {} is full", c + 1),
        Error::GameOver => "the game is already over".to_string(),
        other => return other,
    };
    Error::BadDigitMove { index, reason }
}

#[cfg(test)]
mod tests {
    use super::*;

    type B7 = Board<u64>;

    #[test]
    fn vertical_horizontal_and_diagonal_wins() {
        let b = B7::from_moves(7, 6, 4, &[0, 1, 0, 1, 0, 1]).unwrap();
        assert!(b.is_winning_move(0));
        assert!(!b.is_winning_move(2));
        let mut b2 = b;
        b2.play(0).unwrap();
        assert_eq!(b2.winner(), Some(Player::First));
        assert!(b2.play(3).is_err());
        let b = B7::from_digits(7, 6, 4, "112233").unwrap();
        assert!(b.is_winning_move(3));
        assert!(!b.is_winning_move(4));
    }

    /// Naive line check: scan every cell and direction.
    fn naive_winner<B: Bits>(b: &Board<B>) -> Option<Player> {
        let (w, h, n) = (b.columns() as i64, b.rows() as i64, b.connect() as i64);
        for c in 0..w {
            for r in 0..h {
                let Some(p) = b.cell(c as usize, r as usize) else {
                    continue;
                };
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let all = (0..n).all(|k| {
                        let (cc, rr) = (c + k * dc, r + k * dr);
                        cc >= 0
                            && rr >= 0
                            && cc < w
                            && rr < h
                            && b.cell(cc as usize, rr as usize) == Some(p)
                    });
                    if all {
                        return Some(p);
                    }
                }
            }
        }
        None
    }

    #[test]
    fn move_strings_report_one_based_columns() {
        let e = B7::from_digits(7, 6, 4, "48").unwrap_err().to_string();
        assert_eq!(
            e,
            "move 2 of the move string: no column 8 (the board has columns 1 to 7)"
        );
        let e = B7::from_digits(7, 6, 4, "4444444").unwrap_err().to_string();
        assert_eq!(e, "move 7 of the move string: column 4 is full");
        let e = B7::from_one_based(7, 6, 4, &[4, 4, 4, 4, 4, 4, 4])
            .unwrap_err()
            .to_string();
        assert_eq!(e, "move 7 of the move string: column 4 is full");
        let e = B7::from_one_based(7, 6, 4, &[4, 0])
            .unwrap_err()
            .to_string();
        assert!(e.contains("move 2") && e.contains("no column 0"), "{e}");
        let b = B7::from_one_based(7, 6, 4, &[4, 4, 1]).unwrap();
        assert_eq!(b, B7::from_digits(7, 6, 4, "441").unwrap());
    }

    fn random_games<B: Bits>(w: usize, h: usize, n: usize, games: usize) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..games {
            let mut b = Board::<B>::new(w, h, n).unwrap();
            while !b.is_over() {
                let legal = b.legal_moves();
                let col = legal[rng.random_range(0..legal.len())];
                let wins = b.is_winning_move(col);
                b.play(col).unwrap();
                assert_eq!(b.winner(), naive_winner(&b), "{w}×{h} connect {n}\n{b}");
                assert_eq!(wins, b.winner().is_some());
            }
        }
    }

    #[test]
    fn wins_agree_with_a_naive_scan_on_random_games() {
        random_games::<u64>(7, 6, 4, 300);
        random_games::<u64>(4, 4, 3, 300);
        random_games::<u64>(8, 7, 5, 100);
        random_games::<u128>(9, 7, 4, 100);
        random_games::<u128>(10, 10, 6, 50);
        random_games::<u128>(16, 6, 20, 10);
        random_games::<u64>(2, 31, 4, 50);
        random_games::<u64>(1, 63, 3, 20);
        random_games::<u64>(3, 20, 4, 50);
        random_games::<u128>(64, 1, 3, 20);
        random_games::<u128>(2, 63, 5, 20);
    }

    #[test]
    fn full_columns_and_bad_columns_are_errors() {
        let mut b = B7::from_digits(7, 6, 4, "111111").unwrap();
        assert!(!b.can_play(0));
        assert!(matches!(b.play(0), Err(Error::ColumnFull(0))));
        assert!(matches!(b.play(7), Err(Error::NoSuchColumn(7))));
        assert_eq!(b.height(0), 6);
    }

    #[test]
    fn connect_five_on_a_big_board() {
        let mut b = Board::<u128>::new(10, 6, 5).unwrap();
        for c in 0..4 {
            b.play(c).unwrap();
            b.play(c).unwrap();
        }
        assert!(b.is_winning_move(4));
        assert!(!b.is_winning_move(5));
        b.play(4).unwrap();
        assert_eq!(b.winner(), Some(Player::First));
    }

    #[test]
    fn display_draws_stones() {
        let b = B7::from_digits(7, 6, 4, "44").unwrap();
        let s = b.to_string();
        assert!(s.contains('●') && s.contains('○'));
        assert_eq!(s.lines().count(), 8);
    }
}
