//! In-process games: the market drives [`kibitz_search::agent::Agent`]s directly. Matches (seat rotation, seeds,
//! statistics) are the `kibitz` arena's (`kibitz match koehandel`), which plays each game
//! through [`play_game_with`].

use crate::agents::KhAgent;
use crate::event::Answer;
use crate::game::{Game, SeatStats};
use crate::game_impl::Koehandel;
use crate::types::PLAYERS;
use kibitz_search::agent::View;
use kibitz_search::time::TimeControl;

/// Result of one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameResult {
    /// Final scores by seat.
    pub scores: [u32; PLAYERS],
    /// Per-seat counters.
    pub stats: [SeatStats; PLAYERS],
    /// Questions answered.
    pub decisions: u64,
    /// Turns played.
    pub turns: u32,
}

/// Plays `game` to the end with one agent per seat, without time limits: each agent starts
/// with `new_game(seat, seeds[seat])`, is told every notice addressed to its seat and
/// chooses the answer to every question put to it.
pub fn play_game(game: Game, agents: &mut [KhAgent], seeds: &[u64]) -> GameResult {
    play_game_with(game, agents, seeds, &mut |_| TimeControl::infinite())
}

/// [`play_game`] where `clock(seat)` gives the [`TimeControl`] of each decision of `seat`
/// (made when the question is put). A seat without an agent or a seed plays as `pass`.
pub fn play_game_with(
    game: Game,
    agents: &mut [KhAgent],
    seeds: &[u64],
    clock: &mut dyn FnMut(usize) -> TimeControl,
) -> GameResult {
    for (i, a) in agents.iter_mut().enumerate() {
        a.new_game(i, seeds.get(i).copied().unwrap_or_default());
    }
    let mut g = Koehandel(game);
    let mut decisions = 0;
    loop {
        for n in g.0.drain_notices() {
            if let Some(a) = agents.get_mut(n.seat.idx()) {
                a.observe(&n.event);
            }
        }
        let Some(seat) = View::mover(&g) else { break };
        let answer = match agents.get_mut(seat) {
            Some(a) => a.choose(&View::new(&g, seat), &clock(seat)).action.0,
            None => Answer::None,
        };
        decisions += 1;
        g.0.answer(answer);
    }
    let game = g.0;
    GameResult {
        scores: game.scores(),
        stats: game.stats(),
        decisions,
        turns: game.turns(),
    }
}

/// Plays a game where every seat answers nothing (all defaults); useful as a smoke test.
pub fn play_silent(seed: u64) -> GameResult {
    let mut g = Game::new(seed);
    g.set_quiet(true);
    let mut decisions = 0;
    while g.ask().is_some() {
        g.answer(Answer::None);
        decisions += 1;
    }
    GameResult {
        scores: g.scores(),
        stats: g.stats(),
        decisions,
        turns: g.turns(),
    }
}
