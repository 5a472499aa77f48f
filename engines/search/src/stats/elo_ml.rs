//! Maximum-likelihood Elo of many players from all their games (Bradley–Terry, logistic), as
//! Ordo and BayesElo fit a rating list: the one table a round robin or gauntlet prints.
//!
//! Model: player `i` scores against player `j` with probability
//! `p_ij = 1 / (1 + 10^(-(r_i - r_j) / 400))` per game, and **a draw counts as half a win and
//! half a loss** (Ordo's convention; no separate draw model). The log-likelihood
//! `Σ_pairs s_ij ln p_ij + (n_ij − s_ij) ln(1 − p_ij)` (with `s_ij` the points of `i` against
//! `j` in `n_ij` games) is concave, so Newton's method with step halving finds its maximum;
//! at it every player's expected points equal their actual points.
//!
//! Anchors ([`Anchor`]): the first player at 0 (intervals are then relative to that player,
//! whose own is 0), or the mean of all ratings at 0. The ± 95 % intervals come from the
//! observed information (the negative Hessian of the log-likelihood at the fit): the
//! covariance of the free ratings is its inverse; for the mean anchor it is projected onto
//! ratings that sum to zero.
//!
//! A finite maximum exists only when no group of players scored every point against everyone
//! else (the "scored against" graph is strongly connected). When that fails (someone won or
//! lost every game) the fit adds **one virtual draw to every pair that played** (a weak prior,
//! as BayesElo's virtual draws) and says so in [`MlFit::regularised`].

// Matrix code over player indices reads best with index loops.
#![allow(clippy::needless_range_loop)]

use super::Z95;

/// The games of one pair of players, from player `i`'s point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairResult {
    /// First player's index.
    pub i: usize,
    /// Second player's index.
    pub j: usize,
    /// Games `i` won against `j`.
    pub wins: u32,
    /// Draws between them.
    pub draws: u32,
    /// Games `i` lost against `j`.
    pub losses: u32,
}

/// Where the rating scale is pinned (ratings are only defined up to a common shift).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Player 0 has Elo 0; intervals are relative to player 0.
    First,
    /// The ratings average 0; intervals are relative to that mean.
    Mean,
}

/// One player's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MlRating {
    /// Elo on the anchored scale.
    pub elo: f64,
    /// Half-width of the 95 % interval (observed information), in Elo.
    pub error95: f64,
    /// Games played (real games, not the virtual draws of a regularised fit).
    pub games: u32,
    /// Points scored in them (win 1, draw ½).
    pub points: f64,
}

/// The fitted rating list.
#[derive(Clone, Debug, PartialEq)]
pub struct MlFit {
    /// One rating per player, in input order.
    pub ratings: Vec<MlRating>,
    /// The anchor used.
    pub anchor: Anchor,
    /// Whether one virtual draw per played pair was added because no finite maximum existed.
    pub regularised: bool,
    /// Newton iterations taken.
    pub iterations: u32,
}

/// Why no rating list could be fitted.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FitError {
    /// No players.
    #[error("no players to rate")]
    NoPlayers,
    /// A pair names a player outside `0..players`, or a player against itself.
    #[error("pair ({i}, {j}) is not two different players of {players}")]
    BadPair {
        /// First index.
        i: usize,
        /// Second index.
        j: usize,
        /// Number of players.
        players: usize,
    },
    /// Some players never met the others, even through third players: their ratings are
    /// not on one scale.
    #[error("players {0:?} are not connected by games to player 0, so they share no scale")]
    Disconnected(Vec<usize>),
    /// Newton's method did not converge (should not happen for a connected table).
    #[error("the maximum-likelihood fit did not converge")]
    NoConvergence,
}

/// Natural-log units per Elo point: `ln 10 / 400`.
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// Fits ratings for `players` players from `results` (pairs may repeat; they add up).
pub fn fit(players: usize, results: &[PairResult], anchor: Anchor) -> Result<MlFit, FitError> {
    let m = players;
    if m == 0 {
        return Err(FitError::NoPlayers);
    }
    // Games and points of i against j.
    let mut n = vec![vec![0.0f64; m]; m];
    let mut s = vec![vec![0.0f64; m]; m];
    let mut games = vec![0u32; m];
    let mut points = vec![0.0f64; m];
    for r in results {
        if r.i >= m || r.j >= m || r.i == r.j {
            return Err(FitError::BadPair {
                i: r.i,
                j: r.j,
                players: m,
            });
        }
        let g = r.wins + r.draws + r.losses;
        let (pi, pj) = (
            r.wins as f64 + 0.5 * r.draws as f64,
            r.losses as f64 + 0.5 * r.draws as f64,
        );
        n[r.i][r.j] += g as f64;
        n[r.j][r.i] += g as f64;
        s[r.i][r.j] += pi;
        s[r.j][r.i] += pj;
        games[r.i] += g;
        games[r.j] += g;
        points[r.i] += pi;
        points[r.j] += pj;
    }
    let unreached: Vec<usize> = {
        let seen = reach(m, |a, b| n[a][b] > 0.0);
        (0..m).filter(|&k| !seen[k]).collect()
    };
    if !unreached.is_empty() {
        return Err(FitError::Disconnected(unreached));
    }
    // Strongly connected "scored against" graph ⇔ a finite maximum exists. From 0 every
    // player must be reachable both along "a scored against b" and against it.
    let finite = reach(m, |a, b| s[a][b] > 0.0).iter().all(|&x| x)
        && reach(m, |a, b| s[b][a] > 0.0).iter().all(|&x| x);
    if !finite {
        for a in 0..m {
            for b in 0..m {
                if n[a][b] > 0.0 {
                    n[a][b] += 1.0;
                    s[a][b] += 0.5;
                }
            }
        }
    }
    // Newton on x = K · r with x_0 = 0: free variables are players 1..m.
    let mut x = vec![0.0f64; m];
    let loglik = |x: &[f64]| -> f64 {
        let mut l = 0.0;
        for a in 0..m {
            for b in 0..m {
                if n[a][b] > 0.0 {
                    // ln p_ab = -ln(1 + e^{-(x_a - x_b)}), stable for large gaps.
                    let d = x[a] - x[b];
                    l -= s[a][b] * ln1p_exp(-d);
                }
            }
        }
        l
    };
    let mut iterations = 0;
    let mut converged = m == 1;
    while !converged && iterations < 200 {
        iterations += 1;
        let (g, info) = gradient_info(&n, &s, &x);
        let step = solve(
            &info[1..]
                .iter()
                .map(|r| r[1..].to_vec())
                .collect::<Vec<_>>(),
            &g[1..],
        )
        .ok_or(FitError::NoConvergence)?;
        let base = loglik(&x);
        let mut t = 1.0;
        loop {
            let trial: Vec<f64> = std::iter::once(0.0)
                .chain(x[1..].iter().zip(&step).map(|(xi, d)| xi + t * d))
                .collect();
            if loglik(&trial) >= base - 1e-12 * base.abs().max(1.0) || t < 1e-6 {
                x = trial;
                break;
            }
            t /= 2.0;
        }
        converged = step.iter().all(|d| (t * d).abs() < 1e-10);
    }
    if !converged {
        return Err(FitError::NoConvergence);
    }
    // Covariance of the free ratings (x units), then in Elo² with row/column 0 zero.
    let (_, info) = gradient_info(&n, &s, &x);
    let mut cov = vec![vec![0.0f64; m]; m];
    if m > 1 {
        let reduced: Vec<Vec<f64>> = info[1..].iter().map(|r| r[1..].to_vec()).collect();
        let inv = invert(&reduced).ok_or(FitError::NoConvergence)?;
        for a in 1..m {
            for b in 1..m {
                cov[a][b] = inv[a - 1][b - 1] / (K * K);
            }
        }
    }
    let mut elo: Vec<f64> = x.iter().map(|v| v / K).collect();
    let var: Vec<f64> = match anchor {
        Anchor::First => (0..m).map(|a| cov[a][a]).collect(),
        Anchor::Mean => {
            let mean = elo.iter().sum::<f64>() / m as f64;
            elo.iter_mut().for_each(|e| *e -= mean);
            // Var(r_a − r̄) = C_aa − 2 mean_b C_ab + mean_bc C_bc.
            let row_mean: Vec<f64> = cov
                .iter()
                .map(|r| r.iter().sum::<f64>() / m as f64)
                .collect();
            let all_mean = row_mean.iter().sum::<f64>() / m as f64;
            (0..m)
                .map(|a| (cov[a][a] - 2.0 * row_mean[a] + all_mean).max(0.0))
                .collect()
        }
    };
    Ok(MlFit {
        ratings: (0..m)
            .map(|a| MlRating {
                elo: elo[a],
                error95: Z95 * var[a].sqrt(),
                games: games[a],
                points: points[a],
            })
            .collect(),
        anchor,
        regularised: !finite,
        iterations,
    })
}

/// `ln(1 + e^v)` without overflow.
fn ln1p_exp(v: f64) -> f64 {
    if v > 30.0 {
        v + (-v).exp().ln_1p()
    } else {
        v.exp().ln_1p()
    }
}

/// Gradient of the log-likelihood (x units) and the observed information matrix
/// (negative Hessian), both over all players.
fn gradient_info(n: &[Vec<f64>], s: &[Vec<f64>], x: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let m = x.len();
    let mut g = vec![0.0; m];
    let mut h = vec![vec![0.0; m]; m];
    for a in 0..m {
        for b in 0..m {
            if a == b || n[a][b] == 0.0 {
                continue;
            }
            let p = 1.0 / (1.0 + (-(x[a] - x[b])).exp());
            g[a] += s[a][b] - n[a][b] * p;
            let w = n[a][b] * p * (1.0 - p);
            h[a][a] += w;
            h[a][b] -= w;
        }
    }
    (g, h)
}

/// Which players are reachable from player 0 along edges `a → b` where `edge(a, b)`.
fn reach(m: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; m];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(a) = stack.pop() {
        for b in 0..m {
            if !seen[b] && a != b && edge(a, b) {
                seen[b] = true;
                stack.push(b);
            }
        }
    }
    seen
}

/// Solves `A x = b` by Gaussian elimination with partial pivoting (`None` if singular).
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let k = b.len();
    let mut aug: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(r, &v)| r.iter().copied().chain(std::iter::once(v)).collect())
        .collect();
    eliminate(&mut aug, k)?;
    Some(aug.iter().map(|r| r[k]).collect())
}

/// The inverse of `a` (`None` if singular).
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let k = a.len();
    let mut aug: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, r)| {
            r.iter()
                .copied()
                .chain((0..k).map(|j| if i == j { 1.0 } else { 0.0 }))
                .collect()
        })
        .collect();
    eliminate(&mut aug, k)?;
    Some(aug.into_iter().map(|r| r[k..].to_vec()).collect())
}

/// Gauss–Jordan on the first `k` columns of `aug`, leaving the identity there.
fn eliminate(aug: &mut [Vec<f64>], k: usize) -> Option<()> {
    for col in 0..k {
        let piv = (col..k).max_by(|&p, &q| aug[p][col].abs().total_cmp(&aug[q][col].abs()))?;
        if aug[piv][col].abs() < 1e-300 {
            return None;
        }
        aug.swap(col, piv);
        let d = aug[col][col];
        aug[col].iter_mut().for_each(|v| *v /= d);
        for r in 0..k {
            if r != col {
                let f = aug[r][col];
                if f != 0.0 {
                    let (src, dst) = if r < col {
                        let (lo, hi) = aug.split_at_mut(col);
                        (&hi[0], &mut lo[r])
                    } else {
                        let (lo, hi) = aug.split_at_mut(r);
                        (&lo[col], &mut hi[0])
                    };
                    dst.iter_mut()
                        .zip(src.iter())
                        .for_each(|(t, s)| *t -= f * s);
                }
            }
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::super::elo_from_score;
    use super::*;

    fn pr(i: usize, j: usize, wins: u32, draws: u32, losses: u32) -> PairResult {
        PairResult {
            i,
            j,
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn two_players_get_the_logistic_elo_of_the_score() {
        // 60 wins, 20 draws, 20 losses: score 0.7.
        let f = fit(2, &[pr(0, 1, 60, 20, 20)], Anchor::First).unwrap();
        assert!(!f.regularised);
        assert_eq!(f.ratings[0].elo, 0.0);
        let want = -elo_from_score(0.7);
        assert!((f.ratings[1].elo - want).abs() < 1e-9, "{f:?}");
        // Information n·p(1−p) per K²: half-width 1.96 / (K √(n p (1 − p))).
        let half = Z95 / (K * (100.0f64 * 0.7 * 0.3).sqrt());
        assert!((f.ratings[1].error95 - half).abs() < 1e-9, "{f:?}");
        assert_eq!(f.ratings[0].error95, 0.0);
        assert_eq!((f.ratings[0].points, f.ratings[1].points), (70.0, 30.0));
        // Mean anchor: ±half the difference, each with half the interval.
        let f = fit(2, &[pr(1, 0, 20, 20, 60)], Anchor::Mean).unwrap();
        assert!((f.ratings[0].elo - elo_from_score(0.7) / 2.0).abs() < 1e-9);
        assert!((f.ratings[0].elo + f.ratings[1].elo).abs() < 1e-9);
        assert!((f.ratings[1].error95 - half / 2.0).abs() < 1e-9, "{f:?}");
    }

    #[test]
    fn a_cycle_of_equal_scores_rates_everyone_zero() {
        // A beats B 2–1, B beats C 2–1, C beats A 2–1.
        let f = fit(
            3,
            &[pr(0, 1, 2, 0, 1), pr(1, 2, 2, 0, 1), pr(2, 0, 2, 0, 1)],
            Anchor::Mean,
        )
        .unwrap();
        for r in &f.ratings {
            assert!(r.elo.abs() < 1e-9, "{f:?}");
            assert!(r.error95.is_finite() && r.error95 > 0.0);
        }
        // Symmetric: every interval is the same.
        let e0 = f.ratings[0].error95;
        assert!(f.ratings.iter().all(|r| (r.error95 - e0).abs() < 1e-9));
    }

    /// Zermelo's fixed point (the MM algorithm of Hunter 2004), a different route to the
    /// same maximum: `γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j)`.
    fn zermelo(m: usize, results: &[PairResult]) -> Vec<f64> {
        let mut n = vec![vec![0.0; m]; m];
        let mut w = vec![0.0; m];
        for r in results {
            let g = (r.wins + r.draws + r.losses) as f64;
            n[r.i][r.j] += g;
            n[r.j][r.i] += g;
            w[r.i] += r.wins as f64 + 0.5 * r.draws as f64;
            w[r.j] += r.losses as f64 + 0.5 * r.draws as f64;
        }
        let mut gamma = vec![1.0; m];
        for _ in 0..20_000 {
            let next: Vec<f64> = (0..m)
                .map(|i| {
                    let d: f64 = (0..m)
                        .filter(|&j| j != i)
                        .map(|j| n[i][j] / (gamma[i] + gamma[j]))
                        .sum();
                    w[i] / d
                })
                .collect();
            let g0 = next[0];
            gamma = next.iter().map(|g| g / g0).collect();
        }
        gamma.iter().map(|g| 400.0 * g.log10()).collect()
    }

    #[test]
    fn four_players_match_zermelos_fixed_point_and_expected_scores() {
        let results = [
            pr(0, 1, 12, 5, 3),
            pr(0, 2, 9, 6, 5),
            pr(0, 3, 7, 2, 11),
            pr(1, 2, 8, 8, 4),
            pr(1, 3, 4, 4, 12),
            pr(2, 3, 5, 10, 5),
            pr(3, 0, 1, 1, 2), // a pair may come twice, in either order
        ];
        let f = fit(4, &results, Anchor::First).unwrap();
        let z = zermelo(4, &results);
        for (r, want) in f.ratings.iter().zip(&z) {
            assert!((r.elo - want).abs() < 1e-6, "{} vs {want}", r.elo);
        }
        // At the maximum every player's expected points equal their points.
        let mut expected = [0.0; 4];
        for r in &results {
            let g = (r.wins + r.draws + r.losses) as f64;
            let p = crate::stats::score_from_elo(f.ratings[r.i].elo - f.ratings[r.j].elo);
            expected[r.i] += g * p;
            expected[r.j] += g * (1.0 - p);
        }
        for (e, r) in expected.iter().zip(&f.ratings) {
            assert!((e - r.points).abs() < 1e-8, "{e} vs {}", r.points);
        }
        // The mean anchor only shifts the list.
        let g = fit(4, &results, Anchor::Mean).unwrap();
        let shift = g.ratings[0].elo - f.ratings[0].elo;
        for (a, b) in f.ratings.iter().zip(&g.ratings) {
            assert!((b.elo - a.elo - shift).abs() < 1e-9);
        }
        assert!(g.ratings.iter().map(|r| r.elo).sum::<f64>().abs() < 1e-9);
    }

    #[test]
    fn a_perfect_score_is_regularised_and_said_so() {
        let f = fit(3, &[pr(0, 1, 10, 0, 0), pr(1, 2, 5, 0, 5)], Anchor::First).unwrap();
        assert!(f.regularised);
        assert!(f.ratings.iter().all(|r| r.elo.is_finite()));
        assert!(f.ratings[1].elo < -300.0, "{f:?}");
        // Real games are reported, not the virtual draws.
        assert_eq!(f.ratings[0].games, 10);
        assert_eq!(f.ratings[0].points, 10.0);
    }

    #[test]
    fn bad_tables_are_refused_with_a_reason() {
        assert_eq!(fit(0, &[], Anchor::First), Err(FitError::NoPlayers));
        assert!(matches!(
            fit(2, &[pr(0, 2, 1, 0, 0)], Anchor::First),
            Err(FitError::BadPair { .. })
        ));
        assert_eq!(
            fit(4, &[pr(0, 1, 1, 1, 1), pr(2, 3, 1, 0, 1)], Anchor::First),
            Err(FitError::Disconnected(vec![2, 3]))
        );
        let one = fit(1, &[], Anchor::Mean).unwrap();
        assert_eq!(one.ratings[0].elo, 0.0);
    }
}
