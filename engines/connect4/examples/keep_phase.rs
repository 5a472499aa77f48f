//! Research (issue 39, clock audit): the engine's move choice phase by phase at node budgets
//! for the positions given, to see which phase a clock-lost choice depends on.
//!
//! For every position: the root solve with `SOLVER` nodes (a fresh 48 MiB solver, the book's
//! bounds, like [`kibitz_connect4::Engine`]'s solver phase), the resumed solve with `RESUME`
//! more, the fallback's candidates with each move's exact value, then the heuristic search
//! among the candidates (the engine's configuration) at each of the node budgets `H,H,...`
//! (and optionally wall-clock budgets), with its pick and whether that keeps the value, next
//! to the first candidate in the solver's static order; a tally at the end.
//!
//! `cargo run --release -p kibitz-connect4 --features research --example keep_phase --
//!  SOLVER RESUME H,H,... MOVES...` (`KEEP_PHASE_MS=5,10` adds wall-clock budgets,
//!  `KEEP_PHASE_VERBOSE=1` prints every move's bounds; book positions are skipped)
use kibitz_connect4::book::Book;
use kibitz_connect4::engine::fallback_search_config;
use kibitz_connect4::eval::SearchPos;
use kibitz_connect4::params::EngineParams;
use kibitz_connect4::root::{solve_root, MoveBounds};
use kibitz_connect4::{Board, Geometry, Solver, SolverConfig, TimeControl};
use kibitz_search::alphabeta::{SearchConfig, Searcher};
use std::time::Duration;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [n1, n2, hs, positions @ ..] = &args[..] else {
        return Err("usage: keep_phase SOLVER RESUME H,H,... MOVES...".into());
    };
    let n1: u64 = n1.parse().map_err(|e| format!("SOLVER {n1:?}: {e}"))?;
    let n2: u64 = n2.parse().map_err(|e| format!("RESUME {n2:?}: {e}"))?;
    let hs: Vec<u64> = hs
        .split(',')
        .map(|h| h.parse().map_err(|e| format!("H {h:?}: {e}")))
        .collect::<Result<_, _>>()?;
    let geo = Geometry::<u64>::new(7, 6, 4).map_err(|e| e.to_string())?;
    let inf = TimeControl::infinite();
    let book = Book::embedded();
    let p = EngineParams::default();
    let mut oracle = Solver::new(
        geo,
        SolverConfig {
            hash_mb: 256,
            grow_table: false,
            ..Default::default()
        },
    );
    oracle.set_book(Some(&book));
    // `KEEP_PHASE_MS=5,10` adds wall-clock heuristic budgets (noisy; off by default).
    let wall: Vec<u64> = std::env::var("KEEP_PHASE_MS")
        .unwrap_or_default()
        .split(',')
        .filter_map(|x| x.parse().ok())
        .collect();
    // Fallback positions; kept by the static order; kept per heuristic budget.
    let mut tally = (0usize, 0usize, vec![0usize; hs.len()]);
    let verbose = std::env::var_os("KEEP_PHASE_VERBOSE").is_some();
    for moves in positions {
        let b = Board::<u64>::from_digits(7, 6, 4, moves).map_err(|e| format!("{moves}: {e}"))?;
        if book.lookup(&b).is_some() {
            continue;
        }
        let mut s = Solver::new(geo, SolverConfig::for_engine(64));
        let mut mb = MoveBounds::new(&s, &b);
        mb.apply_book(&book, &b);
        // What a cold engine knows: the book's value two plies earlier (`known_value`).
        let known = (moves.len() >= 2)
            .then(|| Board::<u64>::from_digits(7, 6, 4, &moves[..moves.len() - 2]).ok())
            .flatten()
            .and_then(|g| book.lookup(&g))
            .filter(|e| {
                e.column as usize + 1 == (moves.as_bytes()[moves.len() - 2] - b'0') as usize
            })
            .and_then(|e| {
                if e.flags & kibitz_connect4::book::EXACT != 0 {
                    Some(e.score as i32)
                } else {
                    (e.score >= 0).then_some((e.score as i32).signum())
                }
            });
        s.set_node_limit(Some(n1));
        let r1 = solve_root(&mut s, &b, &mut mb, known, &inf, &inf);
        let after1 = mb.candidates(known);
        let mut r2 = None;
        if r1.is_none() {
            s.set_node_limit(Some(s.nodes() + n2));
            let best = mb.best_proven().map(|v| v.clamp(-1, 1));
            let k = match (known, best) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            r2 = solve_root(&mut s, &b, &mut mb, k, &inf, &inf);
        }
        let cands = mb.candidates(known);
        let v = oracle.solve_window(&b, -1, 1, &inf).unwrap_or(0);
        // Whether each legal move keeps the value (one null window each, any keeps a loss).
        let keep: Vec<bool> = (0..7)
            .map(|c| {
                mb.is_legal(c) && (v < 0 || oracle.move_at_least(&b, c, v, &inf).unwrap_or(false))
            })
            .collect();
        println!(
            "{moves} value {v} known {known:?}: solve {r1:?} candidates {:?}; resume {r2:?} \
             nodes {} candidates {:?}",
            after1.iter().map(|c| c + 1).collect::<Vec<_>>(),
            s.nodes(),
            cands.iter().map(|c| c + 1).collect::<Vec<_>>()
        );
        if verbose {
            for c in mb.legal().collect::<Vec<_>>() {
                println!(
                    "  col {}: bounds [{}, {}] keeps {}",
                    c + 1,
                    mb.lo[c],
                    mb.hi[c],
                    keep[c]
                );
            }
        }
        if r1.is_some() || r2.is_some() || cands.len() < 2 {
            continue;
        }
        let keeps = |c: usize| keep[c];
        tally.0 += 1;
        let first = s
            .ordered_moves(&b)
            .into_iter()
            .find(|c| cands.contains(c))
            .unwrap_or(cands[0]);
        tally.1 += usize::from(keeps(first));
        let (cur, mask) = b.bitboards();
        let root = SearchPos::new(geo, cur, mask, b.moves_played() as u32)
            .with_root_filter(&cands)
            .with_weights(p.weights);
        let config = SearchConfig {
            lmr: p.lmr,
            knobs: p.search,
            ..fallback_search_config(16)
        };
        let mut line = format!(
            "  static order: {}{}; heuristic:",
            first + 1,
            if keeps(first) { "+" } else { "-" }
        );
        for (i, &h) in hs.iter().enumerate() {
            let r = Searcher::new(SearchConfig {
                max_nodes: h,
                ..config.clone()
            })
            .search(&root, &inf, |_| {});
            let c = r.best.map_or(cands[0], SearchPos::<u64>::column);
            tally.2[i] += usize::from(keeps(c));
            line += &format!(
                " {h}:{}{} d{}",
                c + 1,
                if keeps(c) { "+" } else { "-" },
                r.depth
            );
        }
        for ms in wall.iter().copied() {
            let d = Duration::from_millis(ms);
            let r = Searcher::new(config.clone()).search(&root, &TimeControl::new(d, d), |_| {});
            let c = r.best.map_or(cands[0], SearchPos::<u64>::column);
            line += &format!(
                " {ms}ms:{}{} d{} {}n",
                c + 1,
                if keeps(c) { "+" } else { "-" },
                r.depth,
                r.nodes
            );
        }
        println!("{line}");
    }
    println!(
        "fallback positions {}: kept by the static order {}; by the heuristic {}",
        tally.0,
        tally.1,
        hs.iter()
            .zip(&tally.2)
            .map(|(h, k)| format!("{h}: {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}
