//! In-process games between [`Agent`]s, with the exact message flow of the server: every
//! seat is told the same notices the wire would carry ([`Agent::observe`]), the mover is asked
//! with a [`View`] of the true position. Matches (duplicate deals, seat rotation, seeds,
//! statistics) are the `kibitz` arena's (`kibitz match maumau`), which plays each game through
//! [`play_game_by`].

use crate::game::{Config, Game, GameEnd, Phase, Reaction};
use crate::game_impl::MauMau;
use crate::knowledge::{Knowledge, Notice};
use crate::Action;
use kibitz_search::agent::{Agent, View};
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

/// The seats of an in-process game as [`play_game_by`] drives them: told every notice of the
/// wire, asked for the mover's answer. A slice of agents (in seat order) is the plain table;
/// callers that log, reveal cards or seat a person implement it themselves.
pub trait Seats {
    /// `seat` receives `notice` (in the server's order; the mover's own moves included).
    fn tell(&mut self, seat: usize, notice: &Notice);
    /// The answer of `view`'s seat, to move in `game`; `None`: that seat left (the next seat
    /// wins as the last one online).
    fn choose(
        &mut self,
        game: &Game,
        view: &View<'_, MauMau>,
        clock: &TimeControl,
    ) -> Option<Action>;
    /// What the turn brought (for a caller that shows the game as it goes); the default
    /// ignores it.
    fn on_turn(&mut self, _event: &TurnEvent) {}
}

/// Agents in seat order, each seated by the caller ([`Agent::new_game`]).
impl<A: Agent<MauMau> + ?Sized> Seats for [Box<A>] {
    fn tell(&mut self, seat: usize, notice: &Notice) {
        self[seat].observe(notice);
    }
    fn choose(&mut self, _: &Game, view: &View<'_, MauMau>, clock: &TimeControl) -> Option<Action> {
        Some(self[view.seat()].choose(view, clock).action)
    }
}

/// Plays one game of `agents` (seat order, each already seated by [`Agent::new_game`]) on the
/// deal of `deal_seed`; reshuffles use a generator derived from the same seed.
pub fn play_game(
    cfg: Config,
    deal_seed: u64,
    agents: &mut [Box<dyn Agent<MauMau> + Send>],
    budget: Option<MoveBudget>,
) -> GameRecord {
    play_game_by(cfg, deal_seed, budget, agents)
}

/// [`play_game`] calling `inspect(&game, &knowledge_of_mover)` before every decision (for
/// checking the card tracker against the truth): the loop keeps each seat's [`Knowledge`]
/// beside the agents', fed the same notices.
pub fn play_game_with(
    cfg: Config,
    deal_seed: u64,
    agents: &mut [Box<dyn Agent<MauMau> + Send>],
    budget: Option<MoveBudget>,
    inspect: &mut dyn FnMut(&Game, &Knowledge),
) -> GameRecord {
    let mut seats = Inspected {
        knows: (0..cfg.players).map(|s| Knowledge::new(cfg, s)).collect(),
        agents,
        inspect,
    };
    play_game_by(cfg, deal_seed, budget, &mut seats)
}

/// The seats of [`play_game_with`]: the agents, and a tracker per seat for the inspector.
struct Inspected<'a> {
    agents: &'a mut [Box<dyn Agent<MauMau> + Send>],
    knows: Vec<Knowledge>,
    inspect: &'a mut dyn FnMut(&Game, &Knowledge),
}

impl Seats for Inspected<'_> {
    fn tell(&mut self, seat: usize, notice: &Notice) {
        self.knows[seat].observe(notice);
        self.agents[seat].observe(notice);
    }
    fn choose(
        &mut self,
        game: &Game,
        view: &View<'_, MauMau>,
        clock: &TimeControl,
    ) -> Option<Action> {
        (self.inspect)(game, &self.knows[view.seat()]);
        Some(self.agents[view.seat()].choose(view, clock).action)
    }
}

/// What [`Knowing`] asks: `(game, seat, knowledge of seat, view, clock)` → the answer.
pub type Decide<'a> =
    dyn FnMut(&Game, usize, &Knowledge, &View<'_, MauMau>, &TimeControl) -> Option<Action> + 'a;

/// Seats whose tracker the loop keeps, answered by a closure that sees the true game and the
/// mover's [`Knowledge`]: for tests and research tools that look at every decision.
pub struct Knowing<'a, 'b> {
    knows: Vec<Knowledge>,
    decide: &'b mut Decide<'a>,
}

impl<'a, 'b> Knowing<'a, 'b> {
    /// Fresh trackers for every seat of `cfg`, answered by `decide`.
    pub fn new(cfg: Config, decide: &'b mut Decide<'a>) -> Knowing<'a, 'b> {
        Knowing {
            knows: (0..cfg.players).map(|s| Knowledge::new(cfg, s)).collect(),
            decide,
        }
    }
}

impl Seats for Knowing<'_, '_> {
    fn tell(&mut self, seat: usize, notice: &Notice) {
        if let Some(k) = self.knows.get_mut(seat) {
            k.observe(notice);
        }
    }
    fn choose(
        &mut self,
        game: &Game,
        view: &View<'_, MauMau>,
        clock: &TimeControl,
    ) -> Option<Action> {
        let know = self.knows.get(view.seat())?;
        (self.decide)(game, view.seat(), know, view, clock)
    }
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

/// The one in-process game loop: every seat is told what the wire would tell it
/// ([`Seats::tell`]), the mover is asked with its [`View`] of the true position
/// ([`Seats::choose`]), and every turn's outcome is reported ([`Seats::on_turn`]). The arena,
/// [`play_game`] and the person-against-bot game of `kibitz play` all run on it.
pub fn play_game_by<S: Seats + ?Sized>(
    cfg: Config,
    deal_seed: u64,
    budget: Option<MoveBudget>,
    seats: &mut S,
) -> GameRecord {
    let mut rng = ChaCha8Rng::seed_from_u64(deal_seed);
    let mut game = Game::deal(cfg, &mut rng);
    let n = game.players();
    let mut first = vec![true; n];
    let mut penalties = [0u32; 4];
    let broadcast = |seats: &mut S, notice: Notice| {
        for s in 0..n {
            seats.tell(s, &notice);
        }
    };
    loop {
        if let Phase::Over(end) = game.phase() {
            broadcast(seats, Notice::Won { seat: end.winner() });
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
            seats,
            Notice::Broadcast {
                seat: start.seat,
                top: start.top,
                cards_left: start.cards_left,
                skipped: start.skipped,
            },
        );
        if start.skipped {
            seats.on_turn(&TurnEvent::Skipped(start.seat));
            continue;
        }
        let s = start.seat;
        seats.tell(
            s,
            &Notice::Private {
                top: start.top,
                wish: start.wish,
                cards_left: game.hand_size(s),
                draw_two: start.draw_two,
                hand: first[s].then(|| game.hand(s)),
            },
        );
        first[s] = false;
        let tc = match budget {
            Some(b) => TimeControl::new(b.soft, b.hard),
            None => TimeControl::infinite(),
        };
        let state = MauMau::from_game(game.clone(), deal_seed, game.turns());
        let Some(action) = seats.choose(&game, &View::new(&state, s), &tc) else {
            return GameRecord {
                end: GameEnd::LastOnline((s + 1) % n),
                turns: game.turns(),
                penalties,
            };
        };
        let reaction = game.act(action, &mut rng).expect("phase is Answer");
        seats.on_turn(&TurnEvent::Acted { seat: s, reaction });
        let reply = match reaction {
            Reaction::Played { .. } => None,
            Reaction::Drew(c) => Some((c, false)),
            Reaction::Penalty(c) | Reaction::PlayedWithPenalty { penalty: c, .. } => {
                penalties[s] += 1;
                Some((c, true))
            }
        };
        if let Some((card, penalty)) = reply {
            seats.tell(s, &Notice::DrawReply { card, penalty });
        }
    }
}
