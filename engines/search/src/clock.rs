//! The one clock rule: a move's time budget and overhead → soft budget, hard deadline, send-by.
//!
//! Every caller that turns "you have `budget` for this move" into a [`TimeControl`] uses
//! [`MoveBudget::for_move`], so that `time=200` in an arena match gives the search the same soft
//! and hard times as the contest bot gets from a 200 ms reply limit.
//!
//! # The rule
//!
//! `budget` is the time from receiving the request to the reply being due (the contest's limit,
//! or an arena spec's `time=MS`); `overhead` is what the world around the search needs: reading,
//! writing and network latency on one side, nothing (0) for in-process games.
//!
//! | time | value | why |
//! |---|---|---|
//! | `send_by` | `budget − overhead` | the reply must be written by then to arrive in time |
//! | `hard` | `budget − 2·overhead` | the search aborts; one overhead is left to unwind and fall back |
//! | `soft` | `min(budget × share, hard)`, share ½ unless the contest says otherwise | no new iteration after it: an iteration costs about as much as all before it, so one started at `budget / 2` mostly ends by `hard` |
//!
//! All subtractions saturate at zero, and `soft ≤ hard ≤ send_by ≤ budget` always holds.
//!
//! # What each caller used before (kibitz issue 34)
//!
//! | caller | soft | hard | send-by |
//! |---|---|---|---|
//! | `src/arena/connect4.rs` | `time` | `1.25 × time` | — |
//! | `src/arena/maumau.rs`, `src/play.rs` (maumau) | `time` | `1.5 × time + 5 ms` | — |
//! | `engines/piranhas` players (`search:time=`) | `time` | `4/3 × time` | — |
//! | `src/arena/koehandel.rs` (`strong`) | `time` | `2 × time` | — |
//! | `bots/maumau` client | `time` | `1.5 × time` | — |
//! | `bots/connect4` client | `budget / 2` | `budget − 2·grace` | `budget − grace` |
//! | `bots/piranhas` client | 1,300 ms | `min(hard_ms, 1,600 ms)` | `hard + 150 ms` |
//! | `bots/piranhas` tournament | `search_ms` | `1.5 × search_ms` | `hard + 600 ms` |
//! | `engines/piranhas` `DEFAULT_SOFT/HARD` | 1,200 ms | 1,600 ms | — |
//! | `engines/koehandel` `strong:soft_ms=` | `soft_ms` | `2 × soft_ms` | — |
//! | `bots/koehandel` endpoint | none (fixed work) | — | 4,500 ms |
//!
//! All of them now use this rule: the in-process callers with `overhead = 0` (soft = half the
//! budget, hard = the budget), the contest bots with their contest's [`ContestClock`].
//!
//! # The contests' clocks
//!
//! Each contest bot starts from its contest's limit (the `budget`, what `--time-ms` sets) and
//! keeps a named overhead for the network and the process around the search (`--overhead-ms`):
//!
//! | contest | budget | overhead | soft | hard | send-by |
//! |---|---|---|---|---|---|
//! | [`CONNECT4`] | 250 ms (reply incl. network) | 50 ms | 125 ms | 150 ms | 200 ms |
//! | [`PIRANHAS`] | 2 s (the soft limit; 10 s hard) | 250 ms | 1,300 ms (share 0.65) | 1,500 ms | 1,750 ms |
//! | [`MAUMAU`] | 1 s (our own limit; the contest has none) | 100 ms | 500 ms | 800 ms | 900 ms |
//! | [`KOEHANDEL`] | 5 s (incl. connecting) | 500 ms | 2,500 ms | 4,000 ms | 4,500 ms |
//!
//! ```
//! use kibitz_search::clock::MoveBudget;
//! use std::time::Duration;
//! let ms = Duration::from_millis;
//! let b = MoveBudget::for_move(ms(200), ms(15));
//! assert_eq!((b.soft, b.hard, b.send_by), (ms(100), ms(170), ms(185)));
//! let tc = b.time_control();
//! assert_eq!((tc.soft(), tc.hard()), (Some(ms(100)), Some(ms(170))));
//! // In process there is nothing to send: half the budget soft, all of it hard.
//! let b = MoveBudget::in_process(ms(200));
//! assert_eq!((b.soft, b.hard, b.send_by), (ms(100), ms(200), ms(200)));
//! ```

use crate::time::TimeControl;
use std::time::Duration;

/// The times of one move, from [`MoveBudget::for_move`] (all measured from the request).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBudget {
    /// No new search iteration after this.
    pub soft: Duration,
    /// The search aborts at this.
    pub hard: Duration,
    /// The reply must be written by this (a fallback move if the search has not answered).
    pub send_by: Duration,
}

/// The shortest hard deadline a bot accepts from its flags: less cannot finish a search
/// iteration, so such a budget is a mistake in the flags, not a fast bot.
pub const MIN_HARD: Duration = Duration::from_millis(10);

/// A move budget whose overhead leaves less than [`MIN_HARD`] to think (the bots' and
/// `kibitz connect4 timing`'s `--time-ms` / `--overhead-ms`, named as those flags).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "--time-ms {} with --overhead-ms {} leaves {} ms to think; the budget must be at least \
     2 × overhead + 10 ms",
    .budget.as_millis(),
    .overhead.as_millis(),
    .hard.as_millis()
)]
pub struct NoRoom {
    /// The budget given.
    pub budget: Duration,
    /// The overhead given.
    pub overhead: Duration,
    /// The hard deadline they leave.
    pub hard: Duration,
}

impl MoveBudget {
    /// `self` (the times of `budget` with `overhead`) if its hard deadline is at least
    /// [`MIN_HARD`], else why not: the one check every bot applies to its clock flags.
    pub fn with_room(self, budget: Duration, overhead: Duration) -> Result<MoveBudget, NoRoom> {
        if self.hard >= MIN_HARD {
            Ok(self)
        } else {
            Err(NoRoom {
                budget,
                overhead,
                hard: self.hard,
            })
        }
    }

    /// The rule of the [module docs](self): `send_by = budget − overhead`,
    /// `hard = budget − 2·overhead`, `soft = min(budget / 2, hard)`, saturating at zero.
    ///
    /// A `const fn`, so that a contest's default times can be constants derived from its
    /// [`ContestClock`] (e.g. the piranhas engine's `DEFAULT_SOFT`).
    pub const fn for_move(budget: Duration, overhead: Duration) -> MoveBudget {
        MoveBudget::for_move_share(budget, overhead, 500)
    }

    /// [`MoveBudget::for_move`] with the soft time at `soft_permille` ‰ of the budget instead
    /// of half (still at most `hard`): for a contest whose search is known to use a larger
    /// share safely ([`ContestClock::soft_permille`]).
    pub const fn for_move_share(
        budget: Duration,
        overhead: Duration,
        soft_permille: u32,
    ) -> MoveBudget {
        let send_by = budget.saturating_sub(overhead);
        let hard = send_by.saturating_sub(overhead);
        let half = Duration::from_nanos((budget.as_nanos() * soft_permille as u128 / 1000) as u64);
        // `budget / 2` of a Duration beyond u64 nanoseconds (584 years) is not a move budget;
        // the cast above only matters there, and `min(…, hard)` keeps the order anyway.
        let soft = if half.as_nanos() < hard.as_nanos() {
            half
        } else {
            hard
        };
        MoveBudget {
            soft,
            hard,
            send_by,
        }
    }

    /// [`MoveBudget::for_move`] with no overhead (in-process games: arena, `kibitz play`).
    pub fn in_process(budget: Duration) -> MoveBudget {
        MoveBudget::for_move(budget, Duration::ZERO)
    }

    /// [`MoveBudget::in_process`] of `ms` milliseconds (the arena specs' `time=MS`).
    pub fn in_process_ms(ms: u64) -> MoveBudget {
        MoveBudget::in_process(Duration::from_millis(ms))
    }

    /// A [`TimeControl`] with these soft and hard times, starting now.
    pub fn time_control(&self) -> TimeControl {
        TimeControl::new(self.soft, self.hard)
    }
}

/// A contest's move limit and the overhead our bot keeps from it for the world around the
/// search (reading, writing, network, a loaded machine). [`ContestClock::move_budget`] turns it
/// into the times of one move by the one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContestClock {
    /// The contest's time for one reply, counted from the request.
    pub budget: Duration,
    /// What the bot keeps back for everything but thinking.
    pub overhead: Duration,
    /// The soft time as ‰ of the budget (500 = the rule's half).
    pub soft_permille: u32,
}

impl ContestClock {
    /// The times of one move under this contest's budget and overhead.
    pub const fn move_budget(&self) -> MoveBudget {
        self.budget_for(self.budget, self.overhead)
    }

    /// The times of one move under another budget and overhead (a bot's `--time-ms` and
    /// `--overhead-ms`), with this contest's soft share.
    pub const fn budget_for(&self, budget: Duration, overhead: Duration) -> MoveBudget {
        MoveBudget::for_move_share(budget, overhead, self.soft_permille)
    }
}

/// Connect Four: the server wants the reply within 250 ms of `YOURTURN`, the round trip
/// included; 50 ms of it are kept for the network and the thread hand-off.
pub const CONNECT4: ContestClock = ContestClock {
    budget: Duration::from_millis(250),
    overhead: Duration::from_millis(50),
    soft_permille: 500,
};

/// Piranhas: 2 s per move before the server's soft limit (10 s is its hard limit, a loss
/// either way). 250 ms are kept: the old server measured up to 181 ms between our deadline
/// and its receipt on a loaded machine. The soft time is 1,300 ms (0.65 of the budget), what
/// the bot used in its contest runs with 0 timeouts before the one rule. Against that older
/// bot at a fifth of the clock the current one scored 40.6 % with half the budget as soft
/// time (127 games) and 42.5 % with 0.65 (100 games): within the error, so the share only
/// restores the proven soft time; it does not explain the gap (kibitz issue 38's note).
pub const PIRANHAS: ContestClock = ContestClock {
    budget: Duration::from_secs(2),
    overhead: Duration::from_millis(250),
    soft_permille: 650,
};

/// Mau-Mau: the contest server has no time limit; we use at most 1 s per move (our server's
/// turn timeout is 5 s). 100 ms are kept: the real server's messages can arrive 40 ms late.
pub const MAUMAU: ContestClock = ContestClock {
    budget: Duration::from_secs(1),
    overhead: Duration::from_millis(100),
    soft_permille: 500,
};

/// Koehandel: the market allows 5 s per request, connecting included; 500 ms are kept for
/// the connection and the HTTP round trip.
pub const KOEHANDEL: ContestClock = ContestClock {
    budget: Duration::from_secs(5),
    overhead: Duration::from_millis(500),
    soft_permille: 500,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_without_room_to_think_is_refused_with_both_flags() {
        let ms = Duration::from_millis;
        let ok = MoveBudget::for_move(ms(110), ms(50));
        assert_eq!(ok.with_room(ms(110), ms(50)), Ok(ok));
        let err = MoveBudget::for_move(ms(100), ms(50))
            .with_room(ms(100), ms(50))
            .unwrap_err();
        assert_eq!(err.hard, ms(0));
        assert_eq!(
            err.to_string(),
            "--time-ms 100 with --overhead-ms 50 leaves 0 ms to think; the budget must be at \
             least 2 × overhead + 10 ms"
        );
    }

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn matches_the_connect4_bot_rule() {
        // bots/connect4 settings: (time / 2, time − 2·grace, grace), send-by = hard + grace.
        for (time, grace) in [(200, 15), (1000, 15), (50, 15), (20, 15)] {
            let b = MoveBudget::for_move(ms(time), ms(grace));
            let hard = ms(time).saturating_sub(ms(2 * grace));
            assert_eq!(b.hard, hard);
            assert_eq!(b.soft, (ms(time) / 2).min(hard));
            assert_eq!(b.send_by, ms(time - grace));
        }
    }

    #[test]
    fn order_holds_and_tiny_budgets_saturate() {
        for budget in [0, 1, 7, 29, 30, 31, 200, 2000] {
            for overhead in [0, 1, 15, 150, 5000] {
                let b = MoveBudget::for_move(ms(budget), ms(overhead));
                assert!(b.soft <= b.hard && b.hard <= b.send_by && b.send_by <= ms(budget));
            }
        }
        let b = MoveBudget::for_move(ms(20), ms(15));
        assert_eq!((b.soft, b.hard, b.send_by), (ms(0), ms(0), ms(5)));
    }

    #[test]
    fn contest_clocks_pin_their_times() {
        let t = |c: ContestClock| {
            let b = c.move_budget();
            (b.soft, b.hard, b.send_by)
        };
        assert_eq!(t(CONNECT4), (ms(125), ms(150), ms(200)));
        assert_eq!(t(PIRANHAS), (ms(1300), ms(1500), ms(1750)));
        assert_eq!(t(MAUMAU), (ms(500), ms(800), ms(900)));
        assert_eq!(t(KOEHANDEL), (ms(2500), ms(4000), ms(4500)));
    }

    #[test]
    fn const_rule_is_usable_in_constants() {
        const B: MoveBudget = MoveBudget::for_move(Duration::from_millis(2000), Duration::ZERO);
        assert_eq!((B.soft, B.hard, B.send_by), (ms(1000), ms(2000), ms(2000)));
    }

    #[test]
    fn a_contest_share_moves_only_the_soft_time() {
        let half = MoveBudget::for_move(ms(400), ms(50));
        let share = PIRANHAS.budget_for(ms(400), ms(50));
        assert_eq!((share.hard, share.send_by), (half.hard, half.send_by));
        assert_eq!((half.soft, share.soft), (ms(200), ms(260)));
        // Still capped by the hard deadline.
        assert_eq!(PIRANHAS.budget_for(ms(400), ms(150)).soft, ms(100));
    }

    #[test]
    fn in_process_is_half_soft_and_whole_hard() {
        let b = MoveBudget::in_process_ms(301);
        assert_eq!(
            (b.soft, b.hard, b.send_by),
            (ms(150) + Duration::from_micros(500), ms(301), ms(301))
        );
        let tc = b.time_control();
        assert_eq!(tc.hard(), Some(ms(301)));
    }
}
