//! Research (issue 39): what the heuristic fallback thinks of every root move, next to the
//! exact values (`keep_probe` prints those), for positions where the fallback gave a value
//! away.
//!
//! For every position: the heuristic search's choice over all moves (the engine's search
//! configuration, a node budget instead of the clock), then each move's score from the
//! search of the position after it (negated, so the mover's view), with its depth.
//!
//! `cargo run --release -p kibitz-connect4 --example keep_heur -- NODES MOVES...`
//!
//! Findings (800,000 nodes): the search ranks a value-keeping move first in none of the four
//! "search" losses of the audit; e.g. `6621166225`, where only column 5 draws, scores
//! column 5 -87 (depth 15) and the losing column 2 +19: the losses there come 25 stones
//! later, far beyond the search's horizon.
use kibitz_connect4::engine::fallback_search_config;
use kibitz_connect4::eval::SearchPos;
use kibitz_connect4::{Board, Geometry, TimeControl};
use kibitz_search::alphabeta::{SearchConfig, Searcher};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((nodes, positions)) = args.split_first() else {
        return Err("usage: keep_heur NODES MOVES...".into());
    };
    let nodes: u64 = nodes.parse().map_err(|e| format!("NODES {nodes:?}: {e}"))?;
    let geo = Geometry::<u64>::new(7, 6, 4).map_err(|e| e.to_string())?;
    // The engine's fallback search (see `Engine`), limited by nodes.
    let config = SearchConfig {
        max_nodes: nodes,
        ..fallback_search_config(16)
    };
    let inf = TimeControl::infinite();
    for moves in positions {
        let b = Board::<u64>::from_digits(7, 6, 4, moves).map_err(|e| format!("{moves}: {e}"))?;
        let (cur, mask) = b.bitboards();
        let root = SearchPos::new(geo, cur, mask, b.moves_played() as u32);
        let r = Searcher::new(config.clone()).search(&root, &inf, |_| {});
        let best = r.best.map_or(0, |m| SearchPos::<u64>::column(m) + 1);
        let mut line = format!("{moves}: plays {best} ({} at depth {});", r.score, r.depth);
        for c in b.legal_moves() {
            let mut child = b;
            if child.play(c).is_err() {
                continue;
            }
            if child.is_over() {
                line += &format!(" {}:ends", c + 1);
                continue;
            }
            let (cur, mask) = child.bitboards();
            let node = SearchPos::new(geo, cur, mask, child.moves_played() as u32);
            let r = Searcher::new(config.clone()).search(&node, &inf, |_| {});
            line += &format!(" {}:{}/d{}", c + 1, -r.score, r.depth);
        }
        println!("{line}");
    }
    Ok(())
}
