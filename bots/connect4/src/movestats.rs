//! Time per move: what the bot measured from receiving `YOURTURN` to sending `INSERT`.

use std::fmt;
use std::time::Duration;

/// Response times of one bot, in the order the moves were made.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoveTimes {
    /// Milliseconds per move.
    pub ms: Vec<f64>,
}

/// Summary of [`MoveTimes`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeSummary {
    /// Moves measured.
    pub moves: usize,
    /// Fastest, ms.
    pub min: f64,
    /// Median, ms.
    pub median: f64,
    /// 99th percentile (nearest rank), ms.
    pub p99: f64,
    /// Slowest, ms.
    pub max: f64,
    /// Mean, ms.
    pub mean: f64,
}

impl MoveTimes {
    /// Records one move.
    pub fn push(&mut self, d: Duration) {
        self.ms.push(d.as_secs_f64() * 1000.0);
    }

    /// Adds another bot's times.
    pub fn extend(&mut self, other: &MoveTimes) {
        self.ms.extend_from_slice(&other.ms);
    }

    /// Min, median, p99, max and mean; `None` without moves.
    pub fn summary(&self) -> Option<TimeSummary> {
        if self.ms.is_empty() {
            return None;
        }
        let mut v = self.ms.clone();
        v.sort_by(f64::total_cmp);
        let rank = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
        Some(TimeSummary {
            moves: v.len(),
            min: v[0],
            median: rank(0.5),
            p99: rank(0.99),
            max: v[v.len() - 1],
            mean: v.iter().sum::<f64>() / v.len() as f64,
        })
    }

    /// A text histogram with buckets of `bucket_ms`.
    pub fn histogram(&self, bucket_ms: f64) -> String {
        let Some(s) = self.summary() else {
            return "no moves\n".into();
        };
        let buckets = (s.max / bucket_ms).floor() as usize + 1;
        let mut counts = vec![0usize; buckets];
        for &x in &self.ms {
            counts[((x / bucket_ms).floor() as usize).min(buckets - 1)] += 1;
        }
        let top = counts.iter().copied().max().unwrap_or(1).max(1);
        let mut out = String::new();
        for (i, &c) in counts.iter().enumerate() {
            let bar = "█".repeat((c * 50).div_ceil(top));
            out += &format!(
                "{:>5.0}-{:<5.0} ms {:>6} {}\n",
                i as f64 * bucket_ms,
                (i + 1) as f64 * bucket_ms,
                c,
                bar
            );
        }
        out
    }
}

impl fmt::Display for TimeSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} moves: min {:.1} ms, median {:.1} ms, mean {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            self.moves, self.min, self.median, self.mean, self.p99, self.max
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_and_histogram() {
        let mut t = MoveTimes::default();
        for ms in 1..=100 {
            t.push(Duration::from_millis(ms));
        }
        let s = t.summary().unwrap();
        assert_eq!((s.min, s.median, s.p99, s.max), (1.0, 50.0, 99.0, 100.0));
        let h = t.histogram(25.0);
        assert_eq!(h.lines().count(), 5);
        assert!(MoveTimes::default().summary().is_none());
    }
}
