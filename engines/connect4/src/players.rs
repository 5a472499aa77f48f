//! Simple opponents that audits, matches and tests play the engine against: rules of thumb,
//! not search, so they live beside the rules rather than in each tool that uses them.

use crate::board::Board;
use rand::Rng;

/// The weak opponent: wins if it can, blocks a single threat, else a random move that does
/// not hand over an immediate win (if there is one).
pub fn weak_move(b: &Board<u64>, rng: &mut impl Rng) -> usize {
    let legal = b.legal_moves();
    if let Some(&c) = legal.iter().find(|&&c| b.is_winning_move(c)) {
        return c;
    }
    // Moves after which the opponent wins at once (not blocking, or playing under a threat).
    let threats: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&c| {
            let mut t = *b;
            t.play(c).is_ok() && t.legal_moves().iter().any(|&o| t.is_winning_move(o))
        })
        .collect();
    let safe: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|c| !threats.contains(c))
        .collect();
    let pool = if safe.is_empty() { &legal } else { &safe };
    pool[rng.random_range(0..pool.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn board(digits: &str) -> Board<u64> {
        Board::from_digits(7, 6, 4, digits).unwrap()
    }

    #[test]
    fn takes_a_win_and_never_hands_one_over_when_it_can_avoid_it() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        // First to move has three in column 1 (0-based 0): the win.
        for _ in 0..20 {
            assert_eq!(weak_move(&board("121212"), &mut rng), 0);
        }
        // Second to move must block column 1 (0-based 0); any other move loses at once.
        for _ in 0..20 {
            assert_eq!(weak_move(&board("12121"), &mut rng), 0);
        }
    }
}
