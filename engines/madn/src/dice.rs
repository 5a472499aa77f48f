//! Dice and the task's input format (spec §2).

use std::fmt;
use thiserror::Error;

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
        token
            .parse::<u32>()
            .map(|v| (line, v))
            .map_err(|_| DiceError::NotANumber {
                line,
                token: token.to_string(),
                context: context.to_string(),
            })
    };
    let (line, n) = next("the number of dice", " (number of dice)")?;
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
        let faces = (1..=m)
            .map(|k| next(&format!("face {k} of {m} of die {d}"), &ctx).map(|(_, v)| v))
            .collect::<Result<Vec<_>, _>>()?;
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
        let e = parse_dice("2\n1 6\n1 6\n7\n").unwrap_err();
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
