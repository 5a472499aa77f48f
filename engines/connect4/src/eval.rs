//! Heuristic search position: [`kibitz_search::alphabeta::Game`] for boards the solver cannot
//! finish in time, with a threat-based evaluation.
//!
//! Evaluation (side to move's view, centi-stones):
//! - each empty cell that would complete a line of the side ("threat") counts [`Weights::threat`];
//!   a threat on the rows that favour its owner (Allis' odd/even rule: odd rows for the first
//!   player, even rows for the second, counted from 1) counts [`Weights::good_threat`] more;
//! - a threat directly above another threat of the same side (a double) counts [`Weights::stacked`];
//! - every open line segment (no opponent stone) with `k` own stones counts `k² ·` [`Weights::segment`];
//! - a small tempo bonus for the side to move.
//!
//! Moves are generated non-losing first (never under an opponent's threat, answer a single
//! threat), which prunes the tree like the solver does.

pub mod learned;
mod learned_table;

use crate::bitboard::Bits;
use crate::geometry::Geometry;
use kibitz_search::alphabeta::{Game, Outcome, Score};
use std::any::Any;

kibitz_search::tunables! {
    /// Weights of the evaluation, each declared once here with its tuning range; tunable
    /// through [`crate::params::EngineParams`].
    #[derive(Copy, Eq)]
    pub struct Weights {
        /// value of a threat (cell completing a line)
        pub threat: Score = 60, 0..=300, step 10;
        /// extra value of a threat on a row favouring its owner
        pub good_threat: Score = 40, 0..=200, step 10;
        /// value of two threats of one side stacked directly
        pub stacked: Score = 150, 0..=600, step 25;
        /// weight of open line segments (× stones²)
        pub segment: Score = 2, 0..=20, step 1;
        /// bonus of the side to move
        pub tempo: Score = 5, 0..=50, step 2;
        // Off: in the fallback the audit kept 4,621 at 800k nodes with it, 4,624 without
        // (`examples/learn_fit.rs`).
        /// on 7 × 6, connect 4: the learned evaluation ([`learned`]) instead of the threat
        /// evaluation (0/1; other sizes keep the threat evaluation)
        pub learned: bool = false, 0..=1, step 1;
        /// with `learned` on: the threat evaluation added back, in percent (0 = the learned
        /// evaluation alone)
        pub learned_blend: Score = 0, 0..=400, step 25;
    }
}

/// A position as the heuristic search sees it (copy-make, 64 or 128 bit bitboards).
#[derive(Clone, Copy, Debug)]
pub struct SearchPos<B: Bits> {
    geo: Geometry<B>,
    cur: B,
    mask: B,
    moves: u32,
    lost: bool,
    /// Columns allowed at this node (a bit per column, 0 = all); set only on a search root.
    root_filter: u128,
    /// Evaluation weights.
    w: Weights,
}

/// A move of [`SearchPos`]: column + 1 (0 means "no move").
pub type Move = u8;

impl<B: Bits> SearchPos<B> {
    /// From raw bitboards (`cur` = stones of the side to move) of a game not yet over.
    pub fn new(geo: Geometry<B>, cur: B, mask: B, moves: u32) -> Self {
        Self {
            geo,
            cur,
            mask,
            moves,
            lost: geo.has_line(cur ^ mask),
            root_filter: 0,
            w: Weights::default(),
        }
    }

    /// The same position evaluated with weights `w`.
    pub fn with_weights(mut self, w: Weights) -> Self {
        self.w = w;
        self
    }

    /// The same position with only `columns` allowed as moves here (not below): lets the
    /// engine's fallback search choose among moves not proven worse. An empty list or one
    /// without a legal move changes nothing.
    pub fn with_root_filter(mut self, columns: &[usize]) -> Self {
        self.root_filter = columns
            .iter()
            .filter(|&&c| c < 128)
            .fold(0u128, |f, &c| f | (1u128 << c));
        self
    }

    /// Column of a move.
    pub fn column(m: Move) -> usize {
        m as usize - 1
    }

    /// Stones on the board.
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    fn threat_score(&self, mine: B, theirs: B, player: u32) -> Score {
        let g = &self.geo;
        let threats = g.winning_cells(mine, self.mask);
        let good = threats & parity_rows(g, player);
        let stacked = threats & (threats >> 1);
        let mut s = threats.popcount() as Score * self.w.threat
            + good.popcount() as Score * self.w.good_threat
            + stacked.popcount() as Score * self.w.stacked;
        s += self.segments(mine, theirs);
        s
    }

    /// The learned evaluation's score when it is on and the board is 7 × 6, connect 4.
    #[inline]
    fn learned_value(&self) -> Option<Score> {
        if !self.w.learned {
            return None;
        }
        let geo = (&self.geo as &dyn Any).downcast_ref::<Geometry<u64>>()?;
        let cur = *(&self.cur as &dyn Any).downcast_ref::<u64>()?;
        let mask = *(&self.mask as &dyn Any).downcast_ref::<u64>()?;
        if geo.columns() != learned::COLUMNS || geo.rows() != learned::ROWS || geo.connect() != 4 {
            return None;
        }
        let v = learned::Model::embedded().value(geo, cur, mask, self.moves);
        Some((v * learned::SCALE).round() as Score)
    }

    /// Σ k² over open windows of `connect` cells holding k own stones and no opponent stone.
    fn segments(&self, mine: B, theirs: B) -> Score {
        let g = &self.geo;
        let n = g.connect() as u32;
        let h1 = g.rows() as u32 + 1;
        let free = g.full() & !theirs;
        let mut total = 0;
        for s in [1, h1 - 1, h1, h1 + 1] {
            // Windows starting at each bit that lie on free cells.
            let mut win = free;
            for i in 1..n {
                win &= free.shr_z(i * s);
            }
            if win == B::ZERO {
                continue;
            }
            // Count own stones per window by summing shifted bitboards (bit-sliced counts
            // would be faster; n is small and this is not the solver).
            let mut counts = [B::ZERO; 8];
            for i in 0..n {
                let mut carry = mine.shr_z(i * s) & win;
                for c in counts.iter_mut() {
                    let t = *c & carry;
                    *c ^= carry;
                    carry = t;
                    if carry == B::ZERO {
                        break;
                    }
                }
            }
            // k² weighting from the binary digits of k.
            for k in 1..=n.min(255) {
                let mut sel = win;
                for (bit, c) in counts.iter().enumerate() {
                    if (k >> bit) & 1 == 1 {
                        sel &= *c;
                    } else {
                        sel &= !*c;
                    }
                }
                total += sel.popcount() as Score * (k * k) as Score;
            }
        }
        total * self.w.segment
    }
}

/// Rows favouring `player` (0 = first, 1 = second): rows 1, 3, 5, … or 2, 4, 6, … from the
/// bottom.
pub fn parity_rows<B: Bits>(geo: &Geometry<B>, player: u32) -> B {
    let mut col = B::ZERO;
    let mut r = player;
    while r < geo.rows() as u32 {
        col |= B::ONE << r;
        r += 2;
    }
    let mut out = B::ZERO;
    for c in 0..geo.columns() {
        out |= col << (c as u32 * (geo.rows() as u32 + 1));
    }
    out & geo.full()
}

impl<B: Bits> Game for SearchPos<B> {
    type Move = Move;

    fn hash(&self) -> u64 {
        let h = self.geo.key(self.cur, self.mask).hash64();
        if self.root_filter == 0 {
            h
        } else {
            // A restricted root must not share table entries with the free position.
            h ^ ((self.root_filter as u64) ^ ((self.root_filter >> 64) as u64))
                .wrapping_add(1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        }
    }

    fn moves(&self, out: &mut Vec<Move>) {
        if self.outcome().is_some() {
            return;
        }
        let g = &self.geo;
        let possible = g.possible(self.mask);
        // A winning move ends the game: nothing else needs a look.
        let wins = g.winning_cells(self.cur, self.mask) & possible;
        if wins != B::ZERO {
            out.push(g.column_of(wins) as u8 + 1);
            return;
        }
        let opp_win = g.winning_cells(self.cur ^ self.mask, self.mask);
        let forced = possible & opp_win;
        let mut next = if forced != B::ZERO { forced } else { possible };
        next &= !(opp_win >> 1);
        if next == B::ZERO || forced & forced.wrapping_dec() != B::ZERO {
            next = possible; // every move loses: keep them all, the search sees the loss
        }
        if self.root_filter != 0 {
            let allowed = (0..g.columns())
                .filter(|&c| self.root_filter & (1 << c) != 0)
                .fold(B::ZERO, |m, c| m | g.column_mask(c));
            // Allowed moves that do not lose at once, else any allowed move, else no filter.
            if next & allowed != B::ZERO {
                next &= allowed;
            } else if possible & allowed != B::ZERO {
                next = possible & allowed;
            }
        }
        for c in 0..g.columns() {
            if next & g.column_mask(c) != B::ZERO {
                out.push(c as u8 + 1);
            }
        }
    }

    fn play(&self, m: Move) -> Self {
        let col = Self::column(m);
        let mask = self.mask | (self.mask + self.geo.bottom_mask(col));
        let placed = mask ^ self.mask;
        let mine = self.cur | placed;
        // Only lines through the new stone can be new; has_line on all stones is simpler and
        // still cheap on bitboards.
        let lost = self.geo.has_line(mine);
        Self {
            geo: self.geo,
            cur: self.cur ^ self.mask,
            mask,
            moves: self.moves + 1,
            lost,
            root_filter: 0,
            w: self.w,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.lost {
            Some(Outcome::Loss)
        } else if self.moves >= self.geo.cells() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn evaluate(&self) -> Score {
        let learned = self.learned_value();
        if let (Some(v), 0) = (learned, self.w.learned_blend) {
            return v;
        }
        let me = self.moves & 1;
        let opp = self.cur ^ self.mask;
        let s = self.threat_score(self.cur, opp, me) - self.threat_score(opp, self.cur, me ^ 1);
        let threat = s + self.w.tempo;
        match learned {
            Some(v) => (v + threat * self.w.learned_blend / 100).clamp(-20_000, 20_000),
            None => threat.clamp(-20_000, 20_000),
        }
    }

    fn move_key(&self, m: Move) -> usize {
        (m as usize) | ((self.moves as usize & 1) << 8)
    }

    fn order_hint(&self, m: Move) -> i32 {
        let g = &self.geo;
        let col = Self::column(m);
        let placed = (self.mask + g.bottom_mask(col)) & g.column_mask(col);
        let threats = g
            .winning_cells(self.cur | placed, self.mask | placed)
            .popcount() as i32;
        let w = g.columns() as i32;
        let centre = -(2 * col as i32 - (w - 1)).abs();
        threats * 100 + centre
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn threats_are_good_and_symmetric_positions_are_even() {
        let geo = Geometry::<u64>::new(7, 6, 4).unwrap();
        let p = SearchPos::new(geo, 0, 0, 0);
        assert_eq!(p.evaluate(), Weights::default().tempo);
        let b = Board::<u64>::from_digits(7, 6, 4, "4").unwrap();
        let (c, m) = b.bitboards();
        assert!(
            SearchPos::new(geo, c, m, 1).evaluate() < 0,
            "the centre stone is worth something"
        );
        let b = Board::<u64>::from_digits(7, 6, 4, "44556").unwrap();
        let (c, m) = b.bitboards();
        let p = SearchPos::new(geo, c, m, 5);
        assert!(p.evaluate() < 0, "the opponent has an open three");
        let mut v = Vec::new();
        p.moves(&mut v);
        assert_eq!(
            v.len(),
            7,
            "two threats: every move loses, all are kept: {v:?}"
        );
        let b = Board::<u64>::from_digits(7, 6, 4, "12131").unwrap();
        let (c, m) = b.bitboards();
        let p = SearchPos::new(geo, c, m, 5);
        v.clear();
        p.moves(&mut v);
        assert_eq!(v, vec![1], "the vertical three must be answered");
    }
}
