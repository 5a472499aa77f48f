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
//! | `soft` | `min(budget / 2, hard)` | no new iteration after it: an iteration costs about as much as all before it, so one started at `budget / 2` mostly ends by `hard` |
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
//! | `bots/piranhas` client | 1,000 ms | `min(hard_ms, 1,600 ms)` | `hard + 150 ms` |
//!
//! The connect4 bot's rule is this rule with `overhead = grace`; the in-process callers now use
//! it with `overhead = 0` (soft = half the budget, hard = the budget).
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

impl MoveBudget {
    /// The rule of the [module docs](self): `send_by = budget − overhead`,
    /// `hard = budget − 2·overhead`, `soft = min(budget / 2, hard)`, saturating at zero.
    pub fn for_move(budget: Duration, overhead: Duration) -> MoveBudget {
        let send_by = budget.saturating_sub(overhead);
        let hard = send_by.saturating_sub(overhead);
        MoveBudget {
            soft: (budget / 2).min(hard),
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

#[cfg(test)]
mod tests {
    use super::*;

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
