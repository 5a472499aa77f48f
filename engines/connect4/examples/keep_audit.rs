//! Audit (research, issue 39): at a fixed node budget, how often does the engine's choice
//! keep the value of a test-set position? Per stone count: positions, kept, lost, and where
//! the choices came from (book / solver / bounds / search), over the first `--lines` lines of
//! each set.
//!
//! Each position gets a fresh (cleared) engine with the given node budget
//! ([`Engine::set_node_limit`]), so the audit is deterministic and no warmer than a bot
//! meeting the position cold. The exact solver judges every choice with one null-window test
//! of the chosen move against the sign of the line's known score: "does the move score at
//! least 1" for a won position, "at least 0" for a drawn one (any move keeps a loss). The
//! judge keeps one table for the whole run and, unless `--no-oracle-book`, uses the opening
//! book inside its tree (a book entry bounds a node without search), which makes the
//! judgement of early positions cheap.
//!
//! `cargo run --release -p kibitz-connect4 --features research --example keep_audit --
//!  [--nodes N] [--lines L] [--sets FILE,FILE…] [--min-stones S] [--oracle-hash MB]
//!  [--no-oracle-book]
//!  [--param NAME=V]…` (engine tunables, [`kibitz_connect4::params::EngineParams`])
//!
//! Defaults: 1,280,000 nodes (what the bot's solver phase searches per move, see
//! `keep_budget`; 800,000 before the engine took the near table, which makes a node about
//! 1.6× cheaper, so the results below at 800k are from the engine without it), 1,000 lines, the six sets in `data/connect4/`. Every lost line is printed
//! (`lost SET MOVES value V: played C (SOURCE)`), and every position
//! (`pos SET MOVES SCORE STONES SOURCE kept|lost NODES`, for comparing two runs; NODES above
//! the budget marks a position whose first root solve ran out, the only ones a change of the
//! resumed solve or the fallback can alter), then the table.
//! A set file may be any list of `MOVES SCORE` lines (e.g. the fallback positions of a
//! previous run, to re-judge only the choices a change of the fallback can alter);
//! `--min-stones 10` keeps only the positions the target is about. The flags, the
//! judge and the table are shared with `keep_clock` (`common/mod.rs`), the same audit under the
//! bot's real clock (its results: the same count within noise, see there).
//!
//! Results at 800,000 nodes, 6 × 1,000 lines (803 s CPU): before the resumed solve
//! (`resume_share` 0) 5,869 / 6,000 kept, 4,621 / 4,629 from 10 stones on (8 lost: 3 "bounds",
//! a proven draw played where a win was open; 5 "search"). With it (default 0.8; only the
//! 901 fallback positions re-judged, the others' choices cannot change) 4,622 / 4,629 from
//! 10 stones on; still lost: `427761773521`, `44561362221`, `46217547345` (bounds),
//! `217124624716`, `7321565577`, `6621166225`, `2751641731` (search).
//! With the root solve going on from the round it stopped in (and the win question starting
//! at the cap that proved the draw): 4,624 / 4,629 from 10 stones on (`427761773521`,
//! `46217547345` fixed, none broken; every position of 10 stones or more re-run, and all
//! lines of L3_R1, L2_R1, L2_R2, L1_R1 and L1_R2). Still lost: `44561362221` (bounds: only
//! column 6 wins, its proof needs about 560k nodes after the draw's and comes fifth in the
//! solver's order), and the four "search" positions, where no move is proven either way
//! within the budget (the cheapest proof that keeps the value costs 250k–4.4M nodes from a
//! fresh table and is not among the first moves the rounds reach).
//!
//! Every position of 10 stones or more of the six sets (4,629; `--lines 100000` on a set file
//! of those lines; about 90 s CPU per run), kept per budget: 400k 4,611 (lost 7/6/3/1/1 at
//! 10–14 stones), 800k 4,624 (3/1/1 at 10–12), 1.6M 4,626 (2 at 10, 1 at 12;
//! `217124624716` and `6621166225` are lost even then, `3651136162` only then).
//! What the five cost (`keep_grand`, fresh table): the root's weak solve 0.86M–6.4M nodes;
//! `6621166225` keeps its draw only by column 5, whose proof costs 6.5M (3.7M for one reply)
//! and whose elimination costs 1.5M–7.5M per losing move in the solver's reply order (reply
//! 5 refutes five of them for 9k–114k each, but comes third); `44561362221` needs the draw
//! proven and then column 6's win (557k) on top. The heuristic fallback (`keep_heur`) ranks
//! no value-keeping move first in any of the four "search" losses.
//! Tried on all 4,629 positions at 800k and not kept (kept from 10 stones, base 4,624):
//! - first round cap 64k instead of 16k: 4,625 (`2751641731` kept), but 4,612 vs 4,611 at
//!   400k and 4,625 vs 4,626 at 1.6M: noise, not a gain; growth 8× per round: 4,622;
//! - each move's test split into one test per opponent reply (a depth-2 breadth-first
//!   scheme, cheap refutations by a late reply), with the cap shared among the replies:
//!   4,621; plus "killer" replies (those that refuted a sibling) first with the whole cap and
//!   a killer pass per round: 4,618 (proofs, which need every reply, get slower: `427761773521`,
//!   `6133112551`, `5425417144`, `2147756677465` lost);
//! - a quick 2-ply probe (1k–2k nodes per reply) ordering the rounds by replies proven:
//!   4,620–4,621 (orders `217124624716`'s column 1 and `7321565577`'s column 2 first, but
//!   its cost breaks others);
//! - on the 26 "search" positions: the solver's static order instead of the heuristic
//!   search 18 kept (search 22); evaluation weights (`--param`) trade one loss for another
//!   (best `segment=5`: 23).
//!
//! - a learned 7 × 6 evaluation (`learn_fit`, session 10): in the fallback search 4,621;
//!   ordering the root solve (`learned_order=1`) 4,625 (4,614 vs 4,611 at 400k).
//! - (session 13) a weak solve of the whole position first, its value then the known one
//!   for the rounds (which then find the move on a warm table): 4,622 with the whole
//!   budget, 4,622 with 400k of it. It keeps `427761773521` (the weak solve ends at 668k
//!   nodes, the move follows in 3 tests) but not `7321565577` (the weak solve does not end
//!   in 800k), and the positions it cannot finish lose the rounds' bounds, so the fallback
//!   picks among all seven moves (24 "search" choices at 10 stones against 18). First round
//!   cap 4k: 4,623 (64k again 4,625).
//!
//! With the best possible order (the winning / drawing move first, by hand: not a fix),
//! four of the five keep their value at 800k; `6621166225` does not.
//!
//! The engine with the near table (session 14), every position of 10 stones or more at
//! 1,280,000 nodes: 4,625 / 4,629 (main without it at 800k: 4,624), 46 fallback choices
//! (66). Lost: `217124624716` (bounds), `44561362221` (bounds), `6621166225` and `5656116574`
//! (search). Without the resumed solve (`resume_share` 0): 4,624, `7321565577` lost too.
mod common;

use common::{Judge, Table};
use kibitz_connect4::{Engine, TimeControl};

fn main() -> Result<(), String> {
    let a = common::parse_args(true)?;
    let inf = TimeControl::infinite();
    let mut judge = Judge::new(&a)?;
    let mut engine = Engine::with_threads(7, 6, 4, 64, a.threads).map_err(|e| e.to_string())?;
    engine.set_params(a.params);
    engine.set_node_limit(Some(a.nodes));
    let mut table = Table::default();
    for case in common::cases(&a)? {
        engine.clear();
        let c = engine.choose(&case.history, &inf, None);
        let kept = judge.keeps(&case, c.column)?;
        let (set, moves) = (&case.set, &case.moves);
        println!(
            "pos {set} {moves} {} {} {} {} {}",
            case.score,
            moves.len(),
            c.source,
            if kept { "kept" } else { "lost" },
            c.nodes
        );
        table.add(moves.len(), c.source, kept);
        if !kept {
            println!(
                "lost {set} {moves} value {}: played {} ({})",
                case.score.signum(),
                c.column + 1,
                c.source
            );
        }
    }
    println!(
        "nodes {} · lines {} per set · {} sets",
        a.nodes,
        a.lines,
        a.sets.len()
    );
    table.print();
    Ok(())
}
