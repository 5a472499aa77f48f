//! The ISMCTS player's tunables ([`IsmctsParams`]) in the shared parameter registry, so that
//! `--param NAME=V`, player specs (`ismcts:param.NAME=V`) and the tuning scripts can set them.

use crate::mcts::IsmctsParams;
use kibitz_search::params::{spec, ParamError, ParamSpec, Tunable};

impl Tunable for IsmctsParams {
    fn specs() -> Vec<ParamSpec> {
        let d = IsmctsParams::default();
        vec![
            spec(
                "c",
                d.search.exploration,
                0.1,
                2.0,
                0.1,
                "UCB exploration constant",
            ),
            spec(
                "pb",
                d.search.progressive_bias,
                0.0,
                3.0,
                0.2,
                "progressive-bias weight (heuristic prior / (visits + 1))",
            ),
            spec(
                "early_stop",
                d.search.early_stop as u8 as f64,
                0.0,
                1.0,
                1.0,
                "1: stop when the most visited root move cannot be overtaken",
            ),
            spec(
                "opp_policy",
                d.search.opponent_policy,
                0.0,
                1.0,
                0.1,
                "probability that an opponent's move in the tree is the playout policy's",
            ),
            spec(
                "rollout",
                d.search.max_rollout_steps as f64,
                20.0,
                1000.0,
                20.0,
                "playout steps before the hand-size estimate is used",
            ),
            spec(
                "eps",
                d.playout.epsilon,
                0.0,
                0.6,
                0.05,
                "playout probability of a uniformly random move",
            ),
            spec(
                "r78",
                d.playout.special_bonus as f64,
                -20.0,
                100.0,
                5.0,
                "playout bonus for 7s and 8s",
            ),
            spec(
                "rjack",
                d.playout.jack_cost as f64,
                0.0,
                200.0,
                10.0,
                "playout penalty for Jacks",
            ),
            spec(
                "rsuit",
                d.playout.suit_weight as f64,
                0.0,
                20.0,
                1.0,
                "playout score per card held of the played suit",
            ),
            spec(
                "r8follow",
                d.playout.eight_follow as f64,
                0.0,
                100.0,
                5.0,
                "playout bonus for an 8 we can follow (two players)",
            ),
            spec(
                "rvoid",
                d.playout.void_bonus as f64,
                0.0,
                100.0,
                5.0,
                "playout bonus for a play the next player cannot follow (sampled deal)",
            ),
            spec(
                "r7",
                d.playout.seven_bonus as f64,
                -100.0,
                100.0,
                5.0,
                "playout bonus for 7s on top of r78",
            ),
            spec(
                "r7short",
                d.playout.seven_short as f64,
                -50.0,
                100.0,
                5.0,
                "playout bonus for a 7 times 8 / (next player's cards + 1)",
            ),
            spec(
                "rfollow",
                d.playout.follow_bonus as f64,
                -50.0,
                100.0,
                5.0,
                "playout bonus when the rest of the hand fits the card laid",
            ),
            spec(
                "rofit",
                d.playout.opp_fit as f64,
                -20.0,
                50.0,
                2.0,
                "playout cost per card of the next player's that fits after the play",
            ),
            spec(
                "rgumbel",
                d.playout.gumbel as u8 as f64,
                0.0,
                1.0,
                1.0,
                "1: playout noise is Gumbel in tenths of a nat (a softmax choice), not 0-3 points",
            ),
            spec(
                "rdraw",
                d.playout.draw_bias as f64,
                -1000.0,
                100.0,
                5.0,
                "with rgumbel=1: playout score of drawing although a card fits",
            ),
            spec(
                "rdrawjack",
                d.playout.draw_jack as f64,
                -100.0,
                100.0,
                5.0,
                "with rgumbel=1: further playout score of drawing when only Jacks fit",
            ),
            spec(
                "rdrawvoid",
                d.playout.draw_void as f64,
                -100.0,
                100.0,
                5.0,
                "with rgumbel=1: playout score of drawing when the next player cannot follow the top",
            ),
            spec(
                "rdrawofit",
                d.playout.draw_opp_fit as f64,
                -50.0,
                50.0,
                2.0,
                "with rgumbel=1: playout cost of drawing per next player's card that fits the top",
            ),
            spec(
                "ev_draw",
                d.evidence.per_draw,
                0.001,
                1.0,
                0.05,
                "sampling weight per draw made while the card would have been legal (ever)",
            ),
            spec(
                "ev_void",
                d.evidence.void,
                0.001,
                1.0,
                0.05,
                "sampling weight of a card legal at the seat's last draw, one card ago",
            ),
            spec(
                "ev_decay",
                d.evidence.decay,
                0.0,
                1.0,
                0.05,
                "how slowly that void evidence fades per card the seat draws later",
            ),
            spec(
                "ev_wish",
                d.evidence.wish,
                1.0,
                10.0,
                0.5,
                "sampling weight per wish of the card's suit",
            ),
            spec(
                "ev_jack",
                d.evidence.jack,
                0.01,
                1.0,
                0.05,
                "sampling weight per Jack spent while the card would have been legal",
            ),
            spec(
                "om_play",
                d.model.play,
                0.0,
                16.0,
                0.5,
                "opponent model: weight of a played card's greedy score (0 = off)",
            ),
            spec(
                "om_wish",
                d.model.wish,
                0.0,
                16.0,
                0.5,
                "opponent model: weight of the wished suit's count in the hand (0 = off)",
            ),
            spec(
                "om_void",
                d.model.void,
                0.001,
                1.0,
                0.05,
                "opponent model: factor per fitting card held at a draw (1 = off)",
            ),
            spec(
                "om_noise",
                d.model.noise,
                0.0,
                1.0,
                0.05,
                "opponent model: share of choices taken as uniformly random",
            ),
            spec(
                "om_particles",
                d.model.particles as f64,
                0.0,
                4096.0,
                64.0,
                "opponent model: candidate deals scored per decision (0 = off)",
            ),
            spec(
                "om_filter",
                d.model.filter as u8 as f64,
                0.0,
                1.0,
                1.0,
                "1: follow the opponent's hand forward with a particle filter (two players)",
            ),
            spec(
                "om_p78",
                d.model.special,
                0.0,
                20.0,
                1.0,
                "opponent model: bonus of a 7 or 8 in the soft greedy score (cards of a suit)",
            ),
            spec(
                "om_pjack",
                d.model.jack,
                0.0,
                40.0,
                2.0,
                "opponent model: cost of a Jack in the soft greedy score (cards of a suit)",
            ),
            spec(
                "eg_hand",
                d.endgame.hand as f64,
                0.0,
                8.0,
                1.0,
                "endgame PIMC once no hand holds more cards than this (0 = off)",
            ),
            spec(
                "eg_worlds",
                d.endgame.worlds as f64,
                4.0,
                512.0,
                8.0,
                "endgame PIMC: determinized worlds per decision",
            ),
            spec(
                "eg_depth",
                d.endgame.depth as f64,
                2.0,
                16.0,
                1.0,
                "endgame PIMC: plies of the exact search per world",
            ),
        ]
    }

    fn set_param(&mut self, name: &str, v: f64) -> Result<(), ParamError> {
        let int = |v: f64| v.round() as i32;
        match name {
            "c" => self.search.exploration = v,
            "pb" => self.search.progressive_bias = v,
            "early_stop" => self.search.early_stop = v.round() != 0.0,
            "opp_policy" => self.search.opponent_policy = v.clamp(0.0, 1.0),
            "rollout" => self.search.max_rollout_steps = v.round().clamp(0.0, 1e6) as u32,
            "eps" => self.playout.epsilon = v.clamp(0.0, 1.0),
            "r78" => self.playout.special_bonus = int(v),
            "rjack" => self.playout.jack_cost = int(v),
            "rsuit" => self.playout.suit_weight = int(v),
            "r8follow" => self.playout.eight_follow = int(v),
            "rvoid" => self.playout.void_bonus = int(v),
            "r7" => self.playout.seven_bonus = int(v),
            "r7short" => self.playout.seven_short = int(v),
            "rfollow" => self.playout.follow_bonus = int(v),
            "rofit" => self.playout.opp_fit = int(v),
            "rgumbel" => self.playout.gumbel = v.round() != 0.0,
            "rdraw" => self.playout.draw_bias = int(v),
            "rdrawjack" => self.playout.draw_jack = int(v),
            "rdrawvoid" => self.playout.draw_void = int(v),
            "rdrawofit" => self.playout.draw_opp_fit = int(v),
            "ev_draw" => self.evidence.per_draw = v.max(0.0),
            "ev_void" => self.evidence.void = v.clamp(0.0, 1.0),
            "ev_decay" => self.evidence.decay = v.clamp(0.0, 1.0),
            "ev_wish" => self.evidence.wish = v.max(0.0),
            "ev_jack" => self.evidence.jack = v.max(0.0),
            "om_play" => self.model.play = v.max(0.0),
            "om_wish" => self.model.wish = v.max(0.0),
            "om_void" => self.model.void = v.clamp(0.0, 1.0),
            "om_noise" => self.model.noise = v.clamp(0.0, 1.0),
            "om_particles" => self.model.particles = v.round().clamp(0.0, 1e6) as u32,
            "om_filter" => self.model.filter = v.round() != 0.0,
            "om_p78" => self.model.special = v,
            "om_pjack" => self.model.jack = v,
            "eg_hand" => self.endgame.hand = v.round().clamp(0.0, 32.0) as u32,
            "eg_worlds" => self.endgame.worlds = v.round().clamp(1.0, 1e6) as u32,
            "eg_depth" => self.endgame.depth = v.round().clamp(1.0, 64.0) as u32,
            _ => return Err(ParamError::Unknown(name.to_string())),
        }
        Ok(())
    }

    fn get_param(&self, name: &str) -> Option<f64> {
        Some(match name {
            "c" => self.search.exploration,
            "pb" => self.search.progressive_bias,
            "early_stop" => self.search.early_stop as u8 as f64,
            "opp_policy" => self.search.opponent_policy,
            "rollout" => self.search.max_rollout_steps as f64,
            "eps" => self.playout.epsilon,
            "r78" => self.playout.special_bonus as f64,
            "rjack" => self.playout.jack_cost as f64,
            "rsuit" => self.playout.suit_weight as f64,
            "r8follow" => self.playout.eight_follow as f64,
            "rvoid" => self.playout.void_bonus as f64,
            "r7" => self.playout.seven_bonus as f64,
            "r7short" => self.playout.seven_short as f64,
            "rfollow" => self.playout.follow_bonus as f64,
            "rofit" => self.playout.opp_fit as f64,
            "rgumbel" => self.playout.gumbel as u8 as f64,
            "rdraw" => self.playout.draw_bias as f64,
            "rdrawjack" => self.playout.draw_jack as f64,
            "rdrawvoid" => self.playout.draw_void as f64,
            "rdrawofit" => self.playout.draw_opp_fit as f64,
            "ev_draw" => self.evidence.per_draw,
            "ev_void" => self.evidence.void,
            "ev_decay" => self.evidence.decay,
            "ev_wish" => self.evidence.wish,
            "ev_jack" => self.evidence.jack,
            "om_play" => self.model.play,
            "om_wish" => self.model.wish,
            "om_void" => self.model.void,
            "om_noise" => self.model.noise,
            "om_particles" => self.model.particles as f64,
            "om_filter" => self.model.filter as u8 as f64,
            "om_p78" => self.model.special,
            "om_pjack" => self.model.jack,
            "eg_hand" => self.endgame.hand as f64,
            "eg_worlds" => self.endgame.worlds as f64,
            "eg_depth" => self.endgame.depth as f64,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        p.apply("c=1.25").unwrap();
        assert_eq!(p.search.exploration, 1.25);
    }
}
