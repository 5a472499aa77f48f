//! The strong player's tunables in the shared registry ([`Tunable`] for [`StrongParams`]).
//!
//! Names are the ones `make_agent` accepts, both as `strong:NAME=V` and as
//! `strong:param.NAME=V`; switches are numbers (0 = off, anything else = on).

use kibitz_search::params::{ParamSpec, Tunable};

use crate::strong::StrongParams;

/// Every tunable of the strong player, with its default.
pub fn strong_specs() -> Vec<ParamSpec> {
    StrongParams::specs()
}

// One line per tunable: doc, name, the field it sets, range, step. The default is the
// field's value in `StrongParams::default()`.
kibitz_search::tunable_fields! {
    StrongParams {
        /// worlds sampled per decision
        "worlds" => worlds, 4.0..=512.0, step 16.0, valid 1..=1000000;
        /// particles in the money belief
        "particles" => particles, 4.0..=512.0, step 16.0, valid 1..=1000000;
        /// trade starts considered as candidates
        "trades" => trade_candidates, 0.0..=10.0, step 1.0, valid 0..=1000000;
        /// price points for an auction's reservation price
        "prices" => price_points, 1.0..=12.0, step 1.0, valid 1..=1000000;
        /// roll-out policy: money per point of marginal value
        "rate" => rollout.rate, 0.1..=1.0, step 0.05;
        /// roll-out policy: share of an opponent's gain counted
        "denial" => rollout.denial, 0.0..=1.0, step 0.05;
        /// roll-out policy: minimum gain to start a trade
        "trade" => rollout.trade_threshold, 0.0..=1000.0, step 50.0;
        /// valuation: factor per opponent holding a kind
        "contested" => rollout.eval.contested, 0.3..=1.0, step 0.05;
        /// weight worlds by the observed bids and offers (0/1)
        "weighted" => weighted, 0.0..=1.0, step 1.0;
        /// sample a challenger's offer from his model (0/1)
        "model_offers" => model_offers, 0.0..=1.0, step 1.0;
        /// opponents' modelled rates in roll-outs (0/1)
        "model_rollouts" => model_rollouts, 0.0..=1.0, step 1.0;
        /// trade offers just above the modelled counter (0/1)
        "counter_cands" => counter_cands, 0.0..=1.0, step 1.0;
        /// Monte-Carlo turn action (0: the heuristic's; for ablations)
        "mc_start" => mc_start, 0.0..=1.0, step 1.0;
        /// Monte-Carlo auction reservation price (0: heuristic ceiling)
        "mc_bid" => mc_bid, 0.0..=1.0, step 1.0;
        /// Monte-Carlo buy-back as auctioneer (0: the heuristic's)
        "mc_buyback" => mc_buyback, 0.0..=1.0, step 1.0;
        /// Monte-Carlo counter offer when challenged (0: the heuristic's)
        "mc_counter" => mc_counter, 0.0..=1.0, step 1.0;
        /// reservation price by bisection with `prices` tests (0: linear scan)
        "price_bisect" => price_bisect, 0.0..=1.0, step 1.0;
        /// utility: weight of the score margin next to the win share
        "margin" => margin, 0.0..=2.0, step 0.1, valid 0.0..=1e9;
        /// reservation by playing the auction out for each price cap (0/1)
        "auction_sim" => auction_sim, 0.0..=1.0, step 1.0;
        /// turn action: trade picked on half the worlds, tested vs auction on the rest
        "start_split" => start_split, 0.0..=1.0, step 1.0;
        /// model: weight of the priors, in observations
        "prior_weight" => model.prior_weight, 0.0..=50.0, step 2.0, valid 0.0..=1e9;
        /// model: prior bid rate
        "bid_prior" => model.bid_prior, 0.1..=1.0, step 0.05;
        /// model: prior share of bluffed bids
        "bluff_prior" => model.bluff_prior, 0.0..=1.0, step 0.02, valid 0.0..=1.0;
        /// model: prior offer over predicted worth
        "offer_prior" => model.offer_prior, 0.1..=2.0, step 0.1;
        /// model: prior share of bluffed offers
        "offer_bluff_prior" => model.offer_bluff_prior, 0.0..=1.0, step 0.05, valid 0.0..=1.0;
        /// model: prior counter offer over predicted loss
        "counter_prior" => model.counter_prior, 0.1..=2.0, step 0.1;

    }
}
