//! Research (issue 39, item 2): training data for the learned 7 × 6 evaluation
//! ([`kibitz_connect4::eval`]'s `learned` table, fitted by `learn_fit`).
//!
//! Plays semi-random games (each ply a random move among those that do not hand the
//! opponent an immediate win, 35 % of the time weighted towards the centre, 35 % of the
//! time the solver's static first choice), stops each at a random stone count in
//! `--min..=--max` (the "parent"), and labels every child of the parent that neither wins at
//! once nor loses at once by the exact weak solve (win / draw / loss for the side to move in
//! the child, `solve_window(child, -1, 1)`, at most `--cap` nodes; children over the cap are
//! dropped and counted). Positions of the six test sets, their children and their mirrors
//! are excluded, as parents and as children, so that the keep-the-value audit stays a
//! held-out test.
//!
//! Output (one line per child): `PARENT_DIGITS CHILD_COLUMN LABEL NODES` (1-based digits and
//! column, label from the child's side to move). Bulk data stays out of git.
//!
//! `cargo run --release -p kibitz-connect4 --features research --example learn_data --
//!  --parents N --seed S --out FILE [--min 9] [--max 23] [--cap 4000000]`
use kibitz_connect4::book::Book;
use kibitz_connect4::solver::loses_at_once;
use kibitz_connect4::{Board, Geometry, Solver, SolverConfig, TimeControl};
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::io::Write;

const SETS: [&str; 6] = ["L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3"];

/// Canonical keys (mirror-free) of every test-set position and of each of its children.
fn excluded() -> Result<HashSet<u64>, String> {
    let mut out = HashSet::new();
    for s in SETS {
        let path = format!("data/connect4/Test_{s}");
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        for line in text.lines() {
            let Some(moves) = line.split_whitespace().next() else {
                continue;
            };
            let b = Board::<u64>::from_digits(7, 6, 4, moves).map_err(|e| e.to_string())?;
            out.insert(b.canonical_key().0);
            for c in b.legal_moves() {
                let mut child = b;
                if child.play(c).is_ok() {
                    out.insert(child.canonical_key().0);
                }
            }
        }
    }
    Ok(out)
}

fn main() -> Result<(), String> {
    let mut parents = 1000usize;
    let mut seed = 1u64;
    let mut out_path = String::from("/work/m/c4learn/data.txt");
    let (mut min, mut max, mut cap) = (9usize, 23usize, 4_000_000u64);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let v = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let num = |v: &str| v.parse::<u64>().map_err(|e| format!("{flag} {v:?}: {e}"));
        match flag.as_str() {
            "--parents" => parents = num(&v)? as usize,
            "--seed" => seed = num(&v)?,
            "--out" => out_path = v,
            "--min" => min = num(&v)? as usize,
            "--max" => max = num(&v)? as usize,
            "--cap" => cap = num(&v)?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    let skip = excluded()?;
    let geo = Geometry::<u64>::new(7, 6, 4).map_err(|e| e.to_string())?;
    let mut solver = Solver::new(
        geo,
        SolverConfig {
            hash_mb: 512,
            grow_table: false,
            ..Default::default()
        },
    );
    solver.set_book(Some(&Book::embedded()));
    let inf = TimeControl::infinite();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&out_path).map_err(|e| format!("{out_path}: {e}"))?,
    );
    let (mut done, mut children, mut over_cap, mut held_out) = (0, 0u64, 0u64, 0u64);
    let start = std::time::Instant::now();
    while done < parents {
        let stones = rng.random_range(min..=max);
        let mut b = Board::<u64>::empty(geo);
        let mut digits = String::new();
        let mut ok = true;
        while b.moves_played() < stones {
            let legal = b.legal_moves();
            if legal.iter().any(|&c| b.is_winning_move(c)) {
                ok = false; // decided at once: not a useful parent
                break;
            }
            let safe: Vec<usize> = legal
                .iter()
                .copied()
                .filter(|&c| !loses_at_once(&b, c))
                .collect();
            if safe.is_empty() {
                ok = false;
                break;
            }
            let r: f64 = rng.random();
            let c = if r < 0.35 {
                let order = solver.ordered_moves(&b);
                order
                    .into_iter()
                    .find(|c| safe.contains(c))
                    .unwrap_or(safe[0])
            } else if r < 0.7 {
                let w: Vec<u32> = safe
                    .iter()
                    .map(|&c| 4 - (c as i32 - 3).unsigned_abs())
                    .collect();
                let total: u32 = w.iter().sum();
                let mut x = rng.random_range(0..total);
                let mut pick = safe[0];
                for (&c, &wc) in safe.iter().zip(&w) {
                    if x < wc {
                        pick = c;
                        break;
                    }
                    x -= wc;
                }
                pick
            } else {
                safe[rng.random_range(0..safe.len())]
            };
            b.play(c).map_err(|e| e.to_string())?;
            digits.push((b'1' + c as u8) as char);
        }
        if !ok || b.is_over() || b.legal_moves().iter().any(|&c| b.is_winning_move(c)) {
            continue;
        }
        if skip.contains(&b.canonical_key().0) {
            held_out += 1;
            continue;
        }
        for c in b.legal_moves() {
            if loses_at_once(&b, c) || b.is_winning_move(c) {
                continue;
            }
            let mut child = b;
            child.play(c).map_err(|e| e.to_string())?;
            if skip.contains(&child.canonical_key().0) {
                held_out += 1;
                continue;
            }
            solver.reset_nodes();
            solver.set_node_limit(Some(cap));
            let label = solver.solve_window(&child, -1, 1, &inf);
            solver.set_node_limit(None);
            match label {
                Some(v) => {
                    writeln!(out, "{digits} {} {v} {}", c + 1, solver.nodes())
                        .map_err(|e| e.to_string())?;
                    children += 1;
                }
                None => over_cap += 1,
            }
        }
        done += 1;
        if done % 200 == 0 {
            out.flush().map_err(|e| e.to_string())?;
            eprintln!(
                "{done} parents, {children} children, {over_cap} over cap, {held_out} held out, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    eprintln!(
        "done: {done} parents, {children} children, {over_cap} over cap, {held_out} held out, {:.0} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
