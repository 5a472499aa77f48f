//! Research (issue 39): how many solver nodes the bot's thinker gets per move, so that the
//! keep-the-value audit (`keep_audit`) can use a deterministic node budget no larger than it.
//!
//! For test-set positions outside the book, the solver phase runs exactly as in
//! [`kibitz_connect4::Engine::choose`] under the contest bot's clock
//! ([`kibitz_search::clock::CONNECT4`]: soft 125 ms, hard 150 ms; the solver gets
//! `solver_share` of the soft budget, 100 ms), on a solver configured like the engine's
//! (48 MiB of a 64 MiB engine, no table growth). Only the positions the solver does not
//! finish count: they used the whole phase. Prints nodes per move (min, p10, median) and
//! nodes per CPU second (thread CPU time, `getrusage(RUSAGE_THREAD)`).
//!
//! Run it like the bot runs, with one other core busy:
//! `yes > /dev/null & flock /work/measure.lock nice -n -5 keep_budget SET COUNT`.
//!
//! Results (session 14, first 300 lines of Test_L1_R3, the engine without and with the near
//! table alternated, three runs each; about 250 positions used the whole phase): without,
//! nodes per move p10 438k / 446k / 426k, median 475k / 492k / 463k, 4.6–5.1 M nodes per CPU
//! second; with it (`near_empty` 16, today's engine), p10 713k / 705k / 676k, median 803k /
//! 786k / 766k, 7.8–8.6 M nodes per CPU second. So the same phase searches 1.6× the nodes,
//! and the node audits and `tests/keep.rs` moved their budget from 800,000 to 1,280,000.
//! (Earlier machines gave the phase more nodes; the ratio is what carries over.)
use kibitz_connect4::book::Book;
use kibitz_connect4::params::EngineParams;
use kibitz_connect4::root::{solve_root, MoveBounds};
use kibitz_connect4::{Board, Geometry, Solver, SolverConfig, TimeControl};
use kibitz_search::clock::CONNECT4;
use kibitz_search::time::thread_cpu;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [set, count] = &args[..] else {
        return Err("usage: keep_budget SET COUNT".into());
    };
    let count: usize = count.parse().map_err(|e| format!("COUNT {count:?}: {e}"))?;
    let text = std::fs::read_to_string(set).map_err(|e| format!("{set}: {e}"))?;
    let geo = Geometry::<u64>::new(7, 6, 4).map_err(|e| e.to_string())?;
    let book = Book::embedded();
    let budget = CONNECT4.move_budget();
    let share = EngineParams::default().solver_share;
    // The engine's solver phase: `share` of the soft budget, capped by the hard deadline.
    let phase = budget.soft.mul_f64(share).min(budget.hard);
    let mut solver = Solver::new(geo, SolverConfig::for_engine(64));
    let mut spent = Vec::new();
    let (mut cpu, mut wall) = (0.0, 0.0);
    for line in text.lines().take(count) {
        let moves = line.split_whitespace().next().unwrap_or("");
        let Ok(b) = Board::<u64>::from_digits(7, 6, 4, moves) else {
            continue;
        };
        if book.lookup(&b).is_some() {
            continue;
        }
        solver.clear();
        solver.reset_nodes();
        let mut mb = MoveBounds::new(&solver, &b);
        mb.apply_book(&book, &b);
        let tc = TimeControl::new(phase, phase);
        let c0 = thread_cpu().as_secs_f64();
        let r = solve_root(&mut solver, &b, &mut mb, None, &tc, &tc);
        let dc = thread_cpu().as_secs_f64() - c0;
        if r.is_none() {
            spent.push(solver.nodes());
            cpu += dc;
            wall += tc.elapsed().as_secs_f64();
        }
    }
    spent.sort_unstable();
    let n = spent.len();
    if n == 0 {
        return Err("no position used the whole phase".into());
    }
    let at = |q: f64| spent[((n - 1) as f64 * q) as usize];
    println!(
        "solver phase {} ms; {n} positions used it all: nodes min {} p10 {} median {} max {}; \
         {:.2} M nodes per CPU s; CPU/wall {:.2}",
        phase.as_millis(),
        spent[0],
        at(0.1),
        at(0.5),
        spent[n - 1],
        spent.iter().sum::<u64>() as f64 / cpu / 1e6,
        cpu / wall
    );
    Ok(())
}
