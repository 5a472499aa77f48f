//! Match statistics: standings rows, Elo with error bars, SPRT.

/// One row of a contest's standings table, as printed by `kibitz tournament`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// Player (bot) name.
    pub player: String,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Points by the contest's own scoring.
    pub points: f64,
    /// Free-form extra column (e.g. average score, penalties).
    pub note: String,
}
