//! What several test files share: the exact score of small positions by plain minimax, the
//! oracle the solver and the engine are checked against.

use kibitz_connect4::bitboard::Bits;
use kibitz_connect4::Board;
use std::collections::HashMap;

/// §11 score by exhaustive memoised minimax: independent of the solver, so it can judge it.
pub fn oracle<B: Bits>(b: &Board<B>, memo: &mut HashMap<B, i32>) -> i32 {
    if let Some(&s) = memo.get(&b.key()) {
        return s;
    }
    let cells = (b.columns() * b.rows()) as i32;
    let n = b.moves_played() as i32;
    let legal = b.legal_moves();
    let s = if legal.iter().any(|&c| b.is_winning_move(c)) {
        (cells + 1 - n) / 2
    } else if legal.is_empty() {
        0
    } else {
        legal
            .iter()
            .map(|&c| {
                let mut child = *b;
                child.play(c).unwrap();
                -oracle(&child, memo)
            })
            .max()
            .unwrap()
    };
    memo.insert(b.key(), s);
    s
}
