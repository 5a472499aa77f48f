//! In-process games between [`Player`]s, with the exact message flow of the server: every
//! seat's [`Knowledge`] is fed the same notices the wire would carry. Matches (duplicate deals,
//! seat rotation, seeds, statistics) are the `kibitz` arena's (`kibitz match maumau`), which
//! plays each game through [`play_game_by`].

use crate::game::{Config, Game, GameEnd, Phase, Reaction};
use crate::knowledge::{Knowledge, Notice};
use crate::player::Player;
use crate::Action;
use kibitz_search::time::TimeControl;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// Broadcast cap per game (as the reference server's default `--max-turns`).
pub const MAX_TURNS: u32 = 10_000;

/// How a finished game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// How it ended (and the winning seat).
    pub end: GameEnd,
    /// Broadcasts sent.
    pub turns: u32,
    /// Penalty cards per seat (illegal answers).
    pub penalties: [u32; 4],
}

/// Per-move budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBudget {
    /// Soft budget per move (the search stops starting iterations).
    pub soft: Duration,
    /// Hard deadline per move.
    pub hard: Duration,
}

impl MoveBudget {
    /// `ms` milliseconds soft, 1.5× hard.
    pub fn millis(ms: u64) -> Self {
        MoveBudget {
            soft: Duration::from_millis(ms),
            hard: Duration::from_millis(ms * 3 / 2 + 5),
        }
    }
}

/// Plays one game of `players` (seat order) on the deal of `deal_seed`; reshuffles use a
/// generator derived from the same seed.
pub fn play_game(
    cfg: Config,
    deal_seed: u64,
    players: &mut [Box<dyn Player>],
    budget: Option<MoveBudget>,
) -> GameRecord {
    play_game_with(cfg, deal_seed, players, budget, &mut |_, _| {})
}

/// [`play_game`] calling `inspect(&game, &knowledge_of_mover)` before every decision (for
/// checking the card tracker against the truth).
pub fn play_game_with(
    cfg: Config,
    deal_seed: u64,
    players: &mut [Box<dyn Player>],
    budget: Option<MoveBudget>,
    inspect: &mut dyn FnMut(&Game, &Knowledge),
) -> GameRecord {
    play_game_by(
        cfg,
        deal_seed,
        budget,
        &mut |game, seat, know, tc| {
            inspect(game, know);
            Some(players[seat].choose(know, tc))
        },
        &mut |_| {},
    )
}

/// What a turn brought, for a caller that shows the game as it goes (`kibitz play`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnEvent {
    /// `seat` was skipped (an eight).
    Skipped(usize),
    /// `seat` answered and the game reacted so.
    Acted {
        /// The mover.
        seat: usize,
        /// The game's reaction to the answer.
        reaction: Reaction,
    },
}

/// The one in-process game loop: `decide(&game, seat, &knowledge, &tc)` answers for the mover
/// (`None`: that seat left, and the next seat wins as the last one online); `on_turn` hears
/// every turn's outcome. [`play_game`] and the person-against-bot game of `kibitz play` both
/// run on it, so they feed every seat's [`Knowledge`] the same notices the wire would carry.
pub fn play_game_by(
    cfg: Config,
    deal_seed: u64,
    budget: Option<MoveBudget>,
    decide: &mut dyn FnMut(&Game, usize, &Knowledge, &TimeControl) -> Option<Action>,
    on_turn: &mut dyn FnMut(&TurnEvent),
) -> GameRecord {
    let mut rng = ChaCha8Rng::seed_from_u64(deal_seed);
    let mut game = Game::deal(cfg, &mut rng);
    let n = game.players();
    let mut knows: Vec<Knowledge> = (0..n).map(|s| Knowledge::new(cfg, s)).collect();
    let mut first = vec![true; n];
    let mut penalties = [0u32; 4];
    let broadcast = |knows: &mut Vec<Knowledge>, notice: Notice| {
        for k in knows.iter_mut() {
            k.observe(&notice);
        }
    };
    loop {
        if let Phase::Over(end) = game.phase() {
            broadcast(&mut knows, Notice::Won { seat: end.winner() });
            return GameRecord {
                end,
                turns: game.turns(),
                penalties,
            };
        }
        if game.turns() >= MAX_TURNS {
            game.end_by_turn_cap();
            continue;
        }
        let start = game.begin_turn(&mut rng).expect("phase is BeginTurn");
        broadcast(
            &mut knows,
            Notice::Broadcast {
                seat: start.seat,
                top: start.top,
                cards_left: start.cards_left,
                skipped: start.skipped,
            },
        );
        if start.skipped {
            on_turn(&TurnEvent::Skipped(start.seat));
            continue;
        }
        let s = start.seat;
        knows[s].observe(&Notice::Private {
            top: start.top,
            wish: start.wish,
            cards_left: game.hand_size(s),
            draw_two: start.draw_two,
            hand: first[s].then(|| game.hand(s)),
        });
        first[s] = false;
        let tc = match budget {
            Some(b) => TimeControl::new(b.soft, b.hard),
            None => TimeControl::infinite(),
        };
        let Some(action) = decide(&game, s, &knows[s], &tc) else {
            return GameRecord {
                end: GameEnd::LastOnline((s + 1) % n),
                turns: game.turns(),
                penalties,
            };
        };
        let reaction = game.act(action, &mut rng).expect("phase is Answer");
        on_turn(&TurnEvent::Acted { seat: s, reaction });
        let reply = match reaction {
            Reaction::Played { .. } => None,
            Reaction::Drew(c) => Some((c, false)),
            Reaction::Penalty(c) | Reaction::PlayedWithPenalty { penalty: c, .. } => {
                penalties[s] += 1;
                Some((c, true))
            }
        };
        if let Some((card, penalty)) = reply {
            knows[s].observe(&Notice::DrawReply { card, penalty });
        }
    }
}
