//! In-process games between two [`Agent`]s, for matches and tuning: the referee's loop the
//! arena, `kibitz piranhas game` and the tests share.

use crate::board::{Color, Move};
use crate::error::RuleError;
use crate::game_impl::Piranhas;
use crate::result::GameResult;
use crate::state::State;
use kibitz_search::agent::{Agent, Decision, Played, View};
use kibitz_search::game::Turn;
use kibitz_search::time::TimeControl;

/// How an in-process game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Kraken squares.
    pub krakens: [(u8, u8); 2],
    /// The moves played.
    pub moves: Vec<Move>,
    /// For each move played, who played it and the agent's [`Decision`] (what its search
    /// knew: score, depth, nodes, principal variation, time).
    pub decisions: Vec<(Color, Decision<Move>)>,
    /// Winner (`None` = draw).
    pub winner: Option<Color>,
    /// The rules' result, when the game ended by the rules.
    pub result: Option<GameResult>,
    /// An agent that chose an illegal move and lost for it.
    pub violation: Option<(Color, RuleError)>,
}

/// Plays one game from the start position; `agents[0]` is RED. Each agent is told
/// [`Agent::new_game`] with its seat and `seeds[seat]` first.
pub fn play_game(
    agents: [&mut dyn Agent<Piranhas>; 2],
    seeds: [u64; 2],
    krakens: [(u8, u8); 2],
) -> GameRecord {
    play_from(agents, seeds, krakens, State::start(krakens))
}

/// Plays one game from `state` (an opening board with these Krakens; `agents[0]` is RED).
///
/// Each agent is told [`Agent::new_game`] (its seat, `seeds[seat]`), then asked to choose
/// with [`TimeControl::infinite`] on its turn (agents bring their own budgets, see
/// [`crate::agents`]), and both are told every move played ([`Played`]), their own included,
/// once and in order. An illegal choice ends the game: the other colour wins.
pub fn play_from(
    agents: [&mut dyn Agent<Piranhas>; 2],
    seeds: [u64; 2],
    krakens: [(u8, u8); 2],
    mut state: State,
) -> GameRecord {
    let mut agents = agents;
    for (seat, a) in agents.iter_mut().enumerate() {
        a.new_game(seat, seeds[seat]);
    }
    let mut moves = Vec::new();
    let mut decisions = Vec::new();
    loop {
        if let Some(r) = state.outcome() {
            return GameRecord {
                krakens,
                moves,
                decisions,
                winner: r.winner,
                result: Some(r),
                violation: None,
            };
        }
        let me = state.current();
        let seat = me as usize;
        let game = Piranhas(state);
        let d = agents[seat].choose(&View::new(&game, seat), &TimeControl::infinite());
        match state.apply(d.action) {
            Ok(next) => {
                let event = Played {
                    actor: Turn::Seat(seat),
                    action: d.action,
                };
                for a in agents.iter_mut() {
                    a.observe(&event);
                }
                moves.push(d.action);
                decisions.push((me, d));
                state = next;
            }
            Err(e) => {
                return GameRecord {
                    krakens,
                    moves,
                    decisions,
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
    use crate::agents::AgentSpec;
    use crate::kraken::random_pair;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Both colours of Kraken pair `i`; A's score (win 1, draw ½).
    fn pair(a: &AgentSpec, b: &AgentSpec, i: u64) -> (f64, [GameRecord; 2]) {
        let krakens = random_pair(&mut ChaCha8Rng::seed_from_u64(i));
        let (mut pa, mut pb) = (a.build(), b.build());
        let (sa, sb) = (2 * i, 2 * i + 1);
        let red = play_game([pa.as_mut(), pb.as_mut()], [sa, sb], krakens);
        let blue = play_game([pb.as_mut(), pa.as_mut()], [sb, sa], krakens);
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
        let r: AgentSpec = "random".parse().unwrap();
        for i in 0..20 {
            let (_, recs) = pair(&r, &r, i);
            for rec in recs {
                assert!(rec.violation.is_none());
                assert!(rec.result.is_some());
                assert!(rec.moves.len() <= 60);
                assert_eq!(rec.decisions.len(), rec.moves.len());
                assert_eq!(rec.winner, rec.result.and_then(|r| r.winner));
            }
        }
    }

    #[test]
    fn greedy_beats_random_most_of_the_time() {
        let g: AgentSpec = "greedy".parse().unwrap();
        let r: AgentSpec = "random".parse().unwrap();
        let score: f64 = (0..10).map(|i| pair(&g, &r, i).0).sum();
        assert!(
            score >= 14.0,
            "greedy scored only {score}/20 against random"
        );
    }
}
