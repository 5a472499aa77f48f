//! One bot game from the empty board, as `connect4 games` and `connect4 audit` play them,
//! and the W/D/L tally of such games.

use crate::arena::Outcome;
use kibitz_connect4::game_impl::ConnectFour;
use kibitz_connect4::players::{play_game, Ply};
use kibitz_connect4::{Player, TimeControl};
use kibitz_search::agent::Agent;

/// One 7 × 6 game from the empty board of `bot` at `seat` (0 moves first) against
/// `opponent`, the way `connect4 games` and `connect4 audit` play theirs: both players seeded
/// with game `game`'s seed of the run's `seed` ([`mix`](kibitz_search::seed::mix)), every
/// move within a fresh `clock()`, never adjudicated; `on_move` sees the bot's moves only
/// (before each is played; an error of it ends the game). Returns how the game ended for
/// the bot.
pub(crate) fn play_one<E: From<kibitz_connect4::Error>>(
    bot: &mut dyn Agent<ConnectFour>,
    opponent: &mut dyn Agent<ConnectFour>,
    seat: usize,
    (seed, game): (u64, u64),
    clock: impl Fn() -> TimeControl,
    mut on_move: impl FnMut(Ply<'_>) -> Result<(), E>,
) -> Result<Outcome, E> {
    let agents: [&mut dyn Agent<ConnectFour>; 2] = if seat == 0 {
        [bot, opponent]
    } else {
        [opponent, bot]
    };
    let game_seed = kibitz_search::seed::mix(seed, game);
    let end = play_game(
        agents,
        [game_seed, game_seed],
        &[],
        clock,
        |_| false,
        |m| if m.seat == seat { on_move(m) } else { Ok(()) },
    )?;
    Ok(match end.board.winner() {
        None => Outcome::Draw,
        Some(p) if (p == Player::First) == (seat == 0) => Outcome::Win,
        Some(_) => Outcome::Loss,
    })
}

/// The bot's wins, draws and losses over the games of [`play_one`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Score {
    /// Games the bot won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the bot lost.
    pub losses: u32,
}

impl Score {
    /// Counts one game's outcome.
    pub fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }
}
