//! How well [`FastSim::estimate`] (the reward of a playout cut off before the end) predicts
//! who wins: playouts of the default playout policy from fresh deals, every position along the
//! way scored by the estimate and by the seat that finally won. The research test (feature `research`) prints the
//! calibration table (estimate bucket against win rate) and the logistic fit of the win rate on
//! the hand-size difference and the move, for two seats:
//! `EST_GAMES=20000 cargo test -p kibitz-maumau --release --features research --test estimate_fit -- --nocapture`
//! (`EST_PARAMS=rjack=68,rdraw=-36` sets playout parameters as `--param` does).

use kibitz_maumau::game::{Config, Game, Phase};
use kibitz_maumau::mcts::GreedyRollout;
#[cfg(feature = "research")]
use kibitz_maumau::mcts::IsmctsParams;
use kibitz_maumau::sim::{FastSim, SimRng};
#[cfg(feature = "research")]
use kibitz_search::params::Tunable;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// One position of a finished playout, from seat 0's side (`diff`, `mine` and `to_move` are
/// read by the research test only).
#[cfg_attr(not(feature = "research"), allow(dead_code))]
struct Sample {
    /// Seat 0's cards minus the smallest other hand.
    diff: i32,
    /// Seat 0's cards.
    mine: i32,
    /// Whether seat 0 is to move.
    to_move: bool,
    /// The estimate of seat 0's reward.
    estimate: f64,
    /// Whether seat 0 won.
    won: bool,
}

/// Plays `games` two-seat playouts with `policy` and returns their positions from the
/// `skip`-th step on (positions near the deal are rarely where playouts are cut off).
fn samples(games: u64, policy: &GreedyRollout, skip: u32) -> Vec<Sample> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = Game::deal(Config::default(), &mut rng);
        while g.phase() == Phase::BeginTurn {
            g.begin_turn(&mut rng).expect("fresh game");
        }
        let Some(mut sim) = FastSim::from_game(&g) else {
            continue;
        };
        let mut srng = SimRng::new(seed);
        let mut path = Vec::new();
        let mut steps = 0;
        while sim.winner().is_none() && steps < 2000 {
            if steps >= skip {
                let mine = sim.hand(0).len() as i32;
                let other = sim.hand(1).len() as i32;
                path.push((mine - other, mine, sim.mover() == 0, sim.estimate(0)));
            }
            policy.play_one(&mut sim, &mut srng);
            steps += 1;
        }
        let Some(w) = sim.winner() else { continue };
        out.extend(
            path.into_iter()
                .map(|(diff, mine, to_move, estimate)| Sample {
                    diff,
                    mine,
                    to_move,
                    estimate,
                    won: w == 0,
                }),
        );
    }
    out
}

/// Mean log-likelihood of the outcomes under probabilities `p`.
#[cfg(feature = "research")]
fn log_likelihood(data: &[Sample], p: impl Fn(&Sample) -> f64) -> f64 {
    data.iter()
        .map(|s| {
            let q = p(s).clamp(1e-9, 1.0 - 1e-9);
            if s.won {
                q.ln()
            } else {
                (1.0 - q).ln()
            }
        })
        .sum::<f64>()
        / data.len() as f64
}

#[cfg(feature = "research")]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Logistic fit of the win on (difference, move) by gradient ascent: returns (a, b) with
/// `P(win) = σ(-a · diff + b · (to_move ? 1 : -1))`.
#[cfg(feature = "research")]
fn fit(data: &[Sample]) -> (f64, f64) {
    let (mut a, mut b) = (0.4, 0.0);
    for _ in 0..400 {
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for s in data {
            let t = if s.to_move { 1.0 } else { -1.0 };
            let x = [-(s.diff as f64), t];
            let p = sigmoid(a * x[0] + b * x[1]);
            let r = s.won as u8 as f64 - p;
            let w = p * (1.0 - p);
            ga += r * x[0];
            gb += r * x[1];
            haa += w * x[0] * x[0];
            hab += w * x[0] * x[1];
            hbb += w * x[1] * x[1];
        }
        let det = haa * hbb - hab * hab;
        let (da, db) = ((hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det);
        a += da;
        b += db;
        if da.abs() + db.abs() < 1e-9 {
            break;
        }
    }
    (a, b)
}

/// The estimate must rank positions: seat 0 wins more often from positions it estimates
/// better. Checked on the two ends of the estimate's range.
#[test]
fn the_estimate_ranks_positions() {
    let data = samples(300, &GreedyRollout::fitted(), 10);
    let rate = |keep: &dyn Fn(f64) -> bool| {
        let v: Vec<&Sample> = data.iter().filter(|s| keep(s.estimate)).collect();
        (
            v.iter().filter(|s| s.won).count() as f64 / v.len() as f64,
            v.len(),
        )
    };
    let (low, nl) = rate(&|e| e < 0.35);
    let (high, nh) = rate(&|e| e > 0.65);
    assert!(nl > 500 && nh > 500, "{nl} low, {nh} high positions");
    assert!(
        high > low + 0.08,
        "wins {high:.3} when ahead, {low:.3} when behind"
    );
}

#[cfg(feature = "research")]
#[test]
fn estimate_calibration() {
    let games = std::env::var("EST_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let mut params = IsmctsParams::default();
    let spec = std::env::var("EST_PARAMS").unwrap_or_default();
    for kv in spec.split(',').filter(|kv| !kv.is_empty()) {
        params.apply(kv).expect("NAME=VALUE");
    }
    let data = samples(games, &params.playout, 20);
    println!(
        "{games} playouts ({spec:?}), {} positions after step 20",
        data.len()
    );
    println!("| estimate | positions | seat 0 won |");
    println!("|---|---|---|");
    for k in 0..10 {
        let (lo, hi) = (k as f64 / 10.0, (k + 1) as f64 / 10.0);
        let v: Vec<&Sample> = data
            .iter()
            .filter(|s| s.estimate >= lo && s.estimate < hi)
            .collect();
        if v.is_empty() {
            continue;
        }
        let won = v.iter().filter(|s| s.won).count() as f64 / v.len() as f64;
        println!("| {lo:.1}-{hi:.1} | {} | {:.3} |", v.len(), won);
    }
    println!("| diff | mine to move: won | other to move: won |");
    println!("|---|---|---|");
    for d in -6..=6 {
        let rate = |m: bool| {
            let v: Vec<&Sample> = data
                .iter()
                .filter(|s| s.diff == d && s.to_move == m)
                .collect();
            let w = v.iter().filter(|s| s.won).count() as f64 / v.len().max(1) as f64;
            format!("{w:.3} ({})", v.len())
        };
        println!("| {d:+} | {} | {} |", rate(true), rate(false));
    }
    for m in 1..=4 {
        let v: Vec<&Sample> = data.iter().filter(|s| s.mine == m).collect();
        let w = v.iter().filter(|s| s.won).count() as f64 / v.len().max(1) as f64;
        println!("seat 0 holding {m}: won {w:.3} of {}", v.len());
    }
    let (a, b) = fit(&data);
    println!("fit: P(win) = σ({a:.3} · (others - mine) {b:+.3} · (to move ? 1 : -1))");
    println!(
        "log-likelihood per position: estimate {:.4}, fit {:.4}, coin {:.4}",
        log_likelihood(&data, |s| s.estimate),
        log_likelihood(&data, |s| sigmoid(
            -a * s.diff as f64 + b * if s.to_move { 1.0 } else { -1.0 }
        )),
        log_likelihood(&data, |_| 0.5)
    );
}
