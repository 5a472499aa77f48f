//! Test players shared by the integration tests.

use kibitz_maumau::player::Player;

/// Plays its first legal card on every `every`-th turn (never when `every` is 0), wishing
/// `wish`, and draws otherwise: with two different wishes, long games.
pub struct Dawdle {
    /// Turns taken so far (a start offset staggers two players).
    pub turn: u32,
    /// Play on every `every`-th turn; 0: never.
    pub every: u32,
    /// The suit wished after a Jack.
    pub wish: kibitz_maumau::cards::Suit,
}

impl Dawdle {
    /// Never plays: draws whenever it may (long games, reshuffles, talon exhaustion).
    pub fn hoard() -> Self {
        Dawdle {
            turn: 0,
            every: 0,
            wish: kibitz_maumau::cards::Suit::Pik,
        }
    }
}

impl Player for Dawdle {
    fn name(&self) -> String {
        "dawdle".into()
    }
    fn choose(
        &mut self,
        know: &kibitz_maumau::knowledge::Knowledge,
        _: &kibitz_search::time::TimeControl,
    ) -> kibitz_maumau::Action {
        self.turn += 1;
        match know.legal_plays().first() {
            Some(card) if self.every > 0 && self.turn.is_multiple_of(self.every) => {
                kibitz_maumau::Action::Play {
                    card,
                    wish: self.wish,
                }
            }
            _ => kibitz_maumau::Action::Draw,
        }
    }
}
