//! In-process games and matches between [`Player`]s, with the exact message flow of the
//! server: every seat's [`Knowledge`] is fed the same notices the wire would carry.

use crate::game::{Config, Game, GameEnd, Phase, Reaction};
use crate::knowledge::{Knowledge, Notice};
use crate::player::Player;
use crate::Action;
use kibitz_search::time::TimeControl;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
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

/// Result of a duplicate match between two players A and B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Games played.
    pub games: u32,
    /// Games won by A.
    pub a_wins: u32,
    /// A's wins from seat 0 and from seat 1.
    pub a_wins_by_seat: [u32; 2],
    /// Games ended by talon exhaustion or the turn cap.
    pub exhausted: u32,
    /// Penalty cards of A and B.
    pub penalties: [u32; 2],
}

impl MatchResult {
    /// Adds one game where A sat in `a_seat`.
    pub fn add(&mut self, rec: &GameRecord, a_seat: usize) {
        self.games += 1;
        if rec.end.winner() == a_seat {
            self.a_wins += 1;
            self.a_wins_by_seat[a_seat] += 1;
        }
        if matches!(rec.end, GameEnd::Exhausted(_) | GameEnd::TurnCap(_)) {
            self.exhausted += 1;
        }
        self.penalties[0] += rec.penalties[a_seat];
        self.penalties[1] += rec.penalties[1 - a_seat];
    }
}

/// Plays `deals` duplicate deals (each twice, seats swapped) of two-player games between the
/// players built by `make_a` and `make_b` (each called with a per-game seed), in parallel on
/// the current rayon pool. `on_game` is called after each game with the running result.
pub fn run_match<FA, FB>(
    cfg: Config,
    deals: u32,
    seed: u64,
    make_a: FA,
    make_b: FB,
    budget: Option<MoveBudget>,
    on_game: &(dyn Fn(&MatchResult) + Sync),
) -> MatchResult
where
    FA: Fn(u64) -> Box<dyn Player> + Sync,
    FB: Fn(u64) -> Box<dyn Player> + Sync,
{
    let cfg = Config { players: 2, ..cfg };
    let total = std::sync::Mutex::new(MatchResult::default());
    (0..deals as u64 * 2).into_par_iter().for_each(|i| {
        let deal = seed.wrapping_add(i / 2);
        let a_seat = (i % 2) as usize;
        let pseed = seed ^ (i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let a = make_a(pseed);
        let b = make_b(pseed ^ 0x5555);
        let mut players = if a_seat == 0 { vec![a, b] } else { vec![b, a] };
        let rec = play_game(cfg, deal, &mut players, budget);
        let mut t = total.lock().unwrap_or_else(|e| e.into_inner());
        t.add(&rec, a_seat);
        on_game(&t);
    });
    total.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Result of a table of `players` seats: player A against `players − 1` copies of B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableResult {
    /// Games played.
    pub games: u32,
    /// Games won by A.
    pub a_wins: u32,
    /// Games ended by talon exhaustion or the turn cap.
    pub exhausted: u32,
    /// Penalty cards of A.
    pub a_penalties: u32,
}

/// Plays `deals` deals at a table of `cfg.players` seats, each deal once per seat of A (seats
/// rotated over the same deck), A against copies of B, in parallel on the current rayon pool.
pub fn run_table<FA, FB>(
    cfg: Config,
    deals: u32,
    seed: u64,
    make_a: FA,
    make_b: FB,
    budget: Option<MoveBudget>,
    on_game: &(dyn Fn(&TableResult) + Sync),
) -> TableResult
where
    FA: Fn(u64) -> Box<dyn Player> + Sync,
    FB: Fn(u64) -> Box<dyn Player> + Sync,
{
    let n = cfg.players.clamp(2, crate::game::MAX_PLAYERS) as u64;
    let cfg = Config {
        players: n as usize,
        ..cfg
    };
    let total = std::sync::Mutex::new(TableResult::default());
    (0..deals as u64 * n).into_par_iter().for_each(|i| {
        let deal = seed.wrapping_add(i / n);
        let a_seat = (i % n) as usize;
        let pseed = seed ^ (i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut players: Vec<Box<dyn Player>> = (0..n as usize)
            .map(|s| {
                if s == a_seat {
                    make_a(pseed)
                } else {
                    make_b(pseed ^ (0x5555 + s as u64))
                }
            })
            .collect();
        let rec = play_game(cfg, deal, &mut players, budget);
        let mut t = total.lock().unwrap_or_else(|e| e.into_inner());
        t.games += 1;
        t.a_wins += (rec.end.winner() == a_seat) as u32;
        t.exhausted += matches!(rec.end, GameEnd::Exhausted(_) | GameEnd::TurnCap(_)) as u32;
        t.a_penalties += rec.penalties[a_seat];
        on_game(&t);
    });
    total.into_inner().unwrap_or_else(|e| e.into_inner())
}
