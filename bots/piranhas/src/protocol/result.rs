//! The result message: two scores (RED first) and the winner.

use super::dom::Element;
use super::messages::parse_color;
use super::{bad_value, ProtocolError};
use kibitz_piranhas::Color;

/// Name of the match-points result fragment.
pub const FRAGMENT_POINTS: &str = "Gewinner";
/// Name of the tie-break fragment (U+2205, as 19.2.1 sends it).
pub const FRAGMENT_SWARM: &str = "\u{2205} Schwarm";

/// Why a player's score ended as it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScoreCause {
    /// Normal end.
    Regular,
    /// The player left (disconnected).
    Left,
    /// The player sent an invalid move.
    RuleViolation,
    /// The move came after the soft limit.
    SoftTimeout,
    /// No move within the hard limit.
    HardTimeout,
}

impl ScoreCause {
    /// The protocol name.
    pub const fn name(self) -> &'static str {
        match self {
            ScoreCause::Regular => "REGULAR",
            ScoreCause::Left => "LEFT",
            ScoreCause::RuleViolation => "RULE_VIOLATION",
            ScoreCause::SoftTimeout => "SOFT_TIMEOUT",
            ScoreCause::HardTimeout => "HARD_TIMEOUT",
        }
    }

    fn parse(s: &str) -> Result<Self, ProtocolError> {
        [
            ScoreCause::Regular,
            ScoreCause::Left,
            ScoreCause::RuleViolation,
            ScoreCause::SoftTimeout,
            ScoreCause::HardTimeout,
        ]
        .into_iter()
        .find(|c| c.name() == s)
        .ok_or_else(|| bad_value("score cause", s))
    }
}

/// One player's `<score>`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreMsg {
    /// Why it ended.
    pub cause: ScoreCause,
    /// Reason text (absent for the innocent side of a violation).
    pub reason: Option<String>,
    /// Part 1, "Gewinner": 2 win, 1 draw, 0 loss.
    pub points: u32,
    /// Part 2, "∅ Schwarm": the player's biggest swarm at the end.
    pub swarm: u32,
}

/// The `result` message: RED's score, BLUE's score, winner.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultMsg {
    /// Scores indexed by `Color as usize` (RED first on the wire).
    pub scores: [ScoreMsg; 2],
    /// Winner's display name and colour; `None` on a draw.
    pub winner: Option<(String, Color)>,
}

pub(super) fn parse_result(data: &Element) -> Result<ResultMsg, ProtocolError> {
    let scores: Vec<ScoreMsg> = data
        .find_all("score")
        .map(|s| {
            let parts: Vec<f64> = s
                .find_all("part")
                .map(|p| {
                    p.text
                        .trim()
                        .parse()
                        .map_err(|_| bad_value("part", &p.text))
                })
                .collect::<Result<_, _>>()?;
            let part = |i: usize| parts.get(i).copied().unwrap_or(0.0).max(0.0).round() as u32;
            Ok(ScoreMsg {
                cause: ScoreCause::parse(s.get("cause").unwrap_or("REGULAR"))?,
                reason: s.get("reason").map(str::to_string),
                points: part(0),
                swarm: part(1),
            })
        })
        .collect::<Result<_, ProtocolError>>()?;
    let [red, blue]: [ScoreMsg; 2] = scores
        .try_into()
        .map_err(|v: Vec<ScoreMsg>| bad_value("number of scores", &v.len().to_string()))?;
    let winner = match data.find("winner") {
        Some(w) => Some((
            w.get("displayName").unwrap_or("Unknown").to_string(),
            parse_color(w, "color")?,
        )),
        None => None,
    };
    Ok(ResultMsg {
        scores: [red, blue],
        winner,
    })
}

pub(super) fn result_element(r: &ResultMsg) -> Element {
    let fragment = |name: &str, aggregation: &str| {
        Element::new("fragment")
            .attr("name", name)
            .child(Element::new("aggregation").text(aggregation))
            .child(Element::new("relevantForRanking").text("true"))
    };
    let mut data = Element::new("data").attr("class", "result").child(
        Element::new("definition")
            .child(fragment(FRAGMENT_POINTS, "SUM"))
            .child(fragment(FRAGMENT_SWARM, "AVERAGE")),
    );
    for s in &r.scores {
        let mut score = Element::new("score").attr("cause", s.cause.name());
        if let Some(reason) = &s.reason {
            score = score.attr("reason", reason.clone());
        }
        data = data.child(
            score
                .child(Element::new("part").text(s.points.to_string()))
                .child(Element::new("part").text(s.swarm.to_string())),
        );
    }
    if let Some((name, color)) = &r.winner {
        data = data.child(
            Element::new("winner")
                .attr("displayName", name.clone())
                .attr("color", color.name()),
        );
    }
    data
}
