//! Static valuation of herds: how much an animal is worth to a collection, in points.
//!
//! The score is (complete quartets) × (sum of their values), so a herd is valued as
//! `(Σ V_k p_k) · max(1, Σ p_k)` where `p_k` is the chance of completing kind `k`, estimated
//! from how many I hold, how many the others hold (those need trades) and how many are still
//! in the deck. Marginal values follow by difference; they convert to money with a rate.

use crate::knowledge::Knowledge;
use crate::types::{Animal, Herd, Seat, ANIMAL_VALUES, PLAYERS};

/// Tunable weights of the valuation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalParams {
    /// Completion chance by cards held (0..=4) when nobody else holds the kind.
    pub held: [f64; 5],
    /// Factor per opponent card of the kind (trades are needed to get them).
    pub contested: f64,
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
            held: [0.0, 0.25, 0.45, 0.7, 1.0],
            contested: 0.8,
        }
    }
}

/// Completion chance of kind `k` for `seat` given all herds.
#[inline]
pub fn completion(p: &EvalParams, herds: &[Herd; PLAYERS], seat: Seat, k: usize) -> f64 {
    let mine = herds[seat.idx()].0[k];
    if mine >= 4 {
        return 1.0;
    }
    let mut others = 0u8;
    let mut holders = 0;
    for (i, h) in herds.iter().enumerate() {
        if i != seat.idx() && h.0[k] > 0 {
            others += h.0[k];
            holders += 1;
        }
    }
    let mut c = p.held[mine as usize];
    if others > 0 {
        // A kind split between several opponents is harder to gather.
        for _ in 0..holders {
            c *= p.contested;
        }
        if others > mine {
            c *= 0.6;
        }
    }
    c
}

/// Estimated worth of `seat`'s herd in points.
pub fn herd_worth(p: &EvalParams, herds: &[Herd; PLAYERS], seat: Seat) -> f64 {
    let mut sum = 0.0;
    let mut n = 0.0;
    for (k, &value) in ANIMAL_VALUES.iter().enumerate() {
        if herds[seat.idx()].0[k] == 0 {
            continue;
        }
        let c = completion(p, herds, seat, k);
        sum += c * value as f64;
        n += c;
    }
    sum * f64::max(1.0, n)
}

/// Points `seat` gains when `n` animals of `kind` move to him from `from` (`None`: the deck).
pub fn gain(
    p: &EvalParams,
    herds: &[Herd; PLAYERS],
    seat: Seat,
    kind: Animal,
    n: u8,
    from: Option<Seat>,
) -> f64 {
    let before = herd_worth(p, herds, seat);
    let mut after = *herds;
    after[seat.idx()].add(kind, n);
    if let Some(f) = from {
        let c = n.min(after[f.idx()].count(kind));
        after[f.idx()].remove(kind, c);
    }
    herd_worth(p, &after, seat) - before
}

/// What an animal from the deck is worth to `seat`, counting a share of what it would be
/// worth to the opponent who wants it most (denial).
pub fn auction_value(p: &EvalParams, k: &Knowledge, seat: Seat, kind: Animal, denial: f64) -> f64 {
    auction_value_of(p, &k.herds, seat, kind, denial)
}

/// [`auction_value`] from the herds alone.
pub fn auction_value_of(
    p: &EvalParams,
    herds: &[Herd; PLAYERS],
    seat: Seat,
    kind: Animal,
    denial: f64,
) -> f64 {
    let own = gain(p, herds, seat, kind, 1, None);
    let best_other = Seat::ALL
        .iter()
        .filter(|&&s| s != seat)
        .map(|&s| gain(p, herds, s, kind, 1, None))
        .fold(0.0, f64::max);
    own + denial * best_other
}
