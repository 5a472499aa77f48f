//! The engine's tunables in the shared registry ([`kibitz_search::params`]): every evaluation
//! weight of [`EvalParams`] and the search switches of [`EngineConfig`], with the ranges the
//! tuning scripts explore. `param.NAME=V` in player specs and `--param NAME=V` go through here.

use crate::eval::EvalParams;
use crate::search::EngineConfig;
use kibitz_search::params::{ParamError, ParamSpec, Tunable};

/// One integer spec (all Piranhas tunables are whole numbers).
const fn spec(
    name: &'static str,
    default: i32,
    min: i32,
    max: i32,
    step: i32,
    doc: &'static str,
) -> ParamSpec {
    ParamSpec {
        name,
        default: default as f64,
        min: min as f64,
        max: max as f64,
        step: step as f64,
        doc,
    }
}

/// Every tunable of the Piranhas engine: evaluation weights first (defaults = the default
/// preset), then the search switches (0 = off, 1 = on).
pub fn param_specs() -> Vec<ParamSpec> {
    let d = EvalParams::default();
    vec![
        spec(
            "swarm_share",
            d.swarm_share,
            0,
            1000,
            40,
            "weight of biggest swarm / fish",
        ),
        spec(
            "groups",
            d.groups,
            -100,
            200,
            10,
            "penalty per swarm beyond the first",
        ),
        spec(
            "conc_open",
            d.conc_open,
            0,
            800,
            20,
            "spread penalty at turn 0",
        ),
        spec(
            "conc_end",
            d.conc_end,
            0,
            800,
            25,
            "spread penalty at turn 60",
        ),
        spec(
            "rim",
            d.rim,
            -50,
            50,
            4,
            "penalty per fish on the outer ring",
        ),
        spec("mobility", d.mobility, -20, 20, 1, "bonus per legal move"),
        spec(
            "capturable",
            d.capturable,
            -100,
            100,
            6,
            "penalty per own fish capturable",
        ),
        spec("fish", d.fish, -100, 200, 8, "bonus per own fish"),
        spec(
            "big_late",
            d.big_late,
            -100,
            100,
            6,
            "biggest swarm × turn/60 bonus",
        ),
        spec("tempo", d.tempo, -50, 50, 4, "bonus for having the move"),
        spec(
            "join",
            d.join,
            -50,
            100,
            4,
            "penalty per king step of stragglers",
        ),
        spec(
            "stragglers",
            d.stragglers,
            -100,
            200,
            8,
            "penalty per fish outside the biggest swarm",
        ),
        spec(
            "gap",
            d.gap,
            -100,
            200,
            8,
            "penalty per step to the next union",
        ),
        spec(
            "limit",
            d.limit,
            -100,
            200,
            8,
            "biggest swarm bonus over the last 20 turns",
        ),
        spec(
            "blue",
            d.blue,
            -200,
            200,
            8,
            "bonus when BLUE is to move, penalty when RED",
        ),
        spec(
            "isolated",
            d.isolated,
            -100,
            200,
            8,
            "penalty per fish without a neighbour",
        ),
        spec(
            "second",
            d.second,
            -100,
            200,
            8,
            "bonus per fish of the second swarm",
        ),
        spec("qs", 1, 0, 1, 1, "quiescence search on captures"),
        spec("lmr", 1, 0, 1, 1, "late-move reductions"),
        spec(
            "null",
            1,
            0,
            1,
            1,
            "null-move pruning (not near the round limit)",
        ),
        // SPRT [-10, 10] at 5,000 nodes/move, null_red=0 vs null on for both: 2,052 games,
        // Elo -8.1 ± 14.5, LLR -2.99 (H0); worse by a similar margin with either colour.
        spec(
            "null_red",
            1,
            0,
            1,
            1,
            "null move also when RED is to move (needs null=1)",
        ),
        spec(
            "null_blue",
            1,
            0,
            1,
            1,
            "null move also when BLUE is to move (needs null=1)",
        ),
        // SPRT at 5,000 nodes/move, asp=30 vs 0: 792 games, Elo +21.5 ± 23.4, LLR 3.04 (H1).
        spec(
            "asp",
            30,
            0,
            1000,
            10,
            "root aspiration window ± centi-units (0 = off)",
        ),
        // SPRT at 5,000 nodes/move with asp=30 on both sides, ext=1 vs 0: 688 games,
        // Elo -24.8 ± 25.4, LLR -2.99 (H0), so off.
        spec("ext", 0, 0, 1, 1, "extend moves that create a union threat"),
        spec(
            "smart",
            1,
            0,
            1,
            1,
            "time management (prediction, stretch on instability)",
        ),
        spec(
            "end_plies",
            2,
            0,
            2,
            1,
            "solve leaves this many plies before turn 60 exactly (0 = v4)",
        ),
    ]
}

impl Tunable for EngineConfig {
    fn specs() -> Vec<ParamSpec> {
        param_specs()
    }

    fn set_param(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        let v = value.round().clamp(i32::MIN as f64, i32::MAX as f64) as i32;
        let on = v != 0;
        match name {
            "qs" => self.search.quiescence = on,
            "lmr" => self.search.lmr = on,
            "null" => self.search.null_move = on,
            "null_red" => self.node.null_red = on,
            "null_blue" => self.node.null_blue = on,
            "asp" => self.search.aspiration = v.clamp(0, 1000),
            "ext" => self.search.extensions = on,
            "smart" => self.search.smart_time = on,
            "end_plies" => self.end_plies = v.clamp(0, 2) as u32,
            _ => {
                if !self.eval.set(name, v) {
                    return Err(ParamError::Unknown(name.to_string()));
                }
            }
        }
        Ok(())
    }

    fn get_param(&self, name: &str) -> Option<f64> {
        let flag = |b: bool| Some(f64::from(u8::from(b)));
        match name {
            "qs" => flag(self.search.quiescence),
            "lmr" => flag(self.search.lmr),
            "null" => flag(self.search.null_move),
            "null_red" => flag(self.node.null_red),
            "null_blue" => flag(self.node.null_blue),
            "asp" => Some(f64::from(self.search.aspiration)),
            "ext" => flag(self.search.extensions),
            "smart" => flag(self.search.smart_time),
            "end_plies" => Some(f64::from(self.end_plies)),
            _ => self.eval.get(name).map(f64::from),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spec_is_settable_and_defaults_match_the_config() {
        let config = EngineConfig::default();
        for s in param_specs() {
            assert_eq!(config.get_param(s.name), Some(s.default), "{}", s.name);
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            let mut c = EngineConfig::default();
            c.set_param(s.name, s.max).unwrap();
            assert_eq!(c.get_param(s.name), Some(s.max), "{}", s.name);
        }
        let mut c = EngineConfig::default();
        assert!(c.apply("nope=1").is_err());
        c.apply("lmr=0").unwrap();
        assert!(!c.search.lmr);
        c.apply("fish=12.4").unwrap();
        assert_eq!(c.eval.fish, 12);
    }
}
