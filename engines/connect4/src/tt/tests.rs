//! Tests of `tt`.

use super::*;
use crate::bitboard::Bits;

/// 7×6 position keys have 49 bits.
const K49: u32 = 49;

/// xorshift64 stream of `n` keys below `2^bits`.
fn keys(n: usize, bits: u32, seed: u64) -> Vec<u64> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x >> (64 - bits)
        })
        .collect()
}

/// Inverse of an odd number modulo 2^64 (Newton's iteration).
fn inverse(c: u64) -> u64 {
    let mut inv = c;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(c.wrapping_mul(inv)));
    }
    assert_eq!(inv.wrapping_mul(c), 1);
    inv
}

/// The k-bit key back from a bucket index and stored bits (inverts [`Tt::mix`]).
fn unmix(tt: &Tt, bucket: usize, tag: u64) -> u64 {
    let k = tt.key_bits;
    let idx = 64 - tt.shift;
    let z = ((bucket as u64) << tt.shift) | (tag >> idx);
    let z = z.wrapping_mul(inverse(MIX));
    z >> (64 - k)
}

#[test]
fn partial_keys_are_exact_on_49_bit_keys() {
    for mb in [0, 1, 64] {
        let tt = if mb == 0 {
            Tt::with_bytes(0, K49)
        } else {
            Tt::new_full(mb, K49)
        };
        assert!(tt.is_exact(), "{mb} MiB");
        // Random keys and keys differing only in their top or bottom bits: the bucket
        // and the stored bits determine the key.
        let mut sample = keys(200_000, K49, 0x1234_5678 + mb as u64);
        sample.extend((0..4096).map(|i| i << (K49 - 12)));
        sample.extend(0..4096);
        sample.push((1 << K49) - 1);
        for x in sample {
            let h = x.hash64();
            let (i, tag) = tt.locate(h);
            assert_eq!(tag & !KEY_MASK, 0);
            assert_eq!(unmix(&tt, i, tag), h & ((1 << K49) - 1), "key {x:#x}");
            // hash64 is a multiplication by an odd constant: also exact modulo 2^49.
            let c_inv = inverse(0x9E37_79B9_7F4A_7C15);
            assert_eq!(h.wrapping_mul(c_inv) & ((1 << K49) - 1), x);
        }
    }
}

#[test]
fn no_false_hits_among_many_keys_sharing_few_buckets() {
    // The smallest exact table: 8192 buckets for 2^49 keys, 2^36 keys per bucket.
    let mut tt = Tt::with_bytes(0, K49);
    assert_eq!((tt.buckets_in_use(), tt.bytes()), (1 << 13, 256 << 10));
    let stored = keys(50_000, K49, 7);
    for (n, &k) in stored.iter().enumerate() {
        tt.store(k.hash64(), 10, -3, 4, (n % 7) as u8);
    }
    let set: std::collections::HashSet<u64> = stored.iter().copied().collect();
    for k in keys(1_000_000, K49, 99) {
        if !set.contains(&k) {
            assert!(tt.probe(k.hash64(), 10).is_none(), "false hit {k:#x}");
        }
    }
}

#[test]
fn fields_round_trip() {
    let mut tt = Tt::new(1, K49);
    let mut n = 0u64;
    for lower in -64..=63 {
        for upper in [-64, -1, 0, 1, 21, 63] {
            for best in [0u8, 6, 63, NO_MOVE] {
                n += 1;
                let moves = (n % 126) as u32;
                let key = n.hash64();
                tt.store(key, moves, lower, upper, best);
                let e = tt.probe(key, moves).unwrap();
                assert_eq!((e.lower, e.upper, e.best), (lower as i8, upper as i8, best));
                assert_eq!(e.moves, moves as u8);
            }
        }
    }
    // Out-of-range bounds are widened to the range, never narrowed into it.
    tt.store(1u64 << 40, 3, i32::MIN, i32::MAX, NO_MOVE);
    let e = tt.probe(1u64 << 40, 3).unwrap();
    assert_eq!((e.lower, e.upper), (-64, 63));
}

#[test]
fn bounds_merge_and_best_move_survives() {
    let mut tt = Tt::new(1, K49);
    tt.store(42u64.hash64(), 10, -5, 3, 2);
    tt.store(42u64.hash64(), 10, -1, 7, NO_MOVE);
    let e = tt.probe(42u64.hash64(), 10).unwrap();
    assert_eq!((e.lower, e.upper, e.best), (-1, 3, 2));
    assert!(tt.probe(43u64.hash64(), 10).is_none());
    // The same key with another stone count is a stranger.
    assert!(tt.probe(42u64.hash64(), 11).is_none());
    tt.clear();
    assert!(tt.probe(42u64.hash64(), 10).is_none());
}

#[test]
fn a_full_bucket_drops_the_entry_with_the_most_stones() {
    let mut tt = Tt::new_full(0, K49);
    // WAYS + 1 keys of one bucket.
    let target = tt.locate(1u64.hash64()).0;
    let same: Vec<u64> = (1u64..)
        .map(Bits::hash64)
        .filter(|&h| tt.locate(h).0 == target)
        .take(WAYS + 1)
        .collect();
    let stones = |j: usize| match j {
        // Stones 20, 21, …; the one with 25 stones is the shallowest.
        3 => 25,
        j if j == WAYS => 30,
        j => 20 + j as u32 % 3,
    };
    for (j, &h) in same.iter().enumerate() {
        tt.store(h, stones(j), 0, 0, NO_MOVE);
    }
    let kept: Vec<bool> = (0..=WAYS)
        .map(|j| tt.probe(same[j], stones(j)).is_some())
        .collect();
    let mut want = vec![true; WAYS + 1];
    want[3] = false;
    assert_eq!(kept, want);
}

#[test]
fn a_full_table_is_in_use_from_the_start_and_after_a_clear() {
    let mut tt = Tt::new_full(8, K49);
    assert_eq!(tt.bytes_in_use(), tt.bytes());
    tt.store(42, 10, -5, 3, 2);
    tt.clear();
    assert_eq!(tt.bytes_in_use(), tt.bytes());
    assert!(tt.probe(42, 10).is_none());
}

#[test]
fn wide_keys_are_not_exact_and_do_not_grow() {
    let tt = Tt::new(8, 64);
    assert!(!tt.is_exact());
    assert_eq!(tt.bytes_in_use(), tt.bytes());
    let tt = Tt::new(8, K49);
    assert!(tt.is_exact());
    assert_eq!(tt.bytes_in_use(), START_BYTES);
}

#[test]
fn growing_keeps_every_entry_and_clear_shrinks() {
    let mut tt = Tt::new(16, K49);
    let start = tt.bytes_in_use();
    assert!(start < tt.bytes());
    let sample = keys(30_000, K49, 5);
    let hashed: Vec<u64> = sample.iter().map(|k| k.hash64()).collect();
    let stones = |i: usize| (i % 40) as u32;
    for (i, &k) in hashed.iter().enumerate() {
        tt.store(k, stones(i), -(i as i32 % 7), 5, (i % 7) as u8);
    }
    let present = |tt: &Tt| -> Vec<usize> {
        (0..hashed.len())
            .filter(|&i| tt.probe(hashed[i], stones(i)).is_some())
            .collect()
    };
    let kept = present(&tt);
    // At 46 % load a few four-way buckets overflow.
    assert!(kept.len() * 100 >= hashed.len() * 95, "{} kept", kept.len());
    for _ in 0..3 {
        tt.grow();
    }
    assert_eq!(tt.bytes_in_use(), 8 * start);
    let after = present(&tt);
    assert_eq!(kept, after, "doubling loses no entry");
    for (i, &k) in hashed.iter().enumerate() {
        if let Some(e) = tt.probe(k, stones(i)) {
            assert_eq!(
                (e.lower, e.upper, e.best, e.moves),
                (-((i % 7) as i8), 5, (i % 7) as u8, (i % 40) as u8)
            );
        }
    }
    // Filling the table makes it grow by itself.
    for k in keys(600_000, K49, 11) {
        tt.store(k.hash64(), 20, 0, 0, NO_MOVE);
    }
    assert!(tt.bytes_in_use() > 8 * start);
    tt.clear();
    assert_eq!(tt.bytes_in_use(), start);
    assert!(present(&tt).is_empty());
}

/// `grow_to` makes all doublings in one pass, writing only the entries past the old part
/// (they are free there): bucket for bucket the table `grow` makes, also on a table
/// that was big, filled and cleared before (stale buckets past the part in use would
/// show as extra entries).
#[test]
fn growing_in_one_pass_is_growing_by_doublings() {
    let stones = |i: usize| (i % 40) as u32;
    let fill = |tt: &mut Tt, seed: u64, n: usize| {
        for (i, k) in keys(n, K49, seed).into_iter().enumerate() {
            tt.store(k.hash64(), stones(i), -(i as i32 % 5), 3, (i % 7) as u8);
        }
    };
    let mut used = Tt::new(16, K49);
    fill(&mut used, 3, 400_000);
    assert!(used.bytes_in_use() >= 8 * START_BYTES, "grew by storing");
    used.clear();
    for mut one_pass in [Tt::new(16, K49), used] {
        let mut doubling = Tt::new(16, K49);
        fill(&mut one_pass, 17, 12_000);
        fill(&mut doubling, 17, 12_000);
        assert_eq!(one_pass.bytes_in_use(), START_BYTES, "no growth yet");
        one_pass.grow_to(5 * START_BYTES);
        for _ in 0..3 {
            doubling.grow();
        }
        assert_eq!(one_pass.bytes_in_use(), 8 * START_BYTES);
        assert_eq!(one_pass.shift, doubling.shift);
        for b in 0..one_pass.buckets_in_use() {
            assert_eq!(one_pass.slots[b].0, doubling.slots[b].0, "bucket {b}");
        }
        // Capped at the allocation; no growth asked, none made.
        one_pass.grow_to(usize::MAX);
        assert_eq!(one_pass.bytes_in_use(), one_pass.bytes());
        one_pass.grow_to(0);
        assert_eq!(one_pass.bytes_in_use(), one_pass.bytes());
    }
}
