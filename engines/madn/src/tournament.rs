//! The dice tournament: every pair of dice plays games in fixed blocks, in parallel, and the
//! dice are ranked by total win rate (spec §6–§7).
//!
//! Games of a pairing are grouped in blocks of [`BLOCK`]; block `k` of pair `(a, b)` draws from
//! its own stream ([`Rng::for_block`]), and in each block die `a` starts the first half of the
//! games and die `b` the second half. So the results depend only on the seed and the number of
//! games, never on the thread count or on how a run was split into rounds.

use crate::dice::Die;
use crate::game::{play_fast, FastDie, GameResult, Roller, Variant};
use crate::rng::Rng;
use rayon::prelude::*;

/// Games per block (even).
pub const BLOCK: u64 = 2_000;
/// Games per pairing at which the adaptive mode gives up (spec §7.1).
pub const ADAPTIVE_CAP: u64 = 10_000_000;

/// Results of one block, or of a whole pairing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Wins of the lower-numbered die.
    pub a_wins: u64,
    /// Wins of the higher-numbered die.
    pub b_wins: u64,
    /// Deadlock draws.
    pub draws: u64,
    /// Games stopped by the roll cap (not included in `draws`).
    pub capped: u64,
    /// Rolls made in all these games.
    pub rolls: u64,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.games += o.games;
        self.a_wins += o.a_wins;
        self.b_wins += o.b_wins;
        self.draws += o.draws;
        self.capped += o.capped;
        self.rolls += o.rolls;
    }
}

/// One row of the ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct RankRow {
    /// Die index (0-based, file order).
    pub die: usize,
    /// Games won over all pairings.
    pub wins: u64,
    /// Games played over all pairings.
    pub games: u64,
    /// Draws (including capped games) over all pairings.
    pub draws: u64,
    /// `wins / games`.
    pub win_rate: f64,
    /// 95 % confidence interval of the win rate (normal approximation).
    pub ci95: (f64, f64),
}

/// Plays block `block` (of `size` games) of the pairing `a` < `b`.
///
/// On x86-64 CPUs with BMI1, BMI2 and LZCNT (every Intel since 2013, AMD since 2015) the games
/// run in a copy of the loop compiled for them: the move decision is a chain of variable shifts
/// and a leading-zero count, which these make one instruction each (`shrx`/`shlx`, `andn`,
/// `lzcnt`) instead of a move to `cl` and a shift, or a `bsr` with a zero test. Both copies run
/// the same code on the same draws, so the results are identical.
pub fn play_block(
    dice: [&FastDie; 2],
    (a, b): (usize, usize),
    block: u64,
    size: u64,
    seed: u64,
    variant: Variant,
) -> Tally {
    let mut rng = Rng::for_block(seed, a, b, block);
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "bmi1,bmi2,lzcnt")]
        fn fast(dice: [&FastDie; 2], size: u64, variant: Variant, rng: &mut Rng) -> Tally {
            play_games(dice, size, variant, rng)
        }
        if std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
        {
            // SAFETY: the CPU has BMI1, BMI2 and LZCNT, checked just above.
            return unsafe { fast(dice, size, variant, &mut rng) };
        }
    }
    play_games(dice, size, variant, &mut rng)
}

/// The games of [`play_block`] on `rng`: the first half started by die `a`, the rest by `b`.
/// One copy of the loop per variant and per kind of each die ([`Roller`]).
#[inline(always)]
fn play_games(dice: [&FastDie; 2], size: u64, variant: Variant, rng: &mut Rng) -> Tally {
    macro_rules! by_dice {
        ($v:literal) => {
            match (dice[0].roller(), dice[1].roller()) {
                (Ok(a), Ok(b)) => games_with::<$v, _, _>((a, b), dice, size, rng),
                (Ok(a), Err(b)) => games_with::<$v, _, _>((a, b), dice, size, rng),
                (Err(a), Ok(b)) => games_with::<$v, _, _>((a, b), dice, size, rng),
                (Err(a), Err(b)) => games_with::<$v, _, _>((a, b), dice, size, rng),
            }
        };
    }
    match variant {
        Variant::Default => by_dice!(0),
        Variant::GoalFirst => by_dice!(1),
        Variant::FrozenGoal => by_dice!(2),
    }
}

/// [`play_games`] for one variant (`V`, as `play_fast` takes it) and one pair of die kinds.
/// The generator is copied into a local for the block, so its state stays in registers.
#[inline(always)]
fn games_with<const V: u8, R0: Roller, R1: Roller>(
    rollers: (R0, R1),
    dice: [&FastDie; 2],
    size: u64,
    rng: &mut Rng,
) -> Tally {
    let masks = [dice[0].mask_mirrored(), dice[1].mask_mirrored()];
    let mut local = *rng;
    let mut t = Tally {
        games: size,
        ..Tally::default()
    };
    for g in 0..size {
        let first = usize::from(g >= size / 2);
        let (result, rolls) = play_fast::<V, R0, R1>(rollers, masks, first, &mut local);
        t.rolls += rolls;
        match result {
            GameResult::Win(0) => t.a_wins += 1,
            GameResult::Win(_) => t.b_wins += 1,
            GameResult::Draw => t.draws += 1,
            GameResult::Capped => t.capped += 1,
        }
    }
    *rng = local;
    t
}

/// A tournament in progress: the dice and, per pairing, the tallies of its blocks.
#[derive(Clone, Debug)]
pub struct Tournament {
    dice: Vec<Die>,
    fast: Vec<FastDie>,
    variant: Variant,
    seed: u64,
    pairs: Vec<(usize, usize)>,
    blocks: Vec<Vec<Tally>>,
    games: u64,
}

impl Tournament {
    /// A tournament of `dice` (at least two) under `variant` and `seed`; no games played yet.
    pub fn new(dice: Vec<Die>, variant: Variant, seed: u64) -> Self {
        let n = dice.len();
        let pairs: Vec<_> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect();
        Self {
            fast: dice.iter().map(FastDie::new).collect(),
            blocks: vec![Vec::new(); pairs.len()],
            dice,
            variant,
            seed,
            pairs,
            games: 0,
        }
    }

    /// The dice, in file order.
    pub fn dice(&self) -> &[Die] {
        &self.dice
    }

    /// The rules variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Games played per pairing so far.
    pub fn games_per_pair(&self) -> u64 {
        self.games
    }

    /// Plays until every pairing has `target` games (odd numbers round up); `progress` is told
    /// the number of games of every finished block. Runs on the current rayon pool.
    pub fn extend_to(&mut self, target: u64, progress: &(dyn Fn(u64) + Sync)) {
        let target = target + target % 2;
        if target <= self.games {
            return;
        }
        // A partial last block is replayed at its new size, so the result is path-independent.
        let first_block = self.games / BLOCK;
        let blocks = target.div_ceil(BLOCK);
        let jobs: Vec<(usize, u64)> = (0..self.pairs.len())
            .flat_map(|p| (first_block..blocks).map(move |k| (p, k)))
            .collect();
        let (seed, variant) = (self.seed, self.variant);
        let results: Vec<Tally> = jobs
            .par_iter()
            .map(|&(p, k)| {
                let (a, b) = self.pairs[p];
                let size = BLOCK.min(target - k * BLOCK);
                let t = play_block(
                    [&self.fast[a], &self.fast[b]],
                    (a, b),
                    k,
                    size,
                    seed,
                    variant,
                );
                progress(size);
                t
            })
            .collect();
        for (blocks, _) in self.blocks.iter_mut().zip(0..) {
            blocks.truncate(first_block as usize);
        }
        for (&(p, _), t) in jobs.iter().zip(results) {
            self.blocks[p].push(t);
        }
        self.games = target;
    }

    /// Per-pairing totals: `((a, b), tally)` with `a < b` (0-based).
    pub fn pairs(&self) -> Vec<((usize, usize), Tally)> {
        self.pairs
            .iter()
            .zip(&self.blocks)
            .map(|(&pair, blocks)| {
                let mut t = Tally::default();
                blocks.iter().for_each(|b| t.add(b));
                (pair, t)
            })
            .collect()
    }

    /// Total rolls made so far.
    pub fn rolls(&self) -> u64 {
        self.pairs().iter().map(|(_, t)| t.rolls).sum()
    }

    /// The row die's win fraction against the column die (`None` on the diagonal).
    pub fn matrix(&self) -> Vec<Vec<Option<f64>>> {
        let n = self.dice.len();
        let mut m = vec![vec![None; n]; n];
        for ((a, b), t) in self.pairs() {
            let g = t.games.max(1) as f64;
            m[a][b] = Some(t.a_wins as f64 / g);
            m[b][a] = Some(t.b_wins as f64 / g);
        }
        m
    }

    /// Dice by total win rate, best first; ties go to the lower die number.
    pub fn ranking(&self) -> Vec<RankRow> {
        let n = self.dice.len();
        let mut rows: Vec<RankRow> = (0..n)
            .map(|die| RankRow {
                die,
                wins: 0,
                games: 0,
                draws: 0,
                win_rate: 0.0,
                ci95: (0.0, 0.0),
            })
            .collect();
        for ((a, b), t) in self.pairs() {
            for (die, wins) in [(a, t.a_wins), (b, t.b_wins)] {
                rows[die].wins += wins;
                rows[die].games += t.games;
                rows[die].draws += t.draws + t.capped;
            }
        }
        for r in &mut rows {
            let g = r.games.max(1) as f64;
            r.win_rate = r.wins as f64 / g;
            let half = kibitz_search::stats::Z95 * (r.win_rate * (1.0 - r.win_rate) / g).sqrt();
            r.ci95 = ((r.win_rate - half).max(0.0), (r.win_rate + half).min(1.0));
        }
        rows.sort_by(|x, y| y.win_rate.total_cmp(&x.win_rate).then(x.die.cmp(&y.die)));
        rows
    }

    /// Whether every adjacent pair in the ranking differs at two-sided `confidence`.
    pub fn settled(&self, confidence: f64) -> bool {
        let z = kibitz_search::stats::normal_quantile(0.5 + confidence / 2.0);
        self.ranking().windows(2).all(|w| {
            let (x, y) = (&w[0], &w[1]);
            let var = |r: &RankRow| r.win_rate * (1.0 - r.win_rate) / r.games.max(1) as f64;
            let diff = x.win_rate - y.win_rate;
            diff > 0.0 && diff > z * (var(x) + var(y)).sqrt()
        })
    }

    /// Adaptive mode: doubles the games per pairing (from `start`) until the ranking is settled
    /// at `confidence` or `cap` games per pairing are reached. Returns whether it settled.
    pub fn run_until_settled(
        &mut self,
        start: u64,
        confidence: f64,
        cap: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> bool {
        let mut target = start.max(2).min(cap);
        loop {
            self.extend_to(target, progress);
            if self.settled(confidence) {
                return true;
            }
            if target >= cap {
                return false;
            }
            target = (target * 2).min(cap);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::play;

    fn dice(spec: &[&[u32]]) -> Vec<Die> {
        spec.iter().map(|f| Die::new(f.to_vec()).unwrap()).collect()
    }

    #[test]
    fn results_do_not_depend_on_threads_or_rounds() {
        let d = dice(&[&[1, 2, 3, 4, 5, 6], &[1, 1, 1, 6, 6, 6], &[1, 2, 3, 4]]);
        let run = |threads: usize, steps: &[u64]| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut t = Tournament::new(d.clone(), Variant::Default, 9);
                for &s in steps {
                    t.extend_to(s, &|_| {});
                }
                t.pairs()
            })
        };
        let one = run(1, &[5_001]);
        assert_eq!(one, run(2, &[5_001]));
        assert_eq!(one, run(2, &[1_000, 2_500, 5_001]));
        assert!(one.iter().all(|(_, t)| t.games == 5_002));
        assert_ne!(one, run(1, &[5_002 - 2]));
    }

    #[test]
    fn bmi_copy_and_portable_copy_play_the_same_games() {
        let d = dice(&[
            &[1, 2, 3, 4, 5, 6],
            &[0, 1, 6, 44],
            &[1, 2, 3, 4, 5, 6, 7, 8],
        ]);
        let fast: Vec<FastDie> = d.iter().map(FastDie::new).collect();
        for variant in [Variant::Default, Variant::GoalFirst, Variant::FrozenGoal] {
            for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                let pair = [&fast[a], &fast[b]];
                // play_block takes the BMI copy where the CPU has it; play_games is portable.
                let dispatched = play_block(pair, (a, b), 3, 400, 7, variant);
                let portable = play_games(pair, 400, variant, &mut Rng::for_block(7, a, b, 3));
                assert_eq!(dispatched, portable, "{variant:?} {a} {b}");
                assert_eq!(
                    dispatched.a_wins + dispatched.b_wins + dispatched.draws,
                    400
                );
            }
        }
    }

    /// The games loop before the packed fast path: [`play`] per game, rolls counted by its
    /// callback.
    fn reference_games(dice: [&FastDie; 2], size: u64, variant: Variant, rng: &mut Rng) -> Tally {
        let mut t = Tally {
            games: size,
            ..Tally::default()
        };
        for g in 0..size {
            let first = usize::from(g >= size / 2);
            match play(dice, first, variant, rng, |_, _, _| t.rolls += 1) {
                GameResult::Win(0) => t.a_wins += 1,
                GameResult::Win(_) => t.b_wins += 1,
                GameResult::Draw => t.draws += 1,
                GameResult::Capped => t.capped += 1,
            }
        }
        t
    }

    #[test]
    fn packed_fast_path_plays_the_games_of_play() {
        // Every kind pairing (run/table), faces that never move (0, 44+), dice that cannot win
        // (draws), 6-heavy dice, both starters, all three variants.
        let d = dice(&[
            &[1, 2, 3, 4, 5, 6],
            &[1, 1, 1, 6, 6, 6],
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
            &[1, 2, 3, 4],
            &[0, 6, 44, 100],
            &[40, 41, 42, 43],
            &[1, 6, 6, 6, 6, 6],
            &[4, 6],
            &[
                1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
            ],
        ]);
        let fast: Vec<FastDie> = d.iter().map(FastDie::new).collect();
        for variant in [Variant::Default, Variant::GoalFirst, Variant::FrozenGoal] {
            for a in 0..fast.len() {
                for b in 0..fast.len() {
                    let pair = [&fast[a], &fast[b]];
                    let (mut r1, mut r2) = (Rng::seeded(a as u64), Rng::seeded(a as u64));
                    let new = play_games(pair, 60, variant, &mut r1);
                    let old = reference_games(pair, 60, variant, &mut r2);
                    assert_eq!(new, old, "{variant:?} {a} {b}");
                    // The generator is left where the old loop left it (spare draw included).
                    assert_eq!(r1, r2, "{variant:?} {a} {b}");
                }
            }
        }
    }

    #[test]
    fn draws_that_might_be_rejected_hand_over_to_the_general_loop_exactly() {
        // A million faces: about one draw in 4,300 has a low product below n, so play_fast
        // hands some games to play_general (counted), on either half of an output.
        let big: Vec<u32> = (0..1_000_000)
            .map(|i| [1, 2, 6, 0, 3, 50, 6][i % 7])
            .collect();
        let d = dice(&[&big, &[1, 2, 3, 4, 5, 6]]);
        let fast: Vec<FastDie> = d.iter().map(FastDie::new).collect();
        let before = crate::game::GENERAL_GAMES.load(std::sync::atomic::Ordering::Relaxed);
        for (a, b) in [(0, 1), (1, 0)] {
            let pair = [&fast[a], &fast[b]];
            let (mut r1, mut r2) = (Rng::seeded(5), Rng::seeded(5));
            let new = play_games(pair, 300, Variant::Default, &mut r1);
            let old = reference_games(pair, 300, Variant::Default, &mut r2);
            assert_eq!(new, old, "{a} {b}");
            assert_eq!(r1, r2, "{a} {b}");
        }
        let after = crate::game::GENERAL_GAMES.load(std::sync::atomic::Ordering::Relaxed);
        assert!(after - before >= 4, "only {} hand-overs", after - before);
    }

    /// A die that claims "might be rejected" for every draw divisible by `k`, so that
    /// play_fast hands games over often; it rolls exactly as the die it wraps.
    #[derive(Clone, Copy)]
    struct Flaky<R>(R, u32);

    impl<R: Roller> Roller for Flaky<R> {
        fn roll(self, rng: &mut Rng) -> (u32, u32) {
            self.0.roll(rng)
        }
        fn roll_draw(self, draw: u32) -> Option<(u32, u32)> {
            if draw.is_multiple_of(self.1) {
                None
            } else {
                self.0.roll_draw(draw)
            }
        }
        fn roll_from(self, draw: u32, rng: &mut Rng) -> (u32, u32) {
            self.0.roll_from(draw, rng)
        }
    }

    #[test]
    fn hand_overs_during_a_late_deadlock_test_end_where_play_ends() {
        // Dice without a 6 deadlock in most games; hand-overs every ~k draws land inside the
        // rolls whose deadlock test play_fast has not made yet, and on both halves.
        let d = dice(&[&[1, 2, 3, 4], &[1, 2, 3], &[1, 1, 2, 6, 44]]);
        let fast: Vec<FastDie> = d.iter().map(FastDie::new).collect();
        for k in [13, 97, 331] {
            for (a, b) in [(0, 0), (0, 1), (1, 0), (0, 2), (2, 1)] {
                let pair = [&fast[a], &fast[b]];
                let (mut r1, mut r2) = (Rng::seeded(k as u64), Rng::seeded(k as u64));
                let new = match (fast[a].roller(), fast[b].roller()) {
                    (Ok(x), Ok(y)) => {
                        games_with::<0, _, _>((Flaky(x, k), Flaky(y, k)), pair, 300, &mut r1)
                    }
                    (Ok(x), Err(y)) => {
                        games_with::<0, _, _>((Flaky(x, k), Flaky(y, k)), pair, 300, &mut r1)
                    }
                    (Err(x), Ok(y)) => {
                        games_with::<0, _, _>((Flaky(x, k), Flaky(y, k)), pair, 300, &mut r1)
                    }
                    (Err(x), Err(y)) => {
                        games_with::<0, _, _>((Flaky(x, k), Flaky(y, k)), pair, 300, &mut r1)
                    }
                };
                let old = reference_games(pair, 300, Variant::Default, &mut r2);
                assert_eq!(new, old, "k {k}: {a} {b}");
                assert_eq!(r1, r2, "k {k}: {a} {b}");
            }
        }
    }

    #[test]
    fn die_without_six_never_wins_and_ranking_is_consistent() {
        let d = dice(&[&[1, 2, 3, 4], &[1, 2, 3, 4, 5, 6]]);
        let mut t = Tournament::new(d, Variant::Default, 1);
        t.extend_to(400, &|_| {});
        let ((a, b), tally) = t.pairs()[0];
        assert_eq!((a, b, tally.a_wins, tally.b_wins), (0, 1, 0, 400));
        let r = t.ranking();
        assert_eq!((r[0].die, r[0].wins, r[1].wins), (1, 400, 0));
        assert!(t.settled(0.99));
        assert_eq!(t.matrix()[1][0], Some(1.0));
    }

    #[test]
    fn identical_dice_never_settle_and_hit_the_cap() {
        let d = dice(&[&[1, 2, 3, 4], &[1, 2, 3, 4]]);
        let mut t = Tournament::new(d, Variant::Default, 1);
        assert!(!t.run_until_settled(100, 0.99, 400, &|_| {}));
        assert_eq!(t.games_per_pair(), 400);
    }
}
