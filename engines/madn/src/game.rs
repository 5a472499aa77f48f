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

/// A side packed into one word for [`play_fast`], the board *mirrored*: progress `p` is bit
/// `63 − p` (A is the sign bit, goal square d is bit 20), the number of pieces on B is bits 0..=2.
///
/// Mirrored, "the front-most piece that can move" is the *lowest* set bit, which `blsi`
/// isolates in one instruction, and its target is that bit shifted right by the roll: no bit
/// index is ever computed. "Pieces wait on B" and "a piece stands on A" are a test with a small
/// immediate and a sign test; a capture is one add (`+ 1 − bit`).
const MIRROR_ALL: u64 = ALL.reverse_bits();
/// The shared track, mirrored (progress 0..=39 = bits 24..=63).
const MIRROR_TRACK: u64 = TRACK.reverse_bits();
/// The goal, mirrored (bits 20..=23).
const MIRROR_GOAL: u64 = GOAL.reverse_bits();
/// Bits of a mirrored side that count the pieces on B.
const HOME_BITS: u64 = 7;
/// A mirrored side's A square.
const MIRROR_A: u64 = 1 << 63;

/// The start position of a mirrored side: one piece on A, three on B.
const START: u64 = MIRROR_A | 3;

/// A normal side as [`play_fast`] keeps it.
#[cfg(test)]
fn mirror(s: Side) -> u64 {
    s.board.reverse_bits() | u64::from(s.home)
}

/// A mirrored side back in the normal layout.
#[cfg(test)]
fn unmirror(s: u64) -> Side {
    Side {
        board: (s & MIRROR_ALL).reverse_bits(),
        home: (s & HOME_BITS) as u8,
    }
}

/// What one roll did in [`play_fast`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Nothing changed.
    Nothing,
    /// A piece moved (or came in); the game goes on.
    Moved,
    /// A piece moved and the mover now has all four pieces in the goal.
    Won,
}

/// [`step_in_range`] on mirrored sides (`r` in `0..=43`, variant `V` as in [`variant_of`]).
///
/// Same decision in fewer operations: the front-most candidate is the lowest set bit (in the
/// default variant after a rotation that puts the goal bits above the track bits, so a track
/// piece comes first), the target is the candidate shifted right by `r`, a capture happens only
/// on the track and a win only on a move into the goal.
#[inline(always)]
fn step_packed<const V: u8>(me: &mut u64, opp: &mut u64, r: u32) -> Step {
    let s = *me;
    // Moving r forward is bit i to bit i − r, so bit i of `ahead` says whether the target of
    // a piece on bit i is our own.
    let ahead = s << r;
    let waiting = s & HOME_BITS != 0;
    let on_a = s & MIRROR_A != 0;
    let from_bit = if waiting & on_a & (ahead & MIRROR_A == 0) {
        // 1b/2. Clear the start square while pieces wait on B (square r is not our own).
        MIRROR_A
    } else if waiting & !on_a & (r == 6) {
        // 1a. Bring a piece in from B.
        *me = (s | MIRROR_A) - 1;
        capture_packed(opp, 1 << 43);
        return Step::Moved;
    } else {
        // 3. Pieces whose target (at most d: bit i − r >= 20) is not their own; where the
        // mask is set, `ahead` holds board bits only (the B count lands below bit r + 3).
        let can = s & !ahead & (MIRROR_ALL << r);
        match variant_of(V) {
            Variant::Default => {
                // Track bits 24..=63 to 0..=39, goal bits 20..=23 to 60..=63.
                let rot = can.rotate_right(24);
                if rot == 0 {
                    return Step::Nothing;
                }
                (rot & rot.wrapping_neg()).rotate_left(24)
            }
            Variant::GoalFirst => {
                if can == 0 {
                    return Step::Nothing;
                }
                can & can.wrapping_neg()
            }
            Variant::FrozenGoal => {
                let track = can & MIRROR_TRACK;
                if track == 0 {
                    return Step::Nothing;
                }
                track & track.wrapping_neg()
            }
        }
    };
    let to_bit = from_bit >> r;
    let moved = s ^ from_bit ^ to_bit;
    *me = moved;
    let on_track = to_bit & MIRROR_TRACK;
    if on_track != 0 {
        // The opponent's square: progress p is the opponent's (p + 20) mod 40.
        capture_packed(opp, ((on_track >> 20) | (on_track << 20)) & MIRROR_TRACK);
        Step::Moved
    } else if moved & MIRROR_GOAL == MIRROR_GOAL {
        Step::Won
    } else {
        Step::Moved
    }
}

/// [`capture`] on a mirrored side, `bit` the square in the opponent's layout: clears the piece
/// and counts it on B in one add.
#[inline(always)]
fn capture_packed(opp: &mut u64, bit: u64) {
    if *opp & bit != 0 {
        *opp = *opp + 1 - bit;
    }
}

/// [`can_change`] on a mirrored side; `mask_mirrored` is the die's face mask mirrored (bit
/// `63 − r` for face `r`). A piece at bit `i` reaches the free square at bit `i − r`, which
/// `free << (63 − i)` moves to bit `63 − r`.
#[inline(always)]
fn can_change_packed(s: u64, mask_mirrored: u64, variant: Variant) -> bool {
    if s & HOME_BITS != 0 && mask_mirrored & (MIRROR_A >> 6) != 0 && s & MIRROR_A == 0 {
        return true;
    }
    let free = MIRROR_ALL & !s;
    let mut movers = match variant {
        Variant::FrozenGoal => s & MIRROR_TRACK,
        Variant::Default | Variant::GoalFirst => s & MIRROR_ALL,
    };
    let mut reach = 0u64;
    while movers != 0 {
        reach |= free << (63 - movers.trailing_zeros());
        movers &= movers - 1;
    }
    reach & mask_mirrored != 0
}

/// How a die turns one draw into `(face, move)` in [`play_fast`]; the loop is compiled once
/// per kind of each die, so a die's kind costs no test per roll.
pub(crate) trait Roller: Copy {
    /// One fair roll: the same draw and the same `(face, move)` as [`FastDie::roll_move`].
    fn roll(self, rng: &mut Rng) -> (u32, u32);

    /// `(face, move)` for the draw `draw`, or `None` when the draw might be rejected (then
    /// [`Roller::roll_from`] decides, with further draws).
    fn roll_draw(self, draw: u32) -> Option<(u32, u32)>;

    /// The roll whose first draw is `draw` (taken from `rng` already), as [`Rng::below_from`].
    fn roll_from(self, draw: u32, rng: &mut Rng) -> (u32, u32);
}

/// A die whose faces are the run `f, f + 1, …, f + n − 1`, all at most 43 ([`FastDie::run_from`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunRoller {
    f: u32,
    n: u32,
}

impl Roller for RunRoller {
    #[inline(always)]
    fn roll(self, rng: &mut Rng) -> (u32, u32) {
        let r = self.f + rng.below(self.n);
        (r, r)
    }

    #[inline(always)]
    fn roll_draw(self, draw: u32) -> Option<(u32, u32)> {
        let m = u64::from(draw) * u64::from(self.n);
        if (m as u32) < self.n {
            return None;
        }
        let r = self.f + (m >> 32) as u32;
        Some((r, r))
    }

    fn roll_from(self, draw: u32, rng: &mut Rng) -> (u32, u32) {
        let r = self.f + rng.below_from(draw, self.n);
        (r, r)
    }
}

/// Any other die: face and move from the die's table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableRoller<'a> {
    face_moves: &'a [u64],
}

impl Roller for TableRoller<'_> {
    #[inline(always)]
    fn roll(self, rng: &mut Rng) -> (u32, u32) {
        let fm = self.face_moves[rng.below(self.face_moves.len() as u32) as usize];
        ((fm >> 32) as u32, fm as u32)
    }

    #[inline(always)]
    fn roll_draw(self, draw: u32) -> Option<(u32, u32)> {
        let n = self.face_moves.len() as u32;
        let m = u64::from(draw) * u64::from(n);
        if (m as u32) < n {
            return None;
        }
        let fm = self.face_moves[(m >> 32) as usize];
        Some(((fm >> 32) as u32, fm as u32))
    }

    fn roll_from(self, draw: u32, rng: &mut Rng) -> (u32, u32) {
        let fm = self.face_moves[rng.below_from(draw, self.face_moves.len() as u32) as usize];
        ((fm >> 32) as u32, fm as u32)
    }
}

impl FastDie {
    /// The die as a [`RunRoller`] when its faces are a run, else as a [`TableRoller`].
    pub(crate) fn roller(&self) -> Result<RunRoller, TableRoller<'_>> {
        match self.run_from {
            Some(f) => Ok(RunRoller { f, n: self.n }),
            None => Err(TableRoller {
                face_moves: &self.face_moves,
            }),
        }
    }

    /// Bit `63 − r` set for every face `r` in `1..=43`: the deadlock test's face mask in
    /// [`play_fast`]'s mirrored layout.
    pub(crate) fn mask_mirrored(&self) -> u64 {
        self.mask.reverse_bits()
    }
}

/// Rolls in a row that change nothing before [`play_fast`] tests for a deadlock.
const STREAK: u64 = 12;

/// One game as [`play`] plays it (same draws, same result), without the per-roll callback:
/// returns the result and the number of rolls. The hot path of the tournament: sides packed and
/// mirrored ([`MIRROR_ALL`]), dice by kind ([`Roller`]), the variant a constant (`V` as in
/// [`variant_of`]); `rng` should be a local copy so that its state stays in registers.
///
/// Draws are taken two at a time: one 64-bit output gives the draws of two consecutive rolls,
/// and which half a roll uses is fixed by where it is in the code, not by a flag (the flag's
/// alternating branch was the loop's most mispredicted). The loop is two blocks, "side 0 to
/// move on a fresh output" and "side 1 to move on a fresh output"; each plays the two rolls of
/// one output, and the faces decide which block comes next. A draw that might be rejected
/// (probability about n / 2³², so never in practice) hands the game to [`play_general`].
#[inline(always)]
pub(crate) fn play_fast<const V: u8, R0: Roller, R1: Roller>(
    dice: (R0, R1),
    masks_mirrored: [u64; 2],
    first: usize,
    rng: &mut Rng,
) -> (GameResult, u64) {
    let variant = variant_of(V);
    let (mut s0, mut s1) = (START, START);
    let mut rolls_left = ROLL_CAP;
    // `rolls_left` after the last roll that changed something (the start counts as one). The
    // rolls since then changed nothing; if the position is deadlocked, the game ended at the
    // first of them. The test waits until `STREAK` such rolls (or the game stops otherwise),
    // and on a deadlock the generator is rewound to that first roll.
    let mut last_change = ROLL_CAP;
    // Ends the game as a draw if the rolls since the last change (fewer than `STREAK`, not
    // tested yet) began in a deadlock; `$spare` as in `roll!`, `$extra` draws taken beyond the
    // last roll.
    macro_rules! end_if_deadlocked {
        ($spare:expr, $extra:expr) => {{
            let streak = last_change - rolls_left;
            if (1..STREAK).contains(&streak)
                && !can_change_packed(s0, masks_mirrored[0], variant)
                && !can_change_packed(s1, masks_mirrored[1], variant)
            {
                rng.set_spare($spare);
                rng.rewind_draws(streak - 1 + $extra);
                return (GameResult::Draw, ROLL_CAP - last_change + 1);
            }
        }};
    }
    // One roll of `$side` on the draw `$draw`; `$spare` is the draw left over for the next roll
    // (written back to `rng` when the game ends here). Evaluates to the face.
    macro_rules! roll {
        ($me:ident, $opp:ident, $die:expr, $side:literal, $draw:expr, $spare:expr) => {{
            let draw: u32 = $draw;
            let Some((r, mv)) = $die.roll_draw(draw) else {
                rng.set_spare($spare);
                end_if_deadlocked!($spare, 1);
                let tested = last_change != rolls_left;
                return play_general::<V, R0, R1>(
                    dice,
                    masks_mirrored,
                    ([s0, s1], $side, rolls_left, tested),
                    draw,
                    rng,
                );
            };
            rolls_left -= 1;
            match step_packed::<V>(&mut $me, &mut $opp, mv) {
                Step::Won => {
                    rng.set_spare($spare);
                    return (GameResult::Win($side), ROLL_CAP - rolls_left);
                }
                Step::Moved => last_change = rolls_left,
                Step::Nothing => {
                    if last_change - rolls_left == STREAK
                        && !can_change_packed(s0, masks_mirrored[0], variant)
                        && !can_change_packed(s1, masks_mirrored[1], variant)
                    {
                        rng.set_spare($spare);
                        rng.rewind_draws(STREAK - 1);
                        return (GameResult::Draw, ROLL_CAP - last_change + 1);
                    }
                }
            }
            r
        }};
    }
    // The two rolls of one fresh output: `$a` rolls first; returns whether `$a` is to move
    // after them (else the other side).
    macro_rules! pair {
        ($a:ident, $b:ident, $da:expr, $db:expr, $sa:literal, $sb:literal) => {{
            if rolls_left == 0 {
                end_if_deadlocked!(None, 0);
                return (GameResult::Capped, ROLL_CAP);
            }
            let x = rng.next_u64();
            let hi = (x >> 32) as u32;
            let r = roll!($a, $b, $da, $sa, x as u32, Some(hi));
            if rolls_left == 0 {
                end_if_deadlocked!(Some(hi), 0);
                rng.set_spare(Some(hi));
                return (GameResult::Capped, ROLL_CAP);
            }
            if r == 6 {
                roll!($a, $b, $da, $sa, hi, None) == 6
            } else {
                roll!($b, $a, $db, $sb, hi, None) != 6
            }
        }};
    }
    // A game may start on the spare half of the previous game's last output.
    let mut side1_to_move = first == 1;
    if let Some(draw) = rng.take_spare() {
        let r = if side1_to_move {
            roll!(s1, s0, dice.1, 1, draw, None)
        } else {
            roll!(s0, s1, dice.0, 0, draw, None)
        };
        side1_to_move ^= r != 6;
    }
    loop {
        if !side1_to_move {
            while pair!(s0, s1, dice.0, dice.1, 0, 1) {}
        }
        side1_to_move = false;
        while pair!(s1, s0, dice.1, dice.0, 1, 0) {}
    }
}

/// How many games [`play_general`] took over (for the test that it is reached).
#[cfg(test)]
pub(crate) static GENERAL_GAMES: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(0);

/// The rest of a [`play_fast`] game from `(sides, side to move, rolls left, tested)`, whose
/// next roll starts with the draw `first` (already taken from `rng`) and may need more draws:
/// one roll at a time, the spare draw kept in `rng`. Rarely used, so kept out of the loop.
#[cold]
#[inline(never)]
fn play_general<const V: u8, R0: Roller, R1: Roller>(
    dice: (R0, R1),
    masks_mirrored: [u64; 2],
    (mut sides, mut side, mut rolls_left, mut tested): ([u64; 2], usize, u64, bool),
    first: u32,
    rng: &mut Rng,
) -> (GameResult, u64) {
    #[cfg(test)]
    GENERAL_GAMES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let variant = variant_of(V);
    let mut pending = Some(first);
    loop {
        if rolls_left == 0 {
            return (GameResult::Capped, ROLL_CAP);
        }
        rolls_left -= 1;
        let (r, mv) = match (side, pending.take()) {
            (0, Some(d)) => dice.0.roll_from(d, rng),
            (0, None) => dice.0.roll(rng),
            (_, Some(d)) => dice.1.roll_from(d, rng),
            (_, None) => dice.1.roll(rng),
        };
        let [a, b] = &mut sides;
        let step = if side == 0 {
            step_packed::<V>(a, b, mv)
        } else {
            step_packed::<V>(b, a, mv)
        };
        match step {
            Step::Won => return (GameResult::Win(side), ROLL_CAP - rolls_left),
            Step::Moved => tested = false,
            Step::Nothing => {
                if !tested {
                    if !can_change_packed(sides[0], masks_mirrored[0], variant)
                        && !can_change_packed(sides[1], masks_mirrored[1], variant)
                    {
                        return (GameResult::Draw, ROLL_CAP - rolls_left);
                    }
                    tested = true;
                }
            }
        }
        if r != 6 {
            side ^= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random side: up to four pieces on distinct squares, the rest on B.
    fn random_side(rng: &mut Rng) -> Side {
        let pieces = rng.below(5);
        let mut board = 0u64;
        while board.count_ones() < pieces {
            board |= 1 << rng.below(44);
        }
        Side {
            board,
            home: (4 - pieces) as u8,
        }
    }

    fn pos(a: &[u32], a_home: u8, b: &[u32], b_home: u8) -> Position {
        let board = |ps: &[u32]| ps.iter().fold(0u64, |m, &p| m | 1 << p);
        Position {
            sides: [
                Side {
                    board: board(a),
                    home: a_home,
                },
                Side {
                    board: board(b),
                    home: b_home,
                },
            ],
        }
    }

    #[test]
    fn six_brings_a_piece_in_and_captures_on_a() {
        // Side 1's piece stands on side 0's A square (its progress 20).
        let mut p = pos(&[5], 3, &[20], 3);
        assert!(p.apply(0, 6, Variant::Default));
        assert_eq!(p, pos(&[0, 5], 2, &[], 4));
    }

    #[test]
    fn start_square_must_be_cleared_while_pieces_wait() {
        // Piece on A and a piece further on: A moves, not the front-most.
        let mut p = pos(&[0, 30], 2, &[], 4);
        assert!(p.apply(0, 3, Variant::Default));
        assert_eq!(p, pos(&[3, 30], 2, &[], 4));
        // A 6 with A occupied and the A piece blocked by its own piece on 6: front-most moves.
        let mut p = pos(&[0, 6, 30], 1, &[], 4);
        assert!(p.apply(0, 6, Variant::Default));
        assert_eq!(p, pos(&[0, 6, 36], 1, &[], 4));
    }

    #[test]
    fn front_most_jumps_and_enters_goal_exactly() {
        // Front-most at 39 enters a with a 1; with a 5 it would pass d, so the next one moves.
        let mut p = pos(&[39, 10], 2, &[], 4);
        assert!(p.apply(0, 5, Variant::Default));
        assert_eq!(p, pos(&[39, 15], 2, &[], 4));
        assert!(p.apply(0, 4, Variant::Default));
        assert_eq!(p, pos(&[43, 15], 2, &[], 4));
        // Own piece on the target blocks; pieces in the way are jumped.
        let mut p = pos(&[12, 10], 2, &[], 4);
        assert!(p.apply(0, 2, Variant::Default));
        assert_eq!(p, pos(&[14, 10], 2, &[], 4));
    }

    #[test]
    fn goal_moves_differ_by_variant() {
        // Pieces on 40 (a) and 20; roll 2: default moves the track piece, goal-first the goal one.
        let start = pos(&[40, 20], 2, &[], 4);
        let mut d = start;
        assert!(d.apply(0, 2, Variant::Default));
        assert_eq!(d, pos(&[40, 22], 2, &[], 4));
        let mut g = start;
        assert!(g.apply(0, 2, Variant::GoalFirst));
        assert_eq!(g, pos(&[42, 20], 2, &[], 4));
        // Only goal pieces can move: default moves them, frozen-goal cannot.
        let only_goal = pos(&[40, 43, 42], 1, &[], 4);
        let mut d = only_goal;
        assert!(d.apply(0, 1, Variant::Default));
        assert_eq!(d, pos(&[41, 43, 42], 1, &[], 4));
        let mut f = only_goal;
        assert!(!f.apply(0, 1, Variant::FrozenGoal));
    }

    #[test]
    fn capture_maps_squares_between_sides() {
        // Side 1 at its progress 5 = track 25 = side 0's progress 25.
        let mut p = pos(&[22], 3, &[5, 0], 2);
        assert!(p.apply(0, 3, Variant::Default));
        assert_eq!(p, pos(&[25], 3, &[0], 3));
    }

    #[test]
    fn zero_and_huge_faces_do_nothing_and_deadlock_is_exact() {
        let mut p = Position::default();
        assert!(!p.apply(0, 0, Variant::Default));
        assert!(!p.apply(0, 44, Variant::Default));
        // Pieces at 39, 41, 42, 43 with only faces 3 and 4: 39 cannot move (42, 43 own or beyond)...
        let stuck = pos(&[38, 41, 42, 43], 0, &[38, 41, 42, 43], 0);
        assert!(stuck.deadlocked([&[4, 6], &[4, 6]], Variant::Default));
        assert!(!stuck.deadlocked([&[4, 6], &[2]], Variant::Default));
    }

    #[test]
    fn progress_lists_front_most_first() {
        assert_eq!(pos(&[3, 40], 2, &[], 4).progress(0), [40, 3, -1, -1]);
    }

    #[test]
    fn mask_deadlock_test_equals_trying_every_face() {
        let mut rng = Rng::seeded(38);
        let face_sets: [&[u32]; 6] = [
            &[1, 2, 3, 4, 5, 6],
            &[4, 6],
            &[2],
            &[0, 44, 50],
            &[1, 3, 7, 40, 43],
            &[6, 0, 99],
        ];
        for i in 0..200_000u32 {
            let mut side = || random_side(&mut rng);
            let p = Position {
                sides: [side(), side()],
            };
            let fa = face_sets[i as usize % 6];
            let fb = face_sets[(i / 6) as usize % 6];
            let masks = [
                FastDie::new(&Die::new(fa.to_vec()).unwrap()).mask,
                FastDie::new(&Die::new(fb.to_vec()).unwrap()).mask,
            ];
            for v in [Variant::Default, Variant::GoalFirst, Variant::FrozenGoal] {
                let fast =
                    !can_change(p.sides[0], masks[0], v) && !can_change(p.sides[1], masks[1], v);
                assert_eq!(fast, p.deadlocked([fa, fb], v), "{p:?} {fa:?} {fb:?} {v:?}");
            }
        }
    }

    #[test]
    fn mirrored_step_and_deadlock_test_equal_the_plain_ones() {
        let mut rng = Rng::seeded(44);
        let masks = [0b111_1110u64, 1 << 6, 0xfff_ffff_fffe, 1 << 2 | 1 << 43, 0];
        for i in 0..300_000u32 {
            let mut side = || random_side(&mut rng);
            let (a, b) = (side(), side());
            assert_eq!(unmirror(mirror(a)), a);
            let r = i % 44;
            for v in [Variant::Default, Variant::GoalFirst, Variant::FrozenGoal] {
                let (mut pa, mut pb) = (a, b);
                let changed = step_in_range(&mut pa, &mut pb, r, v);
                let (mut ma, mut mb) = (mirror(a), mirror(b));
                let step = match v {
                    Variant::Default => step_packed::<0>(&mut ma, &mut mb, r),
                    Variant::GoalFirst => step_packed::<1>(&mut ma, &mut mb, r),
                    Variant::FrozenGoal => step_packed::<2>(&mut ma, &mut mb, r),
                };
                assert_eq!(
                    (unmirror(ma), unmirror(mb)),
                    (pa, pb),
                    "{a:?} {b:?} {r} {v:?}"
                );
                let won = pa.board & GOAL == GOAL;
                let expected = match (changed, won) {
                    (false, _) => Step::Nothing,
                    (true, false) => Step::Moved,
                    (true, true) => Step::Won,
                };
                assert!(step == expected, "{a:?} {b:?} {r} {v:?}");
                let mask = masks[i as usize % masks.len()];
                assert_eq!(
                    can_change_packed(mirror(a), mask.reverse_bits(), v),
                    can_change(a, mask, v),
                    "{a:?} {mask:b} {v:?}"
                );
            }
        }
    }

    #[test]
    fn a_draw_is_decided_at_once_unless_it_might_be_rejected() {
        let run = FastDie::new(&Die::new((1..=6).collect()).unwrap());
        let table = FastDie::new(&Die::new(vec![1, 1, 6, 44, 0]).unwrap());
        let (Ok(run), Err(table)) = (run.roller(), table.roller()) else {
            panic!("kinds");
        };
        let mut rng = Rng::seeded(3);
        // Random draws, and draws whose low product is below n (the only ones `below` may
        // reject: 2^32 mod 6 = 4 and 2^32 mod 5 = 1).
        let mut draws: Vec<u32> = (0..100_000).map(|_| rng.next_u32()).collect();
        draws.extend([0, 1, 2, u32::MAX, u32::MAX / 6 + 1, u32::MAX / 5 + 1]);
        for d in draws {
            let mut a = Rng::seeded(9);
            let b = a;
            let fast = run.roll_draw(d);
            assert_eq!(fast.is_none(), ((u64::from(d) * 6) as u32) < 6, "{d}");
            let slow = run.roll_from(d, &mut a);
            if let Some(fast) = fast {
                assert_eq!(fast, slow, "{d}");
                assert_eq!(a, b, "a decided draw takes nothing more from the stream");
            }
            let mut a = Rng::seeded(9);
            let fast = table.roll_draw(d);
            assert_eq!(fast.is_none(), ((u64::from(d) * 5) as u32) < 5, "{d}");
            if let Some(fast) = fast {
                assert_eq!(fast, table.roll_from(d, &mut a), "{d}");
            }
        }
        // The slow path rejects exactly as `below` does: draw 0 (low product 0 < 4) is
        // rejected, and the roll is decided by the stream's next draw.
        let mut a = Rng::seeded(9);
        let mut b = a;
        assert_eq!(run.roll_from(0, &mut a).0, 1 + b.below(6));
        assert_eq!(a, b);
    }

    #[test]
    fn runs_of_faces_roll_without_the_table_and_draw_the_same() {
        let run_from = |faces: &[u32]| FastDie::new(&Die::new(faces.to_vec()).unwrap()).run_from;
        assert_eq!(run_from(&[1, 2, 3, 4, 5, 6]), Some(1));
        assert_eq!(run_from(&[0, 1, 2]), Some(0));
        assert_eq!(run_from(&[7]), Some(7));
        assert_eq!(run_from(&[40, 41, 42, 43]), Some(40));
        // Not a run, or a face that is not its own move.
        assert_eq!(run_from(&[1, 1, 1, 6, 6, 6]), None);
        assert_eq!(run_from(&[2, 1]), None);
        assert_eq!(run_from(&[42, 43, 44]), None);
        // Same draws, same (face, move) as the table.
        for faces in [
            &[1u32, 2, 3, 4, 5, 6][..],
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
            &[40, 41],
        ] {
            let d = FastDie::new(&Die::new(faces.to_vec()).unwrap());
            assert!(d.run_from.is_some());
            let (mut a, mut b) = (Rng::seeded(5), Rng::seeded(5));
            for _ in 0..10_000 {
                let fm = d.face_moves[b.below(d.n) as usize];
                assert_eq!(d.roll_move(&mut a), ((fm >> 32) as u32, fm as u32));
            }
        }
    }

    #[test]
    fn moves_of_out_of_range_faces_are_zero_and_change_nothing() {
        let d = FastDie::new(&Die::new(vec![0, 6, 44, 100]).unwrap());
        let moves: Vec<u32> = d.face_moves.iter().map(|&fm| fm as u32).collect();
        assert_eq!(moves, vec![0, 6, 0, 0]);
        assert_eq!(d.mask, 1 << 6);
        let mut p = pos(&[0, 5], 2, &[7], 3);
        let before = p;
        let [a, b] = &mut p.sides;
        assert!(!step_in_range(a, b, 0, Variant::Default));
        assert_eq!(p, before);
    }
}
