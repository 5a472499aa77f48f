//! The ISMCTS player's tunables ([`IsmctsParams`]) in the shared parameter registry, so that
//! `--param NAME=V`, player specs (`ismcts:param.NAME=V`) and the tuning scripts can set them.

use crate::mcts::IsmctsParams;

// One line per tunable: doc, name, the field it sets, range, step. The default is the
// field's value in `IsmctsParams::default()`.
kibitz_search::tunable_fields! {
    IsmctsParams {
        /// UCB exploration constant
        "c" => search.exploration, 0.1..=2.0, step 0.1;
        /// progressive-bias weight (heuristic prior / (visits + 1))
        "pb" => search.progressive_bias, 0.0..=3.0, step 0.2;
        /// 1: stop when the most visited root move cannot be overtaken
        "early_stop" => search.early_stop, 0.0..=1.0, step 1.0;
        /// probability that an opponent's move in the tree is the playout policy's
        "opp_policy" => search.opponent_policy, 0.0..=1.0, step 0.1, valid 0.0..=1.0;
        /// playout steps before the hand-size estimate is used
        "rollout" => search.max_rollout_steps, 20.0..=1000.0, step 20.0, valid 0..=1000000;
        /// playout probability of a uniformly random move
        "eps" => playout.epsilon, 0.0..=0.6, step 0.05, valid 0.0..=1.0;
        /// playout bonus for 7s and 8s
        "r78" => playout.special_bonus, -20.0..=100.0, step 5.0;
        /// playout penalty for Jacks
        "rjack" => playout.jack_cost, 0.0..=200.0, step 10.0;
        /// playout score per card held of the played suit
        "rsuit" => playout.suit_weight, 0.0..=20.0, step 1.0;
        /// playout bonus for an 8 we can follow (two players)
        "r8follow" => playout.eight_follow, 0.0..=100.0, step 5.0;
        /// playout bonus for a play the next player cannot follow (sampled deal)
        "rvoid" => playout.void_bonus, 0.0..=100.0, step 5.0;
        /// playout bonus for 7s on top of r78
        "r7" => playout.seven_bonus, -100.0..=100.0, step 5.0;
        /// playout bonus for a 7 times 8 / (next player's cards + 1)
        "r7short" => playout.seven_short, -50.0..=100.0, step 5.0;
        /// playout bonus when the rest of the hand fits the card laid
        "rfollow" => playout.follow_bonus, -50.0..=100.0, step 5.0;
        /// playout cost per card of the next player's that fits after the play
        "rofit" => playout.opp_fit, -20.0..=50.0, step 2.0;
        /// 1: playout noise is Gumbel in tenths of a nat (a softmax choice), not 0-3 points
        "rgumbel" => playout.gumbel, 0.0..=1.0, step 1.0;
        /// with rgumbel=1: playout score of drawing although a card fits
        "rdraw" => playout.draw_bias, -1000.0..=100.0, step 5.0;
        /// with rgumbel=1: further playout score of drawing when only Jacks fit
        "rdrawjack" => playout.draw_jack, -100.0..=100.0, step 5.0;
        /// with rgumbel=1: playout score of drawing when the next player cannot follow the top
        "rdrawvoid" => playout.draw_void, -100.0..=100.0, step 5.0;
        /// with rgumbel=1: playout cost of drawing per next player's card that fits the top
        "rdrawofit" => playout.draw_opp_fit, -50.0..=50.0, step 2.0;
        /// sampling weight per draw made while the card would have been legal (ever)
        "ev_draw" => evidence.per_draw, 0.001..=1.0, step 0.05, valid 0.0..=1e9;
        /// sampling weight of a card legal at the seat's last draw, one card ago
        "ev_void" => evidence.void, 0.001..=1.0, step 0.05, valid 0.0..=1.0;
        /// how slowly that void evidence fades per card the seat draws later
        "ev_decay" => evidence.decay, 0.0..=1.0, step 0.05, valid 0.0..=1.0;
        /// sampling weight per wish of the card's suit
        "ev_wish" => evidence.wish, 1.0..=10.0, step 0.5, valid 0.0..=1e9;
        /// sampling weight per Jack spent while the card would have been legal
        "ev_jack" => evidence.jack, 0.01..=1.0, step 0.05, valid 0.0..=1e9;
        /// opponent model: weight of a played card's greedy score (0 = off)
        "om_play" => model.play, 0.0..=16.0, step 0.5, valid 0.0..=1e9;
        /// opponent model: weight of the wished suit's count in the hand (0 = off)
        "om_wish" => model.wish, 0.0..=16.0, step 0.5, valid 0.0..=1e9;
        /// opponent model: factor per fitting card held at a draw (1 = off)
        "om_void" => model.void, 0.001..=1.0, step 0.05, valid 0.0..=1.0;
        /// opponent model: share of choices taken as uniformly random
        "om_noise" => model.noise, 0.0..=1.0, step 0.05, valid 0.0..=1.0;
        /// opponent model: candidate deals scored per decision (0 = off)
        "om_particles" => model.particles, 0.0..=4096.0, step 64.0, valid 0..=1000000;
        /// 1: follow the opponent's hand forward with a particle filter (two players)
        "om_filter" => model.filter, 0.0..=1.0, step 1.0;
        /// opponent model: bonus of a 7 or 8 in the soft greedy score (cards of a suit)
        "om_p78" => model.special, 0.0..=20.0, step 1.0;
        /// opponent model: cost of a Jack in the soft greedy score (cards of a suit)
        "om_pjack" => model.jack, 0.0..=40.0, step 2.0;
        /// probability of the greedy bot's move for an opponent the filter finds greedy,
        /// inside the tree (its playouts are the greedy bot's whenever this is above 0)
        "om_exploit" => exploit, 0.0..=1.0, step 0.25, valid 0.0..=1.0;
        /// the filter's greedy posterior from which om_exploit models the opponent as greedy
        "om_belief" => exploit_belief, 0.5..=0.99, step 0.05, valid 0.0..=1.0;
        /// endgame PIMC once no hand holds more cards than this (0 = off)
        "eg_hand" => endgame.hand, 0..=8, step 1, valid 0..=32;
        /// endgame PIMC: determinized worlds per decision
        "eg_worlds" => endgame.worlds, 4..=512, step 8, valid 1..=1000000;
        /// endgame PIMC: plies of the exact search per world
        "eg_depth" => endgame.depth, 2..=16, step 1, valid 1..=64;

    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz_search::params::Tunable;

    #[test]
    fn every_spec_round_trips_and_defaults_match() {
        let d = IsmctsParams::default();
        for s in IsmctsParams::specs() {
            assert_eq!(d.get_param(s.name), Some(s.default), "{}", s.name);
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            let mut p = d;
            let v = if s.is_integer() {
                s.max.round()
            } else {
                (s.min + s.max) / 2.0
            };
            p.set_param(s.name, v).unwrap();
            assert_eq!(p.get_param(s.name), Some(v), "{}", s.name);
        }
        let mut p = d;
        assert!(p.apply("nope=1").is_err());
        assert!(p.apply("c=x").is_err());
        let eps = p.playout.epsilon;
        assert!(p.apply("eps=1.5").is_err(), "a probability is at most one");
        assert_eq!(p.playout.epsilon, eps, "a refused value changes nothing");
        p.apply("c=1.25").unwrap();
        assert_eq!(p.search.exploration, 1.25);
    }
}
