//! Research example (issue 39): one test set solved at one or more threads, every position
//! from a cleared table, as `kibitz connect4 bench` does, without building the whole
//! `kibitz` binary; with the parallel solver's research counters ([`ParStats`]).
//!
//! `cargo run --release -p kibitz-connect4 --features research --example par_bench -- FILE LIMIT THREADS
//! [--weak] [NAME=VALUE ...]` (the names are [`SolverConfig`]'s fields listed in `set`).
//! Prints one line: positions, wrong scores, mean wall time and process CPU time per
//! position, mean nodes, and with more than one thread the counters.

use kibitz_connect4::solver::parallel::{ParStats, ParallelSolver};
use kibitz_connect4::{Board, Geometry, Solver, SolverConfig, TimeControl};
use kibitz_search::time::process_cpu;
use std::time::{Duration, Instant};

/// Sets the solver tunable `name` to `v`.
fn set(c: &mut SolverConfig, name: &str, v: u64) -> Result<(), String> {
    match name {
        "hash_mb" => c.hash_mb = v as usize,
        "abdada_min_empty" => c.abdada_min_empty = v.min(u32::MAX as u64) as u32,
        "abdada_first_min_empty" => c.abdada_first_min_empty = v.min(u32::MAX as u64) as u32,
        "helper_mirror" => c.helper_mirror = v != 0,
        "parallel_check_every" => c.parallel_check_every = v,
        "abdada_min_index" => c.abdada_min_index = v.min(64) as u32,
        "serial_nodes" => c.serial_nodes = v,
        "split_windows" => c.split_windows = v != 0,
        "split_root" => c.split_root = v != 0,
        "grow_table" => c.grow_table = v != 0,
        "history" => c.history = v != 0,
        _ => return Err(format!("unknown parameter {name:?}")),
    }
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        return Err("usage: par_bench FILE LIMIT THREADS [--weak] [NAME=VALUE ...]".into());
    }
    let text = std::fs::read_to_string(&args[0]).map_err(|e| format!("{}: {e}", args[0]))?;
    let limit: usize = args[1].parse().map_err(|e| format!("LIMIT: {e}"))?;
    let threads: usize = args[2].parse().map_err(|e| format!("THREADS: {e}"))?;
    let mut weak = false;
    let mut config = SolverConfig::default();
    for a in &args[3..] {
        if a == "--weak" {
            weak = true;
            continue;
        }
        let (n, v) = a.split_once('=').ok_or(format!("{a:?}: want NAME=VALUE"))?;
        let v: u64 = v.parse().map_err(|e| format!("{a}: {e}"))?;
        set(&mut config, n, v)?;
    }
    let geo = Geometry::<u64>::new(7, 6, 4).map_err(|e| e.to_string())?;
    let mut one = (threads <= 1).then(|| Solver::new(geo, config.clone()));
    let mut many = (threads > 1).then(|| ParallelSolver::new(geo, config.clone(), threads));
    let tc = TimeControl::infinite();
    let (mut n, mut wrong, mut nodes) = (0usize, 0usize, 0u64);
    let (mut wall, mut cpu) = (Duration::ZERO, Duration::ZERO);
    let mut stats = ParStats::default();
    for line in text.lines().take(limit) {
        let mut it = line.split_whitespace();
        let (Some(moves), Some(score)) = (it.next(), it.next()) else {
            continue;
        };
        let expected: i32 = score.parse().map_err(|e| format!("{line}: {e}"))?;
        let expected = if weak { expected.signum() } else { expected };
        let b = Board::<u64>::from_digits(7, 6, 4, moves).map_err(|e| format!("{line}: {e}"))?;
        let (lo, hi) = if weak { (-1, 1) } else { (i32::MIN, i32::MAX) };
        let (c0, t0);
        let got = if let Some(s) = one.as_mut() {
            s.clear();
            s.reset_nodes();
            (c0, t0) = (process_cpu(), Instant::now());
            let r = s.solve_window(&b, lo, hi, &tc);
            nodes += s.nodes();
            r
        } else {
            let s = many.as_mut().expect("one of the two");
            s.clear();
            s.reset_nodes();
            s.reset_stats();
            (c0, t0) = (process_cpu(), Instant::now());
            let r = s.solve_window(&b, lo, hi, &tc);
            nodes += s.nodes();
            let st = s.stats();
            stats.tests += st.tests;
            stats.parallel_tests += st.parallel_tests;
            stats.serial_time += st.serial_time;
            stats.parallel_time += st.parallel_time;
            stats.serial_nodes += st.serial_nodes;
            stats.answer_nodes += st.answer_nodes;
            stats.other_nodes += st.other_nodes;
            stats.main_answered += st.main_answered;
            stats.stop_wait += st.stop_wait;
            stats.defers += st.defers;
            stats.busy_nodes += st.busy_nodes;
            stats.first_busy += st.first_busy;
            stats.busy_seen += st.busy_seen;
            stats.dup_nodes += st.dup_nodes;
            stats.grow_time += st.grow_time;
            stats.spawn_time += st.spawn_time;
            stats.start_delay += st.start_delay;
            r
        };
        wall += t0.elapsed();
        cpu += process_cpu().saturating_sub(c0);
        n += 1;
        if got != Some(expected) {
            wrong += 1;
            eprintln!("WRONG {moves}: got {got:?}, expected {expected}");
        }
    }
    let per = |d: Duration| d.as_secs_f64() * 1e3 / n.max(1) as f64;
    print!(
        "t{threads} n {n} wrong {wrong} wall {:.2} ms cpu {:.2} ms nodes {:.0}",
        per(wall),
        per(cpu),
        nodes as f64 / n.max(1) as f64
    );
    if threads > 1 {
        let st = &stats;
        print!(
            " | grow {:.3} ms spawn {:.3} ms startdelay {:.3} ms par {:.2} ms | cp {:.0} | stopwait {:.3} ms | tests {} par {} serial {:.1}% wall, ser_nodes {:.0} ans {:.0} other {:.0} \
             main_first {} defers {} busy_nodes {} first_busy {} busy_seen {} dup_nodes {:.0}",
            per(st.grow_time),
            per(st.spawn_time),
            per(st.start_delay),
            per(st.parallel_time),
            (st.serial_nodes + st.answer_nodes) as f64 / n.max(1) as f64,
            per(st.stop_wait),
            st.tests,
            st.parallel_tests,
            100.0 * st.serial_time.as_secs_f64() / wall.as_secs_f64().max(1e-9),
            st.serial_nodes as f64 / n.max(1) as f64,
            st.answer_nodes as f64 / n.max(1) as f64,
            st.other_nodes as f64 / n.max(1) as f64,
            st.main_answered,
            st.defers,
            st.busy_nodes,
            st.first_busy,
            st.busy_seen,
            st.dup_nodes as f64 / n.max(1) as f64
        );
    }
    println!();
    if wrong > 0 {
        return Err(format!("{wrong} wrong"));
    }
    Ok(())
}
