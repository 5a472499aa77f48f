//! The engine's tunables in the shared registry ([`kibitz_search::params`]): every evaluation
//! weight of [`crate::eval::EvalParams`], alpha-beta's knobs and the search switches of [`EngineConfig`], with the ranges the
//! tuning scripts explore. `param.NAME=V` in player specs and `--param NAME=V` go through here.

use crate::search::EngineConfig;
use kibitz_search::params::{ParamSpec, Tunable};

/// Every tunable of the Piranhas engine: alpha-beta's knobs, the evaluation weights (defaults
/// = the default preset), then the search switches (0 = off, 1 = on).
pub fn param_specs() -> Vec<ParamSpec> {
    EngineConfig::specs()
}

// One line per tunable: doc, name, the field it sets, range, step. The default is the
// field's value in `EngineConfig::default()`.
kibitz_search::tunable_fields! {
    EngineConfig {
        nested search.knobs;
        /// weight of biggest swarm / fish
        "swarm_share" => eval.swarm_share, 0..=1000, step 40;
        /// penalty per swarm beyond the first
        "groups" => eval.groups, -100..=200, step 10;
        /// spread penalty at turn 0
        "conc_open" => eval.conc_open, 0..=800, step 20;
        /// spread penalty at turn 60
        "conc_end" => eval.conc_end, 0..=800, step 25;
        /// penalty per fish on the outer ring
        "rim" => eval.rim, -50..=50, step 4;
        /// bonus per legal move
        "mobility" => eval.mobility, -20..=20, step 1;
        /// penalty per own fish capturable
        "capturable" => eval.capturable, -100..=100, step 6;
        /// bonus per own fish
        "fish" => eval.fish, -100..=200, step 8;
        /// biggest swarm × turn/60 bonus
        "big_late" => eval.big_late, -100..=100, step 6;
        /// bonus for having the move
        "tempo" => eval.tempo, -50..=50, step 4;
        /// penalty per king step of stragglers
        "join" => eval.join, -50..=100, step 4;
        /// penalty per fish outside the biggest swarm
        "stragglers" => eval.stragglers, -100..=200, step 8;
        /// penalty per step to the next union
        "gap" => eval.gap, -100..=200, step 8;
        /// biggest swarm bonus over the last 20 turns
        "limit" => eval.limit, -100..=200, step 8;
        /// bonus when BLUE is to move, penalty when RED
        "blue" => eval.blue, -200..=200, step 8;
        /// penalty per fish without a neighbour
        "isolated" => eval.isolated, -100..=200, step 8;
        /// bonus per fish of the second swarm
        "second" => eval.second, -100..=200, step 8;
        /// projected turn-60 swarm difference, from turn 30
        "proj" => eval.proj, -100..=300, step 8;
        /// sign of the projected turn-60 difference, from turn 30
        "outcome" => eval.outcome, -200..=600, step 20;
        /// penalty per capturable fish of the biggest swarm, from turn 30
        "exposed" => eval.exposed, -100..=300, step 8;
        /// quiescence search on captures
        "qs" => search.quiescence, 0..=1, step 1;
        /// late-move reductions
        "lmr" => search.lmr, 0..=1, step 1;
        /// null-move pruning (not near the round limit)
        "null" => search.null_move, 0..=1, step 1;
        // SPRT [-10, 10] at 5,000 nodes/move, null_red=0 vs null on for both: 2,052 games,
        // Elo -8.1 ± 14.5, LLR -2.99 (H0); worse by a similar margin with either colour.
        /// null move also when RED is to move (needs null=1)
        "null_red" => node.null_red, 0..=1, step 1;
        /// null move also when BLUE is to move (needs null=1)
        "null_blue" => node.null_blue, 0..=1, step 1;
        // SPRT at 5,000 nodes/move, asp=30 vs 0: 792 games, Elo +21.5 ± 23.4, LLR 3.04 (H1).
        /// root aspiration window ± centi-units (0 = off)
        "asp" => search.aspiration, 0..=1000, step 10, valid 0..=1000;
        // SPRT at 5,000 nodes/move with asp=30 on both sides, ext=1 vs 0: 688 games,
        // Elo -24.8 ± 25.4, LLR -2.99 (H0), so off.
        /// extend moves that create a union threat
        "ext" => search.extensions, 0..=1, step 1;
        /// time management (prediction, stretch on instability)
        "smart" => search.smart_time, 0..=1, step 1;
        /// solve leaves this many plies before turn 60 exactly (0 = v4)
        "end_plies" => end_plies, 0..=2, step 1, valid 0..=2;
        /// quiescence below the exactly solved leaves of end_plies (0 = none)
        "end_qs" => end_qs, 0..=1, step 1;

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

    #[test]
    fn switches_and_bounded_counts_refuse_what_they_cannot_mean() {
        let mut c = EngineConfig::default();
        for bad in ["end_qs=7", "qs=2", "lmr=-1", "end_plies=3", "asp=-5"] {
            let before = format!("{c:?}");
            let e = c.apply(bad).expect_err(bad);
            assert!(e.to_string().contains("out of range"), "{bad}: {e}");
            assert_eq!(format!("{c:?}"), before, "{bad} changed the config");
        }
        c.apply("end_qs=0").unwrap();
        assert!(!c.end_qs);
    }
}
