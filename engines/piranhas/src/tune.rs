//! Texel-style tuning of the evaluation weights from self-play.
//!
//! 1. [`self_play`]: games of the engine against itself at a fixed node budget (reproducible),
//!    the first plies random for variety; every position after those (or only the quiet ones,
//!    where the side to move has no capture) is kept with the final result from the side to
//!    move's view.
//! 2. [`features_of`]: the evaluation's terms as a linear feature vector, one entry per weight
//!    of [`EvalParams`] (in [`TUNED_NAMES`] order), so that `evaluate ≈ weights · features`.
//! 3. [`fit`]: minimises the mean squared error between the result and
//!    `sigmoid(score / scale)` (the Texel loss) by Adam gradient descent, first fitting
//!    `scale` for the starting weights, then the weights with the scale fixed.
//!
//! Everything is deterministic for a given seed.

use crate::board::Color;
use crate::eval::{captures, features, EvalParams};
use crate::kraken::random_pair;
use crate::movegen::{captures_into, count_moves};
use crate::search::{Engine, EngineConfig};
use crate::state::{State, MAX_TURN};
use kibitz_search::time::TimeControl;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The weights the fit adjusts, in feature-vector order: every weight of [`EvalParams`].
pub const TUNED_NAMES: [&str; 14] = EvalParams::NAMES;

/// A labelled position: features from the side to move's view and its result (1 win,
/// 0.5 draw, 0 loss).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// [`features_of`] of the position.
    pub x: [f64; 14],
    /// Final result for the side to move.
    pub y: f64,
}

/// The evaluation's terms for `state` (side to move minus opponent), one per
/// [`TUNED_NAMES`] entry, signed so that the weight multiplies them as in `evaluate`.
pub fn features_of(state: &State) -> [f64; 14] {
    let me = state.current();
    let t = state.turn().min(MAX_TURN as u32) as f64 / 60.0;
    let side = |c: Color| {
        let f = features(state.board().fish_of(c));
        let n = f.fish.max(1) as f64;
        let spread = f.spread as f64 / (n * n);
        [
            f.biggest as f64 / n,
            -(f.groups as f64 - 1.0).max(0.0),
            -spread * (1.0 - t),
            -spread * t,
            -(f.rim as f64),
            0.0,
            0.0,
            f.fish as f64,
            f.biggest as f64 * t,
            0.0,
            -(f.join as f64),
            -(f.fish as f64 - f.biggest as f64),
            -(f.gap as f64),
            f.biggest as f64 * ((t * 60.0 - 40.0).max(0.0) / 20.0),
        ]
    };
    let (a, b) = (side(me), side(me.other()));
    let mut x: [f64; 14] = std::array::from_fn(|i| a[i] - b[i]);
    x[5] = count_moves(state) as f64 - count_moves(&state.pass()) as f64;
    x[6] = -(captures(state, me.other()).count() as f64 - captures(state, me).count() as f64);
    x[9] = 1.0;
    x
}

/// The weights of `p` in [`TUNED_NAMES`] order.
pub fn weights_of(p: &EvalParams) -> [f64; 14] {
    TUNED_NAMES.map(|n| p.get(n).unwrap_or(0) as f64)
}

/// Plays `games` self-play games at `nodes` nodes per move (the first `random_plies` plies
/// random) with weights `p` and returns the positions after the random plies, labelled;
/// with `quiet_only` only those where the side to move has no capture (in Piranhas a
/// capture is almost always available, so that keeps about 5 % of them).
pub fn self_play(
    games: u32,
    nodes: u64,
    random_plies: u32,
    p: &EvalParams,
    seed: u64,
    quiet_only: bool,
) -> Vec<Sample> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut config = EngineConfig {
        eval: *p,
        ..EngineConfig::default()
    };
    config.search.max_nodes = nodes;
    config.search.hash_mb = 4;
    let mut engine = Engine::new(config);
    for _ in 0..games {
        engine.clear();
        let mut s = State::start(random_pair(&mut rng));
        let mut seen: Vec<State> = Vec::new();
        let mut caps = Vec::new();
        let result = loop {
            if let Some(r) = s.outcome() {
                break r.winner;
            }
            if s.turn() >= random_plies {
                caps.clear();
                captures_into(&s, &mut caps);
                if caps.is_empty() || !quiet_only {
                    seen.push(s);
                }
            }
            let mv = if s.turn() < random_plies {
                s.legal_moves().choose(&mut rng).copied()
            } else {
                engine.choose(&s, &TimeControl::infinite()).mv
            };
            match mv.and_then(|m| s.apply(m).ok()) {
                Some(next) => s = next,
                None => break Some(s.current().other()),
            }
        };
        for st in seen {
            let y = match result {
                None => 0.5,
                Some(w) if w == st.current() => 1.0,
                Some(_) => 0.0,
            };
            out.push(Sample {
                x: features_of(&st),
                y,
            });
        }
    }
    out
}

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

/// Mean squared error of `sigmoid(w · x / scale)` against the results.
pub fn loss(samples: &[Sample], w: &[f64; 14], scale: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = s.x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
            (sigmoid(e / scale) - s.y).powi(2)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The result of [`fit`].
#[derive(Clone, Debug)]
pub struct Fit {
    /// The fitted logistic scale (score units per logit).
    pub scale: f64,
    /// Loss of the starting weights at that scale.
    pub loss_before: f64,
    /// Loss of the fitted weights.
    pub loss_after: f64,
    /// The fitted weights, rounded and clamped to the registry's ranges.
    pub params: EvalParams,
}

/// Fits the scale for `start`, then the weights by `epochs` full-batch Adam steps. Weights
/// named in `frozen` keep their starting values (e.g. `tempo`, a constant for side-to-move
/// samples, and `mobility`, which costs two full move generations per evaluation).
pub fn fit(samples: &[Sample], start: &EvalParams, epochs: u32, frozen: &[&str]) -> Fit {
    let w0 = weights_of(start);
    // Scale: golden-section-free scan, coarse then fine.
    let mut scale = 100.0;
    let mut best = f64::MAX;
    for k in 0..60 {
        let s = 20.0 * 1.1f64.powi(k);
        let l = loss(samples, &w0, s);
        if l < best {
            best = l;
            scale = s;
        }
    }
    let loss_before = best;
    let mut w = w0;
    let (mut m, mut v) = ([0.0f64; 14], [0.0f64; 14]);
    let (b1, b2, lr) = (0.9, 0.999, 2.0);
    let n = samples.len().max(1) as f64;
    for step in 1..=epochs {
        let mut g = [0.0f64; 14];
        for s in samples {
            let e = s.x.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>();
            let p = sigmoid(e / scale);
            let d = 2.0 * (p - s.y) * p * (1.0 - p) / scale;
            for (gi, xi) in g.iter_mut().zip(&s.x) {
                *gi += d * xi / n;
            }
        }
        for i in 0..TUNED_NAMES.len() {
            if frozen.contains(&TUNED_NAMES[i]) {
                continue;
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
    }
    let mut params = *start;
    for (i, name) in TUNED_NAMES.iter().enumerate() {
        params.set(name, w[i].round().clamp(-2000.0, 2000.0) as i32);
    }
    let loss_after = loss(samples, &weights_of(&params), scale);
    Fit {
        scale,
        loss_before,
        loss_after,
        params,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;

    /// The feature vector reproduces the evaluation (up to integer rounding) with mobility
    /// and capturable weights on, along a few random games.
    #[test]
    fn features_times_weights_is_the_evaluation() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let p = EvalParams {
            mobility: 3,
            join: 7,
            groups: 11,
            stragglers: 13,
            gap: 17,
            limit: 19,
            ..EvalParams::TUNED
        };
        let w = weights_of(&p);
        let mut s = State::start(random_pair(&mut rng));
        for _ in 0..40 {
            if s.outcome().is_some() {
                break;
            }
            let x = features_of(&s);
            let lin: f64 = x.iter().zip(&w).map(|(a, b)| a * b).sum();
            let e = evaluate(&s, &p) as f64;
            assert!((lin - e).abs() <= 12.0, "linear {lin} vs eval {e}");
            let m = *s.legal_moves().choose(&mut rng).unwrap();
            s = s.apply(m).unwrap();
        }
    }

    #[test]
    fn fit_is_deterministic_and_does_not_increase_the_loss() {
        let samples = self_play(4, 200, 4, &EvalParams::TUNED, 5, false);
        assert!(!samples.is_empty());
        assert_eq!(samples, self_play(4, 200, 4, &EvalParams::TUNED, 5, false));
        let f = fit(&samples, &EvalParams::TUNED, 50, &["tempo"]);
        assert!(f.loss_after <= f.loss_before + 1e-3, "{f:?}");
    }
}
