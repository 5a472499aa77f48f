//! One game of Mensch ärgere dich nicht between two dice, exactly as spec §3–§5 decides.
//!
//! Each side is a bitboard of its pieces by *progress* relative to its own start square:
//!
//! ```text
//!  bit:  0 (A) 1 2 ... 39 | 40 41 42 43      + a count of pieces waiting on B
//!        shared track     | own goal a b c d
//! ```
//!
//! The two start squares are 20 apart, so a track square `t` of one side is square `(t + 20) % 40`
//! of the other for either side. The whole move decision of §5 is a handful of mask operations:
//! the pieces that can move `r` are `own & !(own >> r) & (ALL >> r)`, and the front-most is the
//! highest set bit.

use crate::dice::Die;
use crate::rng::Rng;

/// Every square a piece can stand on (progress 0..=43).
const ALL: u64 = (1 << 44) - 1;
/// The shared track (progress 0..=39).
const TRACK: u64 = (1 << 40) - 1;
/// The four goal squares.
const GOAL: u64 = 0xf << 40;
/// Safety cap on rolls per game (spec §5).
pub const ROLL_CAP: u64 = 2_000_000;

/// Which reading of the rules (spec §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Variant {
    /// Track pieces are front-most; goal pieces move only when no track piece can.
    #[default]
    Default,
    /// Goal pieces count as front-most.
    GoalFirst,
    /// First published version: pieces in the goal never move.
    FrozenGoal,
}

impl Variant {
    /// The name used in reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Default => "default",
            Variant::GoalFirst => "goal-first",
            Variant::FrozenGoal => "frozen-goal",
        }
    }
}

/// One player's pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    /// Pieces on the board by relative progress (bits 0..=43).
    pub board: u64,
    /// Pieces waiting on B.
    pub home: u8,
}

/// The position: both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Side 0 and side 1 (side 0 starts at track square 0, side 1 at 20).
    pub sides: [Side; 2],
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// That side (0 or 1) has all four pieces in the goal.
    Win(usize),
    /// No roll of either die can change the position any more.
    Draw,
    /// Stopped by the roll cap (counted as a draw, reported separately).
    Capped,
}

impl Default for Position {
    fn default() -> Self {
        let side = Side { board: 1, home: 3 };
        Self {
            sides: [side, side],
        }
    }
}

impl Position {
    /// Progress of every piece of `side` (−1 = on B), front-most first.
    pub fn progress(&self, side: usize) -> [i8; 4] {
        let s = self.sides[side];
        let mut out = [-1i8; 4];
        let mut bits = s.board;
        for slot in out.iter_mut().take(4 - s.home as usize) {
            let p = 63 - bits.leading_zeros();
            *slot = p as i8;
            bits &= !(1 << p);
        }
        out
    }

    /// `side` rolls `r`; moves the piece §5 picks. Returns whether anything changed.
    #[inline(always)]
    pub fn apply(&mut self, side: usize, r: u32, variant: Variant) -> bool {
        let [a, b] = &mut self.sides;
        if side == 0 {
            step(a, b, r, variant)
        } else {
            step(b, a, r, variant)
        }
    }

    /// Whether `side` has all four pieces in the goal.
    #[inline(always)]
    pub fn won(&self, side: usize) -> bool {
        self.sides[side].board & GOAL == GOAL
    }

    /// Exact deadlock test (spec §5.4): no face of either die changes anything.
    pub fn deadlocked(&self, faces: [&[u32]; 2], variant: Variant) -> bool {
        (0..2).all(|side| {
            faces[side].iter().all(|&r| {
                let mut copy = *self;
                !copy.apply(side, r, variant)
            })
        })
    }
}

/// `me` rolls `r` against `opp`: moves the piece §5 picks and returns whether anything changed.
#[inline(always)]
fn step(me: &mut Side, opp: &mut Side, r: u32, variant: Variant) -> bool {
    if r == 0 || r > 43 {
        return false;
    }
    step_in_range(me, opp, r, variant)
}

/// [`step`] for `r` in `0..=43` (the hot loop's faces are mapped there by [`FastDie`]). A roll
/// of 0 changes nothing without a test of its own: it brings no piece in (not a 6), the piece
/// on A cannot "clear" A by moving 0, and no piece can move 0 onto itself.
#[inline(always)]
fn step_in_range(me: &mut Side, opp: &mut Side, r: u32, variant: Variant) -> bool {
    debug_assert!(r <= 43);
    let board = me.board;
    let on_a = board & 1 != 0;
    let from = if me.home > 0 && r == 6 && !on_a {
        // 1a. Bring a piece in from B.
        me.board |= 1;
        me.home -= 1;
        capture(opp, 0);
        return true;
    } else if me.home > 0 && on_a && (board >> r) & 1 == 0 {
        // 1b/2. Clear the start square while pieces wait on B.
        0
    } else {
        // 3. Front-most piece that can move r.
        let can = board & !(board >> r) & (ALL >> r);
        let candidates = match variant {
            Variant::Default => {
                let track = can & TRACK;
                if track != 0 {
                    track
                } else {
                    can & GOAL
                }
            }
            Variant::GoalFirst => can,
            Variant::FrozenGoal => can & TRACK,
        };
        if candidates == 0 {
            return false;
        }
        63 - candidates.leading_zeros()
    };
    let to = from + r;
    me.board ^= (1 << from) | (1 << to);
    if to < 40 {
        capture(opp, to);
    }
    true
}

/// Sends an opponent piece on the mover's track square `to` back to B.
#[inline(always)]
fn capture(opp: &mut Side, to: u32) {
    let q = if to >= 20 { to - 20 } else { to + 20 };
    let hit = (opp.board >> q) & 1;
    opp.board &= !(hit << q);
    opp.home += hit as u8;
}

/// A die prepared for the hot loop: its faces, the faces as moves (a face that can never
/// move a piece, 0 or above 43, is 0) and the set of faces that can.
#[derive(Clone, Debug)]
pub struct FastDie {
    faces: Vec<u32>,
    /// Per face: the face in the high half, its move (the face, or 0 for a face that can
    /// never move a piece) in the low half; one load per roll.
    face_moves: Vec<u64>,
    /// Bit `r` set for every face `r` in `1..=43`.
    mask: u64,
    n: u32,
    /// `Some(f)` when face `i` is `f + i` for every index and all faces are at most 43 (so
    /// every face is its own move): then a roll needs no table load.
    run_from: Option<u32>,
}

impl FastDie {
    /// Prepares `die`.
    pub fn new(die: &Die) -> Self {
        let faces = die.faces().to_vec();
        let moves: Vec<u32> = faces.iter().map(|&f| if f <= 43 { f } else { 0 }).collect();
        let mask = moves.iter().fold(0u64, |m, &f| m | (1 << f)) & !1;
        let face_moves = faces
            .iter()
            .zip(&moves)
            .map(|(&f, &m)| u64::from(f) << 32 | u64::from(m))
            .collect();
        let run_from = (faces.iter().zip(0..).all(|(&f, i)| f == faces[0] + i)
            && faces.iter().all(|&f| f <= 43))
        .then_some(faces[0]);
        Self {
            n: faces.len() as u32,
            faces,
            face_moves,
            mask,
            run_from,
        }
    }

    /// One fair roll.
    #[inline(always)]
    pub fn roll(&self, rng: &mut Rng) -> u32 {
        self.faces[rng.below(self.n) as usize]
    }

    /// One fair roll (the same draw as [`FastDie::roll`]) as `(face, move)`: the move is
    /// the face, or 0 for a face that can never move a piece.
    #[inline(always)]
    fn roll_move(&self, rng: &mut Rng) -> (u32, u32) {
        let i = rng.below(self.n);
        if let Some(f) = self.run_from {
            return (f + i, f + i);
        }
        let fm = self.face_moves[i as usize];
        ((fm >> 32) as u32, fm as u32)
    }
}

/// Whether some face of `mask` (bit `r` = face `r`, `1..=43`) changes `s` (spec §5 under
/// `variant`): a 6 brings a piece in while A is free, or some piece that may move has a free
/// square (not its own, at most 43) at that distance. Equal to trying every face with
/// [`step`], as the deadlock test did, in a few mask operations.
#[inline(always)]
fn can_change(s: Side, mask: u64, variant: Variant) -> bool {
    if s.home > 0 && mask & (1 << 6) != 0 && s.board & 1 == 0 {
        return true;
    }
    let free = ALL & !s.board;
    let mut movers = match variant {
        Variant::FrozenGoal => s.board & TRACK,
        Variant::Default | Variant::GoalFirst => s.board,
    };
    let mut reach = 0u64;
    while movers != 0 {
        reach |= free >> movers.trailing_zeros();
        movers &= movers - 1;
    }
    reach & mask != 0
}

/// Plays one game; `first` (0 or 1) rolls first. `on_roll(side, roll, &position)` sees every
/// roll (pass `|_, _, _| {}` for speed; it is inlined away).
#[inline(always)]
pub fn play(
    dice: [&FastDie; 2],
    first: usize,
    variant: Variant,
    rng: &mut Rng,
    on_roll: impl FnMut(usize, u32, &Position),
) -> GameResult {
    // One copy of the loop per variant, so the variant's branch folds away.
    match variant {
        Variant::Default => play_variant::<0>(dice, first, rng, on_roll),
        Variant::GoalFirst => play_variant::<1>(dice, first, rng, on_roll),
        Variant::FrozenGoal => play_variant::<2>(dice, first, rng, on_roll),
    }
}

/// The variant of [`play_variant`]'s constant.
const fn variant_of(v: u8) -> Variant {
    match v {
        0 => Variant::Default,
        1 => Variant::GoalFirst,
        _ => Variant::FrozenGoal,
    }
}

/// [`play`] for one variant (`V` as in [`variant_of`]). The two sides' turns are two copies of
/// the same code with the sides fixed, so nothing is swapped when the turn passes.
#[inline(always)]
fn play_variant<const V: u8>(
    dice: [&FastDie; 2],
    first: usize,
    rng: &mut Rng,
    mut on_roll: impl FnMut(usize, u32, &Position),
) -> GameResult {
    let variant = variant_of(V);
    let start = Position::default().sides[0];
    let (mut s0, mut s1) = (start, start);
    let mut rolls_left = ROLL_CAP;
    // The deadlock test depends only on the position, so one test per unchanged position suffices.
    let mut tested = false;
    // One turn of `$side` (rolls until a face other than 6); returns from `play_variant` when
    // the game ends.
    macro_rules! turn {
        ($me:ident, $opp:ident, $side:literal) => {
            loop {
                if rolls_left == 0 {
                    return GameResult::Capped;
                }
                rolls_left -= 1;
                let (r, mv) = dice[$side].roll_move(rng);
                let changed = step_in_range(&mut $me, &mut $opp, mv, variant);
                on_roll($side, r, &Position { sides: [s0, s1] });
                if changed {
                    if $me.board & GOAL == GOAL {
                        return GameResult::Win($side);
                    }
                    tested = false;
                } else if !tested {
                    if !can_change(s0, dice[0].mask, variant)
                        && !can_change(s1, dice[1].mask, variant)
                    {
                        return GameResult::Draw;
                    }
                    tested = true;
                }
                if r != 6 {
                    break;
                }
            }
        };
    }
    if first == 1 {
        turn!(s1, s0, 1);
    }
    loop {
        turn!(s0, s1, 0);
        turn!(s1, s0, 1);
    }
}

#[cfg(test)]
pub(crate) use packed::GENERAL_GAMES;
pub(crate) use packed::{play_fast, Roller};

mod packed;

#[cfg(test)]
mod tests;
