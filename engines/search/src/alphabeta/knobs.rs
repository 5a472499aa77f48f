//! The numbers inside alpha-beta that used to be literals — null-move and late-move reduction
//! sizes, history aging, and the smart-time stretch and iteration-growth rules — as named
//! tunables, declared once. The defaults are the old literals, so searches are unchanged.

crate::tunables! {
    /// Reductions, history aging and time-stretch constants of [`super::Searcher`]; engines
    /// list them beside their own tunables (`kibitz <game> params`).
    #[derive(Copy)]
    pub struct SearchKnobs {
        /// null move tried from this remaining depth on
        pub null_min_depth: u32 = 3, 2..=8, step 1;
        /// null-move reduction R = null_r + depth / null_r_div
        pub null_r: u32 = 2, 1..=4, step 1;
        /// depth divisor of the null-move reduction's growth
        pub null_r_div: u32 = 6, 2..=16, step 1, valid 1..=1000;
        /// late-move reductions from this remaining depth on
        pub lmr_min_depth: u32 = 3, 2..=8, step 1;
        /// late-move reductions from this move index on
        pub lmr_min_index: usize = 3, 1..=16, step 1;
        /// moves from this index on are reduced one ply more
        pub lmr_late_index: usize = 8, 2..=32, step 2;
        /// history scores are divided by this before every search
        pub history_keep_div: i32 = 8, 1..=64, step 1, valid 1..=1000000;
        /// history saturation scale (gravity)
        pub history_max: i32 = 4096, 256..=65536, step 512, valid 1..=1000000000;
        /// smart time: share of the extra stretch kept after a calm iteration
        pub stretch_calm: f64 = 0.5, 0.0..=1.0, step 0.1;
        /// smart time: stretch added when the best move changed
        pub stretch_unstable: f64 = 0.3, 0.0..=1.0, step 0.1;
        /// smart time: a score drop (centi-units) that adds stretch
        pub stretch_drop: i32 = 25, 0..=500, step 5;
        /// smart time: stretch added for a drop above stretch_drop
        pub stretch_drop_add: f64 = 0.3, 0.0..=1.0, step 0.1;
        /// smart time: a score drop (centi-units) that adds the big stretch
        pub stretch_big_drop: i32 = 80, 0..=1000, step 10;
        /// smart time: stretch added for a drop above stretch_big_drop
        pub stretch_big_drop_add: f64 = 0.6, 0.0..=2.0, step 0.1;
        /// smart time: the soft budget is stretched at most this many times
        pub stretch_max: f64 = 2.0, 1.0..=4.0, step 0.25;
        /// smart time: smallest assumed growth of the next iteration's time (0 with
        /// growth_max 0: no prediction, iterations start until the soft budget)
        pub growth_min: f64 = 1.5, 0.0..=4.0, step 0.25;
        /// smart time: largest assumed growth of the next iteration's time
        pub growth_max: f64 = 8.0, 0.0..=20.0, step 1.0;
        /// smart time: assumed growth when the last iterations were too short to time
        pub growth_guess: f64 = 4.0, 1.0..=10.0, step 0.5;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Tunable;

    #[test]
    fn every_knob_is_listed_once_and_its_default_is_in_range() {
        let specs = SearchKnobs::specs();
        let mut names: Vec<_> = specs.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), specs.len());
        for s in &specs {
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            assert!(!s.doc.is_empty(), "{}", s.name);
        }
    }
}
