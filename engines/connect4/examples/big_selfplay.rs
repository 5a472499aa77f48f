//! Research (issue 39, item 3, bigger boards): how many plies from the end does the engine
//! prove its positions at the bot's budget? Self-play games of the engine on 9 × 7, 8 × 8 and
//! 10 × 6 (connect 4) under a node budget per move (deterministic, no clock): each game starts
//! with a few random plies (seeded, so that the games differ), then the engine plays both
//! sides with its tables kept between moves, as the bot's would be. For every ply it records
//! whether the choice was proven (source `"solver"`: the solver found the weak value and a
//! move keeping it within the budget) and how many cells were empty.
//!
//! Prints, per size: per game, the empty cells at the first ply of the final all-proven
//! stretch (the game's "proven from" point) and the plies played; then per count of empty
//! cells (in bands), the share of proven choices.
//!
//! `cargo run --release -p kibitz-connect4 --features research --example big_selfplay --
//!  [--nodes N | --clock] [--threads T] [--games G] [--random-plies R] [--sizes 9x7,8x8,10x6]`
//!
//! `--clock` plays every move on the bot's clock instead of a node budget (the contest's
//! [`kibitz_search::clock::CONNECT4`]: soft 125 ms, hard 150 ms of a 250 ms reply; wall time,
//! so run it on an idle machine, e.g. under `flock /work/measure.lock nice -n -5`);
//! `--threads T` proves on T threads ([`Engine::with_threads`]). The same seeds give the
//! same random openings at any setting, so `--threads 1` and `--threads 2` compare.
//!
//! Default 1,200,000 nodes: the bot's solver phase gets about 100 ms of a 250 ms move, and
//! the solver searches about 11.8 M nodes per CPU second (`keep_budget`).
//!
//! Results at 1,200,000 nodes, 6 games per size, 4 random plies (185 s CPU in all): every
//! choice proven from 35 empty cells down on 9 × 7 (32–35 empty: 20/20; 36–39: 18/20), from
//! 39 down on 8 × 8 (36–39: 24/24) and from 31 down on 10 × 6 (32–35: 15/16); about half
//! proven at 40–43 empty (9 × 7 11/20, 8 × 8 14/24, 10 × 6 5/18), few beyond. The final
//! all-proven stretch of a game starts at a median of 46 (9 × 7), 43 (8 × 8) and 42
//! (10 × 6) empty cells.
//!
//! Results on the bot's clock (`--clock`, issue 39 item 3; two runs per thread count, 4 and
//! 8 games per size, same seeds, under `flock /work/measure.lock nice -n -5`, no hog),
//! proven choices 1 thread → 2 threads: 9 × 7 at 40–47 empty 24/80 → 35/79, at 36–39
//! 27/36 → 28/34; 8 × 8 at 40–47 37/96 → 50/96, at 36–39 35/42 → 43/47; 10 × 6 at 40–47
//! 31/68 → 29/68, at 36–39 23/24 → 20/26. Median "proven from" per run: 9 × 7 45 / 42 →
//! 48 / 44, 8 × 8 41 / 44 → 47 / 43, 10 × 6 56 / 54 → 56 / 46 (a few games end in a proven
//! win right after the random plies). Two threads prove about 2–4 empty cells further from
//! the end on 9 × 7 and 8 × 8, nothing measurable on 10 × 6: small samples, the games part
//! ways at the first different move. At the node budget (`--nodes 1200000`, 2 games on
//! 8 × 8, CPU time by `/usr/bin/time`): 1 thread proved from 41 and 44 empty cells (25.5 s
//! user CPU for 95 engine plies), 2 threads (the limit counting the main thread's nodes)
//! from 45 and 46 (35.0 s for 91 plies: the helper works only in the parallel part of the
//! root tests).
use kibitz_connect4::{Board, Engine, TimeControl};
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;

/// Settings from the command line.
struct Args {
    nodes: u64,
    /// Play on the bot's clock (wall time) instead of `nodes`.
    clock: bool,
    threads: usize,
    games: usize,
    random_plies: usize,
    sizes: Vec<(usize, usize)>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        nodes: 1_200_000,
        clock: false,
        threads: 1,
        games: 4,
        random_plies: 4,
        sizes: vec![(9, 7), (8, 8), (10, 6)],
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        let num = |v: String| v.parse::<u64>().map_err(|e| format!("{flag} {v:?}: {e}"));
        match flag.as_str() {
            "--nodes" => a.nodes = num(value()?)?,
            "--clock" => a.clock = true,
            "--threads" => a.threads = num(value()?)?.clamp(1, 64) as usize,
            "--games" => a.games = num(value()?)? as usize,
            "--random-plies" => a.random_plies = num(value()?)? as usize,
            "--sizes" => {
                a.sizes = value()?
                    .split(',')
                    .map(|s| {
                        let (w, h) = s
                            .split_once('x')
                            .ok_or_else(|| format!("--sizes: {s:?} is not WxH"))?;
                        let p = |x: &str| x.parse::<usize>().map_err(|e| format!("{s:?}: {e}"));
                        Ok((p(w)?, p(h)?))
                    })
                    .collect::<Result<_, String>>()?
            }
            other => {
                return Err(format!(
                    "unknown flag {other:?}; flags: --nodes N --clock --threads T --games G \
                     --random-plies R --sizes WxH,WxH…"
                ))
            }
        }
    }
    Ok(a)
}

/// One self-play game: per ply (after the random opening) the empty cells before the move
/// and whether the choice was proven.
fn game(w: usize, h: usize, a: &Args, seed: u64) -> Result<Vec<(usize, bool)>, String> {
    let mut engine = Engine::with_threads(w, h, 4, 64, a.threads).map_err(|e| e.to_string())?;
    let budget = kibitz_search::clock::CONNECT4.move_budget();
    if !a.clock {
        engine.set_node_limit(Some(a.nodes));
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut board = Board::<u128>::new(w, h, 4).map_err(|e| e.to_string())?;
    let mut history = Vec::new();
    let mut plies = Vec::new();
    let inf = TimeControl::infinite();
    while !board.is_over() {
        let legal = board.legal_moves();
        let column = if history.len() < a.random_plies {
            legal[rng.random_range(0..legal.len())]
        } else {
            let tc = if a.clock {
                TimeControl::new(budget.soft, budget.hard)
            } else {
                inf.clone()
            };
            let c = engine.choose(&history, &tc, None);
            plies.push((w * h - history.len(), c.source == "solver"));
            c.column
        };
        board
            .play(column)
            .map_err(|e| format!("{w}×{h}: engine played {column}: {e}"))?;
        history.push(column);
    }
    Ok(plies)
}

fn main() -> Result<(), String> {
    let a = parse_args()?;
    let per_move = if a.clock {
        let b = kibitz_search::clock::CONNECT4.move_budget();
        format!("the bot's clock (soft {:?}, hard {:?})", b.soft, b.hard)
    } else {
        format!("{} nodes", a.nodes)
    };
    println!(
        "{per_move} per move · {} thread(s) · {} games per size · {} random plies",
        a.threads, a.games, a.random_plies
    );
    for &(w, h) in &a.sizes {
        // Empty cells (band of 4) → (proven, plies).
        let mut bands: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
        let mut from = Vec::new();
        for g in 0..a.games {
            let plies = game(w, h, &a, (w * 100 + h * 10 + g) as u64)?;
            // The empty cells at the first ply of the final all-proven stretch.
            let tail = plies.iter().rev().take_while(|p| p.1).count();
            let proven_from = if tail == 0 {
                0
            } else {
                plies[plies.len() - tail].0
            };
            println!(
                "{w}×{h} game {g}: {} plies by the engine, proven from {proven_from} empty \
                 cells on ({} of its plies proven)",
                plies.len(),
                plies.iter().filter(|p| p.1).count()
            );
            from.push(proven_from);
            for &(empty, proven) in &plies {
                let e = bands.entry(empty / 4 * 4).or_default();
                e.0 += proven as usize;
                e.1 += 1;
            }
        }
        from.sort_unstable();
        println!(
            "{w}×{h}: proven from (empty cells, per game, sorted) {from:?}; median {}",
            from.get(from.len() / 2).copied().unwrap_or(0)
        );
        for (band, (p, n)) in bands.iter().rev() {
            println!("{w}×{h} empty {band:2}–{:2}: {p:3}/{n:3} proven", band + 3);
        }
    }
    Ok(())
}
