//! A forward particle filter over an opponent's hand (two players).
//!
//! Each particle is one full history of the opponent's hand: the seven cards it was dealt and
//! every card it drew or had to take, in order. Replaying the tracker's [`TraceEvent`]s over it
//! gives the EXACT hand at every action, so each play, wish and draw is weighed by the
//! opponent model ([`crate::model::step_log_likelihood`]) on the hand of that moment, not on a
//! hand rebuilt backwards from today's. A drawn card is sampled from what the particle says was
//! still unseen then (not in our hand, not on the pile, not in its own hand); a play of a card
//! the particle lacks swaps it into one of its hand slots; a card we later see (drawn by us)
//! is swapped out. Particles are resampled when the effective sample size halves and then
//! rejuvenated by one Metropolis swap move each (a held card for an unseen one, accepted by the
//! likelihood ratio of the whole replayed history).

use crate::cards::CardSet;
use crate::game::HAND_SIZE;
use crate::knowledge::{Knowledge, SeatMove};
use crate::model::{mix, step_log_likelihood, ModelWeights};
use crate::sim::{below, select_bit};
use rand::RngCore;

/// One opponent action as the tracker logged it, with the cards we saw at that moment (our
/// hand and the pile): those cannot have been in the opponent's hand or in the talon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// The acting seat.
    pub seat: u8,
    /// What it did.
    pub mv: SeatMove,
    /// Our hand and the pile right after the action (a bit mask).
    pub visible: u32,
}

/// Marks a draw that found no card in the particle's world.
const NONE: u8 = u8::MAX;

#[derive(Clone, Debug)]
struct Particle {
    /// Cards the hand acquired, in order: the deal, then every drawn or taken card.
    acq: Vec<u8>,
    hand: u32,
    /// Log-likelihood of the whole history under the greedy and the uniform hypothesis.
    lg: f64,
    lu: f64,
    /// Log importance weight since the last resampling.
    logw: f64,
}

/// A particle's state after a replay.
struct Replayed {
    hand: u32,
    lg: f64,
    lu: f64,
}

/// Why applying an event to a particle failed.
enum Fail {
    /// It played a card the particle does not hold.
    Missing(u32),
    /// It holds cards we see.
    Conflict,
}

/// Opponent hands at our decision point, each with its (normalised) weight.
#[derive(Clone, Debug, Default)]
pub struct FilterOutput {
    /// `(hand mask, weight)` per particle; weights sum to 1.
    pub hands: Vec<(u32, f64)>,
    /// Particles whose history could not be kept consistent and were patched at the end.
    pub patched: usize,
    /// Probability that the opponent plays like the greedy bot rather than uniformly, over the
    /// whole history: the model's two hypotheses at even prior odds (not the model's
    /// `1 − noise`, so that it takes evidence, not an empty history, to call a player greedy),
    /// averaged over the weighted particles. Lets the search model the opponent's own moves
    /// once its play has given it away ([`crate::mcts`]).
    pub greedy: f64,
}

/// A uniformly random card of `mask` (its index); `None` when `mask` is empty.
fn pick<R: RngCore + ?Sized>(mask: u32, rng: &mut R) -> Option<u8> {
    let n = mask.count_ones();
    (n > 0).then(|| select_bit(mask, below(rng, n)) as u8)
}

/// The filter over one opponent seat's trace.
struct Run<'a> {
    events: Vec<TraceEvent>,
    deal_visible: u32,
    w: &'a ModelWeights,
}

impl Run<'_> {
    /// Replays `acq` over the deal and `events[..=t]`; `None` if the history is impossible.
    fn replay(&self, acq: &[u8], t: usize) -> Option<Replayed> {
        let mut hand = 0u32;
        let mut i = 0;
        let mut take = |hand: &mut u32, visible: u32| -> Option<()> {
            let c = *acq.get(i)?;
            i += 1;
            if c != NONE {
                let b = 1u32 << c;
                if (visible | *hand) & b != 0 {
                    return None;
                }
                *hand |= b;
            }
            Some(())
        };
        for _ in 0..HAND_SIZE {
            take(&mut hand, self.deal_visible)?;
        }
        let (mut lg, mut lu) = (0.0, 0.0);
        for ev in &self.events[..=t] {
            match ev.mv {
                SeatMove::Drew { .. } => {
                    let (g, u) = step_log_likelihood(&ev.mv, CardSet(hand), self.w);
                    lg += g;
                    lu += u;
                    take(&mut hand, ev.visible)?;
                }
                SeatMove::Took { n } => {
                    for _ in 0..n {
                        take(&mut hand, ev.visible)?;
                    }
                }
                SeatMove::Played { card, .. } => {
                    let b = 1u32 << card.index();
                    if hand & b == 0 {
                        return None;
                    }
                    let (g, u) = step_log_likelihood(&ev.mv, CardSet(hand), self.w);
                    lg += g;
                    lu += u;
                    hand &= !b;
                }
                SeatMove::Wished { .. } => {
                    let (g, u) = step_log_likelihood(&ev.mv, CardSet(hand), self.w);
                    lg += g;
                    lu += u;
                }
            }
            if hand & ev.visible != 0 {
                return None;
            }
        }
        Some(Replayed { hand, lg, lu })
    }

    /// Applies event `t` to `p` forward, sampling drawn cards.
    fn apply<R: RngCore + ?Sized>(
        &self,
        p: &mut Particle,
        t: usize,
        rng: &mut R,
    ) -> Result<(), Fail> {
        let ev = self.events[t];
        let before = mix(p.lg, p.lu, self.w);
        let mut draw = |p: &mut Particle| {
            let c = pick(!(ev.visible | p.hand), rng).unwrap_or(NONE);
            if c != NONE {
                p.hand |= 1 << c;
            }
            p.acq.push(c);
        };
        match ev.mv {
            SeatMove::Drew { .. } => {
                let (g, u) = step_log_likelihood(&ev.mv, CardSet(p.hand), self.w);
                p.lg += g;
                p.lu += u;
                draw(p);
            }
            SeatMove::Took { n } => (0..n).for_each(|_| draw(p)),
            SeatMove::Played { card, .. } => {
                let b = 1u32 << card.index();
                if p.hand & b == 0 {
                    return Err(Fail::Missing(card.index() as u32));
                }
                let (g, u) = step_log_likelihood(&ev.mv, CardSet(p.hand), self.w);
                p.lg += g;
                p.lu += u;
                p.hand &= !b;
            }
            SeatMove::Wished { .. } => {
                let (g, u) = step_log_likelihood(&ev.mv, CardSet(p.hand), self.w);
                p.lg += g;
                p.lu += u;
            }
        }
        if p.hand & ev.visible != 0 {
            return Err(Fail::Conflict);
        }
        p.logw += mix(p.lg, p.lu, self.w) - before;
        Ok(())
    }

    /// Index in `acq` of the slot that brought each held card (its last acquisition).
    fn live_slots(acq: &[u8], hand: u32) -> Vec<usize> {
        let mut seen = 0u32;
        let mut out = Vec::new();
        for (j, &c) in acq.iter().enumerate().rev() {
            if c != NONE && hand & (1 << c) != 0 && seen & (1 << c) == 0 {
                seen |= 1 << c;
                out.push(j);
            }
        }
        out
    }

    /// Makes `p` consistent with events up to `t` after `apply` failed: a missing played card
    /// is swapped into a random held slot, cards we see are swapped for unseen ones. `before`
    /// is the particle as it was before event `t`.
    fn repair<R: RngCore + ?Sized>(
        &self,
        p: &mut Particle,
        before: &Particle,
        fail: Fail,
        t: usize,
        rng: &mut R,
    ) -> bool {
        let ev = self.events[t];
        let old = mix(before.lg, before.lu, self.w);
        for _ in 0..6 {
            let mut acq = p.acq.clone();
            match fail {
                Fail::Missing(card) => {
                    let slots = Self::live_slots(&before.acq, before.hand);
                    if slots.is_empty() {
                        return false;
                    }
                    acq = before.acq.clone();
                    acq[slots[below(rng, slots.len() as u32) as usize]] = card as u8;
                    // Event t itself (the play) is replayed below.
                }
                Fail::Conflict => {
                    let bad = p.hand & ev.visible;
                    let mut hand = p.hand;
                    for j in Self::live_slots(&p.acq, bad) {
                        let free = !(ev.visible | hand);
                        let Some(c) = pick(free, rng) else {
                            return false;
                        };
                        hand = (hand & !(1 << acq[j])) | 1 << c;
                        acq[j] = c;
                    }
                }
            }
            if let Some(r) = self.replay(&acq, t) {
                p.acq = acq;
                p.hand = r.hand;
                p.lg = r.lg;
                p.lu = r.lu;
                p.logw = before.logw + mix(r.lg, r.lu, self.w) - old;
                return true;
            }
        }
        false
    }

    /// One Metropolis move per particle: a held card swapped for an unseen one, accepted by
    /// the likelihood ratio of the replayed history.
    fn rejuvenate<R: RngCore + ?Sized>(&self, ps: &mut [Particle], t: usize, rng: &mut R) {
        let visible = self.events[t].visible;
        for p in ps.iter_mut() {
            let slots = Self::live_slots(&p.acq, p.hand);
            if slots.is_empty() {
                continue;
            }
            let Some(c) = pick(!(visible | p.hand), rng) else {
                continue;
            };
            let mut acq = p.acq.clone();
            acq[slots[below(rng, slots.len() as u32) as usize]] = c;
            if let Some(r) = self.replay(&acq, t) {
                let delta = mix(r.lg, r.lu, self.w) - mix(p.lg, p.lu, self.w);
                let u = (rng.next_u32() as f64 + 0.5) / 4_294_967_296.0;
                if u.ln() < delta {
                    p.acq = acq;
                    p.hand = r.hand;
                    p.lg = r.lg;
                    p.lu = r.lu;
                }
            }
        }
    }
}

/// Systematic resampling by `logw`; returns false if every particle is dead.
fn resample<R: RngCore + ?Sized>(ps: &mut Vec<Particle>, rng: &mut R) -> bool {
    let top = ps.iter().map(|p| p.logw).fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return false;
    }
    let w: Vec<f64> = ps.iter().map(|p| (p.logw - top).exp()).collect();
    let sum: f64 = w.iter().sum();
    let n = ps.len();
    let step = sum / n as f64;
    let mut x = (rng.next_u32() as f64 / 4_294_967_296.0) * step;
    let mut out = Vec::with_capacity(n);
    let mut acc = 0.0;
    let mut i = 0;
    for _ in 0..n {
        while i + 1 < n && acc + w[i] <= x {
            acc += w[i];
            i += 1;
        }
        let mut p = ps[i].clone();
        p.logw = 0.0;
        out.push(p);
        x += step;
    }
    *ps = out;
    true
}

fn ess(ps: &[Particle]) -> f64 {
    let top = ps.iter().map(|p| p.logw).fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return 0.0;
    }
    let (s, s2) = ps.iter().fold((0.0, 0.0), |(s, s2), p| {
        let w = (p.logw - top).exp();
        (s + w, s2 + w * w)
    });
    s * s / s2
}

/// The longest opponent trace the filter follows. Each resampling replays every particle's
/// whole history, so a decision costs up to particles × events² / 2 replayed events: about
/// 20 ms at this length with 256 particles. Longer (rare) games fall back to the backward model.
pub const MAX_EVENTS: usize = 80;

/// Runs the filter for the only opponent of a two-player `know` with `w.particles` particles.
/// Every returned hand holds the opponent's known cards, none we see, and exactly its size.
/// `None` for other table sizes, without particles, past [`MAX_EVENTS`] opponent actions, or
/// when no particle can explain the trace (the caller then falls back to the backward model).
pub fn filter_hands<R: RngCore + ?Sized>(
    know: &Knowledge,
    w: &ModelWeights,
    rng: &mut R,
) -> Option<FilterOutput> {
    if know.players() != 2 || w.particles == 0 {
        return None;
    }
    let opp = 1 - know.me();
    let final_visible = know.hand().union(know.pile()).0 | know.top().map_or(0, |c| 1 << c.index());
    let mut events: Vec<TraceEvent> = know
        .trace()
        .iter()
        .copied()
        .filter(|e| e.seat as usize == opp)
        .collect();
    if events.len() > MAX_EVENTS {
        return None;
    }
    events.push(TraceEvent {
        seat: opp as u8,
        mv: SeatMove::Took { n: 0 },
        visible: final_visible,
    });
    let run = Run {
        events,
        deal_visible: know.deal_visible().0,
        w,
    };
    let n = w.particles as usize;
    let mut ps: Vec<Particle> = (0..n)
        .map(|_| {
            let mut p = Particle {
                acq: Vec::with_capacity(HAND_SIZE + 16),
                hand: 0,
                lg: 0.0,
                lu: 0.0,
                logw: 0.0,
            };
            for _ in 0..HAND_SIZE {
                let c = pick(!(run.deal_visible | p.hand), rng).unwrap_or(NONE);
                if c != NONE {
                    p.hand |= 1 << c;
                }
                p.acq.push(c);
            }
            p
        })
        .collect();
    for t in 0..run.events.len() {
        for p in ps.iter_mut() {
            if p.logw == f64::NEG_INFINITY {
                continue;
            }
            let before = p.clone();
            if let Err(f) = run.apply(p, t, rng) {
                if !run.repair(p, &before, f, t, rng) {
                    p.logw = f64::NEG_INFINITY;
                }
            }
        }
        if ess(&ps) < n as f64 / 2.0 {
            if !resample(&mut ps, rng) {
                return None;
            }
            run.rejuvenate(&mut ps, t, rng);
        }
    }
    let last = run.events.len() - 1;
    run.rejuvenate(&mut ps, last, rng);
    // Patch what the trace could not explain (e.g. a re-synced hand size).
    let known = know.known(opp).0 & !final_visible;
    let allowed = (know.pool().0 | known) & !final_visible;
    let size = know.hand_size(opp);
    let mut patched = 0;
    let top = ps.iter().map(|p| p.logw).fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return None;
    }
    let mut hands: Vec<(u32, f64)> = Vec::with_capacity(n);
    let mut greedy = 0.0;
    for p in &ps {
        let mut h = (p.hand & allowed) | known;
        while (h.count_ones() as usize) > size {
            match pick(h & !known, rng) {
                Some(c) => h &= !(1 << c),
                None => break,
            }
        }
        while (h.count_ones() as usize) < size {
            match pick(allowed & !h, rng) {
                Some(c) => h |= 1 << c,
                None => break,
            }
        }
        patched += (h != p.hand) as usize;
        let weight = (p.logw - top).exp();
        greedy += weight * posterior_greedy(p.lg - p.lu);
        hands.push((h, weight));
    }
    let sum: f64 = hands.iter().map(|h| h.1).sum();
    for h in hands.iter_mut() {
        h.1 /= sum;
    }
    Some(FilterOutput {
        hands,
        patched,
        greedy: greedy / sum,
    })
}

/// The greedy hypothesis' posterior from its log odds (a logistic, safe for any input).
fn posterior_greedy(log_odds: f64) -> f64 {
    if log_odds.is_nan() {
        0.0
    } else {
        1.0 / (1.0 + (-log_odds).exp())
    }
}
