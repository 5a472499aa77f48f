//! kibitz-piranhas: rules, bitboard move generation, evaluation and alpha-beta player for
//! Piranhas (Software-Challenge Germany 2019), exactly as the official 19.2.1 server plays it.
//!
//! - [`board`]: colours, directions, moves, the board (two `u128` fish bitboards + Kraken).
//! - [`state`]: a position with turn counter and Zobrist hash; move validation with the
//!   server's error texts ([`RuleError`]).
//! - [`movegen`]: legal moves by line popcounts, perft.
//! - [`swarm`] / [`result`]: swarms by bitwise flood fill, the official win evaluation.
//! - [`kraken`]: the 340 Kraken pairs and the official random placement.
//! - [`eval`] / [`search`]: evaluation weights and the alpha-beta [`Engine`] (through
//!   `kibitz_search`), the greedy baseline.
//! - [`players`] / [`arena`]: player specs (`search:time=100,...`) and in-process games.
//!
//! Coordinates are the official ones: x = column, y = row, UP = y + 1.
#![warn(missing_docs)]

pub mod arena;
pub mod bitboard;
pub mod board;
pub mod error;
pub mod eval;
pub mod kraken;
pub mod movegen;
pub mod players;
pub mod result;
pub mod search;
pub mod state;
pub mod swarm;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, Color, Direction, Field, Move};
pub use error::{ParseError, RuleError};
pub use eval::EvalParams;
pub use movegen::perft;
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
