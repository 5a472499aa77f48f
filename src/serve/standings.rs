//! The live tournament page (`/standings/{dir}`): for one `--records` folder, e.g. the one a
//! running `kibitz tournament --records DIR` or `kibitz match --records DIR` writes, the
//! standings and a crosstable per game, over every record of every file in it. The page
//! follows the folder without a reload (the same `/events` stream as the index: on a new
//! generation it fetches itself again and swaps the tables).
//!
//! Counting (the same for every game): a player's game is a win when a seat it held won, a
//! draw when nobody won (`result.winner` null), a loss otherwise; points are wins plus half
//! the draws. The crosstable cell of row R and column C is R's points against C over their
//! games together: where the record has a score per seat (`result.scores`, Koehandel) R and
//! C compare their scores; otherwise the winner beat every other seat, a draw is a draw for
//! every pair, and two seats that both lost have no result between them. A name in several
//! seats of one game (Koehandel's `AABB`) counts once per game.

use super::html::{esc, page};
use super::store::Store;
use serde_json::Value;
use std::collections::BTreeMap;

/// One player's line of a game's standings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Line {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
}

impl Line {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    /// Wins plus half the draws.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }
}

/// A head-to-head cell: R's points against C and the games with a result between them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cell {
    /// R's points (1 per win, ½ per draw).
    pub points: f64,
    /// Games with a result between R and C.
    pub games: u32,
}

/// The standings and crosstable of one game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Per player name.
    pub lines: BTreeMap<String, Line>,
    /// `(row, column)` → cell.
    pub cross: BTreeMap<(String, String), Cell>,
    /// Records counted.
    pub games: u32,
}

impl Table {
    /// The players, best first (points, then fewer games, then name).
    pub fn order(&self) -> Vec<String> {
        let mut names: Vec<&String> = self.lines.keys().collect();
        names.sort_by(|a, b| {
            let (la, lb) = (&self.lines[*a], &self.lines[*b]);
            lb.points()
                .total_cmp(&la.points())
                .then(la.games().cmp(&lb.games()))
                .then(a.cmp(b))
        });
        names.into_iter().cloned().collect()
    }
}

/// The seat names of a record (`players`; non-strings as JSON text).
fn seat_names(rec: &Value) -> Vec<String> {
    rec["players"]
        .as_array()
        .map(|p| {
            p.iter()
                .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Adds one record to `t`; records without players or a readable result are left out.
pub fn add(t: &mut Table, rec: &Value) {
    let names = seat_names(rec);
    let r = &rec["result"];
    let winner = match r.get("winner") {
        Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(w) if (w as usize) < names.len() => Some(w as usize),
            _ => return,
        },
        _ => return,
    };
    if names.len() < 2 {
        return;
    }
    let scores: Option<Vec<f64>> = r["scores"]
        .as_array()
        .filter(|s| s.len() == names.len())
        .and_then(|s| s.iter().map(Value::as_f64).collect());
    t.games += 1;
    // Each name once per game: its best seat (a win if any of its seats won).
    let mut distinct: Vec<&String> = names.iter().collect();
    distinct.sort();
    distinct.dedup();
    for n in &distinct {
        let line = t.lines.entry((*n).clone()).or_default();
        match winner {
            None => line.draws += 1,
            Some(w) if names[w] == **n => line.wins += 1,
            Some(_) => line.losses += 1,
        }
    }
    // Head to head: the seats' pairwise results, one per pair of names per game.
    for &a in &distinct {
        for &b in &distinct {
            if a == b {
                continue;
            }
            let seats = |n: &String| -> Vec<usize> {
                (0..names.len()).filter(|&s| names[s] == *n).collect()
            };
            let result: Option<f64> = match (&scores, winner) {
                (Some(sc), _) => {
                    let best = |ss: &[usize]| ss.iter().map(|&s| sc[s]).fold(f64::MIN, f64::max);
                    let (x, y) = (best(&seats(a)), best(&seats(b)));
                    Some(match x.total_cmp(&y) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    })
                }
                (None, None) => Some(0.5),
                (None, Some(w)) if names[w] == *a => Some(1.0),
                (None, Some(w)) if names[w] == *b => Some(0.0),
                (None, Some(_)) => None,
            };
            if let Some(p) = result {
                let c = t.cross.entry((a.clone(), b.clone())).or_default();
                c.points += p;
                c.games += 1;
            }
        }
    }
}

/// The tables of every game in folder `dir` of `store`, by game name.
pub fn tables(store: &Store, dir: usize) -> BTreeMap<String, Table> {
    let mut out: BTreeMap<String, Table> = BTreeMap::new();
    for (key, file) in &store.files {
        if key.dir != dir {
            continue;
        }
        for rec in &file.records {
            let game = rec["game"].as_str().unwrap_or("?").to_string();
            add(out.entry(game).or_default(), rec);
        }
    }
    out
}

/// `7.5` or `7`: points as people write them.
fn pts(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// The HTML of the tables (the part the live script swaps).
pub fn tables_html(tables: &BTreeMap<String, Table>) -> String {
    if tables.is_empty() {
        return "<div id=\"standings\"><p>No records in this folder yet; the page fills in as they arrive.</p></div>".into();
    }
    let mut s = String::from("<div id=\"standings\">");
    for (game, t) in tables {
        let order = t.order();
        s += &format!(
            "<section class=\"standings\" data-game=\"{g}\"><h2>{g} — {} games</h2>\
             <table class=\"standings\"><thead><tr><th>#</th><th>player</th><th>points</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th></tr></thead><tbody>",
            t.games,
            g = esc(game),
        );
        for (i, n) in order.iter().enumerate() {
            let l = &t.lines[n];
            s += &format!(
                "<tr data-player=\"{p}\"><td>{}</td><td>{p}</td><td class=\"points\">{}</td><td class=\"games\">{}</td><td class=\"w\">{}</td><td class=\"d\">{}</td><td class=\"l\">{}</td><td>{:.1}%</td></tr>",
                i + 1,
                pts(l.points()),
                l.games(),
                l.wins,
                l.draws,
                l.losses,
                100.0 * l.points() / f64::from(l.games().max(1)),
                p = esc(n),
            );
        }
        s += "</tbody></table><h3>crosstable (row's points against the column / games)</h3><table class=\"cross\"><thead><tr><th></th>";
        for (j, _) in order.iter().enumerate() {
            s += &format!("<th>{}</th>", j + 1);
        }
        s += "</tr></thead><tbody>";
        for (i, a) in order.iter().enumerate() {
            s += &format!("<tr><th>{} {}</th>", i + 1, esc(a));
            for b in &order {
                if a == b {
                    s += "<td class=\"self\">—</td>";
                    continue;
                }
                match t.cross.get(&(a.clone(), b.clone())) {
                    Some(c) if c.games > 0 => {
                        s += &format!("<td>{}/{}</td>", pts(c.points), c.games)
                    }
                    _ => s += "<td></td>",
                }
            }
            s += "</tr>";
        }
        s += "</tbody></table></section>";
    }
    s + "</div>"
}

/// The page of folder `dir` (named `folder` in the title) at generation `gen`.
pub fn render(store: &Store, dir: usize, folder: &str, gen: u64) -> String {
    let body = format!(
        "<p><a href=\"/\">all games</a></p><h1>Standings — {}</h1>\
         <p>Every record in the folder, per game; the tables follow the folder as games end.</p>{}",
        esc(folder),
        tables_html(&tables(store, dir))
    );
    page(
        &format!("standings — {folder}"),
        &body,
        &SCRIPT.replace("GEN", &gen.to_string()),
    )
}

/// On a new generation: fetch the page again and swap the tables.
const SCRIPT: &str = r#"
let gen = GEN;
document.body.dataset.gen = gen;
const es = new EventSource('/events');
es.addEventListener('records', async (e) => {
  if (+e.data === gen) return;
  gen = +e.data;
  const r = await fetch(location.href);
  if (!r.ok) return;
  const doc = new DOMParser().parseFromString(await r.text(), 'text/html');
  const fresh = doc.getElementById('standings');
  if (fresh) document.getElementById('standings').replaceWith(fresh);
  document.body.dataset.gen = gen;
});
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(game: &str, players: &[&str], winner: Value) -> Value {
        json!({"game": game, "players": players, "result": {"winner": winner}})
    }

    #[test]
    fn standings_and_crosstable_count_wins_draws_and_losses() {
        let mut t = Table::default();
        add(&mut t, &rec("connect4", &["a", "b"], json!(0)));
        add(&mut t, &rec("connect4", &["b", "a"], json!(0)));
        add(&mut t, &rec("connect4", &["a", "c"], Value::Null));
        add(&mut t, &rec("connect4", &["a"], json!(0))); // one seat: left out
        add(&mut t, &rec("connect4", &["a", "b"], json!(5))); // no such seat: left out
        add(&mut t, &json!({"players": ["a", "b"], "result": "?"}));
        assert_eq!(t.games, 3);
        let a = &t.lines["a"];
        assert_eq!((a.wins, a.draws, a.losses, a.points()), (1, 1, 1, 1.5));
        assert_eq!(t.lines["b"].points(), 1.0);
        assert_eq!(t.order(), ["a", "b", "c"]);
        let ab = t.cross[&("a".to_string(), "b".to_string())];
        assert_eq!((ab.points, ab.games), (1.0, 2));
        assert_eq!(t.cross[&("c".to_string(), "a".to_string())].points, 0.5);
        assert!(!t.cross.contains_key(&("b".to_string(), "c".to_string())));
        let html = tables_html(&BTreeMap::from([("connect4".to_string(), t)]));
        assert!(html.contains("<td>1/2</td>") && html.contains("<td>0.5/1</td>"));
    }

    #[test]
    fn scores_decide_pairs_and_a_name_counts_once_per_game() {
        let mut t = Table::default();
        // Koehandel-like: A A B C, seat 2 (B) wins; A's best seat beats C.
        add(
            &mut t,
            &json!({"game": "koehandel", "players": ["A", "A", "B", "C"],
                    "result": {"winner": 2, "scores": [30, 50, 90, 40]}}),
        );
        assert_eq!(t.lines["A"].games(), 1);
        assert_eq!(t.lines["B"].wins, 1);
        assert_eq!(t.cross[&("A".to_string(), "C".to_string())].points, 1.0);
        assert_eq!(t.cross[&("A".to_string(), "B".to_string())].points, 0.0);
        // Names are escaped.
        let mut t = Table::default();
        add(&mut t, &rec("<g>", &["<x>", "y"], json!(1)));
        let html = tables_html(&BTreeMap::from([("<g>".to_string(), t)]));
        assert!(!html.contains("<x>") && html.contains("&lt;x&gt;"));
    }
}
