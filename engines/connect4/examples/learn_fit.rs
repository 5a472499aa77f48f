//! Research (issue 39, item 2): fits the learned 7 × 6 evaluation
//! ([`kibitz_connect4::eval::learned`]) to the exact labels of `learn_data`, reports its
//! held-out accuracy next to the threat evaluation's, and writes the weights as Rust
//! (`--table`, e.g. `engines/connect4/src/eval/learned_table.rs`).
//!
//! Fit: ordinal logistic regression ("all thresholds": a logistic loss for "draw or better"
//! and one for "win" on one logit), full-batch Adam with an L2 penalty. Parents whose digit
//! string hashes to 0 mod 10 are held out (with all their children).
//!
//! Held-out measures: log loss and accuracy of the three-way label (learned only); per parent
//! with children of different values, whether the child ranked best keeps the parent's
//! value ("top-1") and the share of correctly ordered child pairs, for the learned model and
//! for the threat evaluation (static); with `--search-nodes N`, top-1 of the engine's
//! heuristic search (node limit `N`, root restricted to the labelled children) with either
//! evaluation, on the first `--search-parents` such parents (the learned one from the
//! committed table; `--iters 0` judges that table without fitting).
//!
//! Findings (session 10): data of 25,317 parents, 110,540 labelled children (9–23 stones
//! from seeds 1–2, 13–30 from seed 3; loss/draw/win 39,032/7,265/53,564 in training), the
//! committed table fitted with `--iters 400 --l2 1e-5`. Held out (2,472 parents, 10,679
//! children): log loss 0.562, three-way accuracy 78.5 % (majority class 54.3 %); among the
//! 821 parents with children of different values the best-ranked child keeps the value for
//! 82.2 % (threat evaluation 76.1 %), child pairs ordered right 81.9 % (76.3 %); the
//! heuristic search at 10k nodes picks a value-keeping move for 92.8 % of 400 such parents
//! (threat evaluation 89.2 %). Cost (under the measurement lock): about 410 ns per call
//! against 400 ns for the threat evaluation (loop included); the 10k-node searches ran
//! 1.14 M nodes/s against 1.20 M.
//! On the test sets (`keep_audit --min-stones 10`, 4,629 positions; main: 4,624 at 800k,
//! 4,611 at 400k) the learned evaluation in the fallback search (`--param learned=1`)
//! does not help: 4,621 at 800k (keeps `217124624716`, `6621166225`; loses `3651136162`,
//! `36651613517`, `5236371113`, `2773543365`, `2773315563`), 4,612 at 400k (8 kept, 7
//! new losses); added to the threat evaluation (`learned_blend=100`) 4,622 / 4,613. The
//! learned root order (`--param learned_order=1`) gains a little: 4,625 at 800k (keeps
//! `217124624716`, `2751641731`, `7321565577`; loses `54332677277`, `6133112551`), 4,614
//! at 400k (keeps `46217547345`, `4661361414`, `74653252243`, no new loss); both together
//! 4,620 at 800k. Under the bot's clock (`keep_clock --min-stones 10`, one core busy,
//! three alternating runs each) the order changes nothing beyond the noise: 4,617 / 4,618 /
//! 4,619 with it, 4,617 / 4,618 / 4,616 without.
//!
//! `cargo run --release -p kibitz-connect4 --features research --example learn_fit --
//!  --data FILE[,FILE…] [--iters 400] [--lr 0.03] [--l2 1e-5] [--table PATH]
//!  [--search-nodes N --search-parents K]`
use kibitz_connect4::engine::fallback_search_config;
use kibitz_connect4::eval::learned::{for_each_feature, Model, FEATURES};
use kibitz_connect4::eval::{SearchPos, Weights};
use kibitz_connect4::{Board, Geometry, TimeControl};
use kibitz_search::alphabeta::{Game, SearchConfig, Searcher};
use std::collections::BTreeMap;

/// One labelled child.
struct Sample {
    /// Stones of the side to move, all stones, stone count.
    cur: u64,
    mask: u64,
    moves: u32,
    /// Child column (0-based) from the parent.
    column: usize,
    /// Value for the side to move in the child (−1, 0, 1).
    value: i32,
}

/// A parent and its labelled children.
struct Parent {
    digits: String,
    children: Vec<Sample>,
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The first player's stones.
fn p1(s: &Sample) -> u64 {
    if s.moves.is_multiple_of(2) {
        s.cur
    } else {
        s.cur ^ s.mask
    }
}

/// The first player's value (−1, 0, 1) of a sample.
fn first_value(s: &Sample) -> i32 {
    if s.moves.is_multiple_of(2) {
        s.value
    } else {
        -s.value
    }
}

fn load(paths: &str) -> Result<Vec<Parent>, String> {
    let mut by: BTreeMap<String, Vec<Sample>> = BTreeMap::new();
    for path in paths.split(',') {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for line in text.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            let [digits, col, value, _nodes] = f[..] else {
                continue;
            };
            let parse = |x: &str| x.parse::<i32>().map_err(|e| format!("{line:?}: {e}"));
            let (col, value) = (parse(col)? as usize - 1, parse(value)?);
            let mut b = Board::<u64>::from_digits(7, 6, 4, digits).map_err(|e| e.to_string())?;
            b.play(col).map_err(|e| e.to_string())?;
            let (cur, mask) = b.bitboards();
            let e = by.entry(digits.to_owned()).or_default();
            if e.iter().all(|s| s.column != col) {
                e.push(Sample {
                    cur,
                    mask,
                    moves: b.moves_played() as u32,
                    column: col,
                    value,
                });
            }
        }
    }
    Ok(by
        .into_iter()
        .map(|(digits, children)| Parent { digits, children })
        .collect())
}

/// Full-batch Adam on the all-thresholds ordinal logistic loss.
fn fit(geo: &Geometry<u64>, train: &[&Sample], iters: usize, lr: f64, l2: f64) -> Model {
    let mut feats: Vec<u16> = Vec::new();
    let mut start = vec![0usize];
    for s in train {
        for_each_feature(geo, p1(s), s.mask, s.moves, |i| feats.push(i as u16));
        start.push(feats.len());
    }
    let n = FEATURES + 2;
    let mut w = vec![0f64; n];
    w[FEATURES] = -0.5;
    w[FEATURES + 1] = 0.5;
    let (mut m, mut v) = (vec![0f64; n], vec![0f64; n]);
    let (b1, b2) = (0.9f64, 0.999f64);
    for t in 1..=iters {
        let mut g = vec![0f64; n];
        let mut loss = 0.0;
        for (k, s) in train.iter().enumerate() {
            let f = &feats[start[k]..start[k + 1]];
            let z: f64 = f.iter().map(|&i| w[i as usize]).sum();
            let y = first_value(s);
            let mut dz = 0.0;
            for (j, level) in [0, 1].into_iter().enumerate() {
                let p = sigmoid(z - w[FEATURES + j]);
                let target = if y >= level { 1.0 } else { 0.0 };
                loss -= if y >= level {
                    p.max(1e-12).ln()
                } else {
                    (1.0 - p).max(1e-12).ln()
                };
                dz += p - target;
                g[FEATURES + j] -= p - target;
            }
            for &i in f {
                g[i as usize] += dz;
            }
        }
        let inv = 1.0 / train.len() as f64;
        for i in 0..n {
            g[i] *= inv;
            if i < FEATURES {
                g[i] += 2.0 * l2 * w[i];
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-8);
        }
        if t % 50 == 0 || t == 1 {
            eprintln!("iter {t}: train loss {:.4}", loss * inv);
        }
    }
    Model {
        weights: w[..FEATURES].iter().map(|&x| x as f32).collect(),
        theta: [w[FEATURES] as f32, w[FEATURES + 1] as f32],
    }
}

/// Top-1 keeps and correctly ordered pairs of a child score (parent's view, higher better).
fn ranking(parents: &[&Parent], score: impl Fn(&Sample) -> f64) -> (usize, usize, usize, usize) {
    let (mut top, mut mixed, mut pairs_ok, mut pairs) = (0, 0, 0, 0);
    for p in parents {
        let vals: Vec<i32> = p.children.iter().map(|s| -s.value).collect();
        let best = *vals.iter().max().unwrap_or(&0);
        if vals.iter().all(|&v| v == best) {
            continue;
        }
        mixed += 1;
        let scores: Vec<f64> = p.children.iter().map(&score).collect();
        let pick = (0..scores.len())
            .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
            .unwrap_or(0);
        top += (vals[pick] == best) as usize;
        for a in 0..vals.len() {
            for b in 0..vals.len() {
                if vals[a] > vals[b] {
                    pairs += 1;
                    pairs_ok += (scores[a] > scores[b]) as usize;
                }
            }
        }
    }
    (top, mixed, pairs_ok, pairs)
}

fn write_table(path: &str, model: &Model) -> Result<(), String> {
    let mut s = String::from(
        "//! The fitted weights of [`super::learned::Model::embedded`] (written by `learn_fit`).\n\
         #![allow(clippy::excessive_precision, clippy::unreadable_literal)]\n\n\
         /// Feature weights ([`super::learned::FEATURES`]).\n\
         #[rustfmt::skip]\n\
         pub const WEIGHTS: [f32; super::learned::FEATURES] = [\n",
    );
    for chunk in model.weights.chunks(10) {
        let line: Vec<String> = chunk.iter().map(|x| format!("{x:.4}")).collect();
        s += &format!("    {},\n", line.join(", "));
    }
    s += &format!(
        "];\n/// Thresholds θ₀ (draw or better), θ₁ (win).\npub const THETA: [f32; 2] = [{:.4}, {:.4}];\n",
        model.theta[0], model.theta[1]
    );
    std::fs::write(path, s).map_err(|e| format!("{path}: {e}"))
}

fn main() -> Result<(), String> {
    let (mut data, mut table) = (String::new(), None);
    let (mut iters, mut lr, mut l2) = (400usize, 0.03f64, 1e-5f64);
    let (mut search_nodes, mut search_parents) = (0u64, 300usize);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let v = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |e: String| format!("{flag} {v:?}: {e}");
        match flag.as_str() {
            "--data" => data = v.clone(),
            "--table" => table = Some(v.clone()),
            "--iters" => iters = v.parse().map_err(|e| bad(format!("{e}")))?,
            "--lr" => lr = v.parse().map_err(|e| bad(format!("{e}")))?,
            "--l2" => l2 = v.parse().map_err(|e| bad(format!("{e}")))?,
            "--search-nodes" => search_nodes = v.parse().map_err(|e| bad(format!("{e}")))?,
            "--search-parents" => search_parents = v.parse().map_err(|e| bad(format!("{e}")))?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    let geo = Geometry::<u64>::new(7, 6, 4).map_err(|e| e.to_string())?;
    let parents = load(&data)?;
    let (test, train): (Vec<&Parent>, Vec<&Parent>) = parents
        .iter()
        .partition(|p| fnv(&p.digits).is_multiple_of(10));
    let train_s: Vec<&Sample> = train.iter().flat_map(|p| &p.children).collect();
    let test_s: Vec<&Sample> = test.iter().flat_map(|p| &p.children).collect();
    let count = |v: &[&Sample], x: i32| v.iter().filter(|s| s.value == x).count();
    println!(
        "train {} parents {} children (loss/draw/win {}/{}/{}); held out {} parents {} children",
        train.len(),
        train_s.len(),
        count(&train_s, -1),
        count(&train_s, 0),
        count(&train_s, 1),
        test.len(),
        test_s.len()
    );
    // `--iters 0` judges the committed table instead of fitting.
    let model = if iters == 0 {
        Model::embedded().clone()
    } else {
        fit(&geo, &train_s, iters, lr, l2)
    };
    // Held-out log loss and accuracy of the three-way label.
    let (mut ll, mut right) = (0.0f64, 0usize);
    for s in &test_s {
        let probs = model.probabilities(model.logit(&geo, p1(s), s.mask, s.moves));
        let y = (first_value(s) + 1) as usize;
        ll -= (probs[y].max(1e-6) as f64).ln();
        let arg = (0..3)
            .max_by(|&a, &b| probs[a].total_cmp(&probs[b]))
            .unwrap_or(0);
        right += (arg == y) as usize;
    }
    let n = test_s.len().max(1) as f64;
    let majority = [-1, 0, 1]
        .map(|x| count(&test_s, x))
        .into_iter()
        .max()
        .unwrap_or(0);
    println!(
        "held out: log loss {:.4}, accuracy {:.2} % (majority class {:.2} %)",
        ll / n,
        100.0 * right as f64 / n,
        100.0 * majority as f64 / n
    );
    let learned = |s: &Sample| -model.value(&geo, s.cur, s.mask, s.moves) as f64;
    let threat = |s: &Sample| -(SearchPos::new(geo, s.cur, s.mask, s.moves).evaluate() as f64);
    for (name, r) in [
        ("learned", ranking(&test, learned)),
        ("threat ", ranking(&test, threat)),
    ] {
        println!(
            "held out, {name} (static): top-1 keeps {}/{} ({:.1} %), pairs {:.1} %",
            r.0,
            r.1,
            100.0 * r.0 as f64 / r.1.max(1) as f64,
            100.0 * r.2 as f64 / r.3.max(1) as f64
        );
    }
    // Cost per evaluation (wall time: run under the measurement lock).
    let reps = 200;
    for (name, learned) in [("threat ", false), ("learned", true)] {
        let w = Weights {
            learned,
            ..Default::default()
        };
        let pos: Vec<SearchPos<u64>> = test_s
            .iter()
            .map(|s| SearchPos::new(geo, s.cur, s.mask, s.moves).with_weights(w))
            .collect();
        let start = std::time::Instant::now();
        let mut sum = 0i64;
        for _ in 0..reps {
            for p in &pos {
                sum += std::hint::black_box(p).evaluate() as i64;
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (reps * pos.len()).max(1) as f64;
        println!("{name} evaluation: {ns:.1} ns per call (checksum {sum})");
    }
    if let Some(path) = &table {
        write_table(path, &model)?;
        println!("wrote {path}");
    }
    if search_nodes > 0 {
        search_compare(&geo, &test, search_nodes, search_parents);
    }
    Ok(())
}

/// Top-1 of the heuristic search with either evaluation (the learned one is the committed
/// table: judge a fresh fit after writing it and rebuilding, with `--iters 0`).
fn search_compare(geo: &Geometry<u64>, test: &[&Parent], nodes: u64, limit: usize) {
    let config = SearchConfig {
        max_nodes: nodes,
        ..fallback_search_config(16)
    };
    let inf = TimeControl::infinite();
    let mixed: Vec<&&Parent> = test
        .iter()
        .filter(|p| {
            let v: Vec<i32> = p.children.iter().map(|s| s.value).collect();
            v.iter().any(|&x| x != v[0])
        })
        .take(limit)
        .collect();
    for learned in [false, true] {
        let w = Weights {
            learned,
            ..Default::default()
        };
        let (mut kept, mut nodes_all) = (0, 0u64);
        let start = std::time::Instant::now();
        for p in &mixed {
            let b = match Board::<u64>::from_digits(7, 6, 4, &p.digits) {
                Ok(b) => b,
                Err(_) => continue,
            };
            let (cur, mask) = b.bitboards();
            let cols: Vec<usize> = p.children.iter().map(|s| s.column).collect();
            let root = SearchPos::new(*geo, cur, mask, b.moves_played() as u32)
                .with_root_filter(&cols)
                .with_weights(w);
            let r = Searcher::new(config.clone()).search(&root, &inf, |_| {});
            nodes_all += r.nodes;
            let col = r.best.map_or(usize::MAX, SearchPos::<u64>::column);
            let best = p.children.iter().map(|s| -s.value).max();
            let got = p
                .children
                .iter()
                .find(|s| s.column == col)
                .map(|s| -s.value);
            kept += (got == best) as usize;
        }
        println!(
            "held out, {} search at {nodes} nodes: top-1 keeps {kept}/{} ({:.1} %), {:.0} nodes/s",
            if learned { "learned" } else { "threat " },
            mixed.len(),
            100.0 * kept as f64 / mixed.len().max(1) as f64,
            nodes_all as f64 / start.elapsed().as_secs_f64()
        );
    }
}
