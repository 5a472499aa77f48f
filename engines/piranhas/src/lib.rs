//! kibitz-piranhas: rules, bitboard move generation, evaluation and alpha-beta player for
//! Piranhas (Software-Challenge Germany 2019), exactly as the official 19.2.1 server plays it.
//!
//! - [`board`]: colours, directions, moves, the board (two `u128` fish bitboards + Kraken).
//! - [`state`]: a position with turn counter and Zobrist hash; move validation with the
//!   server's error texts ([`RuleError`]).
//! - [`movegen`]: legal moves by line popcounts, perft.
//! - [`captures`]: both colours' capture sets in one line-parallel pass (the evaluation's
//!   hottest part); it also keeps the mover's capture moves for quiescence.
//! - [`swarm`] / [`result`]: swarms by bitwise flood fill, the official win evaluation.
//! - [`kraken`]: the 340 Kraken pairs and the official random placement.
//! - [`eval`] / [`search`]: the static evaluation and the alpha-beta [`Engine`] (through
//!   `kibitz_search`), the greedy baseline; [`weights`]: the named weights and their presets.
//! - [`agents`] / [`arena`]: every player as one `Agent` of [`game_impl::Piranhas`], built
//!   from a spec (`search:time=100,...`), and the in-process game loop that drives them.
//! - [`params`]: the tunables in the shared registry ([`param_specs`]).
//! - `tune` (feature `research`): Texel-style fit of the evaluation weights from self-play
//!   (`kibitz piranhas tune`).
//!
//! Coordinates are the official ones: x = column, y = row, UP = y + 1.
//!
//! Design notes:
//! - The board is three `u128` bitboards (bit x + 10·y). The state also keeps the fish count
//!   of each of the 58 lines, updated on every move, so a move distance is one table lookup;
//!   the path test is one mask from two precomputed rays. Swarms come from a bitwise 3×3
//!   dilation flood fill.
//! - Rules follow the 19.2.1 server (spec §§2–4): distances count both colours on the whole
//!   line without Kraken, opponent fish block, own fish and Kraken are jumped, the win check
//!   runs only after BLUE's moves, both connected with equal swarms plays on, 0 fish counts
//!   as connected, turn 60 ends by swarm size, no legal move loses.
//! - Search: `kibitz_search::alphabeta` (ID, PVS, TT, killers/history, quiescence on
//!   captures, LMR, null move except near the round limit). Time: the default budget is soft
//!   1 s / hard 1.5 s from the MoveRequest ([`search::DEFAULT_SOFT`],
//!   [`search::DEFAULT_HARD`]), well inside the server's 2 s; iterations predicted to end
//!   after the hard deadline are not started, the soft budget stretches while the best move
//!   is unstable or the score drops. `threads` > 1 is Lazy SMP over a shared lock-free table.
//! - Speed (issue #12): the evaluation's capture sets come from lines bucketed by kind and
//!   fish count, one constant shift per bucket ([`captures`]); swarm features are cached per
//!   colour bitboard; the hot bit-counting functions have `popcnt` copies chosen at run time
//!   (used when a build overrides the workspace's x86-64-v2). Pure speed-ups keep the bench
//!   signature.
//!   Issue 38: the search's win checks take connected / biggest swarm from the feature cache
//!   ([`eval::cached_result`], one decision in [`result::decide`]); BLUE's last move before
//!   the round limit is solved on bitboards ([`swarm`] summaries, no made positions); leaf
//!   evaluations are memoised per thread under their exact position. Same nodes, 1.67× the
//!   nodes per CPU second on turns 30–58 (`examples/late_bench.rs`), 1.03× before turn 30.
//!   Then a child's capture scan is its parent's with the lines through the move rescanned
//!   ([`captures`]), and features skip the `join` rings while its weight is 0: 1.18× before
//!   turn 30, 1.11× on turns 30–58, same nodes again. RED's last move and BLUE's answer
//!   (`end_plies=2`) are solved on bitboards too ([`endgame`]): 3.0× on turns 50–58, but at
//!   about equal CPU no stronger than the default `end_plies=1` in self-play screens.
//! - Evaluation weights live in [`EvalParams`] (named, settable with `--param name=value`);
//!   [`EvalParams::V1`] is the first evaluation, `v2` the default of 1305576 and `v4` today's,
//!   all kept to measure later versions against.
#![warn(missing_docs)]

pub mod agents;
pub mod arena;
pub mod bitboard;
pub mod board;
pub mod captures;
pub mod endgame;
pub mod error;
pub mod eval;
pub mod game_impl;
pub mod kraken;
mod leaf_cache;
pub mod movegen;
pub mod params;
mod popcnt;
pub mod result;
pub mod search;
pub mod state;
pub mod swarm;
#[cfg(feature = "research")]
pub mod tune;
pub mod weights;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, Color, Direction, Field, Move};
pub use error::{ParseError, RuleError};
pub use eval::EvalParams;
pub use movegen::perft;
pub use params::param_specs;
pub use result::{EndReason, GameResult};
pub use search::{default_time_control, Choice, Engine, EngineConfig};
pub use state::{State, MAX_TURN};

/// Deterministic bench workload for `kibitz bench`: fixed-depth searches from fixed
/// positions (three Kraken pairs, start and after a few fixed moves) with fresh tables.
/// Returns the total node count, which changes only when search behaviour changes.
pub fn bench() -> u64 {
    use kibitz_search::time::TimeControl;
    let mut nodes = 0;
    for (i, pair) in [[(3, 3), (6, 7)], [(2, 2), (7, 3)], [(4, 5), (6, 2)]]
        .into_iter()
        .enumerate()
    {
        let mut state = State::start(pair);
        // A few deterministic plies to reach a middle-game position.
        for k in 0..(4 * i) {
            let moves = state.legal_moves();
            state = state.apply(moves[(k * 7) % moves.len()]).expect("legal");
        }
        let mut config = EngineConfig::default();
        config.search.max_depth = 6;
        config.search.hash_mb = 16;
        let mut engine = Engine::new(config);
        nodes += engine.choose(&state, &TimeControl::infinite()).nodes;
    }
    nodes
}
