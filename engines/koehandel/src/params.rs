//! The strong player's tunables in the shared registry ([`Tunable`] for [`StrongParams`]).
//!
//! Names are the ones `make_player` accepts, both as `strong:NAME=V` and as
//! `strong:param.NAME=V`; switches are numbers (0 = off, anything else = on).

use kibitz_search::params::{spec, ParamError, ParamSpec, Tunable};

use crate::strong::StrongParams;

/// Every tunable of the strong player, with its default.
pub fn strong_specs() -> Vec<ParamSpec> {
    vec![
        spec(
            "worlds",
            64.0,
            4.0,
            512.0,
            16.0,
            "worlds sampled per decision",
        ),
        spec(
            "particles",
            48.0,
            4.0,
            512.0,
            16.0,
            "particles in the money belief",
        ),
        spec(
            "trades",
            3.0,
            0.0,
            10.0,
            1.0,
            "trade starts considered as candidates",
        ),
        spec(
            "prices",
            4.0,
            1.0,
            12.0,
            1.0,
            "price points for an auction's reservation price",
        ),
        spec(
            "rate",
            0.35,
            0.1,
            1.0,
            0.05,
            "roll-out policy: money per point of marginal value",
        ),
        spec(
            "denial",
            0.3,
            0.0,
            1.0,
            0.05,
            "roll-out policy: share of an opponent's gain counted",
        ),
        spec(
            "trade",
            250.0,
            0.0,
            1000.0,
            50.0,
            "roll-out policy: minimum gain to start a trade",
        ),
        spec(
            "contested",
            0.8,
            0.3,
            1.0,
            0.05,
            "valuation: factor per opponent holding a kind",
        ),
        spec(
            "weighted",
            1.0,
            0.0,
            1.0,
            1.0,
            "weight worlds by the observed bids and offers (0/1)",
        ),
        spec(
            "model_offers",
            1.0,
            0.0,
            1.0,
            1.0,
            "sample a challenger's offer from his model (0/1)",
        ),
        spec(
            "model_rollouts",
            1.0,
            0.0,
            1.0,
            1.0,
            "opponents' modelled rates in roll-outs (0/1)",
        ),
        spec(
            "counter_cands",
            1.0,
            0.0,
            1.0,
            1.0,
            "trade offers just above the modelled counter (0/1)",
        ),
        spec(
            "mc_start",
            0.0,
            0.0,
            1.0,
            1.0,
            "Monte-Carlo turn action (0: the heuristic's; for ablations)",
        ),
        spec(
            "mc_bid",
            1.0,
            0.0,
            1.0,
            1.0,
            "Monte-Carlo auction reservation price (0: heuristic ceiling)",
        ),
        spec(
            "mc_buyback",
            1.0,
            0.0,
            1.0,
            1.0,
            "Monte-Carlo buy-back as auctioneer (0: the heuristic's)",
        ),
        spec(
            "mc_counter",
            1.0,
            0.0,
            1.0,
            1.0,
            "Monte-Carlo counter offer when challenged (0: the heuristic's)",
        ),
        spec(
            "price_bisect",
            0.0,
            0.0,
            1.0,
            1.0,
            "reservation price by bisection with `prices` tests (0: linear scan)",
        ),
        spec(
            "margin",
            0.3,
            0.0,
            2.0,
            0.1,
            "utility: weight of the score margin next to the win share",
        ),
        spec(
            "auction_sim",
            1.0,
            0.0,
            1.0,
            1.0,
            "reservation by playing the auction out for each price cap (0/1)",
        ),
        spec(
            "start_split",
            0.0,
            0.0,
            1.0,
            1.0,
            "turn action: trade picked on half the worlds, tested vs auction on the rest",
        ),
        spec(
            "prior_weight",
            6.0,
            0.0,
            50.0,
            2.0,
            "model: weight of the priors, in observations",
        ),
        spec("bid_prior", 0.35, 0.1, 1.0, 0.05, "model: prior bid rate"),
        spec(
            "bluff_prior",
            0.05,
            0.0,
            1.0,
            0.02,
            "model: prior share of bluffed bids",
        ),
        spec(
            "offer_prior",
            0.8,
            0.1,
            2.0,
            0.1,
            "model: prior offer over predicted worth",
        ),
        spec(
            "offer_bluff_prior",
            0.1,
            0.0,
            1.0,
            0.05,
            "model: prior share of bluffed offers",
        ),
        spec(
            "counter_prior",
            1.0,
            0.1,
            2.0,
            0.1,
            "model: prior counter offer over predicted loss",
        ),
    ]
}

impl Tunable for StrongParams {
    fn specs() -> Vec<ParamSpec> {
        strong_specs()
    }

    fn set_param(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        let count = |v: f64, min: f64| v.round().max(min) as usize;
        match name {
            "worlds" => self.worlds = count(value, 1.0),
            "particles" => self.particles = count(value, 1.0),
            "trades" => self.trade_candidates = count(value, 0.0),
            "prices" => self.price_points = count(value, 1.0),
            "rate" => self.rollout.rate = value,
            "denial" => self.rollout.denial = value,
            "trade" => self.rollout.trade_threshold = value,
            "contested" => self.rollout.eval.contested = value,
            "weighted" => self.weighted = value != 0.0,
            "model_offers" => self.model_offers = value != 0.0,
            "model_rollouts" => self.model_rollouts = value != 0.0,
            "counter_cands" => self.counter_cands = value != 0.0,
            "mc_start" => self.mc_start = value != 0.0,
            "mc_bid" => self.mc_bid = value != 0.0,
            "mc_buyback" => self.mc_buyback = value != 0.0,
            "mc_counter" => self.mc_counter = value != 0.0,
            "price_bisect" => self.price_bisect = value != 0.0,
            "margin" => self.margin = value.max(0.0),
            "auction_sim" => self.auction_sim = value != 0.0,
            "start_split" => self.start_split = value != 0.0,
            "prior_weight" => self.model.prior_weight = value.max(0.0),
            "bid_prior" => self.model.bid_prior = value,
            "bluff_prior" => self.model.bluff_prior = value.clamp(0.0, 1.0),
            "offer_prior" => self.model.offer_prior = value,
            "offer_bluff_prior" => self.model.offer_bluff_prior = value.clamp(0.0, 1.0),
            "counter_prior" => self.model.counter_prior = value,
            _ => return Err(ParamError::Unknown(name.to_string())),
        }
        Ok(())
    }

    fn get_param(&self, name: &str) -> Option<f64> {
        let b = |x: bool| if x { 1.0 } else { 0.0 };
        Some(match name {
            "worlds" => self.worlds as f64,
            "particles" => self.particles as f64,
            "trades" => self.trade_candidates as f64,
            "prices" => self.price_points as f64,
            "rate" => self.rollout.rate,
            "denial" => self.rollout.denial,
            "trade" => self.rollout.trade_threshold,
            "contested" => self.rollout.eval.contested,
            "weighted" => b(self.weighted),
            "model_offers" => b(self.model_offers),
            "model_rollouts" => b(self.model_rollouts),
            "counter_cands" => b(self.counter_cands),
            "mc_start" => b(self.mc_start),
            "mc_bid" => b(self.mc_bid),
            "mc_buyback" => b(self.mc_buyback),
            "mc_counter" => b(self.mc_counter),
            "price_bisect" => b(self.price_bisect),
            "margin" => self.margin,
            "auction_sim" => b(self.auction_sim),
            "start_split" => b(self.start_split),
            "prior_weight" => self.model.prior_weight,
            "bid_prior" => self.model.bid_prior,
            "bluff_prior" => self.model.bluff_prior,
            "offer_prior" => self.model.offer_prior,
            "offer_bluff_prior" => self.model.offer_bluff_prior,
            "counter_prior" => self.model.counter_prior,
            _ => return None,
        })
    }
}
