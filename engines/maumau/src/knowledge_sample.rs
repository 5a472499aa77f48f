//! The parts of [`Knowledge`] that look at a whole game: checking the tracker against the
//! truth (tests, arena) and sampling a full [`Game`] consistent with it (for tools; the search
//! samples with [`crate::determinize::Determinizer`]).

use super::Knowledge;
use crate::cards::{Card, CardSet, DECK_SIZE};
use crate::game::{Game, MAX_PLAYERS};
use rand::seq::SliceRandom;
use rand::Rng;

impl Knowledge {
    /// Checks this knowledge against the true game at our decision point: everything believed
    /// certain must be true. Returns the first contradiction found.
    pub fn check_against(&self, game: &Game) -> Result<(), String> {
        let me = self.me;
        if self.hand != game.hand(me) {
            return Err(format!("hand {} != {}", self.hand, game.hand(me)));
        }
        if self.top != Some(game.top()) {
            return Err(format!("top {:?} != {}", self.top, game.top()));
        }
        if self.wish != game.wish() {
            return Err(format!("wish {:?} != {:?}", self.wish, game.wish()));
        }
        let pile: CardSet = game.pile().iter().copied().collect();
        if self.pile != pile {
            return Err(format!("pile {} != {}", self.pile, pile));
        }
        let talon: CardSet = game.talon().iter().copied().collect();
        if !talon.minus(self.pool).is_empty() {
            return Err(format!("talon {} not within pool {}", talon, self.pool));
        }
        for s in 0..self.cfg.players {
            if self.sizes[s] != game.hand_size(s) {
                return Err(format!(
                    "seat {s} size {} != {}",
                    self.sizes[s],
                    game.hand_size(s)
                ));
            }
            if s != me {
                let h = game.hand(s);
                if !self.known[s].minus(h).is_empty()
                    || !h.minus(self.known[s].union(self.pool)).is_empty()
                {
                    return Err(format!(
                        "seat {s}: hand {h}, known {}, pool {}",
                        self.known[s], self.pool
                    ));
                }
            }
            if self.pending_draw_two(s) != game.pending_draw_two(s)
                || self.pending_skip(s) != game.pending_skip(s)
            {
                return Err(format!("seat {s}: pending effects differ"));
            }
        }
        Ok(())
    }

    /// Samples a complete game consistent with this knowledge, at our decision point
    /// (phase `Answer(me)`): opponents' hidden cards drawn from the pool by weight, the rest
    /// shuffled into the talon.
    pub fn sample(&self, rng: &mut impl Rng) -> Game {
        let n = self.cfg.players;
        let top = self.top.unwrap_or_default();
        // Every card in exactly one place, even if odd messages made the beliefs overlap.
        let mut placed = self.hand.union(self.pile).with(top);
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        hands[self.me] = self.hand.minus(CardSet::single(top));
        for s in (0..n).filter(|&s| s != self.me) {
            hands[s] = self.known[s].minus(placed);
            placed = placed.union(hands[s]);
        }
        let mut pool: arrayvec::ArrayVec<Card, DECK_SIZE> =
            self.pool.minus(placed).iter().collect();
        for s in (0..n).filter(|&s| s != self.me) {
            let want = self.sizes[s].saturating_sub(hands[s].len()).min(pool.len());
            for _ in 0..want {
                let total: f32 = pool
                    .iter()
                    .map(|c| self.weight[s][c.index() as usize])
                    .sum();
                let mut x = rng.random::<f32>() * total;
                let mut pick = pool.len() - 1;
                for (i, c) in pool.iter().enumerate() {
                    x -= self.weight[s][c.index() as usize];
                    if x < 0.0 {
                        pick = i;
                        break;
                    }
                }
                hands[s].insert(pool.swap_remove(pick));
            }
        }
        pool.shuffle(rng);
        let mut pile: arrayvec::ArrayVec<Card, DECK_SIZE> = self
            .pile
            .minus(CardSet::single(top))
            .minus(self.hand)
            .iter()
            .collect();
        pile.push(top);
        let mut g = Game::from_parts(
            self.cfg,
            &hands[..n],
            &pool,
            &pile,
            self.wish,
            self.skip,
            self.draw_two,
            self.me,
        );
        g.set_valid_moves(self.played);
        g.start_answer(self.me);
        g
    }
}
