//! Kraken placement (spec §2): 340 possible unordered pairs, drawn with the official
//! (non-uniform) two-step procedure.

use rand::Rng;

/// The 36 candidate squares 2 ≤ x, y ≤ 7, in (y, x) order.
fn candidates() -> impl Iterator<Item = (u8, u8)> {
    (2..=7u8).flat_map(|y| (2..=7u8).map(move |x| (x, y)))
}

/// Whether `b` shares no row, column or diagonal with `a`.
fn compatible(a: (u8, u8), b: (u8, u8)) -> bool {
    let (ax, ay, bx, by) = (a.0 as i32, a.1 as i32, b.0 as i32, b.1 as i32);
    ax != bx && ay != by && ax - ay != bx - by && ax + ay != bx + by
}

/// Whether (x, y) is a Kraken candidate square.
pub fn is_candidate(sq: (u8, u8)) -> bool {
    (2..=7).contains(&sq.0) && (2..=7).contains(&sq.1)
}

/// Whether `pair` is one of the 340 pairs the official procedure can produce.
pub fn is_valid_pair(pair: [(u8, u8); 2]) -> bool {
    is_candidate(pair[0]) && is_candidate(pair[1]) && compatible(pair[0], pair[1])
}

/// All 340 unordered Kraken pairs, each with its smaller square (by y, then x) first.
pub fn all_pairs() -> Vec<[(u8, u8); 2]> {
    let c: Vec<_> = candidates().collect();
    let mut out = Vec::with_capacity(340);
    for (i, &a) in c.iter().enumerate() {
        for &b in &c[i + 1..] {
            if compatible(a, b) {
                out.push([a, b]);
            }
        }
    }
    out
}

/// Draws a Kraken pair like the official server: the first uniformly from the 36 candidates,
/// the second uniformly from those sharing no line with the first.
pub fn random_pair(rng: &mut impl Rng) -> [(u8, u8); 2] {
    let c: Vec<_> = candidates().collect();
    let first = c[rng.random_range(0..c.len())];
    let rest: Vec<_> = c.into_iter().filter(|&b| compatible(first, b)).collect();
    let second = rest[rng.random_range(0..rest.len())];
    [first, second]
}

/// Parses `x,y,x,y` into a valid Kraken pair.
pub fn parse_pair(s: &str) -> Result<[(u8, u8); 2], crate::error::ParseError> {
    let bad = || crate::error::ParseError::Kraken(s.to_string());
    let v: Vec<u8> = s
        .split(',')
        .map(|t| t.trim().parse::<u8>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if v.len() != 4 {
        return Err(bad());
    }
    let pair = [(v[0], v[1]), (v[2], v[3])];
    if is_valid_pair(pair) {
        Ok(pair)
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn there_are_340_pairs_and_draws_are_among_them() {
        let all = all_pairs();
        assert_eq!(all.len(), 340);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..1000 {
            assert!(is_valid_pair(random_pair(&mut rng)));
        }
        assert!(parse_pair("3,3,6,7").is_ok());
        assert!(parse_pair("3,3,4,4").is_err());
        assert!(parse_pair("3,3,6").is_err());
    }
}
