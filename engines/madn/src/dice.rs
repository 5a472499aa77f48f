//! Dice and the task's input format (spec §2).
//!
//! # Limits
//!
//! The parser checks every count before it allocates for it, so no input can make it (or the
//! tournament, whose tables grow with the square of the number of dice) allocate more than a few
//! tens of megabytes:
//!
//! | limit | value | why |
//! |---|---|---|
//! | dice per file ([`MAX_DICE`]) | 1,000 | the tournament keeps n² matrix cells and n(n−1)/2 pairings; 1,000 dice are already 499,500 pairings |
//! | faces per die ([`MAX_FACES`]) | 1,000,000 | faces are stored twice per die (4 bytes each) |
//! | any number | 4,294,967,295 (`u32::MAX`) | larger numbers are reported as "too large", not as "not a number" |
//!
//! A die whose every face is 6 is refused ([`DiceError::EndlessTurn`]): a 6 gives another roll
//! (spec §4.10), so such a die never ends its turn, and it can never win either (every piece's
//! progress stays a multiple of 6, so only goal square c, p = 42, is reachable and at most one
//! piece fits there). Every game it plays would run to the 2,000,000-roll cap. It is the only
//! such die: any other face ends the turn when rolled, and a game between dice that cannot win
//! ends by the exact deadlock test (spec §5).

use std::fmt;
use thiserror::Error;

/// Most dice a file may declare (see the module's limits table).
pub const MAX_DICE: u32 = 1_000;

/// Most faces one die may have (see the module's limits table).
pub const MAX_FACES: u32 = 1_000_000;

/// A die: its faces in file order, every listed face equally likely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Die {
    faces: Vec<u32>,
}

/// Why a dice file was rejected; every message names the offending line and die.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DiceError {
    /// A token that is not a non-negative integer.
    #[error("line {line}: `{token}` is not a non-negative integer{context}")]
    NotANumber {
        /// 1-based line of the token.
        line: usize,
        /// The token as written.
        token: String,
        /// Which die (or the header) the token belongs to.
        context: String,
    },
    /// A number too large for its role: above `u32::MAX`, or above [`MAX_DICE`] / [`MAX_FACES`].
    #[error("line {line}: `{token}` is too large{context}: at most {max}")]
    TooLarge {
        /// 1-based line of the token.
        line: usize,
        /// The token as written.
        token: String,
        /// Which die (or the header) the token belongs to, and what it counts.
        context: String,
        /// The largest value allowed there.
        max: u32,
    },
    /// A die that can never end its turn (every face is 6), so no game with it can end.
    #[error(
        "line {line}: die {die} can never end a turn: every face is 6, and a 6 gives another \
         roll (spec §4.10); it cannot win either (only goal square c is reachable in steps of 6), \
         so every game it plays would run forever"
    )]
    EndlessTurn {
        /// Line of the die's face count.
        line: usize,
        /// 1-based die number.
        die: usize,
    },
    /// The file ended before all dice were complete.
    #[error("unexpected end of file (line {line}): {what}")]
    TooFewNumbers {
        /// The last line of the file.
        line: usize,
        /// What was still expected.
        what: String,
    },
    /// Numbers after the last die.
    #[error("line {line}: extra number `{token}` after the last die ({dice} dice declared)")]
    TrailingNumbers {
        /// Line of the first extra number.
        line: usize,
        /// The first extra number.
        token: String,
        /// How many dice the header declared.
        dice: usize,
    },
    /// Fewer than two dice, or a die without faces.
    #[error("line {line}: {what}")]
    Invalid {
        /// Line of the offending count.
        line: usize,
        /// What is wrong.
        what: String,
    },
}

impl Die {
    /// A die with the given faces (at least one).
    pub fn new(faces: Vec<u32>) -> Option<Self> {
        (!faces.is_empty()).then_some(Self { faces })
    }

    /// The faces in file order.
    pub fn faces(&self) -> &[u32] {
        &self.faces
    }

    /// The distinct faces, for the deadlock test.
    pub fn distinct_faces(&self) -> Vec<u32> {
        let mut f = self.faces.clone();
        f.sort_unstable();
        f.dedup();
        f
    }
}

impl fmt::Display for Die {
    /// Compact form: `1-6` for consecutive runs, else the faces joined by commas.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fs = &self.faces;
        let consecutive = fs.len() > 2 && fs.windows(2).all(|w| w[1] == w[0] + 1);
        if consecutive {
            write!(f, "{}-{}", fs[0], fs[fs.len() - 1])
        } else {
            let parts: Vec<String> = fs.iter().map(u32::to_string).collect();
            write!(f, "{}", parts.join(","))
        }
    }
}

/// Parses a dice file: `n`, then per die `m` and `m` faces, whitespace-separated.
pub fn parse_dice(text: &str) -> Result<Vec<Die>, DiceError> {
    let mut tokens = text
        .lines()
        .enumerate()
        .flat_map(|(i, l)| l.split_whitespace().map(move |t| (i + 1, t)));
    let last_line = text.lines().count().max(1);
    let mut next = |what: &str, context: &str| -> Result<(usize, u32), DiceError> {
        let (line, token) = tokens.next().ok_or_else(|| DiceError::TooFewNumbers {
            line: last_line,
            what: what.to_string(),
        })?;
        match token.parse::<u32>() {
            Ok(v) => Ok((line, v)),
            // All digits but too big for u32: "too large", not "not a number".
            Err(_) if token.bytes().all(|b| b.is_ascii_digit()) => Err(DiceError::TooLarge {
                line,
                token: token.to_string(),
                context: context.to_string(),
                max: u32::MAX,
            }),
            Err(_) => Err(DiceError::NotANumber {
                line,
                token: token.to_string(),
                context: context.to_string(),
            }),
        }
    };
    let (line, n) = next("the number of dice", " (number of dice)")?;
    if n > MAX_DICE {
        return Err(DiceError::TooLarge {
            line,
            token: n.to_string(),
            context: " (number of dice)".into(),
            max: MAX_DICE,
        });
    }
    if n < 2 {
        return Err(DiceError::Invalid {
            line,
            what: format!("need at least 2 dice, got {n}"),
        });
    }
    let mut dice = Vec::with_capacity(n as usize);
    for d in 1..=n as usize {
        let ctx = format!(" (die {d})");
        let (line, m) = next(&format!("the number of faces of die {d}"), &ctx)?;
        if m == 0 {
            return Err(DiceError::Invalid {
                line,
                what: format!("die {d} has no faces"),
            });
        }
        if m > MAX_FACES {
            return Err(DiceError::TooLarge {
                line,
                token: m.to_string(),
                context: format!(" (number of faces of die {d})"),
                max: MAX_FACES,
            });
        }
        let faces = (1..=m)
            .map(|k| next(&format!("face {k} of {m} of die {d}"), &ctx).map(|(_, v)| v))
            .collect::<Result<Vec<_>, _>>()?;
        if faces.iter().all(|&f| f == 6) {
            return Err(DiceError::EndlessTurn { line, die: d });
        }
        dice.push(Die { faces });
    }
    if let Some((line, token)) = text
        .lines()
        .enumerate()
        .flat_map(|(i, l)| l.split_whitespace().map(move |t| (i + 1, t)))
        .nth(1 + dice.iter().map(|d| 1 + d.faces.len()).sum::<usize>())
    {
        return Err(DiceError::TrailingNumbers {
            line,
            token: token.to_string(),
            dice: dice.len(),
        });
    }
    Ok(dice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_above_the_limits_are_refused_before_allocating() {
        let e = parse_dice("1001\n").unwrap_err();
        assert!(
            matches!(
                e,
                DiceError::TooLarge {
                    line: 1,
                    max: MAX_DICE,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("too large"), "{e}");
        assert!(e.to_string().contains("at most 1000"), "{e}");
        let e = parse_dice("1000000\n").unwrap_err();
        assert!(matches!(e, DiceError::TooLarge { .. }), "{e}");
        let e = parse_dice("2\n1 5\n1000001 1").unwrap_err();
        assert!(
            matches!(
                e,
                DiceError::TooLarge {
                    line: 3,
                    max: MAX_FACES,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("die 2"), "{e}");
        // Exactly at the limit is accepted (here: the file simply has too few numbers).
        assert!(matches!(
            parse_dice("1000\n1 1\n"),
            Err(DiceError::TooFewNumbers { .. })
        ));
    }

    #[test]
    fn numbers_beyond_u32_are_too_large_not_garbage() {
        for header in ["4294967296", "99999999999999999999999"] {
            let e = parse_dice(header).unwrap_err();
            assert!(
                matches!(e, DiceError::TooLarge { max: u32::MAX, .. }),
                "{e}"
            );
            assert!(e.to_string().contains("too large"), "{e}");
        }
        let e = parse_dice("2\n1 5\n1 4294967296").unwrap_err();
        assert!(e.to_string().contains("too large (die 2)"), "{e}");
        // Still "not a non-negative integer" for signs and letters.
        let e = parse_dice("2\n1 5\n1 x").unwrap_err();
        assert!(matches!(e, DiceError::NotANumber { .. }), "{e}");
    }

    #[test]
    fn a_die_of_only_sixes_is_refused_as_endless() {
        for text in ["2\n1 6\n6 1 2 3 4 5 6", "2\n6 1 2 3 4 5 6\n3 6 6 6"] {
            let e = parse_dice(text).unwrap_err();
            assert!(matches!(e, DiceError::EndlessTurn { .. }), "{e}");
            assert!(e.to_string().contains("can never end a turn"), "{e}");
        }
        let e = parse_dice("2\n6 1 2 3 4 5 6\n3 6 6 6").unwrap_err();
        assert_eq!(e, DiceError::EndlessTurn { line: 3, die: 2 });
        // One other face is enough to end a turn.
        assert!(parse_dice("2\n2 6 0\n2 6 44").is_ok());
    }

    #[test]
    fn parses_crlf_and_missing_final_newline() {
        let dice = parse_dice("2\r\n6 1 2 3 4 5 6\r\n4 1 1 6 6").unwrap();
        assert_eq!(dice.len(), 2);
        assert_eq!(dice[1].faces(), &[1, 1, 6, 6]);
        assert_eq!(dice[0].to_string(), "1-6");
        assert_eq!(dice[1].to_string(), "1,1,6,6");
        assert_eq!(dice[1].distinct_faces(), vec![1, 6]);
    }

    #[test]
    fn errors_name_line_and_die() {
        let e = parse_dice("2\n6 1 2 3 4 5 6\n3 1 -2 3\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: `-2` is not a non-negative integer (die 2)"
        );
        let e = parse_dice("2\n6 1 2 3 4 5 6\n3 1 2").unwrap_err();
        assert!(matches!(e, DiceError::TooFewNumbers { line: 3, .. }), "{e}");
        assert!(e.to_string().contains("die 2"));
        let e = parse_dice("2\n1 5\n1 4\n7\n").unwrap_err();
        assert_eq!(
            e,
            DiceError::TrailingNumbers {
                line: 4,
                token: "7".into(),
                dice: 2
            }
        );
        assert!(matches!(
            parse_dice("1\n1 6"),
            Err(DiceError::Invalid { line: 1, .. })
        ));
        assert!(matches!(
            parse_dice("2\n0\n1 6"),
            Err(DiceError::Invalid { line: 2, .. })
        ));
        assert!(matches!(
            parse_dice(""),
            Err(DiceError::TooFewNumbers { .. })
        ));
    }
}
