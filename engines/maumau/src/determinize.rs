//! Determinizations for the search: [`Determinizer`] turns a [`Knowledge`] into sampled
//! [`FastSim`]s, the opponents' hidden cards drawn from the pool by likelihood weights
//! ([`EvidenceWeights`]) built from the tracker's [`Evidence`] counts.

use crate::cards::{Card, CardSet, DECK_SIZE};
use crate::game::MAX_PLAYERS;
use crate::knowledge::{Evidence, Knowledge};
use crate::model::{log_likelihood, ModelWeights};
use crate::sim::{below, FastSim};
use rand::{Rng, RngCore};

/// Likelihood factors for sampling hidden hands from [`Evidence`], relative to a card without
/// evidence: `per_draw^draws · void(since_void) · wish^wishes · jack^jacks` (clamped), where
/// `void(k) = 1 − (1 − void) · decay^(k−1)` for a card that was legal when the seat last drew,
/// `k` cards ago (it was not in the hand then; each later draw may have brought it in).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvidenceWeights {
    /// Factor per draw made while the card would have been legal, however long ago (the
    /// pre-issue-16 model; 1 = off).
    pub per_draw: f64,
    /// Factor for a card that was legal at the seat's last draw, one card ago.
    pub void: f64,
    /// How fast that evidence fades with every further card the seat draws (0-1).
    pub decay: f64,
    /// Factor per wish of the card's suit.
    pub wish: f64,
    /// Factor per Jack spent while the card would have been legal.
    pub jack: f64,
}

impl EvidenceWeights {
    /// No evidence used: uniform sampling among consistent hands.
    pub const UNIFORM: EvidenceWeights = EvidenceWeights {
        per_draw: 1.0,
        void: 1.0,
        decay: 1.0,
        wish: 1.0,
        jack: 1.0,
    };

    /// The weight of a card with evidence `e`.
    pub fn weight(&self, e: Evidence) -> f32 {
        let mut w = self.per_draw.powi(e.draws as i32)
            * self.wish.powi(e.wishes as i32)
            * self.jack.powi(e.jacks as i32);
        if e.since_void != Evidence::NEVER {
            let k = e.since_void.max(1) as i32 - 1;
            w *= 1.0 - (1.0 - self.void) * self.decay.powi(k);
        }
        w.clamp(1e-4, 1e4) as f32
    }
}

/// Samples [`FastSim`] determinizations from one [`Knowledge`]: built once per search, then
/// each sample costs a weighted draw of the opponents' hidden cards and nothing else.
#[derive(Clone, Debug)]
pub struct Determinizer {
    base: FastSim,
    pool: [u8; DECK_SIZE],
    pool_len: usize,
    /// Weight per seat and pool slot.
    weights: [[f32; DECK_SIZE]; MAX_PLAYERS],
    uniform: [bool; MAX_PLAYERS],
    want: [usize; MAX_PLAYERS],
    /// Candidate deals (hidden cards per seat, talon) scored by the opponent model, with
    /// their cumulative weights; empty without a model.
    particles: Vec<([u32; MAX_PLAYERS], u32)>,
    cumulative: Vec<f64>,
    /// The particle filter's posterior that the opponent plays like the greedy bot (0 without
    /// the filter).
    greedy: f64,
}

impl Determinizer {
    /// Prepares sampling at `know`'s decision point (phase `Answer(me)`); with the opponent
    /// `model` on, scores `model.particles` candidate deals drawn from `rng`.
    pub fn new<R: RngCore + ?Sized>(
        know: &Knowledge,
        ev: &EvidenceWeights,
        model: &ModelWeights,
        rng: &mut R,
    ) -> Determinizer {
        let n = know.players();
        let me = know.me();
        let top = know.top().unwrap_or_default();
        let topm = 1u32 << top.index();
        // Every card in exactly one place, even if odd messages made the beliefs overlap.
        let mut placed = know.hand().0 | know.pile().0 | topm;
        let mut hands = [0u32; MAX_PLAYERS];
        hands[me] = know.hand().0 & !topm;
        for s in (0..n).filter(|&s| s != me) {
            hands[s] = know.known(s).0 & !placed;
            placed |= hands[s];
        }
        let pool_set = know.pool().0 & !placed;
        let mut pool = [0u8; DECK_SIZE];
        let mut pool_len = 0;
        for c in CardSet(pool_set) {
            pool[pool_len] = c.index();
            pool_len += 1;
        }
        let mut weights = [[1.0f32; DECK_SIZE]; MAX_PLAYERS];
        let mut uniform = [true; MAX_PLAYERS];
        let mut want = [0usize; MAX_PLAYERS];
        let mut left = pool_len;
        for s in (0..n).filter(|&s| s != me) {
            want[s] = know
                .hand_size(s)
                .saturating_sub(hands[s].count_ones() as usize)
                .min(left);
            left -= want[s];
            for i in 0..pool_len {
                let w = ev.weight(know.evidence(s, Card::from_bits(pool[i] as u32)));
                weights[s][i] = w;
                if w != 1.0 {
                    uniform[s] = false;
                }
            }
        }
        let pile = know.pile().0 & !topm & !know.hand().0;
        let mut played = [0u16; MAX_PLAYERS];
        for (s, p) in played.iter_mut().enumerate().take(n) {
            *p = know.valid_moves(s);
        }
        let mut skip = 0;
        let mut draw_two = 0;
        for s in 0..n {
            skip |= (know.pending_skip(s) as u8) << s;
            draw_two |= (know.pending_draw_two(s) as u8) << s;
        }
        let base = FastSim::new(
            n,
            hands,
            0,
            pile,
            top,
            know.wish(),
            skip,
            draw_two,
            played,
            me,
            know.config().exhaustion_winner,
        );
        let mut det = Determinizer {
            base,
            pool,
            pool_len,
            weights,
            uniform,
            want,
            particles: Vec::new(),
            cumulative: Vec::new(),
            greedy: 0.0,
        };
        if model.filter && model.particles > 0 {
            if let Some(out) = crate::filter::filter_hands(know, model, rng) {
                det.use_filter(know.me(), pool_set, &out);
                det.greedy = out.greedy;
                return det;
            }
        }
        if model.is_on() {
            det.score_particles(know, model, rng);
        }
        det
    }

    /// The particle filter's posterior probability that the (only) opponent plays like the
    /// greedy bot, from its actions so far; 0 when the filter did not run (more seats, filter
    /// off, or a trace it could not follow).
    pub fn opponent_greedy(&self) -> f64 {
        self.greedy
    }

    /// Takes the particle filter's opponent hands (two players) as the candidate deals.
    fn use_filter(&mut self, me: usize, pool_set: u32, out: &crate::filter::FilterOutput) {
        let opp = 1 - me;
        let fixed = self.base.hand(opp).0;
        let mut sum = 0.0;
        for &(hand, w) in &out.hands {
            let mut hidden = [0u32; MAX_PLAYERS];
            hidden[opp] = hand & !fixed & pool_set;
            self.particles.push((hidden, pool_set & !hidden[opp]));
            sum += w;
            self.cumulative.push(sum);
        }
    }

    /// Draws `model.particles` candidate deals by evidence and weighs each by how likely the
    /// opponents' actions so far were with those hands.
    fn score_particles<R: RngCore + ?Sized>(
        &mut self,
        know: &Knowledge,
        model: &ModelWeights,
        rng: &mut R,
    ) {
        let n = self.base.players();
        let me = know.me();
        let mut logs = Vec::with_capacity(model.particles as usize);
        for _ in 0..model.particles {
            let (hidden, talon) = self.sample_hidden(rng);
            let mut ll = 0.0;
            for s in (0..n).filter(|&s| s != me) {
                let hand = CardSet(hidden[s] | self.base.hand(s).0);
                ll += log_likelihood(know.seat_moves(s), hand, model);
            }
            self.particles.push((hidden, talon));
            logs.push(ll);
        }
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut sum = 0.0;
        self.cumulative = logs
            .iter()
            .map(|&l| {
                sum += (l - top).exp();
                sum
            })
            .collect();
    }

    /// The opponents' hidden cards of one evidence-weighted draw (per seat) and the talon.
    fn sample_hidden<R: RngCore + ?Sized>(&self, rng: &mut R) -> ([u32; MAX_PLAYERS], u32) {
        let mut hidden = [0u32; MAX_PLAYERS];
        let mut pool = self.pool;
        let mut len = self.pool_len;
        // Slot order is shared by all seats' weights: keep a permutation instead of moving
        // weights around.
        let mut idx = [0u8; DECK_SIZE];
        for (i, x) in idx.iter_mut().enumerate().take(len) {
            *x = i as u8;
        }
        for (s, h) in hidden.iter_mut().enumerate().take(self.base.players()) {
            for _ in 0..self.want[s] {
                let pick = if self.uniform[s] {
                    below(rng, len as u32) as usize
                } else {
                    let w = &self.weights[s];
                    let total: f32 = idx[..len].iter().map(|&i| w[i as usize]).sum();
                    let mut x = rng.random::<f32>() * total;
                    let mut pick = len - 1;
                    for (k, &i) in idx[..len].iter().enumerate() {
                        x -= w[i as usize];
                        if x < 0.0 {
                            pick = k;
                            break;
                        }
                    }
                    pick
                };
                *h |= 1 << pool[pick];
                len -= 1;
                pool.swap(pick, len);
                idx.swap(pick, len);
            }
        }
        let talon = pool[..len].iter().fold(0, |m, &c| m | 1 << c);
        (hidden, talon)
    }

    /// One determinization: opponents' hidden cards drawn by weight (or, with the opponent
    /// model, one of the scored candidates in proportion to its likelihood), the rest is the
    /// talon.
    pub fn sample<R: RngCore + ?Sized>(&self, rng: &mut R) -> FastSim {
        let mut sim = self.base;
        let (hidden, talon) = match self.cumulative.last() {
            Some(&total) if total > 0.0 => {
                let x = rng.random::<f64>() * total;
                let i = self.cumulative.partition_point(|&c| c <= x);
                self.particles[i.min(self.particles.len() - 1)]
            }
            _ => self.sample_hidden(rng),
        };
        for (s, &h) in hidden.iter().enumerate().take(sim.players()) {
            for c in CardSet(h) {
                sim.deal_card(s, c.index() as u32);
            }
        }
        sim.set_talon(talon);
        sim
    }
}
