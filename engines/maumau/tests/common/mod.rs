//! Test agents and helpers shared by the integration tests.
#![allow(dead_code)]

use kibitz_maumau::agents::MauMauAgent;
use kibitz_maumau::game::Config;
use kibitz_maumau::game_impl::MauMau;
use kibitz_maumau::knowledge::{Knowledge, Notice};
use kibitz_search::agent::{Agent, Decision, View};
use kibitz_search::time::TimeControl;

/// How the tests hold agents.
pub type Boxed = Box<dyn Agent<MauMau> + Send>;

/// `agents` seated in order, each with its seed ([`Agent::new_game`]).
pub fn seat(agents: Vec<(Boxed, u64)>) -> Vec<Boxed> {
    agents
        .into_iter()
        .enumerate()
        .map(|(s, (mut a, seed))| {
            a.new_game(s, seed);
            a
        })
        .collect()
}

/// `agent` boxed for a table of `cfg`.
pub fn at(cfg: Config, agent: MauMauAgent) -> Boxed {
    Box::new(agent.at_table(cfg))
}

/// Plays its first legal card on every `every`-th turn (never when `every` is 0), wishing
/// `wish`, and draws otherwise: with two different wishes, long games.
pub struct Dawdle {
    /// Turns taken so far (a start offset staggers two players).
    pub turn: u32,
    /// Play on every `every`-th turn; 0: never.
    pub every: u32,
    /// The suit wished after a Jack.
    pub wish: kibitz_maumau::cards::Suit,
    know: Knowledge,
}

impl Dawdle {
    /// Plays every `every`-th turn, wishing `wish`; `turn` staggers the count.
    pub fn new(turn: u32, every: u32, wish: kibitz_maumau::cards::Suit) -> Self {
        Dawdle {
            turn,
            every,
            wish,
            know: Knowledge::new(Config::default(), 0),
        }
    }

    /// Never plays: draws whenever it may (long games, reshuffles, talon exhaustion).
    pub fn hoard() -> Self {
        Dawdle::new(0, 0, kibitz_maumau::cards::Suit::Pik)
    }
}

impl Agent<MauMau> for Dawdle {
    fn name(&self) -> String {
        "dawdle".into()
    }
    fn new_game(&mut self, seat: usize, _: u64) {
        self.know = Knowledge::new(self.know.config(), seat);
    }
    fn observe(&mut self, notice: &Notice) {
        self.know.observe(notice);
    }
    fn choose(&mut self, _: &View<'_, MauMau>, _: &TimeControl) -> Decision<kibitz_maumau::Action> {
        self.turn += 1;
        Decision::action(match self.know.legal_plays().first() {
            Some(card) if self.every > 0 && self.turn.is_multiple_of(self.every) => {
                kibitz_maumau::Action::Play {
                    card,
                    wish: self.wish,
                }
            }
            _ => kibitz_maumau::Action::Draw,
        })
    }
}
