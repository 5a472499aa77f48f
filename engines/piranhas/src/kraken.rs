//! Kraken placement (spec §2): 340 possible unordered pairs, drawn with the official
//! (non-uniform) two-step procedure.

use rand::Rng;
use thiserror::Error;

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

/// Why `x,y,x,y` is not a Kraken pair the official procedure can draw (spec §2): the message
/// names the actual problem (the syntax, a square off the candidates, or the line the two
/// squares share), so a user knows what to change.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum KrakenError {
    /// Not four comma-separated numbers.
    #[error("malformed Kraken squares {0:?}: expected four numbers x,y,x,y")]
    Syntax(String),
    /// A square outside the 36 candidates 2 ≤ x, y ≤ 7.
    #[error("Kraken square ({0},{1}) is off the candidate squares: x and y must be 2..=7")]
    OffCandidates(u8, u8),
    /// Both squares are the same.
    #[error("both Kraken are on ({0},{1}): they need two different squares")]
    SameSquare(u8, u8),
    /// The squares share a line (which one, in words, e.g. `a diagonal (x - y = 0)`).
    #[error(
        "Kraken ({},{}) and ({},{}) share {line}: the two Kraken may share no row, column \
         or diagonal",
        a.0, a.1, b.0, b.1
    )]
    SharedLine {
        /// The first square.
        a: (u8, u8),
        /// The second square.
        b: (u8, u8),
        /// The shared line in words.
        line: String,
    },
}

/// Checks a pair against the placement rule, naming what is wrong.
pub fn check_pair(pair: [(u8, u8); 2]) -> Result<(), KrakenError> {
    if let Some(&(x, y)) = pair.iter().find(|&&sq| !is_candidate(sq)) {
        return Err(KrakenError::OffCandidates(x, y));
    }
    let [a, b] = pair;
    if a == b {
        return Err(KrakenError::SameSquare(a.0, a.1));
    }
    let (ax, ay, bx, by) = (a.0 as i32, a.1 as i32, b.0 as i32, b.1 as i32);
    let line = if ax == bx {
        format!("a column (x = {ax})")
    } else if ay == by {
        format!("a row (y = {ay})")
    } else if ax - ay == bx - by {
        format!("a rising diagonal (x - y = {})", ax - ay)
    } else if ax + ay == bx + by {
        format!("a falling diagonal (x + y = {})", ax + ay)
    } else {
        return Ok(());
    };
    Err(KrakenError::SharedLine { a, b, line })
}

/// Parses `x,y,x,y` into a valid Kraken pair.
pub fn parse_pair(s: &str) -> Result<[(u8, u8); 2], KrakenError> {
    let bad = || KrakenError::Syntax(s.to_string());
    let v: Vec<u8> = s
        .split(',')
        .map(|t| t.trim().parse::<u8>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if v.len() != 4 {
        return Err(bad());
    }
    let pair = [(v[0], v[1]), (v[2], v[3])];
    check_pair(pair)?;
    Ok(pair)
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

    #[test]
    fn a_bad_pair_is_refused_for_what_is_actually_wrong() {
        let msg = |s: &str| parse_pair(s).unwrap_err().to_string();
        // In range, on a shared diagonal: the message must blame the diagonal, not the range.
        let m = msg("3,3,4,4");
        assert!(m.contains("rising diagonal (x - y = 0)"), "{m}");
        assert!(!m.contains("2..=7"), "{m}");
        assert!(msg("3,5,5,3").contains("falling diagonal (x + y = 8)"));
        assert!(msg("3,3,3,6").contains("a column (x = 3)"));
        assert!(msg("2,4,7,4").contains("a row (y = 4)"));
        assert!(msg("4,4,4,4").contains("both Kraken are on (4,4)"));
        assert!(msg("1,3,6,7").contains("(1,3) is off the candidate squares"));
        assert!(msg("3,3,6").contains("expected four numbers"));
        assert!(msg("a,b,c,d").contains("expected four numbers"));
        // Exactly the 340 pairs pass the check.
        let ok = (0..10u8)
            .flat_map(|a| (0..10u8).map(move |b| (a, b)))
            .flat_map(|a| (0..10u8).flat_map(move |x| (0..10u8).map(move |y| [a, (x, y)])))
            .filter(|&p| check_pair(p).is_ok())
            .count();
        assert_eq!(ok, 2 * 340);
    }
}
