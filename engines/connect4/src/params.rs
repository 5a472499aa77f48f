//! The engine's tunables under the shared registry ([`kibitz_search::params`]): what matters
//! when the solver cannot finish — on big boards always, on 7 × 6 between the book and the
//! solver's reach — namely the heuristic search's evaluation weights, its late-move
//! reductions, and the share of the budget the solver gets before the fallback.
//!
//! `kibitz connect4 play|audit|timing --param NAME=V` and `connect4-bot --param NAME=V` set
//! them; [`crate::param_specs`] lists them for tuning scripts.

use crate::eval::{Weights, GOOD_THREAT, SEGMENT, STACKED, TEMPO, THREAT};
use kibitz_search::params::{spec, ParamError, ParamSpec, Tunable};

/// Tunable settings of [`crate::Engine`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineParams {
    /// Evaluation weights of the heuristic search.
    pub weights: Weights,
    /// Late-move reductions in the heuristic search.
    pub lmr: bool,
    /// Share of the soft budget the solver may use before the fallback, in thousandths
    /// (an integer keeps the struct `Eq`; the parameter `solver_share` is the fraction).
    pub solver_share_permille: u32,
    /// Share of what is left of the soft budget (node budget: of the per-move node limit)
    /// for cheap null-window proofs among the fallback's candidates
    /// ([`crate::root::cheap_proofs`]), in thousandths; 0 turns them off.
    pub cheap_share_permille: u32,
}

impl Default for EngineParams {
    fn default() -> Self {
        Self {
            weights: Weights::default(),
            lmr: true,
            solver_share_permille: (crate::engine::SOLVER_SHARE * 1000.0).round() as u32,
            cheap_share_permille: (crate::engine::CHEAP_SHARE * 1000.0).round() as u32,
        }
    }
}

impl Tunable for EngineParams {
    fn specs() -> Vec<ParamSpec> {
        vec![
            spec(
                "threat",
                THREAT as f64,
                0.0,
                300.0,
                10.0,
                "value of a threat (cell completing a line)",
            ),
            spec(
                "good_threat",
                GOOD_THREAT as f64,
                0.0,
                200.0,
                10.0,
                "extra value of a threat on a row favouring its owner",
            ),
            spec(
                "stacked",
                STACKED as f64,
                0.0,
                600.0,
                25.0,
                "value of two threats of one side stacked directly",
            ),
            spec(
                "segment",
                SEGMENT as f64,
                0.0,
                20.0,
                1.0,
                "weight of open line segments (× stones²)",
            ),
            spec(
                "tempo",
                TEMPO as f64,
                0.0,
                50.0,
                2.0,
                "bonus of the side to move",
            ),
            spec(
                "lmr",
                1.0,
                0.0,
                1.0,
                1.0,
                "late-move reductions in the heuristic search (0/1)",
            ),
            spec(
                "solver_share",
                crate::engine::SOLVER_SHARE,
                0.3,
                0.95,
                0.05,
                "share of the soft budget for the exact solver before the heuristic fallback",
            ),
            spec(
                "cheap_share",
                crate::engine::CHEAP_SHARE,
                0.0,
                0.9,
                0.05,
                "share of the rest for cheap null-window proofs among the fallback's candidates",
            ),
        ]
    }

    fn set_param(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        let int = value.round() as i32;
        match name {
            "threat" => self.weights.threat = int,
            "good_threat" => self.weights.good_threat = int,
            "stacked" => self.weights.stacked = int,
            "segment" => self.weights.segment = int,
            "tempo" => self.weights.tempo = int,
            "lmr" => self.lmr = int != 0,
            "solver_share" => {
                self.solver_share_permille = (value.clamp(0.0, 1.0) * 1000.0).round() as u32
            }
            "cheap_share" => {
                self.cheap_share_permille = (value.clamp(0.0, 1.0) * 1000.0).round() as u32
            }
            _ => return Err(ParamError::Unknown(name.to_string())),
        }
        Ok(())
    }

    fn get_param(&self, name: &str) -> Option<f64> {
        Some(match name {
            "threat" => self.weights.threat as f64,
            "good_threat" => self.weights.good_threat as f64,
            "stacked" => self.weights.stacked as f64,
            "segment" => self.weights.segment as f64,
            "tempo" => self.weights.tempo as f64,
            "lmr" => f64::from(u8::from(self.lmr)),
            "solver_share" => self.solver_share_permille as f64 / 1000.0,
            "cheap_share" => self.cheap_share_permille as f64 / 1000.0,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_match_defaults_and_round_trip() {
        let p = EngineParams::default();
        for s in EngineParams::specs() {
            assert_eq!(p.get_param(s.name), Some(s.default), "{}", s.name);
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
        }
        let mut q = p;
        q.apply("threat=75").unwrap();
        q.apply("lmr=0").unwrap();
        assert_eq!(q.weights.threat, 75);
        assert!(!q.lmr);
        assert!(q.apply("nope=1").is_err());
        assert!(q.apply("threat").is_err());
        assert_eq!(crate::param_specs().len(), EngineParams::specs().len());
    }
}
