//! A learned evaluation for 7 × 6, connect 4 (issue 39, item 2): a pattern (n-tuple) model
//! fitted by ordinal logistic regression to exact win / draw / loss values of positions the
//! solver labelled (`examples/learn_data.rs`, fitted by `examples/learn_fit.rs`; the test
//! sets' positions and their children were excluded from the data).
//!
//! Features, in the first player's colours (so that Allis' odd / even rows are learnt per
//! cell), all tied under the left–right mirror so that the model is symmetric by
//! construction:
//! - every 4-cell line window (69, in 36 mirror classes) with its contents (3⁴ = 81:
//!   empty, first player, second player per cell);
//! - every empty cell completing a line of the first player, and of the second (a
//!   "threat"), per cell (24 mirror classes each);
//! - a threat that is playable now, per owner and side to move (4);
//! - the side to move (2).
//!
//! The sum `z` of the active weights is the first player's logit: `P(value ≥ draw) =
//! σ(z − θ₀)`, `P(win) = σ(z − θ₁)`. The search score is the expected value
//! `P(≥ draw) + P(win) − 1` from the side to move's view, × [`SCALE`].

use crate::geometry::Geometry;
use std::sync::OnceLock;

/// Columns, rows of the board the model is for.
pub const COLUMNS: usize = 7;
/// Rows of the board the model is for.
pub const ROWS: usize = 6;
/// Bits per column of the bitboard (rows + sentinel).
const H1: usize = ROWS + 1;
/// Mirror classes of the 4-cell windows.
pub const WINDOW_CLASSES: usize = 36;
/// Mirror classes of the cells.
const CELL_CLASSES: usize = 4 * ROWS;
/// First index of the threat features.
const THREATS: usize = WINDOW_CLASSES * 81;
/// First index of the playable-threat features.
const PLAYABLE: usize = THREATS + 2 * CELL_CLASSES;
/// First index of the side-to-move features.
const TO_MOVE: usize = PLAYABLE + 4;
/// Number of weights of the model (thresholds apart).
pub const FEATURES: usize = TO_MOVE + 2;
/// Search score of a sure win (the expected value 1) from the side to move's view.
pub const SCALE: f32 = 1000.0;

/// A window instance: its mirror class and its four cells (bit indices) in the class's
/// order, so that a window and its mirror image read their contents alike.
#[derive(Clone, Copy, Debug)]
struct Window {
    class: u16,
    cells: [u8; 4],
}

/// The 69 window instances of 7 × 6.
fn windows() -> &'static [Window] {
    static W: OnceLock<Vec<Window>> = OnceLock::new();
    W.get_or_init(|| {
        let bit = |c: i32, r: i32| (c as usize * H1 + r as usize) as u8;
        let mut out: Vec<Window> = Vec::new();
        let mut seen: Vec<(Vec<u8>, u16, [u8; 4])> = Vec::new();
        let mut classes = 0u16;
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for c in 0..COLUMNS as i32 {
                for r in 0..ROWS as i32 {
                    let cells: Vec<(i32, i32)> = (0..4).map(|i| (c + i * dc, r + i * dr)).collect();
                    if cells
                        .iter()
                        .any(|&(x, y)| x >= COLUMNS as i32 || y < 0 || y >= ROWS as i32)
                    {
                        continue;
                    }
                    let own: [u8; 4] = std::array::from_fn(|i| bit(cells[i].0, cells[i].1));
                    let mut set = own.to_vec();
                    set.sort_unstable();
                    if let Some((_, class, order)) = seen.iter().find(|(s, _, _)| *s == set) {
                        out.push(Window {
                            class: *class,
                            cells: *order,
                        });
                        continue;
                    }
                    let class = classes;
                    classes += 1;
                    out.push(Window { class, cells: own });
                    let mirror: [u8; 4] =
                        std::array::from_fn(|i| bit(COLUMNS as i32 - 1 - cells[i].0, cells[i].1));
                    let mut mset = mirror.to_vec();
                    mset.sort_unstable();
                    if mset != set {
                        seen.push((mset, class, mirror));
                    }
                }
            }
        }
        debug_assert_eq!(classes as usize, WINDOW_CLASSES);
        out
    })
}

/// Mirror class of the cell at bit `b`.
fn cell_class(b: u32) -> usize {
    let (c, r) = (b as usize / H1, b as usize % H1);
    c.min(COLUMNS - 1 - c) * ROWS + r
}

/// Calls `f` with the index of every active feature of a 7 × 6 position given by the first
/// player's stones `p1`, all stones `mask` and the stone count (`moves` parity = side to
/// move).
pub fn for_each_feature(
    geo: &Geometry<u64>,
    p1: u64,
    mask: u64,
    moves: u32,
    mut f: impl FnMut(usize),
) {
    let p2 = p1 ^ mask;
    // Cell contents: 0 empty, 1 first player, 2 second player.
    let code = |b: u8| ((p1 >> b) & 1) as usize + 2 * ((p2 >> b) & 1) as usize;
    for w in windows() {
        let [a, b, c, d] = w.cells;
        f(w.class as usize * 81 + code(a) + 3 * code(b) + 9 * code(c) + 27 * code(d));
    }
    let possible = geo.possible(mask);
    let to_move = (moves & 1) as usize;
    for (k, p) in [p1, p2].into_iter().enumerate() {
        let mut t = geo.winning_cells(p, mask);
        if t & possible != 0 {
            f(PLAYABLE + 2 * k + to_move);
        }
        while t != 0 {
            f(THREATS + k * CELL_CLASSES + cell_class(t.trailing_zeros()));
            t &= t - 1;
        }
    }
    f(TO_MOVE + to_move);
}

/// A fitted model: feature weights and the two thresholds.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// One weight per feature ([`FEATURES`]).
    pub weights: Vec<f32>,
    /// Thresholds θ₀ (draw or better) and θ₁ (win) on the first player's logit.
    pub theta: [f32; 2],
}

/// Logistic function.
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Model {
    /// The committed model (`learned_table.rs`, written by `learn_fit`).
    pub fn embedded() -> &'static Model {
        static M: OnceLock<Model> = OnceLock::new();
        M.get_or_init(|| Model {
            weights: super::learned_table::WEIGHTS.to_vec(),
            theta: super::learned_table::THETA,
        })
    }

    /// The first player's logit `z` of a position (see [`for_each_feature`]).
    pub fn logit(&self, geo: &Geometry<u64>, p1: u64, mask: u64, moves: u32) -> f32 {
        let mut z = 0.0;
        for_each_feature(geo, p1, mask, moves, |i| z += self.weights[i]);
        z
    }

    /// Probabilities (loss, draw, win) for the first player given its logit `z`.
    pub fn probabilities(&self, z: f32) -> [f32; 3] {
        let ge_draw = sigmoid(z - self.theta[0]);
        let win = sigmoid(z - self.theta[1]).min(ge_draw);
        [1.0 - ge_draw, ge_draw - win, win]
    }

    /// Expected value (−1 … 1) for the side to move of the position with `cur` (stones of the
    /// side to move), `mask` and `moves` stones.
    pub fn value(&self, geo: &Geometry<u64>, cur: u64, mask: u64, moves: u32) -> f32 {
        let first_to_move = moves & 1 == 0;
        let p1 = if first_to_move { cur } else { cur ^ mask };
        let [loss, _, win] = self.probabilities(self.logit(geo, p1, mask, moves));
        let v = win - loss;
        if first_to_move {
            v
        } else {
            -v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn windows_are_all_lines_in_mirror_pairs() {
        let w = windows();
        assert_eq!(w.len(), 69);
        let mut per_class = [0; WINDOW_CLASSES];
        for x in w {
            per_class[x.class as usize] += 1;
        }
        // Three self-mirror windows (the centre column's verticals), the rest in pairs.
        assert_eq!(per_class.iter().filter(|&&n| n == 1).count(), 3);
        assert!(per_class.iter().all(|&n| n == 1 || n == 2));
    }

    #[test]
    fn features_are_mirror_symmetric() {
        let geo = Geometry::<u64>::new(7, 6, 4).unwrap();
        for moves in ["4455326", "1122334", "71542236617", "3"] {
            let b = Board::<u64>::from_digits(7, 6, 4, moves).unwrap();
            let mirrored: String = moves.bytes().map(|d| (b'8' - d + b'0') as char).collect();
            let m = Board::<u64>::from_digits(7, 6, 4, &mirrored).unwrap();
            let feats = |b: &Board<u64>| {
                let (cur, mask) = b.bitboards();
                let n = b.moves_played() as u32;
                let p1 = if n.is_multiple_of(2) { cur } else { cur ^ mask };
                let mut v = Vec::new();
                for_each_feature(&geo, p1, mask, n, |i| v.push(i));
                v.sort_unstable();
                v
            };
            let (a, c) = (feats(&b), feats(&m));
            assert!(a.iter().all(|&i| i < FEATURES));
            assert_eq!(a, c, "{moves} vs {mirrored}");
        }
    }
}
