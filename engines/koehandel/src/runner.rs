//! In-process games: the market drives [`Player`]s directly. Matches (seat rotation, seeds,
//! statistics) are the `kibitz` arena's (`kibitz match koehandel`), which plays each game
//! through [`play_game`].

use crate::event::Answer;
use crate::game::{Game, SeatStats};
use crate::player::Player;
use crate::types::{Seat, PLAYERS};

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

/// Plays `game` to the end with one player per seat, delivering every notice and question.
pub fn play_game(mut game: Game, players: &mut [Box<dyn Player>]) -> GameResult {
    for (i, p) in players.iter_mut().enumerate() {
        p.new_game(Seat(i as u8));
    }
    let mut decisions = 0;
    loop {
        for n in game.drain_notices() {
            players[n.seat.idx()].observe(&n.event);
        }
        let Some(ask) = game.ask() else { break };
        let answer = players[ask.seat.idx()].decide(&ask.question);
        decisions += 1;
        game.answer(answer);
    }
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
