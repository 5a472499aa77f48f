//! A belief over the opponents' hands: a particle set of complete money assignments.
//!
//! Every particle assigns each opponent a hand with exactly the publicly known number of
//! cards, and together the opponents' hands are exactly the money not in my hand (known from
//! the start hands and donkey payouts). [`Fact`]s update the particles: exact transfers move
//! the known cards (swapping cards between opponents where a particle lacks them), hidden
//! auction payments move a sampled set of the right size worth at least the price (cheap
//! payments preferred, as players avoid overpaying), hidden trade offers move a random set of
//! the right size, and a caught bluffer's hand is imposed exactly.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::knowledge::{Fact, Knowledge};
use crate::types::{Cards, Seat, MONEY_KINDS, MONEY_VALUES, PLAYERS};

/// Particles over all four hands (my own is always exact).
#[derive(Clone, Debug)]
pub struct Belief {
    me: Seat,
    particles: Vec<[Cards; PLAYERS]>,
    rng: ChaCha8Rng,
}

impl Belief {
    /// The start-of-game belief (everybody holds `nnttttf`) with `n` particles.
    pub fn new(me: Seat, n: usize, seed: u64) -> Belief {
        Belief {
            me,
            particles: vec![[Cards::START; PLAYERS]; n.max(1)],
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The particles (each a hand per seat).
    pub fn particles(&self) -> &[[Cards; PLAYERS]] {
        &self.particles
    }

    /// One particle chosen uniformly.
    pub fn sample(&mut self) -> [Cards; PLAYERS] {
        let i = self.rng.random_range(0..self.particles.len());
        self.particles[i]
    }

    /// Mean value of `seat`'s money over the particles.
    pub fn mean_value(&self, seat: Seat) -> f64 {
        let s: u64 = self
            .particles
            .iter()
            .map(|p| p[seat.idx()].value() as u64)
            .sum();
        s as f64 / self.particles.len() as f64
    }

    /// Share of particles in which `seat` can pay `amount`.
    pub fn can_pay(&self, seat: Seat, amount: u32) -> f64 {
        let n = self
            .particles
            .iter()
            .filter(|p| p[seat.idx()].value() >= amount)
            .count();
        n as f64 / self.particles.len() as f64
    }

    /// Applies every pending fact of `k` (and drains them), then pins my own hand.
    pub fn sync(&mut self, k: &mut Knowledge) {
        let facts = std::mem::take(&mut k.facts);
        for f in &facts {
            self.apply(f);
        }
        for p in &mut self.particles {
            p[self.me.idx()] = k.hand;
        }
    }

    /// Applies one fact to every particle.
    pub fn apply(&mut self, fact: &Fact) {
        let me = self.me;
        let mut particles = std::mem::take(&mut self.particles);
        for p in &mut particles {
            match *fact {
                Fact::Exact { from, to, cards } => {
                    if let Some(f) = from {
                        if f != me {
                            force_contains(p, me, f, &cards);
                            p[f.idx()].remove(&cards);
                        }
                    }
                    if to != me {
                        p[to.idx()].add(&cards);
                    }
                }
                Fact::Hidden {
                    from,
                    to,
                    count,
                    min_value,
                } => {
                    let paid = if min_value > 0 {
                        self.sample_payment(p, from, count, min_value)
                    } else {
                        random_subset(&mut self.rng, &p[from.idx()], count)
                    };
                    p[from.idx()].remove(&paid);
                    p[to.idx()].add(&paid);
                }
                Fact::Reveal { seat, cards } => {
                    if seat != me {
                        force_contains(p, me, seat, &cards);
                    }
                }
            }
        }
        self.particles = particles;
    }

    /// `count` cards of `from` worth at least `min`, preferring small overpayment.
    fn sample_payment(
        &mut self,
        p: &mut [Cards; PLAYERS],
        from: Seat,
        count: u32,
        min: u32,
    ) -> Cards {
        make_affordable(p, self.me, from, count, min);
        let hand = p[from.idx()];
        let mut options: Vec<(Cards, f64)> = Vec::new();
        let mut cur = Cards::EMPTY;
        subsets_of_size(&hand, 0, count, &mut cur, &mut |c: &Cards| {
            if c.value() >= min {
                let over = (c.value() - min) as f64;
                options.push((*c, (-over / 40.0).exp()));
            }
        });
        if options.is_empty() {
            return top_cards(&hand, count);
        }
        let total: f64 = options.iter().map(|o| o.1).sum();
        let mut x = self.rng.random::<f64>() * total;
        for (c, w) in &options {
            x -= w;
            if x <= 0.0 {
                return *c;
            }
        }
        options[options.len() - 1].0
    }
}

/// Calls `f` on every sub-multiset of `hand` (kinds `from..`) with exactly `left` more cards.
fn subsets_of_size(
    hand: &Cards,
    from: usize,
    left: u32,
    cur: &mut Cards,
    f: &mut impl FnMut(&Cards),
) {
    if from == MONEY_KINDS {
        if left == 0 {
            f(cur);
        }
        return;
    }
    let rest: u32 = (from + 1..MONEY_KINDS).map(|k| hand.0[k] as u32).sum();
    let lo = left.saturating_sub(rest);
    let hi = left.min(hand.0[from] as u32);
    for n in lo..=hi {
        cur.0[from] = n as u8;
        subsets_of_size(hand, from + 1, left - n, cur, f);
    }
    cur.0[from] = 0;
}

/// The `count` most valuable cards of a hand.
fn top_cards(hand: &Cards, count: u32) -> Cards {
    let mut c = Cards::EMPTY;
    for m in hand.iter_desc().take(count as usize) {
        c.push(m);
    }
    c
}

/// `count` cards drawn uniformly without replacement.
fn random_subset(rng: &mut ChaCha8Rng, hand: &Cards, count: u32) -> Cards {
    let mut left = *hand;
    let mut c = Cards::EMPTY;
    for _ in 0..count.min(hand.len()) {
        let mut x = rng.random_range(0..left.len());
        for k in 0..MONEY_KINDS {
            if x < left.0[k] as u32 {
                left.0[k] -= 1;
                c.0[k] += 1;
                break;
            }
            x -= left.0[k] as u32;
        }
    }
    c
}

/// Swaps cards between `seat` and the other opponents until `seat` holds `need` (counts of
/// every hand stay the same; impossible only when the books are inconsistent).
fn force_contains(p: &mut [Cards; PLAYERS], me: Seat, seat: Seat, need: &Cards) {
    for k in 0..MONEY_KINDS {
        while p[seat.idx()].0[k] < need.0[k] {
            // A card `seat` holds beyond what is needed, to give away.
            let Some(spare) = (0..MONEY_KINDS).find(|&j| p[seat.idx()].0[j] > need.0[j]) else {
                return;
            };
            let Some(o) = (0..PLAYERS).find(|&o| o != me.idx() && o != seat.idx() && p[o].0[k] > 0)
            else {
                return;
            };
            p[o].0[k] -= 1;
            p[o].0[spare] += 1;
            p[seat.idx()].0[spare] -= 1;
            p[seat.idx()].0[k] += 1;
        }
    }
}

/// Swaps `from`'s weakest cards for the other opponents' strongest until his `count` best
/// cards are worth at least `min` (he did pay it), as far as the pool allows.
fn make_affordable(p: &mut [Cards; PLAYERS], me: Seat, from: Seat, count: u32, min: u32) {
    for _ in 0..64 {
        if top_cards(&p[from.idx()], count).value() >= min {
            return;
        }
        let Some(low) = (0..MONEY_KINDS).find(|&j| p[from.idx()].0[j] > 0) else {
            return;
        };
        let mut best: Option<(usize, usize)> = None;
        for (o, hand) in p.iter().enumerate() {
            if o == me.idx() || o == from.idx() {
                continue;
            }
            if let Some(k) = (0..MONEY_KINDS).rev().find(|&k| hand.0[k] > 0) {
                if MONEY_VALUES[k] > MONEY_VALUES[low] && best.is_none_or(|(_, bk)| k > bk) {
                    best = Some((o, k));
                }
            }
        }
        let Some((o, k)) = best else { return };
        p[o].0[k] -= 1;
        p[o].0[low] += 1;
        p[from.idx()].0[low] -= 1;
        p[from.idx()].0[k] += 1;
    }
}
