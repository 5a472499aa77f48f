//! The engine's tunables under the shared registry ([`kibitz_search::params`]): what matters
//! when the solver cannot finish — on big boards always, on 7 × 6 between the book and the
//! solver's reach — namely the heuristic search's evaluation weights, its late-move
//! reductions, and the share of the budget the solver gets before the fallback.
//!
//! `kibitz connect4 play|audit|timing --param NAME=V` and `connect4-bot --param NAME=V` set
//! them; [`crate::param_specs`] lists them for tuning scripts.

use crate::eval::Weights;
use kibitz_search::alphabeta::SearchKnobs;

kibitz_search::tunables! {
    /// Tunable settings of [`crate::Engine`].
    #[derive(Copy)]
    pub struct EngineParams {
        #[nested]
        /// Evaluation weights of the heuristic search.
        pub weights: Weights,
        #[nested]
        /// Reduction sizes and history aging of the heuristic search.
        pub search: SearchKnobs,
        /// late-move reductions in the heuristic search (0/1)
        pub lmr: bool = true, 0..=1, step 1;
        /// share of the soft budget for the exact solver before the heuristic fallback
        pub solver_share: f64 = 0.8, 0.3..=0.95, step 0.05, valid 0.0..=1.0;
        /// share of the rest of the soft budget that resumes the root solve once the solver's
        /// share ran out, before the heuristic fallback (under a node limit `n`:
        /// `n · (1 − solver_share) / solver_share · resume_share` more solver nodes)
        pub resume_share: f64 = 0.8, 0.0..=0.95, step 0.05, valid 0.0..=1.0;
        // Off: at 200k nodes the keep-the-value audit kept 228/240 with and without it
        // (40 lines of each test set); a node-limited move may use 1.5 × the limit with it.
        /// share of the rest for cheap null-window proofs among the fallback's candidates
        pub cheap_share: f64 = 0.0, 0.0..=0.9, step 0.05, valid 0.0..=1.0;
        // Keep-the-value audit from 10 stones (issue 39; `examples/learn_fit.rs`): 4,625
        // at 800k nodes and 4,614 at 400k with it, 4,624 / 4,611 without.
        /// on 7 × 6, connect 4: the root solve tries its moves in the order of the learned
        /// evaluation ([`crate::eval::learned`]) of the position after each (0/1)
        pub learned_order: bool = false, 0..=1, step 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz_search::params::Tunable;

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
        assert!(q.apply("solver_share=1.5").is_err(), "outside valid 0..=1");
        assert_eq!(
            q.solver_share, p.solver_share,
            "a refused value changes nothing"
        );
        q.apply("null_r=3").unwrap();
        assert_eq!(q.search.null_r, 3);
        assert_eq!(crate::param_specs().len(), EngineParams::specs().len());
    }
}
