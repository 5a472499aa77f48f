//! The one in-process game loop of Connect Four ([`play_game`]): two [`Agent`]s
//! ([`crate::agents`]) play a 7 × 6 game from an opening, each told every move once; the
//! arena, `kibitz connect4 games` and the audit drive their players through it.

use crate::board::Board;
use crate::game_impl::ConnectFour;
use crate::Error;
use kibitz_search::agent::{Agent, Decision, Played, View};
use kibitz_search::game::Turn;
use kibitz_search::time::TimeControl;

/// One move of a game, as [`play_game`] reports it.
pub struct Ply<'a> {
    /// The seat that moved (0 first, 1 second).
    pub seat: usize,
    /// The position before the move.
    pub board: &'a Board<u64>,
    /// The moves (0-based columns, opening included) that led to it.
    pub history: &'a [usize],
    /// What the agent chose, and what its search knew.
    pub decision: &'a Decision<usize>,
}

/// How a game of [`play_game`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The last position (over, or where `stop` ended the game).
    pub board: Board<u64>,
    /// Every move from the empty board, the opening included (0-based columns).
    pub history: Vec<usize>,
}

/// Plays one 7 × 6 game: seat 0 (`agents[0]`) moves first. Each agent starts a new game
/// with its seed ([`Agent::new_game`]), is told the `opening` and then every move
/// ([`Agent::observe`], its own included) and chooses within a fresh `clock()` per move.
/// Before every move `stop(board)` may end the game early (adjudication); `on_move` sees
/// every move before it is played, and an error of it ends the game and is returned.
/// Returns the last position and the moves.
pub fn play_game<E: From<Error>>(
    agents: [&mut dyn Agent<ConnectFour>; 2],
    seeds: [u64; 2],
    opening: &[usize],
    clock: impl Fn() -> TimeControl,
    mut stop: impl FnMut(&Board<u64>) -> bool,
    mut on_move: impl FnMut(Ply<'_>) -> Result<(), E>,
) -> Result<GameEnd, E> {
    let mut agents = agents;
    let mut b = Board::<u64>::new(7, 6, 4)?;
    let mut state = ConnectFour(crate::Position::new(7, 6, 4)?);
    let mut history = Vec::new();
    for (seat, a) in agents.iter_mut().enumerate() {
        a.new_game(seat, seeds[seat]);
    }
    let tell = |agents: &mut [&mut dyn Agent<ConnectFour>; 2], seat: usize, col: usize| {
        let event = Played {
            actor: Turn::Seat(seat),
            action: col,
        };
        for a in agents.iter_mut() {
            a.observe(&event);
        }
    };
    for &col in opening {
        let seat = b.moves_played() % 2;
        b.play(col)?;
        state.0.play(col)?;
        history.push(col);
        tell(&mut agents, seat, col);
    }
    while !b.is_over() && !stop(&b) {
        let seat = b.moves_played() % 2;
        let decision = agents[seat].choose(&View::new(&state, seat), &clock());
        let col = decision.action;
        on_move(Ply {
            seat,
            board: &b,
            history: &history,
            decision: &decision,
        })?;
        b.play(col)?;
        state.0.play(col)?;
        history.push(col);
        tell(&mut agents, seat, col);
    }
    Ok(GameEnd { board: b, history })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{weak_move, AgentSpec};
    use crate::game_impl::C4Config;
    use rand::SeedableRng;
    use std::time::Duration;

    fn board(digits: &str) -> Board<u64> {
        Board::from_digits(7, 6, 4, digits).unwrap()
    }

    #[test]
    fn a_game_reports_every_move_and_the_engine_beats_the_weak_player() {
        let c = C4Config::default();
        let mut engine = AgentSpec::parse("engine:nodes=2000")
            .unwrap()
            .build(&c)
            .unwrap();
        let mut weak = AgentSpec::parse("weak").unwrap().build(&c).unwrap();
        let clock = || TimeControl::new(Duration::from_secs(5), Duration::from_secs(5));
        for first in [true, false] {
            let mut plies = Vec::new();
            let agents: [&mut dyn Agent<ConnectFour>; 2] = if first {
                [&mut *engine, &mut *weak]
            } else {
                [&mut *weak, &mut *engine]
            };
            let end = play_game(
                agents,
                [3, 4],
                &[],
                clock,
                |_| false,
                |m| {
                    assert!(m.board.can_play(m.decision.action));
                    assert_eq!(m.history.len(), m.board.moves_played());
                    assert_eq!(m.seat, m.board.moves_played() % 2);
                    plies.push(m.board.moves_played());
                    Ok::<(), Error>(())
                },
            )
            .unwrap()
            .board;
            assert!(end.is_over());
            assert_eq!(plies, (0..end.moves_played()).collect::<Vec<_>>());
            let engine_seat = usize::from(!first);
            assert_ne!(
                end.winner()
                    .map(|p| usize::from(p == crate::Player::Second)),
                Some(1 - engine_seat),
                "the book and solver beat a weak player"
            );
        }
    }

    #[test]
    fn an_opening_is_told_and_stop_ends_the_game_early() {
        let c = C4Config::default();
        let mut a = AgentSpec::parse("random").unwrap().build(&c).unwrap();
        let mut b = AgentSpec::parse("search:depth=2")
            .unwrap()
            .build(&c)
            .unwrap();
        let mut seen = Vec::new();
        let end = play_game(
            [&mut *a, &mut *b],
            [1, 2],
            &[3, 3, 2],
            TimeControl::infinite,
            |b| b.moves_played() >= 7,
            |m| {
                seen.push((m.seat, m.history.to_vec()));
                Ok::<(), Error>(())
            },
        )
        .unwrap();
        assert_eq!(end.history[..3], [3, 3, 2]);
        let end = end.board;
        assert_eq!(end.moves_played(), 7);
        assert_eq!(seen.len(), 4);
        assert_eq!(
            seen[0],
            (1, vec![3, 3, 2]),
            "the second seat moves after 3 plies"
        );
        assert!(play_game(
            [&mut *a, &mut *b],
            [1, 2],
            &[9],
            TimeControl::infinite,
            |_| false,
            |_| Ok::<(), Error>(()),
        )
        .is_err());
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
