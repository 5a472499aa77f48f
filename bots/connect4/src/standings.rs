//! Scores accumulated over all seasons (spec §8.7) and their tables.

use crate::protocol::log_safe;
use comfy_table::{presets::UTF8_FULL, Cell, CellAlignment, Table};
use kibitz_search::stats::Standing;
use std::fmt::Write as _;

/// One player's record over every season played so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record {
    /// Player name.
    pub name: String,
    /// Games counted, byes included.
    pub games: u32,
    /// Wins, byes and opponents' faults included.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// How many of the wins were byes.
    pub byes: u32,
    /// Points: win 1, draw 0.5, loss 0.
    pub points: f64,
}

/// Records of every player, in the order they first appeared.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scoreboard {
    records: Vec<Record>,
}

/// How a game counts for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A win (1 point).
    Win,
    /// A draw (0.5 points).
    Draw,
    /// A loss (0 points).
    Loss,
    /// A bye: counted as a win.
    Bye,
}

impl Scoreboard {
    fn entry(&mut self, name: &str) -> &mut Record {
        match self.records.iter().position(|r| r.name == name) {
            Some(i) => &mut self.records[i],
            None => {
                self.records.push(Record {
                    name: name.to_string(),
                    ..Record::default()
                });
                self.records.last_mut().expect("just pushed")
            }
        }
    }

    /// Counts one game for `name`.
    pub fn add(&mut self, name: &str, outcome: Outcome) {
        let r = self.entry(name);
        r.games += 1;
        match outcome {
            Outcome::Win => {
                r.wins += 1;
                r.points += 1.0;
            }
            Outcome::Bye => {
                r.wins += 1;
                r.byes += 1;
                r.points += 1.0;
            }
            Outcome::Draw => {
                r.draws += 1;
                r.points += 0.5;
            }
            Outcome::Loss => r.losses += 1,
        }
    }

    /// Records best first (points, then wins; ties keep first-appearance order).
    pub fn ranking(&self) -> Vec<Record> {
        let mut v = self.records.clone();
        v.sort_by(|a, b| b.points.total_cmp(&a.points).then(b.wins.cmp(&a.wins)));
        v
    }

    /// The record of `name`, if it has played.
    pub fn get(&self, name: &str) -> Option<&Record> {
        self.records.iter().find(|r| r.name == name)
    }

    /// The original server's ranking lines: `1: alice 5.0`, names padded to equal width.
    /// Names are escaped ([`log_safe`]): a name with a newline cannot forge a ranking line.
    pub fn ranking_lines(&self) -> String {
        let ranking = self.ranking();
        let names: Vec<String> = ranking
            .iter()
            .map(|r| log_safe(&r.name).to_string())
            .collect();
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        let mut out = String::new();
        for (i, (r, name)) in ranking.iter().zip(&names).enumerate() {
            let _ = writeln!(out, "{}: {name:<width$} {:.1}", i + 1, r.points);
        }
        out
    }

    /// A table of games, wins, draws, losses, byes and points, best first (names escaped as
    /// in [`Self::ranking_lines`]).
    pub fn table(&self) -> Table {
        let mut t = Table::new();
        t.load_preset(UTF8_FULL);
        t.set_header([
            "#", "player", "games", "wins", "draws", "losses", "byes", "points",
        ]);
        for (i, r) in self.ranking().iter().enumerate() {
            t.add_row(vec![
                Cell::new(i + 1),
                Cell::new(log_safe(&r.name)),
                Cell::new(r.games),
                Cell::new(r.wins),
                Cell::new(r.draws),
                Cell::new(r.losses),
                Cell::new(r.byes),
                Cell::new(format!("{:.1}", r.points)),
            ]);
        }
        for c in 2..8 {
            if let Some(col) = t.column_mut(c) {
                col.set_cell_alignment(CellAlignment::Right);
            }
        }
        t
    }

    /// The rows for `kibitz tournament`, best first.
    pub fn standings(&self) -> Vec<Standing> {
        self.ranking()
            .into_iter()
            .map(|r| Standing {
                player: r.name,
                games: r.games,
                wins: r.wins,
                draws: r.draws,
                losses: r.losses,
                points: r.points,
                note: if r.byes > 0 {
                    format!("{} bye win(s) included", r.byes)
                } else {
                    String::new()
                },
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_ranking_format() {
        let mut s = Scoreboard::default();
        for (name, wins) in [("carol", 3), ("alice", 5), ("bob", 4)] {
            for _ in 0..wins {
                s.add(name, Outcome::Win);
            }
        }
        assert_eq!(
            s.ranking_lines(),
            "1: alice 5.0\n2: bob   4.0\n3: carol 3.0\n"
        );
        s.add("bob", Outcome::Draw);
        s.add("dan", Outcome::Bye);
        let r = s.get("bob").unwrap();
        assert_eq!((r.games, r.draws, r.points), (5, 1, 4.5));
        assert_eq!(s.get("dan").unwrap().byes, 1);
        assert_eq!(s.standings()[1].player, "bob");
    }

    /// Issue 37 item 4: the printed ranking escapes names, so `x\nFORGED` cannot add a line.
    #[test]
    fn ranking_escapes_names() {
        let mut s = Scoreboard::default();
        s.add("x\n9: FORGED 99.0", Outcome::Win);
        s.add("n\0\u{202e}", Outcome::Loss);
        let lines = s.ranking_lines();
        assert_eq!(lines.lines().count(), 2, "{lines}");
        assert!(lines.starts_with("1: x\\n9: FORGED 99.0 1.0\n"), "{lines}");
        assert!(
            !lines.contains('\0') && !lines.contains('\u{202e}'),
            "{lines}"
        );
        let table = s.table().to_string();
        assert!(
            !table.contains('\0') && !table.contains("\n9: FORGED"),
            "{table}"
        );
    }
}
