//! The ISMCTS playout policy: an epsilon-greedy heuristic on [`FastSim`]'s bit masks.

use crate::cards::{Card, Suit};
use crate::game::Action;
use crate::sim::{below, legal_mask, select_bit, suit_mask, FastSim, JACKS};
use kibitz_search::ismcts::RolloutPolicy;
use rand::{Rng, RngCore};

/// Playout policy: with probability `epsilon` a uniformly random choice (a legal card or
/// drawing), otherwise the best-scored legal card: `suit_weight · (cards of its suit held)`,
/// `+ special_bonus` for 7s and 8s, `+ eight_follow` for an 8 we can follow (two players),
/// `− jack_cost` for Jacks, `+ void_bonus` when the next player holds nothing that fits after
/// it (in the sampled deal), plus 0-3 points of noise. A Jack wishes the suit held most (with
/// `void_bonus`, preferring one the next player lacks). Draws only when nothing fits.
#[derive(Clone, Copy, Debug)]
pub struct GreedyRollout {
    /// Probability of a uniformly random choice.
    pub epsilon: f64,
    /// Score bonus for 7s and 8s (the greedy player uses 50: always first).
    pub special_bonus: i32,
    /// Score penalty for Jacks (greedy: 100, only when nothing else fits).
    pub jack_cost: i32,
    /// Score per card held of the played card's suit (greedy: 4).
    pub suit_weight: i32,
    /// Bonus for an 8 we can follow ourselves (two players: a free turn).
    pub eight_follow: i32,
    /// Bonus for a play the next player cannot follow.
    pub void_bonus: i32,
}

impl Default for GreedyRollout {
    fn default() -> Self {
        GreedyRollout {
            epsilon: 0.1,
            special_bonus: 50,
            jack_cost: 100,
            suit_weight: 4,
            eight_follow: 0,
            void_bonus: 0,
        }
    }
}

impl GreedyRollout {
    /// The wish for a Jack leaving `rest`: the suit with most non-Jack cards (ties to the lower
    /// suit); with a void bonus, a suit the next player (`opp`) lacks counts 1.5 cards more.
    #[inline]
    fn wish_for(&self, rest: u32, opp: u32) -> u8 {
        let rest = rest & !JACKS;
        let mut best = (0i32, 0u8);
        for s in 0..4u32 {
            let mut n = 2 * (rest & suit_mask(s)).count_ones() as i32;
            if self.void_bonus > 0 && opp & suit_mask(s) & !JACKS == 0 && n > 0 {
                n += 3;
            }
            if n > best.0 {
                best = (n, s as u8);
            }
        }
        best.1
    }

    /// Picks and plays one move of `sim` (which must not be over).
    #[inline]
    pub fn play_one<R: RngCore + ?Sized>(&self, sim: &mut FastSim, rng: &mut R) {
        let legal = sim.legal();
        if legal == 0 {
            sim.draw(rng);
            return;
        }
        let me = sim.mover();
        let hand = sim.hand(me).0;
        let r = rng.next_u64();
        if ((r as u32) as f64) < self.epsilon * 4_294_967_296.0 {
            let n = legal.count_ones();
            let k = below(rng, n + 1);
            if k == n {
                sim.draw(rng);
            } else {
                sim.play(select_bit(legal, k), (r >> 32) as u8 & 3, rng);
            }
            return;
        }
        let two = sim.players() == 2;
        let opp = sim.hand((me + 1) % sim.players()).0;
        let wishes = sim.jack_wishes();
        let mut noise = (r >> 32) as u32;
        let mut best = (i32::MIN, 0u32, 0u8);
        let mut m = legal;
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            let rest = hand & !(1 << c);
            let mut s = self.suit_weight * (hand & suit_mask(c & 3)).count_ones() as i32
                + (noise & 3) as i32;
            noise = noise.rotate_right(2);
            let mut wish = 4u8;
            let rank = c >> 2;
            if rank == 4 {
                s -= self.jack_cost;
                if wishes {
                    wish = self.wish_for(rest, opp);
                }
            } else if rank <= 1 {
                s += self.special_bonus;
                if rank == 1 && two && legal_mask(c as u8, 4) & rest != 0 {
                    s += self.eight_follow;
                }
            }
            if self.void_bonus != 0 && !(rank == 1 && two) && legal_mask(c as u8, wish) & opp == 0 {
                s += self.void_bonus;
            }
            if s > best.0 {
                best = (s, c, wish);
            }
        }
        let (_, c, wish) = best;
        let wish = if wish == 4 {
            self.wish_for(hand & !(1 << c), opp)
        } else {
            wish
        };
        sim.play(c, wish, rng);
    }
}

impl RolloutPolicy<FastSim> for GreedyRollout {
    fn choose<R: Rng + ?Sized>(
        &mut self,
        sim: &FastSim,
        actions: &[Action],
        rng: &mut R,
    ) -> Action {
        // For callers that list actions; the search itself uses `step`.
        let mut probe = *sim;
        self.play_one(&mut probe, rng);
        let played = sim.hand(sim.mover()).0 & !probe.hand(sim.mover()).0;
        let a = match played.trailing_zeros() {
            32 => Action::Draw,
            c => Action::Play {
                card: Card::from_bits(c),
                wish: if c >> 2 == 4 && sim.jack_wishes() {
                    probe.wish().unwrap_or(Suit::Pik)
                } else {
                    Suit::Pik
                },
            },
        };
        if actions.contains(&a) {
            a
        } else {
            actions[0]
        }
    }

    #[inline]
    fn step<R: Rng + ?Sized>(
        &mut self,
        sim: &mut FastSim,
        _: &mut Vec<Action>,
        rng: &mut R,
    ) -> bool {
        if sim.winner().is_some() {
            return false;
        }
        self.play_one(sim, rng);
        true
    }
}
