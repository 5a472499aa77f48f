//! Per-iteration decisions of [`Searcher::search`]: whether to start another iteration
//! (smart time) and the aspiration-window loop around one iteration.

use super::{Game, Score, Searcher, INF, WIN};
use crate::time::TimeControl;
use crate::tt::Table;
use std::time::Duration;

impl<G: Game, T: Table<G::Move>> Searcher<G, T> {
    /// Smart time: no new iteration once the stretched soft budget is used, nor one
    /// predicted to end after the hard deadline (its time from the last one times the recent
    /// growth factor, clamped to `growth_min..=growth_max`, 1.5..=8 by default). With both
    /// knobs at 0 nothing is predicted: an iteration that cannot finish still runs until the
    /// hard deadline, and a root move it found better than the last choice is kept.
    pub(super) fn out_of_time(
        &self,
        tc: &TimeControl,
        stretch: f64,
        last_iter: Duration,
        prev_iter: Duration,
    ) -> bool {
        if tc.stopped() {
            return true;
        }
        let elapsed = tc.elapsed();
        if tc
            .soft()
            .is_some_and(|soft| elapsed >= soft.mul_f64(stretch))
        {
            return true;
        }
        let k = &self.config.knobs;
        let growth = if prev_iter > Duration::from_millis(2) {
            (last_iter.as_secs_f64() / prev_iter.as_secs_f64())
                .clamp(k.growth_min, k.growth_max.max(k.growth_min))
        } else {
            k.growth_guess
        };
        tc.hard()
            .is_some_and(|hard| elapsed + last_iter.mul_f64(growth) > hard)
    }

    /// One iteration in aspiration windows around `guess`: a fail low or high widens that
    /// side (the step doubles each time; beyond 1,000 or near a win the side opens fully).
    pub(super) fn aspirate(
        &mut self,
        root: &G,
        depth: u32,
        guess: Score,
        tc: &TimeControl,
    ) -> Score {
        let mut delta = self.config.aspiration;
        let open = |s: Score, delta: Score| s.abs() >= WIN - 1000 || delta > 1000;
        let (mut alpha, mut beta) = if open(guess, delta) {
            (-INF, INF)
        } else {
            (guess - delta, guess + delta)
        };
        loop {
            let score = self.negamax(root, depth, 0, alpha, beta, tc);
            if self.aborted || (alpha < score && score < beta) {
                return score;
            }
            delta = delta.saturating_mul(2);
            if score <= alpha {
                alpha = if open(score, delta) {
                    -INF
                } else {
                    score - delta
                };
            } else {
                beta = if open(score, delta) {
                    INF
                } else {
                    score + delta
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::alphabeta::{Game, Outcome, Score, SearchConfig, SearchKnobs, Searcher};
    use crate::time::TimeControl;
    use std::time::Duration;

    /// A game with one position: only the searcher's time rule is under test.
    #[derive(Clone)]
    struct Still;

    impl Game for Still {
        type Move = u8;
        fn hash(&self) -> u64 {
            0
        }
        fn moves(&self, out: &mut Vec<u8>) {
            out.push(0);
        }
        fn play(&self, _m: u8) -> Self {
            Still
        }
        fn outcome(&self) -> Option<Outcome> {
            None
        }
        fn evaluate(&self) -> Score {
            0
        }
        fn move_key(&self, m: u8) -> usize {
            m as usize
        }
    }

    #[test]
    fn growth_zero_starts_an_iteration_the_prediction_would_skip() {
        let searcher = |growth: f64| {
            Searcher::<Still>::new(SearchConfig {
                hash_mb: 1,
                knobs: SearchKnobs {
                    growth_min: growth,
                    growth_max: growth,
                    ..SearchKnobs::default()
                },
                ..SearchConfig::default()
            })
        };
        // Just started, a minute to go; the last iteration took 50 s, the one before 10 s.
        let minute = Duration::from_secs(60);
        let tc = TimeControl::new(minute, minute);
        let (last, prev) = (Duration::from_secs(50), Duration::from_secs(10));
        assert!(
            searcher(1.5).out_of_time(&tc, 1.0, last, prev),
            "predicted 75 s or more"
        );
        assert!(SearchKnobs::default().growth_min > 0.0);
        assert!(
            !searcher(0.0).out_of_time(&tc, 1.0, last, prev),
            "no prediction"
        );
        // The soft budget still ends the search.
        let spent = TimeControl::new(Duration::ZERO, minute);
        assert!(searcher(0.0).out_of_time(&spent, 1.0, last, prev));
    }
}
