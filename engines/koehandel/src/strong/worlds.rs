//! World sampling of the strong player: particles weighted by how well they explain the
//! opponents' observed bids and offers (the opponent model gives the likelihoods), and the
//! challenger's hidden offer in each world.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::StrongPlayer;
use crate::heuristic::HeuristicPlayer;
use crate::model::{challenge_money, TradeCase};
use crate::sim::{world_from, World};
use crate::types::{Animal, Cards, MoneyCard, Seat, PLAYERS};

/// A challenge we must answer, as the question states it ([`crate::event::Question::Challenged`]):
/// what the answer's candidates and the sampled worlds both depend on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Challenge {
    /// Who challenged us.
    pub(super) challenger: Seat,
    /// The kind at stake.
    pub(super) animal: Animal,
    /// Animals at stake, 1 or 2.
    pub(super) count: u8,
    /// Cards in the challenger's hidden offer.
    pub(super) offer_cards: u32,
    /// The second round after a tie (the offer is not modelled).
    pub(super) tie: bool,
}

impl StrongPlayer {
    /// `count` worlds drawn from the belief, weighted by the observed bids.
    pub(super) fn worlds(&mut self, drawn: Option<Animal>, count: usize) -> Vec<World> {
        let ws: Vec<f64> = self
            .belief
            .particles()
            .iter()
            .map(|p| self.bid_likelihood(p))
            .collect();
        self.worlds_weighted(drawn, &ws, count)
    }

    /// Likelihood of the current auction run's bids under a money assignment: a bid above
    /// a seat's money is a bluff, as likely as his modelled bluff rate (1e-3 for a seat
    /// already caught, whose over-the-top bids would be void).
    pub(super) fn bid_likelihood(&self, p: &[Cards; PLAYERS]) -> f64 {
        if !self.params.weighted {
            return 1.0;
        }
        let mut w = 1.0;
        for s in self.k.opponents() {
            let b = self.model.run_bid(s);
            if b > 0 && p[s.idx()].value() < b {
                w *= if self.k.caught[s.idx()] {
                    1e-3
                } else {
                    self.model.bluff_rate(s)
                };
            }
        }
        w
    }

    /// `count` worlds whose money is drawn from the particles with the given weights.
    pub(super) fn worlds_weighted(
        &mut self,
        drawn: Option<Animal>,
        weights: &[f64],
        count: usize,
    ) -> Vec<World> {
        let total: f64 = weights.iter().sum();
        let n = self.belief.particles().len();
        self.sampled
            .fetch_add(count as u64, std::sync::atomic::Ordering::Relaxed);
        (0..count)
            .map(|_| {
                let i = if total > 0.0 && total.is_finite() {
                    let mut x = self.rng.random::<f64>() * total;
                    let mut i = n - 1;
                    for (j, w) in weights.iter().enumerate() {
                        x -= w;
                        if x <= 0.0 {
                            i = j;
                            break;
                        }
                    }
                    i
                } else {
                    self.rng.random_range(0..n)
                };
                let money = self.belief.particles()[i];
                world_from(&self.k, money, &mut self.rng, drawn)
            })
            .collect()
    }

    /// `worlds` worlds for answering a challenge, each with the challenger's hidden offer of
    /// `offer_cards` cards. With the model, a world's offer is what his model predicts for
    /// his sampled hand (at a few spreads of the predicted value) when such an offer has the
    /// announced card count, else (a bluff, or a hand the model cannot explain) a uniform
    /// subset; with weighting, particles are weighted by how well they explain the count.
    pub(super) fn challenge_worlds(
        &mut self,
        challenge: Challenge,
        worlds: usize,
    ) -> (Vec<World>, Vec<Cards>) {
        let (challenger, offer_cards) = (challenge.challenger, challenge.offer_cards);
        const SPREAD: [f64; 5] = [0.8, 0.9, 1.0, 1.1, 1.25];
        let p = self.params.rollout;
        let use_model = (self.params.model_offers || self.params.weighted) && !challenge.tie;
        let t = TradeCase {
            challenger,
            opponent: self.k.me,
            animal: challenge.animal,
            count: challenge.count,
        };
        let money = challenge_money(
            &p.eval,
            &self.k.herds,
            t,
            p.denial,
            self.params.model.bid_prior,
        );
        let target = self.model.predicted_offer(challenger, money);
        let beta = self.model.offer_bluff_rate(challenger);
        let modelled = |hand: &Cards| -> Vec<Cards> {
            let mut v: Vec<Cards> = Vec::new();
            for m in SPREAD {
                let value = ((target * m) as u32 / 10 * 10).min(hand.value());
                let c = HeuristicPlayer::cards_for(hand, value);
                if c.len() == offer_cards && !v.contains(&c) {
                    v.push(c);
                }
            }
            v
        };
        let like = |hand: &Cards| -> f64 {
            let share = modelled(hand).len() as f64 / SPREAD.len() as f64;
            (1.0 - beta) * share + beta * 0.2
        };
        let weights: Vec<f64> = self
            .belief
            .particles()
            .iter()
            .map(|q| {
                let w = self.bid_likelihood(q);
                if use_model && self.params.weighted {
                    w * like(&q[challenger.idx()])
                } else {
                    w
                }
            })
            .collect();
        let worlds = self.worlds_weighted(None, &weights, worlds);
        let offers = worlds
            .iter()
            .map(|w| {
                let hand = w.money[challenger.idx()];
                if use_model && self.params.model_offers {
                    let m = modelled(&hand);
                    let share = m.len() as f64 / SPREAD.len() as f64;
                    let honest = (1.0 - beta) * share;
                    let pr = honest / (honest + beta * 0.2);
                    if !m.is_empty() && self.rng.random::<f64>() < pr {
                        return m[self.rng.random_range(0..m.len())];
                    }
                }
                random_offer(&mut self.rng, &hand, offer_cards)
            })
            .collect();
        (worlds, offers)
    }
}

/// `n` cards drawn uniformly from `hand` (more `n` cards if the hand is too small).
fn random_offer(rng: &mut ChaCha8Rng, hand: &Cards, n: u32) -> Cards {
    let mut cards: Vec<MoneyCard> = hand.iter_desc().collect();
    let mut out = Cards::EMPTY;
    for _ in 0..n {
        if cards.is_empty() {
            out.push(MoneyCard::Zero);
            continue;
        }
        let i = rng.random_range(0..cards.len());
        out.push(cards.swap_remove(i));
    }
    out
}
