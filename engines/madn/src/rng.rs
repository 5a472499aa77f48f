//! The simulator's random source: xoshiro256++ with unbiased bounded draws.
//!
//! Every pairing (and every block of games in it) gets its own stream derived from the user's
//! seed, so results do not depend on the thread count. A 64-bit output is split into two 32-bit
//! draws, and a face index is chosen by Lemire's multiply-and-reject, which is exactly uniform.
//!
//! The generator is written out here (the same stream as `rand_xoshiro`'s `Xoshiro256PlusPlus`
//! seeded by `seed_from_u64`, which a test checks) so that its state is plain data: the games
//! loop copies it into locals, where it lives in registers instead of memory.

use kibitz_search::seed::splitmix64;

/// A fast seeded generator of fair face indices. Two generators are equal when they will draw
/// the same stream (a used-up spare draw does not count).
#[derive(Clone, Copy, Debug)]
pub struct Rng {
    /// xoshiro256++ state.
    s: [u64; 4],
    spare: u32,
    has_spare: bool,
}

impl PartialEq for Rng {
    fn eq(&self, other: &Self) -> bool {
        self.s == other.s && self.take_spare_copy() == other.take_spare_copy()
    }
}

impl Eq for Rng {}

impl Rng {
    /// The spare draw, if one is left, without taking it.
    fn take_spare_copy(&self) -> Option<u32> {
        self.has_spare.then_some(self.spare)
    }

    /// The stream for block `block` of the pairing of dice `a` and `b` under `seed`.
    pub fn for_block(seed: u64, a: usize, b: usize, block: u64) -> Self {
        let mut key = seed;
        for part in [a as u64, b as u64, block] {
            key = splitmix64(key ^ splitmix64(part.wrapping_add(0x9e37_79b9_7f4a_7c15)));
        }
        Self::seeded(key)
    }

    /// A stream from a single 64-bit seed.
    pub fn seeded(seed: u64) -> Self {
        // As `Xoshiro256PlusPlus::seed_from_u64`: four SplitMix64 outputs (state starting at
        // `seed`), and the all-zero state (which xoshiro cannot leave) replaced by seed 0's.
        let mut x = seed;
        let mut s = [0u64; 4];
        for w in &mut s {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            *w = z ^ (z >> 31);
        }
        if s == [0; 4] {
            return Self::seeded(0);
        }
        Self {
            s,
            spare: 0,
            has_spare: false,
        }
    }

    /// 64 random bits: one xoshiro256++ step.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// 32 uniformly random bits.
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        if self.has_spare {
            self.has_spare = false;
            self.spare
        } else {
            let x = self.next_u64();
            self.spare = (x >> 32) as u32;
            self.has_spare = true;
            x as u32
        }
    }

    /// A uniform integer in `0..n` (`n ≥ 1`), without modulo bias.
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        let first = self.next_u32();
        self.below_from(first, n)
    }

    /// [`Rng::below`] whose first draw, `first`, was already taken from this stream (the games
    /// loop takes draws two at a time); further draws, when the first is rejected, come from
    /// `self`.
    #[inline(always)]
    pub fn below_from(&mut self, first: u32, n: u32) -> u32 {
        let mut m = first as u64 * n as u64;
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = self.next_u32() as u64 * n as u64;
            }
        }
        (m >> 32) as u32
    }

    /// Takes the spare draw (the high half of the last 64-bit output), if one is left.
    #[inline(always)]
    pub(crate) fn take_spare(&mut self) -> Option<u32> {
        let spare = self.has_spare.then_some(self.spare);
        self.has_spare = false;
        spare
    }

    /// Sets the spare draw: `Some(hi)` when the high half of the last 64-bit output is still
    /// to be used, `None` when it was.
    #[inline(always)]
    pub(crate) fn set_spare(&mut self, spare: Option<u32>) {
        self.has_spare = spare.is_some();
        self.spare = spare.unwrap_or(0);
    }

    /// Undoes one xoshiro256++ step (the state before the last [`Rng::next_u64`]); the step is
    /// an invertible linear map, undone here in reverse order.
    fn step_back(&mut self) {
        let [s0, s1, s2, s3] = self.s;
        // Forward: t = s1 << 17; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45).
        let s3x = s3.rotate_right(45);
        let old0 = s0 ^ s3x;
        // s2 ^ s1 = old1 ^ (old1 << 17): invert y = x ^ (x << 17).
        let y = s2 ^ s1;
        let old1 = y ^ (y << 17) ^ (y << 34) ^ (y << 51);
        let s2x = s1 ^ old1;
        self.s = [old0, old1, s2x ^ old0, s3x ^ old1];
    }

    /// Moves the stream `k` draws back, as if the last `k` 32-bit draws had not been taken.
    /// The games loop tests for a deadlock a few rolls late and rewinds to the roll where the
    /// game really ended, so that the next game draws exactly what it would have.
    pub(crate) fn rewind_draws(&mut self, k: u64) {
        let has_spare = u64::from(self.has_spare);
        // Outputs fully or half used since the target position; the target has a spare when
        // an odd number of draws separates it from the current output boundary.
        for _ in 0..(has_spare + k) / 2 {
            self.step_back();
        }
        if (has_spare + k) % 2 == 1 {
            self.step_back();
            let x = self.next_u64();
            self.set_spare(Some((x >> 32) as u32));
        } else {
            self.set_spare(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn rewinding_draws_restores_the_stream() {
        for seed in 0..50u64 {
            for skip in 0..5u64 {
                for k in 0..40u64 {
                    let mut a = Rng::seeded(seed);
                    (0..skip).for_each(|_| {
                        a.next_u32();
                    });
                    let saved = a;
                    let ahead: Vec<u32> = (0..k).map(|_| a.next_u32()).collect();
                    a.rewind_draws(k);
                    assert_eq!(a, saved, "seed {seed} skip {skip} k {k}");
                    let again: Vec<u32> = (0..k).map(|_| a.next_u32()).collect();
                    assert_eq!(again, ahead);
                }
            }
        }
    }

    #[test]
    fn the_written_out_generator_is_rand_xoshiros_stream() {
        let mut seeds = vec![0, 1, 2, 38, u64::MAX, 0x9e37_79b9_7f4a_7c15];
        seeds.extend((0..200u64).map(splitmix64));
        seeds.push(Rng::for_block(1, 0, 1, 0).s[0]);
        for seed in seeds {
            let mut ours = Rng::seeded(seed);
            let mut theirs = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..1_000 {
                assert_eq!(ours.next_u64(), theirs.next_u64(), "seed {seed}");
            }
        }
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut rng = Rng::seeded(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[rng.below(6) as usize] += 1;
        }
        // Each count is Binomial(60000, 1/6): mean 10000, sd ≈ 91; 6 sd is a generous bound.
        assert!(
            counts.iter().all(|&c| (c as i32 - 10_000).abs() < 550),
            "{counts:?}"
        );
        assert_eq!(Rng::seeded(1).below(1), 0);
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let draw = |mut r: Rng| (0..8).map(|_| r.next_u32()).collect::<Vec<_>>();
        assert_eq!(
            draw(Rng::for_block(1, 0, 1, 0)),
            draw(Rng::for_block(1, 0, 1, 0))
        );
        assert_ne!(
            draw(Rng::for_block(1, 0, 1, 0)),
            draw(Rng::for_block(1, 0, 1, 1))
        );
        assert_ne!(
            draw(Rng::for_block(1, 0, 1, 0)),
            draw(Rng::for_block(1, 1, 0, 0))
        );
        assert_ne!(
            draw(Rng::for_block(1, 0, 1, 0)),
            draw(Rng::for_block(2, 0, 1, 0))
        );
    }
}
