//! In-process games between two players, for matches and tuning.

use crate::board::{Color, Move};
use crate::error::RuleError;
use crate::kraken::random_pair;
use crate::players::PlayerSpec;
use crate::result::GameResult;
use crate::state::State;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// How an in-process game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Kraken squares.
    pub krakens: [(u8, u8); 2],
    /// The moves played.
    pub moves: Vec<Move>,
    /// Winner (`None` = draw).
    pub winner: Option<Color>,
    /// The rules' result, when the game ended by the rules.
    pub result: Option<GameResult>,
    /// A player that broke the rules (or returned no move) and lost for it.
    pub violation: Option<(Color, Option<RuleError>)>,
}

/// Plays one game; `players[0]` is RED.
pub fn play_game(
    players: [&mut dyn crate::players::Player; 2],
    krakens: [(u8, u8); 2],
) -> GameRecord {
    let [red, blue] = players;
    let mut state = State::start(krakens);
    let mut moves = Vec::new();
    loop {
        if let Some(r) = state.outcome() {
            return GameRecord {
                krakens,
                moves,
                winner: r.winner,
                result: Some(r),
                violation: None,
            };
        }
        let me = state.current();
        let choice = match me {
            Color::Red => red.choose(&state),
            Color::Blue => blue.choose(&state),
        };
        let next = match choice {
            Some(m) => state.apply(m).map(|s| (m, s)).map_err(Some),
            None => Err(None),
        };
        match next {
            Ok((m, s)) => {
                moves.push(m);
                state = s;
            }
            Err(e) => {
                return GameRecord {
                    krakens,
                    moves,
                    winner: Some(me.other()),
                    result: None,
                    violation: Some((me, e)),
                }
            }
        }
    }
}

/// Score of a game pair from A's view: (wins, draws, losses).
pub type Wdl = (u32, u32, u32);

/// Plays game pair `index` of a match: both colours on one random Kraken pair (drawn with
/// the official procedure from `seed` and `index`). Returns A's (wins, draws, losses) and
/// the two records (A as RED first).
pub fn play_pair(a: &PlayerSpec, b: &PlayerSpec, seed: u64, index: u64) -> (Wdl, [GameRecord; 2]) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let krakens = random_pair(&mut rng);
    let game_seed = seed.wrapping_add(index.wrapping_mul(2));
    let mut wdl = (0, 0, 0);
    let mut play = |a_color: Color, k: u64| {
        let mut pa = a.build(game_seed + k);
        let mut pb = b.build(game_seed + k + 1_000_003);
        let rec = match a_color {
            Color::Red => play_game([pa.as_mut(), pb.as_mut()], krakens),
            Color::Blue => play_game([pb.as_mut(), pa.as_mut()], krakens),
        };
        match rec.winner {
            Some(w) if w == a_color => wdl.0 += 1,
            None => wdl.1 += 1,
            Some(_) => wdl.2 += 1,
        }
        rec
    };
    let first = play(Color::Red, 0);
    let second = play(Color::Blue, 1);
    (wdl, [first, second])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_games_end_by_the_rules() {
        let r: PlayerSpec = "random".parse().unwrap();
        for i in 0..20 {
            let (wdl, recs) = play_pair(&r, &r, 1, i);
            assert_eq!(wdl.0 + wdl.1 + wdl.2, 2);
            for rec in recs {
                assert!(rec.violation.is_none());
                assert!(rec.result.is_some());
                assert!(rec.moves.len() <= 60);
            }
        }
    }

    #[test]
    fn greedy_beats_random_most_of_the_time() {
        let g: PlayerSpec = "greedy".parse().unwrap();
        let r: PlayerSpec = "random".parse().unwrap();
        let mut score = 0.0;
        for i in 0..10 {
            let ((w, d, _), _) = play_pair(&g, &r, 3, i);
            score += w as f64 + 0.5 * d as f64;
        }
        assert!(
            score >= 14.0,
            "greedy scored only {score}/20 against random"
        );
    }
}
