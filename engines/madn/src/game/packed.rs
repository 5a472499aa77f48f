//! The tournament's hot path: [`play_fast`] plays one game exactly as [`super::play`] does
//! (same draws, same result) on sides packed into one mirrored word each, with the dice
//! turned into [`Roller`]s by kind. It lives apart from the rules it must equal because it
//! is written for the machine, not for the reader; the tests of `super::tests` hold the two
//! together.

use super::*;

/// A side packed into one word for [`play_fast`], the board *mirrored*: progress `p` is bit
/// `63 − p` (A is the sign bit, goal square d is bit 20), the number of pieces on B is bits 0..=2.
///
/// Mirrored, "the front-most piece that can move" is the *lowest* set bit, which `blsi`
/// isolates in one instruction, and its target is that bit shifted right by the roll: no bit
/// index is ever computed. "Pieces wait on B" and "a piece stands on A" are a test with a small
/// immediate and a sign test; a capture is one add (`+ 1 − bit`).
pub(super) const MIRROR_ALL: u64 = ALL.reverse_bits();
/// The shared track, mirrored (progress 0..=39 = bits 24..=63).
pub(super) const MIRROR_TRACK: u64 = TRACK.reverse_bits();
/// The goal, mirrored (bits 20..=23).
pub(super) const MIRROR_GOAL: u64 = GOAL.reverse_bits();
/// Bits of a mirrored side that count the pieces on B.
pub(super) const HOME_BITS: u64 = 7;
/// A mirrored side's A square.
pub(super) const MIRROR_A: u64 = 1 << 63;

/// The start position of a mirrored side: one piece on A, three on B.
pub(super) const START: u64 = MIRROR_A | 3;

/// A normal side as [`play_fast`] keeps it.
#[cfg(test)]
pub(super) fn mirror(s: Side) -> u64 {
    s.board.reverse_bits() | u64::from(s.home)
}

/// A mirrored side back in the normal layout.
#[cfg(test)]
pub(super) fn unmirror(s: u64) -> Side {
    Side {
        board: (s & MIRROR_ALL).reverse_bits(),
        home: (s & HOME_BITS) as u8,
    }
}

/// What one roll did in [`play_fast`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
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
pub(super) fn step_packed<const V: u8>(me: &mut u64, opp: &mut u64, r: u32) -> Step {
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
pub(super) fn capture_packed(opp: &mut u64, bit: u64) {
    if *opp & bit != 0 {
        *opp = *opp + 1 - bit;
    }
}

/// [`can_change`] on a mirrored side; `mask_mirrored` is the die's face mask mirrored (bit
/// `63 − r` for face `r`). A piece at bit `i` reaches the free square at bit `i − r`, which
/// `free << (63 − i)` moves to bit `63 − r`.
#[inline(always)]
pub(super) fn can_change_packed(s: u64, mask_mirrored: u64, variant: Variant) -> bool {
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
pub(super) const STREAK: u64 = 12;

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
pub(super) fn play_general<const V: u8, R0: Roller, R1: Roller>(
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
