//! Seeds derived from seeds: matches, tournaments and servers give every game, seat and
//! player its own RNG seed as a function of the run's seed and the thing's identity, so a
//! result never depends on which task happened to finish first.

/// SplitMix64 step of `a` and `b`: a well-mixed seed from two numbers (`mix(seed, game)`,
/// `mix(mix(seed, game), seat)`).
pub fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_add(b.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::mix;

    #[test]
    fn order_and_both_inputs_matter() {
        assert_ne!(mix(1, 2), mix(2, 1));
        assert_ne!(mix(1, 2), mix(1, 3));
        assert_ne!(mix(1, 2), mix(0, 2));
        assert_eq!(mix(7, 9), mix(7, 9));
    }
}
