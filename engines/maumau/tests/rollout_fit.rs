//! Fitting the playout policy ([`kibitz_maumau::rollout::GreedyRollout`]) to a stronger
//! player's choices: the "learned policy". A playout sees the whole sampled deal, so
//! the player to imitate is one that sees the whole deal too: the ISMCTS player with every
//! hand revealed (the arena's `peek=1`, which wins 97 % against the heuristic). Each of its
//! card plays is kept with the [`features`] of every legal card, and the weights are those of
//! the softmax (conditional logit) that makes its choices likeliest. With `rgumbel=1` the
//! playout samples exactly that softmax, the weights in tenths of a nat.
//!
//! The fit itself is a measurement (feature `research`):
//! `FIT_GAMES=400 FIT_ITERS=2000 cargo test -p kibitz-maumau --release --features research --test rollout_fit
//! -- --nocapture` prints the weights as `param.` keys, with the log-likelihood and the
//! share of choices each weighting ranks first.

use kibitz_maumau::agents::MauMauAgent;
use kibitz_maumau::arena::{play_game_by, Knowing};
use kibitz_maumau::knowledge::Knowledge;
use kibitz_maumau::mcts::IsmctsParams;
#[cfg(feature = "research")]
use kibitz_maumau::rollout::FIT_SHARPENING;
use kibitz_maumau::rollout::{draw_features, features, GreedyRollout, FEATURES, FEATURE_PARAMS};
use kibitz_maumau::sim::{FastSim, SimRng};
use kibitz_maumau::turn::Action;
use kibitz_maumau::{Card, CardSet, Config};
use rand::RngCore;
use rayon::prelude::*;

/// One choice where some card fitted: the features of each legal card and of drawing (last),
/// and which was chosen.
#[derive(Clone, Debug)]
struct Decision {
    cands: Vec<[f64; FEATURES]>,
    chosen: usize,
}

/// What a set of recorded decisions holds besides the choices.
#[derive(Default, Debug)]
struct Recorded {
    decisions: Vec<Decision>,
    /// Decisions where the oracle drew although a card fitted.
    voluntary_draws: usize,
}

/// The policy whose features are recorded: its wishes look at the next player's hand, as the
/// fitted policy's do whenever its void or fit weight is positive.
fn feature_policy() -> GreedyRollout {
    GreedyRollout {
        opp_fit: 1,
        ..GreedyRollout::default()
    }
}

/// The decisions of both seats in `games` two-player games of the full-information ISMCTS
/// player against itself at `iterations` per move.
fn record_oracle(games: u64, iterations: u64) -> Recorded {
    let policy = feature_policy();
    let per_game: Vec<Recorded> = (0..games)
        .into_par_iter()
        .map(|seed| {
            let mut params = IsmctsParams::default();
            params.search.max_iterations = iterations;
            let mut oracle = MauMauAgent::ismcts(params).seated(0, seed ^ 0x0_7ac1e);
            let mut out = Recorded::default();
            let mut decide =
                |game: &kibitz_maumau::Game,
                 seat: usize,
                 know: &Knowledge,
                 _: &kibitz_search::agent::View<'_, kibitz_maumau::game_impl::MauMau>,
                 tc: &kibitz_search::time::TimeControl| {
                    let mut seeing = know.clone();
                    for s in (0..game.players()).filter(|&s| s != seat) {
                        seeing.reveal(s, game.hand(s));
                    }
                    let action = oracle.decide(&seeing, tc).action;
                    let sim = FastSim::from_game(game)?;
                    let legal = CardSet(sim.legal());
                    if legal.is_empty() {
                        return Some(action);
                    }
                    // The candidates: every legal card, then drawing.
                    let cards: Vec<Card> = legal.iter().collect();
                    let mut cands: Vec<[f64; FEATURES]> =
                        cards.iter().map(|&c| features(&policy, &sim, c)).collect();
                    cands.push(draw_features(&sim));
                    let chosen = match action {
                        Action::Draw => {
                            out.voluntary_draws += 1;
                            cards.len()
                        }
                        Action::Play { card, .. } => cards.iter().position(|&c| c == card)?,
                    };
                    out.decisions.push(Decision { cands, chosen });
                    Some(action)
                };
            play_game_by(
                Config::default(),
                seed,
                None,
                &mut Knowing::new(Config::default(), &mut decide),
            );
            out
        })
        .collect();
    let mut all = Recorded::default();
    for r in per_game {
        all.decisions.extend(r.decisions);
        all.voluntary_draws += r.voluntary_draws;
    }
    all
}

fn dot(w: &[f64; FEATURES], f: &[f64; FEATURES]) -> f64 {
    w.iter().zip(f).map(|(w, f)| w * f).sum()
}

/// Softmax probabilities of a decision's candidates under `w`.
fn probs(w: &[f64; FEATURES], d: &Decision) -> Vec<f64> {
    let s: Vec<f64> = d.cands.iter().map(|f| dot(w, f)).collect();
    let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = s.iter().map(|x| (x - top).exp()).collect();
    let z: f64 = e.iter().sum();
    e.iter().map(|x| x / z).collect()
}

/// Mean log-likelihood per decision of the recorded choices under the softmax of `w`.
fn mean_ll(w: &[f64; FEATURES], data: &[Decision]) -> f64 {
    data.iter()
        .map(|d| probs(w, d)[d.chosen].max(1e-300).ln())
        .sum::<f64>()
        / data.len().max(1) as f64
}

/// Share of decisions whose recorded choice has the best score under `w`.
#[cfg(feature = "research")]
fn agreement(w: &[f64; FEATURES], data: &[Decision]) -> f64 {
    let hits = data
        .iter()
        .filter(|d| {
            let s: Vec<f64> = d.cands.iter().map(|f| dot(w, f)).collect();
            s.iter().all(|&x| x <= s[d.chosen])
        })
        .count();
    hits as f64 / data.len().max(1) as f64
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` positive definite
/// here: the ridge sees to that).
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let piv = (col..FEATURES)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, piv);
        b.swap(col, piv);
        for row in col + 1..FEATURES {
            let k = a[row][col] / a[col][col];
            let pivot = a[col];
            for (x, p) in a[row].iter_mut().zip(pivot).skip(col) {
                *x -= k * p;
            }
            b[row] -= k * b[col];
        }
    }
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        let s: f64 = (row + 1..FEATURES).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    x
}

/// The softmax weights that maximise the mean log-likelihood minus a small ridge, by Newton
/// steps (the problem is concave), halving a step that would lose.
fn fit(data: &[Decision]) -> [f64; FEATURES] {
    let n = data.len().max(1) as f64;
    let ridge = 1e-4;
    let objective = |w: &[f64; FEATURES]| mean_ll(w, data) - ridge * dot(w, w);
    let mut w = [0.0; FEATURES];
    let mut best = objective(&w);
    for _ in 0..50 {
        let mut grad = [0.0; FEATURES];
        let mut hess = [[0.0; FEATURES]; FEATURES];
        for d in data {
            let p = probs(&w, d);
            let mut mean = [0.0; FEATURES];
            for (f, &q) in d.cands.iter().zip(&p) {
                for i in 0..FEATURES {
                    mean[i] += q * f[i];
                }
            }
            for i in 0..FEATURES {
                grad[i] += (d.cands[d.chosen][i] - mean[i]) / n;
            }
            for (f, &q) in d.cands.iter().zip(&p) {
                for i in 0..FEATURES {
                    for j in 0..FEATURES {
                        hess[i][j] += q * (f[i] - mean[i]) * (f[j] - mean[j]) / n;
                    }
                }
            }
        }
        for i in 0..FEATURES {
            grad[i] -= 2.0 * ridge * w[i];
            hess[i][i] += 2.0 * ridge;
        }
        let step = solve(hess, grad);
        let mut scale = 1.0;
        let mut moved = false;
        while scale > 1e-3 {
            let t: [f64; FEATURES] = std::array::from_fn(|i| w[i] + scale * step[i]);
            let v = objective(&t);
            if v > best {
                (w, best, moved) = (t, v, true);
                break;
            }
            scale /= 2.0;
        }
        if !moved || step.iter().all(|s| s.abs() * scale < 1e-6) {
            break;
        }
    }
    w
}

/// A policy's weights as softmax logits: its points are tenths of a nat (as with `rgumbel`).
fn logits(policy: &GreedyRollout) -> [f64; FEATURES] {
    policy.weights().map(|x| x as f64 / 10.0)
}

/// The greedy playout policy (the default before the fit) as a softmax: its weights, and
/// drawing with a card that fits at -100 points.
fn greedy() -> GreedyRollout {
    GreedyRollout {
        draw_bias: -100,
        ..GreedyRollout::default()
    }
}

/// The fitted logits as `param.` keys of a playout that samples their softmax.
#[cfg(feature = "research")]
fn as_params(w: &[f64; FEATURES]) -> String {
    let mut keys: Vec<String> = FEATURE_PARAMS
        .iter()
        .zip(w)
        .map(|(name, x)| {
            // Costs are stored positive (the score subtracts them).
            let v = if matches!(*name, "rjack" | "rofit" | "rdrawofit") {
                -x
            } else {
                *x
            };
            format!("param.{name}={}", (10.0 * v).round())
        })
        .collect();
    keys.push("param.rgumbel=1".into());
    keys.join(",")
}

/// The fitter finds weights it knows: choices drawn from the softmax of known weights over the
/// features of real positions give those weights back.
#[test]
fn the_fit_recovers_known_weights() {
    let mut data = record_oracle(24, 100).decisions;
    assert!(data.len() > 300, "{} decisions", data.len());
    // Enough draws per position for the weights to be pinned down.
    data = data.iter().cycle().take(20_000).cloned().collect();
    let truth = [
        0.5, 1.5, -0.8, -2.0, 0.0, 1.0, 0.3, 0.4, -0.25, -1.0, 0.5, 0.7, -0.3,
    ];
    let mut rng = SimRng::new(3);
    for d in &mut data {
        let p = probs(&truth, d);
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut acc = 0.0;
        d.chosen = p.len() - 1;
        for (i, q) in p.iter().enumerate() {
            acc += q;
            if u < acc {
                d.chosen = i;
                break;
            }
        }
    }
    let w = fit(&data);
    // r8follow's feature is rare in these positions; the others must come back closely.
    for (i, name) in FEATURE_PARAMS.iter().enumerate() {
        if *name == "r8follow" {
            continue;
        }
        assert!(
            (w[i] - truth[i]).abs() < 0.25,
            "{name}: fitted {:.3}, true {:.3} (all {w:?})",
            w[i],
            truth[i]
        );
    }
    assert!(mean_ll(&w, &data) >= mean_ll(&truth, &data) - 1e-9);
}

/// The full-information player's choices are better explained by the fitted softmax than by
/// choosing uniformly and than by today's greedy playout weights read as logits (drawing at
/// -100 points: the greedy never draws with a card that fits, but for its noise).
#[test]
fn the_fitted_policy_explains_the_oracle_better_than_uniform_and_greedy() {
    let rec = record_oracle(30, 300);
    assert!(rec.decisions.len() > 300, "{rec:?}");
    let w = fit(&rec.decisions);
    let ll = |w: &[f64; FEATURES]| mean_ll(w, &rec.decisions);
    let (by_greedy, uniform, fitted) = (ll(&logits(&greedy())), ll(&[0.0; FEATURES]), ll(&w));
    assert!(
        fitted > uniform && fitted > by_greedy,
        "uniform {uniform:.4}, greedy {by_greedy:.4}, fitted {fitted:.4}"
    );
}

#[cfg(feature = "research")]
#[test]
fn fit_rollout_to_oracle() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (games, iterations) = (env("FIT_GAMES", 400), env("FIT_ITERS", 2000));
    let rec = record_oracle(games, iterations);
    let w = fit(&rec.decisions);
    let start = logits(&greedy());
    println!(
        "{games} games at {iterations} iterations: {} decisions with a card that fits, {} voluntary draws",
        rec.decisions.len(),
        rec.voluntary_draws
    );
    let current = logits(&GreedyRollout::fitted());
    for (name, v) in [("greedy", &start), ("default", &current), ("fitted", &w)] {
        println!(
            "{name:>8}: mean log-likelihood {:.4}, ranks the oracle's card first {:.1} %",
            mean_ll(v, &rec.decisions),
            100.0 * agreement(v, &rec.decisions)
        );
    }
    let uniform = [0.0; FEATURES];
    println!(
        "uniform : mean log-likelihood {:.4}",
        mean_ll(&uniform, &rec.decisions)
    );
    for (name, x) in FEATURE_PARAMS.iter().zip(&w) {
        println!("  {name:>9} {x:+.3} nat");
    }
    println!("{}", as_params(&w));
    // The default plays the fit sharpened (`GreedyRollout::fitted`).
    let k = FIT_SHARPENING;
    println!("sharpened x{k}: {}", as_params(&w.map(|x| k as f64 * x)));
}
