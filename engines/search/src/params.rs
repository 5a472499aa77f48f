//! Named tunable parameters, one registry per engine.
//!
//! Every engine gathers its tunables (evaluation weights, search switches, ISMCTS constants,
//! bidding thresholds) in one config struct and describes each with a [`ParamSpec`]. The CLI
//! lists them with `kibitz <game> params`, sets them with `--param name=value`, and the tuning
//! scripts read their ranges from that listing instead of repeating them. Values are `f64` so
//! one type covers integer weights and real constants alike; integer parameters have an
//! integer `step` and are rounded when set.

use std::fmt;

pub mod declare;

pub use declare::ParamValue;

/// One tunable: its name, default (the tuned value), the range a tuner may explore, and the
/// step a tuner should start with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// The name used in `--param name=value`.
    pub name: &'static str,
    /// The default, which is the tuned value.
    pub default: f64,
    /// The smallest value a tuner may try.
    pub min: f64,
    /// The largest value a tuner may try.
    pub max: f64,
    /// A sensible initial perturbation for SPSA (integer for integer parameters).
    pub step: f64,
    /// One line on what the parameter does.
    pub doc: &'static str,
}

/// A [`ParamSpec`] from its fields in declaration order, so engines' spec tables stay one
/// line of arguments per parameter.
pub const fn spec(
    name: &'static str,
    default: f64,
    min: f64,
    max: f64,
    step: f64,
    doc: &'static str,
) -> ParamSpec {
    ParamSpec {
        name,
        default,
        min,
        max,
        step,
        doc,
    }
}

impl ParamSpec {
    /// True when the parameter only takes whole numbers (its step is whole).
    pub fn is_integer(&self) -> bool {
        self.step.fract() == 0.0
    }
}

/// Why a `--param` could not be applied.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// No parameter has this name.
    #[error("unknown parameter `{0}`")]
    Unknown(String),
    /// The text after `=` is not a number.
    #[error("parameter `{name}`: `{value}` is not a number")]
    NotANumber {
        /// The parameter.
        name: String,
        /// The text given.
        value: String,
    },
    /// The assignment has no `=`.
    #[error("`{0}` is not of the form name=value")]
    Malformed(String),
    /// The value is outside what the parameter can hold: its `valid` range, its type's
    /// range (a count below 0), or not 0 or 1 for a switch. Refused rather than clamped, so
    /// a typo such as `end_qs=7` is not silently read as "on".
    #[error("parameter `{name}`: {value} is out of range (allowed: {allowed})")]
    OutOfRange {
        /// The parameter.
        name: String,
        /// The value given.
        value: f64,
        /// What the parameter accepts, as a person would write it.
        allowed: String,
    },
}

/// A config struct whose fields are tunable by name.
pub trait Tunable {
    /// Every tunable parameter, in a stable order.
    fn specs() -> Vec<ParamSpec>;
    /// Sets `name` to `value`; integer parameters round to the nearest whole number.
    fn set_param(&mut self, name: &str, value: f64) -> Result<(), ParamError>;
    /// The current value of `name`.
    fn get_param(&self, name: &str) -> Option<f64>;

    /// Applies one `name=value` assignment.
    fn apply(&mut self, assignment: &str) -> Result<(), ParamError> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| ParamError::Malformed(assignment.to_string()))?;
        let name = name.trim();
        let v: f64 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| ParamError::NotANumber {
                name: name.to_string(),
                value: value.to_string(),
            })?;
        self.set_param(name, v)
    }
}

/// A printable table of parameter specs (name, default, min, max, step, doc), one per line,
/// tab-separated so scripts can read it.
pub struct SpecTable<'a>(pub &'a [ParamSpec]);

impl fmt::Display for SpecTable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "name\tdefault\tmin\tmax\tstep\tdoc")?;
        for s in self.0 {
            writeln!(
                f,
                "{}\t{}\t{}\t{}\t{}\t{}",
                s.name, s.default, s.min, s.max, s.step, s.doc
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Cfg {
        weight: i32,
        c: f64,
    }

    impl Tunable for Cfg {
        fn specs() -> Vec<ParamSpec> {
            vec![
                ParamSpec {
                    name: "weight",
                    default: 0.0,
                    min: -10.0,
                    max: 10.0,
                    step: 2.0,
                    doc: "an integer weight",
                },
                ParamSpec {
                    name: "c",
                    default: 0.7,
                    min: 0.1,
                    max: 2.0,
                    step: 0.1,
                    doc: "a real constant",
                },
            ]
        }
        fn set_param(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
            match name {
                "weight" => self.weight = value.round() as i32,
                "c" => self.c = value,
                _ => return Err(ParamError::Unknown(name.to_string())),
            }
            Ok(())
        }
        fn get_param(&self, name: &str) -> Option<f64> {
            match name {
                "weight" => Some(self.weight as f64),
                "c" => Some(self.c),
                _ => None,
            }
        }
    }

    #[test]
    fn apply_parses_and_rounds() {
        let mut c = Cfg::default();
        c.apply("weight=3.6").unwrap();
        c.apply(" c = 1.25").unwrap();
        assert_eq!(c.get_param("weight"), Some(4.0));
        assert_eq!(c.get_param("c"), Some(1.25));
    }

    #[test]
    fn apply_rejects_bad_input() {
        let mut c = Cfg::default();
        assert!(matches!(c.apply("weight"), Err(ParamError::Malformed(_))));
        assert!(matches!(
            c.apply("weight=x"),
            Err(ParamError::NotANumber { .. })
        ));
        assert!(matches!(
            c.apply("weight=NaN"),
            Err(ParamError::NotANumber { .. })
        ));
        assert!(matches!(c.apply("nope=1"), Err(ParamError::Unknown(_))));
        assert!(Cfg::specs()[0].is_integer() && !Cfg::specs()[1].is_integer());
    }

    #[test]
    fn table_lists_every_spec() {
        let t = SpecTable(&Cfg::specs()).to_string();
        assert_eq!(t.lines().count(), 3);
        assert!(t.contains("weight\t0\t-10\t10\t2\t"));
    }
}
