//! Auctions for the strong player: who is still bidding, and the reservation price (the
//! most it would pay), found by Monte Carlo over a few price points.

use std::sync::Arc;

use super::{Run, StrongPlayer, WORLD_BATCH};
use crate::eval::auction_value;
use crate::event::Answer;
use crate::sim::{raise_up_to, rollout_capped, World};
use crate::types::{Animal, Cards, Seat, PLAYERS};

impl StrongPlayer {
    /// Tracks who passed in the current run from the bid history.
    fn track_run(&mut self, animal: Animal, auctioneer: Seat, high: u32, history: &[(Seat, u32)]) {
        if self.run.key != Some((animal, auctioneer)) {
            self.run = Run {
                key: Some((animal, auctioneer)),
                ..Run::default()
            };
            self.run.out[auctioneer.idx()] = true;
        }
        for &(s, v) in history {
            if v > self.run.high {
                self.run.high = v;
            } else {
                self.run.out[s.idx()] = true;
            }
        }
        self.run.high = self.run.high.max(high);
    }

    /// The most I would pay for `animal`, chosen among "pass now" and price caps up to the
    /// Monte-Carlo cap by playing the rest of the auction out in every world (the others
    /// bid by the roll-out policy, I raise up to the cap): the cap with the best mean
    /// utility over the same worlds wins. Unlike [`Self::reservation`], this sees what the
    /// animal would really cost (the others' limits, not my cap) and the buy-back.
    fn reservation_sim(
        &mut self,
        animal: Animal,
        auctioneer: Seat,
        high_bidder: Option<Seat>,
        high_bid: &Cards,
    ) -> u32 {
        let me = self.k.me;
        let high = high_bid.value();
        let hand = self.k.hand.value();
        let Some((ceiling, cap)) = self.price_range(animal, high) else {
            return 0;
        };
        let mut caps: Vec<u32> = vec![high];
        caps.extend(self.prices(high, cap));
        let heuristic = (ceiling.max(0.0) as u32).min(hand) / 10 * 10;
        if heuristic > high {
            caps.push(heuristic);
        }
        caps.sort_unstable();
        caps.dedup();
        let out = self.run.out;
        let (sc, hb, owned) = (self.scorer(), *high_bid, caps.clone());
        let value = move |w: &World, c: usize| {
            let g = w.at_bid(&sc.k, animal, auctioneer, out, high_bidder, hb);
            sc.utility(rollout_capped(g, &sc.policy, me, owned[c]))
        };
        let sample = move |pl: &mut StrongPlayer, m| pl.worlds(Some(animal), m);
        let sums = self
            .run_worlds(Arc::new(sample), caps.len(), Arc::new(value))
            .sums;
        let best = (0..caps.len())
            .max_by(|&a, &b| sums[a].total_cmp(&sums[b]).then(b.cmp(&a)))
            .unwrap_or(0);
        if caps[best] > high {
            caps[best]
        } else {
            0
        }
    }

    /// The most I would pay for `animal`, by Monte Carlo over price points (the
    /// `auction_sim = 0` path). Every price is compared on the same worlds; under a budget
    /// they are one batch ([`WORLD_BATCH`] at most) and no price is tried after the soft time.
    fn reservation(&mut self, animal: Animal, auctioneer: Seat, high: u32) -> u32 {
        let me = self.k.me;
        let p = self.params.rollout;
        let Some((_, cap)) = self.price_range(animal, high) else {
            return 0;
        };
        // The competitor: the active bidder who values the animal most.
        let rival = (1..PLAYERS)
            .map(|i| me.plus(i))
            .filter(|&s| s != auctioneer && !self.run.out[s.idx()])
            .max_by(|a, b| {
                let va = auction_value(&p.eval, &self.k, *a, animal, 0.0);
                let vb = auction_value(&p.eval, &self.k, *b, animal, 0.0);
                va.total_cmp(&vb)
            });
        let n = self.params.price_points.max(1) as u32;
        // Every price is tested on the same worlds, so they are sampled at once; under a
        // budget `worlds` is a cap ("as many as the time allows"), so one batch of them.
        let tc = self.time_control();
        let count = match tc {
            Some(_) => self.params.worlds.min(WORLD_BATCH),
            None => self.params.worlds,
        };
        let worlds = self.worlds(Some(animal), count);
        let k = &self.k;
        let next = auctioneer.next();
        let policy = self.policy();
        // Whether buying at `price` beats letting the rival have it, over the same worlds.
        let buy_beats_pass = |price: u32| -> bool {
            let (mut win, mut lose) = (0.0, 0.0);
            for w in &worlds {
                let g = w.after_sale(k, animal, me, auctioneer, price, next);
                win += self.play_out(g, &policy);
                let g = match rival {
                    Some(r) if w.money[r.idx()].value() >= price => {
                        w.after_sale(k, animal, r, auctioneer, price, next)
                    }
                    Some(r) if w.money[r.idx()].value() > high => {
                        let v = w.money[r.idx()].value();
                        w.after_sale(k, animal, r, auctioneer, v, next)
                    }
                    _ => w.after_sale(k, animal, auctioneer, auctioneer, 0, next),
                };
                lose += self.play_out(g, &policy);
            }
            win >= lose
        };
        let expired = || tc.as_ref().is_some_and(|t| t.soft_expired());
        if self.params.price_bisect {
            return bisect_price(high, cap, n, expired, buy_beats_pass);
        }
        let mut reservation = 0;
        for price in self.prices(high, cap) {
            if expired() {
                break;
            }
            if buy_beats_pass(price) {
                reservation = price;
            } else {
                break;
            }
        }
        reservation
    }

    pub(super) fn bid(
        &mut self,
        animal: Animal,
        auctioneer: Seat,
        high_bidder: Option<Seat>,
        high_bid: &Cards,
        history: &[(Seat, u32)],
    ) -> Answer {
        let high = high_bid.value();
        self.track_run(animal, auctioneer, high, history);
        if high + 10 > self.k.hand.value() {
            return Answer::Money(Cards::EMPTY);
        }
        let res = match self.run.reservation {
            Some(r) => r,
            None => {
                let r = if self.params.auction_sim {
                    self.reservation_sim(animal, auctioneer, high_bidder, high_bid)
                } else {
                    self.reservation(animal, auctioneer, high)
                };
                self.run.reservation = Some(r);
                r
            }
        };
        raise_up_to(high, res.min(self.k.hand.value()))
    }

    /// The heuristic's bid ceiling for `animal` and the Monte-Carlo cap above it (2.5× the
    /// ceiling plus 50, at most my money), or `None` when the cap does not top `high`.
    fn price_range(&self, animal: Animal, high: u32) -> Option<(f64, u32)> {
        let p = self.params.rollout;
        let ceiling = auction_value(&p.eval, &self.k, self.k.me, animal, p.denial) * p.rate;
        let cap = ((ceiling * 2.5) as u32 + 50).min(self.k.hand.value());
        (cap > high).then_some((ceiling, cap))
    }

    /// `price_points` prices spread evenly over `(high, cap]`, rounded down to tens.
    fn prices(&self, high: u32, cap: u32) -> impl Iterator<Item = u32> {
        let n = self.params.price_points.max(1) as u32;
        (1..=n).map(move |i| (high + (cap - high) * i / n) / 10 * 10)
    }
}

/// The highest price in `[high, cap]` (a multiple of 10, or 0 for none above `high`) that
/// `good` accepts, found by `steps` bisection tests (`good` is assumed monotone: true up to
/// some price, false above). Stops testing when `expired` says so.
fn bisect_price(
    high: u32,
    cap: u32,
    steps: u32,
    expired: impl Fn() -> bool,
    mut good: impl FnMut(u32) -> bool,
) -> u32 {
    let (mut lo, mut hi) = (high, cap);
    let mut found = false;
    for _ in 0..steps {
        if hi <= lo + 10 || expired() {
            break;
        }
        let mid = ((lo + hi) / 2 / 10 * 10).max(lo + 10);
        if good(mid) {
            lo = mid;
            found = true;
        } else {
            hi = mid;
        }
    }
    if found {
        lo
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::bisect_price;

    #[test]
    fn bisection_finds_the_last_good_price_to_the_resolution() {
        // Good up to 230: four steps over [0, 800] end within 800 / 16 = 50 below it.
        let r = bisect_price(0, 800, 4, || false, |p| p <= 230);
        assert!(r <= 230 && r + 50 >= 230, "got {r}");
        assert_eq!(r % 10, 0);
        // More steps, finer: exactly the last multiple of 10 that is good.
        assert_eq!(bisect_price(0, 800, 10, || false, |p| p <= 230), 230);
    }

    #[test]
    fn bisection_answers_zero_when_nothing_is_good_or_time_is_up() {
        assert_eq!(bisect_price(100, 800, 4, || false, |_| false), 0);
        assert_eq!(bisect_price(0, 800, 4, || true, |_| true), 0);
        // Everything good: climbs towards the cap.
        let r = bisect_price(0, 800, 6, || false, |_| true);
        assert!((780..=800).contains(&r) || r >= 800 - 800 / 64, "got {r}");
    }
}
