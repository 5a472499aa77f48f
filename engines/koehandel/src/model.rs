//! Opponent models: what each opponent's bidding, bluffing and trading looked like so far in
//! this game, learned only from the messages one player receives.
//!
//! # What is learned, per seat
//! - **Bidding**: the highest bid a seat made in each auction run, divided by what the animal
//!   was worth to him by the public valuation ([`auction_value`] with the heuristic's denial).
//!   This ratio is directly the `rate` of a value-based bidder, so the strong player's
//!   play-outs can simulate each opponent with his own rate ([`OpponentModel::rate`]).
//! - **Bluffing in auctions**: caught bluffs per auction run won or bid in; a bid above a
//!   sampled hand is only as likely as this rate ([`OpponentModel::bluff_rate`]).
//! - **Trade offers**: when an opponent challenges me his offer is paid to me, so I see its
//!   value; compared with what his challenge was worth to him it gives an offer ratio, and an
//!   offer worth less than a quarter of the prediction counts as a bluff (`n` padding).
//! - **Counter offers**: when I challenge, the opponent accepts or counters; the counter's
//!   value over what the trade would cost him gives a counter ratio (0 for an accept).
//!
//! Every estimate is a mean shrunk towards a prior (the heuristic's behaviour) with a prior
//! weight, so a few observations move it only a little.

use crate::eval::{auction_value, gain, herd_worth, EvalParams};
use crate::event::{Event, Question};
use crate::knowledge::Knowledge;
use crate::types::{Animal, Herd, Seat, PLAYERS};

/// Priors and weights of the model (part of the strong player's parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelParams {
    /// Weight of the prior, in observations.
    pub prior_weight: f64,
    /// Prior bid ratio (the heuristic's rate).
    pub bid_prior: f64,
    /// Prior share of bluffs among auction bids.
    pub bluff_prior: f64,
    /// Prior ratio of a challenger's offer value to his money-valued gain.
    pub offer_prior: f64,
    /// Prior share of bluff (near-worthless) trade offers.
    pub offer_bluff_prior: f64,
    /// Prior ratio of a counter offer to the money-valued loss of the challenged player.
    pub counter_prior: f64,
}

impl Default for ModelParams {
    fn default() -> Self {
        ModelParams {
            prior_weight: 6.0,
            bid_prior: 0.35,
            bluff_prior: 0.05,
            offer_prior: 0.8,
            offer_bluff_prior: 0.1,
            counter_prior: 1.0,
        }
    }
}

/// Running sums for one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeatStats {
    /// Sum of bid ratios and their number.
    pub bid_sum: f64,
    /// Number of bid observations.
    pub bid_n: f64,
    /// Auction runs in which the seat was the high bidder at the end (bought or caught).
    pub high_runs: u32,
    /// Caught bluffs.
    pub bluffs: u32,
    /// Sum of offer ratios of revealed challenger offers.
    pub offer_sum: f64,
    /// Revealed challenger offers.
    pub offers: u32,
    /// Revealed offers worth less than a quarter of the prediction.
    pub offer_bluffs: u32,
    /// Sum of counter ratios (accepts count 0).
    pub counter_sum: f64,
    /// Answers to my challenges seen.
    pub counters: u32,
}

/// A cow trade as the valuations see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TradeCase {
    /// Who starts it.
    pub challenger: Seat,
    /// Who is challenged.
    pub opponent: Seat,
    /// The kind at stake.
    pub animal: Animal,
    /// Animals at stake (1 or 2).
    pub count: u8,
}

/// The money-valued worth of a trade for the challenger (the heuristic's `best_trade` money).
pub fn challenge_money(
    eval: &EvalParams,
    herds: &[Herd; PLAYERS],
    t: TradeCase,
    denial: f64,
    rate: f64,
) -> f64 {
    let TradeCase {
        challenger,
        opponent,
        animal,
        count,
    } = t;
    let g = gain(eval, herds, challenger, animal, count, Some(opponent))
        + denial * gain(eval, herds, opponent, animal, count, Some(challenger)).abs();
    (g * rate).max(0.0)
}

/// The money-valued loss of `opponent` if `challenger` wins the trade (the heuristic's counter
/// target).
pub fn counter_money(
    eval: &EvalParams,
    herds: &[Herd; PLAYERS],
    t: TradeCase,
    denial: f64,
    rate: f64,
) -> f64 {
    let TradeCase {
        challenger,
        opponent,
        animal,
        count,
    } = t;
    let mut h = *herds;
    let c = count.min(h[opponent.idx()].count(animal));
    h[opponent.idx()].remove(animal, c);
    h[challenger.idx()].add(animal, c);
    let loss = herd_worth(eval, herds, opponent) - herd_worth(eval, &h, opponent)
        + denial * (herd_worth(eval, &h, challenger) - herd_worth(eval, herds, challenger));
    (loss * rate).max(0.0)
}

/// Per-seat statistics of one game, fed by the same calls as [`Knowledge`].
#[derive(Clone, Debug)]
pub struct OpponentModel {
    /// Priors.
    pub params: ModelParams,
    /// Statistics by seat.
    pub stats: [SeatStats; PLAYERS],
    eval: EvalParams,
    denial: f64,
    /// Current auction run: (animal, auctioneer), highest bid per seat, value per seat.
    run: Option<(Animal, Seat)>,
    run_bids: [u32; PLAYERS],
    run_values: [f64; PLAYERS],
    run_winner: Option<Seat>,
    run_pass_high: [u32; PLAYERS],
    /// A challenge of mine waiting for the answer: (opponent, predicted loss money).
    my_challenge: Option<(Seat, f64)>,
    /// A challenge to me waiting for the payment: (challenger, predicted offer value, cards).
    their_challenge: Option<(Seat, f64, u32)>,
}

impl OpponentModel {
    /// An empty model valuing herds with `eval` and `denial` (the heuristic's).
    pub fn new(params: ModelParams, eval: EvalParams, denial: f64) -> OpponentModel {
        OpponentModel {
            params,
            stats: [SeatStats::default(); PLAYERS],
            eval,
            denial,
            run: None,
            run_bids: [0; PLAYERS],
            run_values: [0.0; PLAYERS],
            run_winner: None,
            run_pass_high: [0; PLAYERS],
            my_challenge: None,
            their_challenge: None,
        }
    }

    fn shrink(&self, sum: f64, n: f64, prior: f64) -> f64 {
        let w = self.params.prior_weight.max(0.0);
        if n + w <= 0.0 {
            return prior;
        }
        (sum + prior * w) / (n + w)
    }

    /// Estimated bid rate of `seat` (bid ceiling over valuation).
    pub fn rate(&self, seat: Seat) -> f64 {
        let s = &self.stats[seat.idx()];
        self.shrink(s.bid_sum, s.bid_n, self.params.bid_prior)
    }

    /// Estimated chance that a winning bid of `seat` is a bluff.
    pub fn bluff_rate(&self, seat: Seat) -> f64 {
        let s = &self.stats[seat.idx()];
        self.shrink(s.bluffs as f64, s.high_runs as f64, self.params.bluff_prior)
            .clamp(0.005, 1.0)
    }

    /// Estimated ratio of `seat`'s trade offers to their predicted worth.
    pub fn offer_ratio(&self, seat: Seat) -> f64 {
        let s = &self.stats[seat.idx()];
        self.shrink(s.offer_sum, s.offers as f64, self.params.offer_prior)
    }

    /// Estimated share of `seat`'s trade offers that are bluffs.
    pub fn offer_bluff_rate(&self, seat: Seat) -> f64 {
        let s = &self.stats[seat.idx()];
        self.shrink(
            s.offer_bluffs as f64,
            s.offers as f64,
            self.params.offer_bluff_prior,
        )
        .clamp(0.01, 0.99)
    }

    /// Estimated ratio of `seat`'s counter offers to his money-valued loss.
    pub fn counter_ratio(&self, seat: Seat) -> f64 {
        let s = &self.stats[seat.idx()];
        self.shrink(s.counter_sum, s.counters as f64, self.params.counter_prior)
    }

    /// Highest bid of `seat` in the current auction run (0 if none seen).
    pub fn run_bid(&self, seat: Seat) -> u32 {
        self.run_bids[seat.idx()]
    }

    fn close_run(&mut self) {
        if self.run.is_some() {
            for s in 0..PLAYERS {
                let (b, v) = (self.run_bids[s], self.run_values[s]);
                if b == 0 || v <= 1.0 {
                    continue;
                }
                let seat = Seat(s as u8);
                let lower = (b as f64 / v).min(3.0);
                let pass = self.run_pass_high[s];
                // His ceiling lies in [last raise, high when he passed + 10).
                let tight = self.run_winner != Some(seat) && pass >= b && pass + 10 <= b + 40;
                let r = if tight {
                    ((b + pass + 10) as f64 / 2.0 / v).min(3.0)
                } else if lower > self.rate(seat) {
                    // Bought, never seen passing, or a wide interval: the last raise is only
                    // a lower bound, informative when it is above the estimate.
                    lower
                } else {
                    continue;
                };
                self.stats[s].bid_sum += r;
                self.stats[s].bid_n += 1.0;
            }
        }
        self.run = None;
        self.run_winner = None;
        self.run_bids = [0; PLAYERS];
        self.run_pass_high = [0; PLAYERS];
    }

    fn open_run(&mut self, k: &Knowledge, animal: Animal, auctioneer: Seat) {
        if self.run == Some((animal, auctioneer)) {
            return;
        }
        self.close_run();
        self.run = Some((animal, auctioneer));
        for s in Seat::ALL {
            self.run_values[s.idx()] = auction_value(&self.eval, k, s, animal, self.denial);
        }
    }

    fn note_bids(&mut self, me: Seat, history: &[(Seat, u32)]) {
        let mut high = self.run_bids.iter().copied().max().unwrap_or(0);
        for &(s, v) in history {
            if s == me {
                continue;
            }
            if v > high {
                high = v;
                self.run_bids[s.idx()] = self.run_bids[s.idx()].max(v);
            } else if self.run_bids[s.idx()] > 0 {
                self.run_pass_high[s.idx()] = high;
            }
        }
    }

    /// A question to me (before I answer); `k` is my knowledge at that moment.
    pub fn on_question(&mut self, k: &Knowledge, q: &Question) {
        if !matches!(q, Question::Reoffer { .. }) {
            self.settle_challenge();
        }
        match q {
            Question::Bid {
                animal,
                auctioneer,
                history,
                ..
            } => {
                self.open_run(k, *animal, *auctioneer);
                self.note_bids(k.me, history);
            }
            Question::BuyBack {
                animal, history, ..
            } => {
                self.open_run(k, *animal, k.me);
                self.note_bids(k.me, history);
            }
            Question::Challenged {
                challenger,
                animal,
                count,
                offer_cards,
                ..
            } => {
                self.close_run();
                let t = TradeCase {
                    challenger: *challenger,
                    opponent: k.me,
                    animal: *animal,
                    count: *count,
                };
                let m =
                    challenge_money(&self.eval, &k.herds, t, self.denial, self.params.bid_prior);
                self.their_challenge = Some((*challenger, m, *offer_cards));
            }
            Question::Start => {
                self.close_run();
                self.their_challenge = None;
            }
            Question::Pay { .. } | Question::Reoffer { .. } => {}
        }
    }

    /// I started a challenge against `opponent` for `animal` (to learn his answer).
    pub fn on_my_challenge(&mut self, k: &Knowledge, opponent: Seat, animal: Animal) {
        let count = if k.herds[k.me.idx()].count(animal) == 2
            && k.herds[opponent.idx()].count(animal) == 2
        {
            2
        } else {
            1
        };
        let t = TradeCase {
            challenger: k.me,
            opponent,
            animal,
            count,
        };
        let loss = counter_money(&self.eval, &k.herds, t, self.denial, self.params.bid_prior);
        self.my_challenge = Some((opponent, loss));
    }

    /// A notice to me; `k` is my knowledge before it is applied.
    pub fn observe(&mut self, k: &Knowledge, e: &Event) {
        match *e {
            Event::Begin => {
                *self = OpponentModel::new(self.params, self.eval, self.denial);
            }
            Event::Bought {
                animal,
                buyer,
                price,
                ..
            } => {
                if let Some((a, auctioneer)) = k.auction.or(self.run) {
                    if a == animal && buyer != auctioneer && price > 0 {
                        self.open_run(k, animal, auctioneer);
                        let b = &mut self.run_bids[buyer.idx()];
                        *b = (*b).max(price);
                        self.run_winner = Some(buyer);
                        self.stats[buyer.idx()].high_runs += 1;
                    }
                }
                self.close_run();
            }
            Event::ReceiveGoods { from: None, .. } => self.close_run(),
            Event::ReceiveMoney {
                from: Some(from), ..
            } if self.run.is_some_and(|(_, a)| a == k.me) => {
                // I auctioned and the high bidder paid me.
                if self.run_bids[from.idx()] > 0 {
                    self.run_winner = Some(from);
                    self.stats[from.idx()].high_runs += 1;
                }
                self.close_run();
            }
            Event::Bluffed { bluffer, .. } => {
                self.stats[bluffer.idx()].bluffs += 1;
                self.stats[bluffer.idx()].high_runs += 1;
                self.run_bids[bluffer.idx()] = 0;
            }
            Event::ReceiveMoney {
                cards,
                from: Some(from),
            } => {
                if let Some((c, pred, n)) = self.their_challenge {
                    if c == from {
                        let v = cards.value() as f64;
                        let st = &mut self.stats[c.idx()];
                        if pred > 1.0 {
                            st.offer_sum += (v / pred).min(3.0);
                            st.offers += 1;
                            if n > 0 && v < 0.25 * pred {
                                st.offer_bluffs += 1;
                            }
                        }
                        self.their_challenge = None;
                    }
                }
                if let Some((o, loss)) = self.my_challenge {
                    if o == from {
                        if loss > 1.0 {
                            let st = &mut self.stats[o.idx()];
                            st.counter_sum += (cards.value() as f64 / loss).min(3.0);
                            st.counters += 1;
                        }
                        self.my_challenge = None;
                    }
                }
            }
            _ => {}
        }
    }

    /// A challenge of mine that got no counter money by the next question was accepted.
    fn settle_challenge(&mut self) {
        if let Some((o, loss)) = self.my_challenge.take() {
            if loss > 1.0 {
                self.stats[o.idx()].counters += 1;
            }
        }
    }

    /// Expected offer value of `challenger` for a trade worth `money` to him (money-valued at
    /// the prior rate, as [`challenge_money`] gives it), for world sampling.
    pub fn predicted_offer(&self, challenger: Seat, money: f64) -> f64 {
        money * self.offer_ratio(challenger)
    }

    /// Expected counter offer of `opponent` when challenged for a trade that costs him
    /// `money` (money-valued at the prior rate, as [`counter_money`] gives it).
    pub fn predicted_counter(&self, opponent: Seat, money: f64) -> f64 {
        money * self.counter_ratio(opponent)
    }
}
