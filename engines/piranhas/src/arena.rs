//! In-process games between two players, for matches and tuning.

use crate::board::{Color, Move};
use crate::error::RuleError;
use crate::result::GameResult;
use crate::state::State;

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

/// Plays one game from the start position; `players[0]` is RED.
pub fn play_game(
    players: [&mut dyn crate::players::Player; 2],
    krakens: [(u8, u8); 2],
) -> GameRecord {
    play_from(players, krakens, State::start(krakens))
}

/// Plays one game from `state` (an opening board with these Krakens; `players[0]` is RED).
pub fn play_from(
    players: [&mut dyn crate::players::Player; 2],
    krakens: [(u8, u8); 2],
    mut state: State,
) -> GameRecord {
    let [red, blue] = players;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kraken::random_pair;
    use crate::players::PlayerSpec;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Both colours of Kraken pair `i`; A's score (win 1, draw ½).
    fn pair(a: &PlayerSpec, b: &PlayerSpec, i: u64) -> (f64, [GameRecord; 2]) {
        let krakens = random_pair(&mut ChaCha8Rng::seed_from_u64(i));
        let (mut pa, mut pb) = (a.build(2 * i), b.build(2 * i + 1));
        let red = play_game([pa.as_mut(), pb.as_mut()], krakens);
        let blue = play_game([pb.as_mut(), pa.as_mut()], krakens);
        let score = |rec: &GameRecord, c: Color| match rec.winner {
            Some(w) if w == c => 1.0,
            None => 0.5,
            Some(_) => 0.0,
        };
        (
            score(&red, Color::Red) + score(&blue, Color::Blue),
            [red, blue],
        )
    }

    #[test]
    fn random_games_end_by_the_rules() {
        let r: PlayerSpec = "random".parse().unwrap();
        for i in 0..20 {
            let (_, recs) = pair(&r, &r, i);
            for rec in recs {
                assert!(rec.violation.is_none());
                assert!(rec.result.is_some());
                assert!(rec.moves.len() <= 60);
                assert_eq!(rec.winner, rec.result.and_then(|r| r.winner));
            }
        }
    }

    #[test]
    fn greedy_beats_random_most_of_the_time() {
        let g: PlayerSpec = "greedy".parse().unwrap();
        let r: PlayerSpec = "random".parse().unwrap();
        let score: f64 = (0..10).map(|i| pair(&g, &r, i).0).sum();
        assert!(
            score >= 14.0,
            "greedy scored only {score}/20 against random"
        );
    }
}
