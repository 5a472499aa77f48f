//! Match statistics: standings rows, Elo with a 95 % error bar, win rates and means with
//! confidence intervals, and a sequential probability ratio test (SPRT).
//!
//! The SPRT uses the normal approximation of the generalised SPRT on the per-game score
//! (the formula fishtest and most engine testers use for W/D/L results): with per-game mean
//! `x̄`, per-game variance `σ²` and `N` games, `LLR = N (s1 − s0)(2x̄ − s0 − s1) / (2σ²)`, where
//! `s0`, `s1` are the expected scores of the two logistic Elo hypotheses.

pub mod elo_ml;

/// z-value of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// One row of a contest's standings table, as printed by `kibitz tournament`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// Player (bot) name.
    pub player: String,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Points by the contest's own scoring.
    pub points: f64,
    /// Free-form extra column (e.g. average score, penalties).
    pub note: String,
}

/// An Elo difference estimated from a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Elo difference of the first player over the second.
    pub elo: f64,
    /// Half-width of the 95 % interval, in Elo.
    pub error95: f64,
    /// Mean score per game (win 1, draw ½, loss 0).
    pub score: f64,
    /// Likelihood of superiority: the probability that the first player is the stronger.
    pub los: f64,
    /// Half-width of the 95 % interval of `score` (infinite without games): says whether an
    /// unbounded Elo comes from a score near 0 %, near 100 %, or from too few games.
    pub score_half95: f64,
}

/// Elo of a score fraction (logistic model): ±∞ at a score of 0 or 1, where no finite Elo
/// explains the games (printing a clamped number there looked precise and was not).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the −0 of an even score into 0, so it prints "+0", not "-0".
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

impl EloEstimate {
    /// Whether the Elo and its 95 % interval are finite numbers. Scores whose interval reaches
    /// 0 % or 100 % are outside the range where Elo measures anything.
    pub fn bounded(&self) -> bool {
        self.elo.is_finite() && self.error95.is_finite()
    }

    /// `+185.3 ± 35.1` with `decimals` places, or a plain statement where Elo is unbounded:
    /// `+∞ (all won)`, `−∞ (all lost)`, `+1670 ± ∞ (score too near 100 % for Elo)`.
    ///
    /// ```
    /// use kibitz_search::stats::elo_from_wdl;
    /// assert_eq!(elo_from_wdl(60, 20, 20).text(1), "+147.2 ± 66.0");
    /// assert_eq!(elo_from_wdl(8, 0, 0).text(0), "+∞ (all won)");
    /// assert_eq!(elo_from_wdl(99, 0, 1).text(0), "+798 ± ∞ (score too near 100 % for Elo)");
    /// assert_eq!(elo_from_wdl(1, 0, 1).text(0), "+0 ± ∞ (too few games for Elo)");
    /// assert_eq!(elo_from_wdl(0, 3, 0).text(0), "+0 ± ∞ (too few games for Elo)");
    /// ```
    pub fn text(&self, decimals: usize) -> String {
        if self.elo == f64::INFINITY {
            return "+∞ (all won)".into();
        }
        if self.elo == f64::NEG_INFINITY {
            return "−∞ (all lost)".into();
        }
        if self.error95.is_finite() {
            return format!("{:+.*} ± {:.*}", decimals, self.elo, decimals, self.error95);
        }
        let (low, high) = (
            self.score - self.score_half95 <= 0.0,
            self.score + self.score_half95 >= 1.0,
        );
        let why = match (low, high) {
            (true, true) => "too few games for Elo".to_string(),
            (false, true) => "score too near 100 % for Elo".to_string(),
            _ => "score too near 0 % for Elo".to_string(),
        };
        format!("{:+.*} ± ∞ ({why})", decimals, self.elo)
    }
}

/// Expected score of a player `elo` points stronger (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference with its 95 % error bar from wins, draws and losses of the first player.
pub fn elo_from_wdl(w: u32, d: u32, l: u32) -> EloEstimate {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return EloEstimate {
            elo: 0.0,
            error95: f64::INFINITY,
            score: 0.5,
            los: 0.5,
            score_half95: f64::INFINITY,
        };
    }
    let s = (w as f64 + 0.5 * d as f64) / n;
    let var = per_game_variance(w, d, l, s);
    // No spread at all (every game alike, e.g. one drawn game) estimates no variance: the
    // interval is unknown, not zero.
    let half = if var > 0.0 {
        Z95 * (var / n).sqrt()
    } else {
        f64::INFINITY
    };
    // The interval is unbounded once it reaches a score of 0 or 1 (also for a one-sided
    // score, whose sample variance is 0): Elo cannot say how much stronger.
    let error95 = if s - half <= 0.0 || s + half >= 1.0 {
        f64::INFINITY
    } else {
        (elo_from_score(s + half) - elo_from_score(s - half)) / 2.0
    };
    let decisive = (w + l) as f64;
    let los = if decisive == 0.0 {
        0.5
    } else {
        0.5 * (1.0 + erf((w as f64 - l as f64) / (2.0 * decisive).sqrt()))
    };
    EloEstimate {
        elo: elo_from_score(s),
        error95,
        score: s,
        los,
        score_half95: half,
    }
}

/// A rate with the half-width of its 95 % interval (normal approximation).
pub fn win_rate_ci(successes: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, f64::INFINITY);
    }
    let p = successes as f64 / n as f64;
    (p, Z95 * (p * (1.0 - p) / n as f64).sqrt())
}

/// A sample mean with the half-width of its 95 % interval.
pub fn mean_ci(samples: &[f64]) -> (f64, f64) {
    let n = samples.len() as f64;
    if samples.is_empty() {
        return (0.0, f64::INFINITY);
    }
    let mean = samples.iter().sum::<f64>() / n;
    if samples.len() == 1 {
        return (mean, f64::INFINITY);
    }
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, Z95 * (var / n).sqrt())
}

fn per_game_variance(w: u32, d: u32, l: u32, s: f64) -> f64 {
    let n = (w + d + l) as f64;
    (w as f64 * (1.0 - s).powi(2) + d as f64 * (0.5 - s).powi(2) + l as f64 * s * s) / n
}

/// Results of paired games — both colours on one opening, both seats on one deal — as the
/// pentanomial counts of A's pair score: `counts[k]` pairs scored `k/2` points of 2 (0, ½, 1,
/// 1½, 2). The two games of a pair share their opening or deal, so their results are
/// correlated; the pair variance measures the match's noise without the opening's own bias,
/// and the error bars and the SPRT built on it are tighter and honest (fastchess's and
/// fishtest's pentanomial model).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs per pair score 0, ½, 1, 1½, 2 (for A).
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts one pair from A's two game scores (each 0, ½ or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let k = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[k] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Mean score per game and the variance of one pair's mean score, over the counts plus
    /// `extra` pairs of each extreme (a prior for short runs; see [`Sprt::llr`]).
    fn moments(&self, extra: u32) -> (f64, f64) {
        let mut c = self.counts;
        c[0] += extra;
        c[4] += extra;
        let n: f64 = c.iter().map(|&k| f64::from(k)).sum();
        let x = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| x(k) * f64::from(c[k])).sum::<f64>() / n;
        let var = (0..5)
            .map(|k| f64::from(c[k]) * (x(k) - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
    }

    /// Elo with its 95 % interval from the pair variance, and the LOS (normal approximation).
    ///
    /// ```
    /// use kibitz_search::stats::Pentanomial;
    /// // 100 pairs: 5 lost both games, 10 lost one and drew one, 50 split, 25 won one and
    /// // drew one, 10 won both.
    /// let e = Pentanomial { counts: [5, 10, 50, 25, 10] }.elo();
    /// assert!((e.score - 0.5625).abs() < 1e-12);
    /// assert!(e.bounded() && e.elo > 0.0 && e.los > 0.99);
    /// // One pair shows no spread between pairs: its Elo has no interval yet.
    /// assert!(!Pentanomial { counts: [0, 0, 0, 1, 0] }.elo().bounded());
    /// ```
    pub fn elo(&self) -> EloEstimate {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return EloEstimate {
                elo: 0.0,
                error95: f64::INFINITY,
                score: 0.5,
                los: 0.5,
                score_half95: f64::INFINITY,
            };
        }
        let (s, var) = self.moments(0);
        // Every pair alike (e.g. a single pair) estimates no variance: unknown, not zero.
        let half = if var > 0.0 {
            Z95 * (var / n).sqrt()
        } else {
            f64::INFINITY
        };
        let error95 = if s - half <= 0.0 || s + half >= 1.0 {
            f64::INFINITY
        } else {
            (elo_from_score(s + half) - elo_from_score(s - half)) / 2.0
        };
        let los = if var == 0.0 {
            if s > 0.5 {
                1.0
            } else if s < 0.5 {
                0.0
            } else {
                0.5
            }
        } else {
            0.5 * (1.0 + erf((s - 0.5) / (2.0 * var / n).sqrt()))
        };
        EloEstimate {
            elo: elo_from_score(s),
            error95,
            score: s,
            los,
            score_half95: half,
        }
    }
}

/// A sequential probability ratio test of H0 "Elo = elo0" against H1 "Elo = elo1".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative hypothesis.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (false negative).
    pub beta: f64,
}

/// Where a running SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtStatus {
    /// Not enough evidence yet: play on.
    Continue,
    /// The change is not an improvement of `elo1` (H0 accepted).
    AcceptH0,
    /// The change is an improvement (H1 accepted).
    AcceptH1,
}

impl Default for Sprt {
    fn default() -> Self {
        Self {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

impl Sprt {
    /// Log-likelihood ratio of H1 over H0 after the given results.
    pub fn llr(&self, w: u32, d: u32, l: u32) -> f64 {
        let n = (w + d + l) as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = (w as f64 + 0.5 * d as f64) / n;
        // The variance is estimated with one extra win and one extra loss (a prior worth two
        // games): a short one-sided run (8 wins out of 8) has a sample variance of zero, and
        // the normal approximation would then accept a hypothesis after a handful of games.
        // The effect on long runs is negligible.
        let sp = (w as f64 + 1.0 + 0.5 * d as f64) / (n + 2.0);
        let var = per_game_variance(w + 1, d, l + 1, sp);
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// Log-likelihood ratio of H1 over H0 after paired games (the pentanomial model: the
    /// same normal approximation as [`Sprt::llr`] with pairs as the samples, as fastchess's
    /// and fishtest's "logistic" pentanomial GSPRT). The variance carries the same two-game
    /// prior, one lost and one won pair.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        let n = f64::from(p.pairs());
        if n == 0.0 {
            return 0.0;
        }
        let (s, _) = p.moments(0);
        let (_, var) = p.moments(1);
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The test's decision after paired games.
    pub fn status_pentanomial(&self, p: &Pentanomial) -> SprtStatus {
        self.decide(self.llr_pentanomial(p))
    }

    /// The (lower, upper) LLR bounds: below lower accept H0, above upper accept H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The test's decision after the given results.
    pub fn status(&self, w: u32, d: u32, l: u32) -> SprtStatus {
        self.decide(self.llr(w, d, l))
    }

    fn decide(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

/// The standard normal quantile: the `z` with `Φ(z) = p`, for `0 < p < 1` (Acklam's
/// rational approximation, relative error below 1.2e-9).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let p = p.clamp(1e-300, 1.0 - 1e-16);
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.024_25 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.024_25 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// The error function (Abramowitz–Stegun 7.1.26, absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_match_is_zero_elo_with_symmetric_error() {
        let e = elo_from_wdl(100, 50, 100);
        assert!(e.elo.abs() < 1e-9);
        assert!((e.los - 0.5).abs() < 1e-9);
        // s = 0.5, var = (100·0.25 + 100·0.25)/250 = 0.2, half-width 1.96·sqrt(0.2/250) ≈ 0.0554
        let half = Z95 * (0.2f64 / 250.0).sqrt();
        let expected = (elo_from_score(0.5 + half) - elo_from_score(0.5 - half)) / 2.0;
        assert!((e.error95 - expected).abs() < 1e-9);
        assert!(e.error95 > 30.0 && e.error95 < 50.0);
    }

    #[test]
    fn perfect_and_near_perfect_scores_are_unbounded() {
        let all = elo_from_wdl(12, 0, 0);
        assert_eq!(all.elo, f64::INFINITY);
        assert!(!all.bounded() && all.text(0) == "+∞ (all won)");
        assert_eq!(
            elo_from_wdl(0, 1, 11).text(0),
            format!(
                "{:+.0} ± ∞ (score too near 0 % for Elo)",
                elo_from_score(0.5 / 12.0)
            )
        );
        let near = elo_from_wdl(99, 0, 1);
        assert!(near.elo.is_finite() && near.error95.is_infinite() && !near.bounded());
        assert!(elo_from_wdl(60, 20, 20).bounded());
    }

    /// Reference LLRs of fastchess's SPRT tests (tests/sprt_test.cpp, "logistic" model; its
    /// pentanomial counts are LL, LD, WL, DD, WD, WW), to its two decimals.
    #[test]
    fn llr_matches_fastchess_reference_numbers() {
        let sprt = |elo0, elo1| Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        };
        // Trinomial: W, D, L.
        assert!((sprt(0.5, 2.5).llr(21404, 40708, 21184) - -1.57).abs() < 0.01);
        assert!((sprt(0.0, 2.0).llr(57433, 106593, 57030) - -2.59).abs() < 0.01);
        let penta = |ll: u32, ld: u32, wl: u32, dd: u32, wd: u32, ww: u32| Pentanomial {
            counts: [ll, ld, wl + dd, wd, ww],
        };
        let p1 = penta(223, 9863, 20279, 1000, 10037, 246);
        assert!((sprt(0.5, 2.5).llr_pentanomial(&p1) - -3.07).abs() < 0.01);
        let p2 = penta(871, 26175, 55003, 980, 26678, 821);
        assert!((sprt(0.0, 2.0).llr_pentanomial(&p2) - -4.98).abs() < 0.01);
        assert_eq!(sprt(0.0, 2.0).status_pentanomial(&p2), SprtStatus::AcceptH0);
    }

    #[test]
    fn pairs_count_and_elo() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 0.0);
        p.add_pair(1.0, 0.5);
        p.add_pair(0.5, 0.5);
        assert_eq!(p.counts, [0, 0, 2, 1, 0]);
        assert!((p.elo().score - 7.0 / 12.0).abs() < 1e-12);
        let sweep = Pentanomial {
            counts: [0, 0, 0, 0, 9],
        };
        assert_eq!(sweep.elo().elo, f64::INFINITY);
        // A short one-sided run decides nothing, as with single games.
        assert_eq!(
            Sprt {
                elo0: -10.0,
                elo1: 10.0,
                ..Sprt::default()
            }
            .status_pentanomial(&sweep),
            SprtStatus::Continue
        );
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -35.5, 0.0, 12.0, 200.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-6);
        }
        // 75 % score is the classical +190.85 Elo.
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt.bounds();
        assert!((hi - (19.0f64).ln()).abs() < 1e-12 && (lo + (19.0f64).ln()).abs() < 1e-12);
        assert_eq!(sprt.status(0, 0, 0), SprtStatus::Continue);
        assert_eq!(sprt.status(3000, 2000, 1000), SprtStatus::AcceptH1);
        assert_eq!(sprt.status(1000, 2000, 3000), SprtStatus::AcceptH0);
        // Exactly between the hypotheses the LLR is zero.
        let mid = score_from_elo(0.0) + score_from_elo(10.0);
        let n = 10_000u32;
        let w = ((mid / 2.0) * n as f64).round() as u32;
        assert!(sprt.llr(w, 0, n - w).abs() < 0.5);
        // A short one-sided run decides nothing; a long one does.
        let wide = Sprt {
            elo0: -10.0,
            elo1: 10.0,
            ..sprt
        };
        for n in [1, 4, 8] {
            assert_eq!(wide.status(n, 0, 0), SprtStatus::Continue, "{n} wins");
            assert_eq!(wide.status(0, 0, n), SprtStatus::Continue, "{n} losses");
        }
        assert_eq!(wide.status(60, 0, 0), SprtStatus::AcceptH1);
        assert_eq!(wide.status(0, 0, 60), SprtStatus::AcceptH0);
    }

    #[test]
    fn intervals() {
        let (p, h) = win_rate_ci(50, 100);
        assert!((p - 0.5).abs() < 1e-12 && (h - Z95 * 0.05).abs() < 1e-12);
        let (m, h) = mean_ci(&[1.0, 2.0, 3.0, 4.0]);
        assert!((m - 2.5).abs() < 1e-12);
        assert!((h - Z95 * (1.666_666_666_7f64 / 4.0).sqrt()).abs() < 1e-6);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6 && (erf(-0.5) + 0.520_499_88).abs() < 1e-6);
    }

    #[test]
    fn normal_quantile_matches_known_values() {
        assert!((normal_quantile(0.975) - Z95).abs() < 1e-8);
        assert!((normal_quantile(0.995) - 2.575_829_303_548_9).abs() < 1e-8);
        assert!(normal_quantile(0.5).abs() < 1e-12);
        assert!((normal_quantile(0.001) + 3.090_232_306_167_8).abs() < 1e-8);
    }
}
