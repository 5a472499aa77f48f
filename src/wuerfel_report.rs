//! Würfelglück output: the text report, the JSON object and the SVG heatmap (spec §7).

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use kibitz_madn::Tournament;
use serde_json::json;
use std::fmt::Write;

/// Most dice for which the head-to-head matrix is drawn (text report and `--svg`): the matrix has
/// n² cells, so beyond this the text report leaves it out (the pair lines and ranking stay) and
/// `--svg` is refused before any game is played.
pub const MAX_MATRIX_DICE: usize = 64;

fn right(s: impl ToString) -> Cell {
    Cell::new(s.to_string()).set_alignment(CellAlignment::Right)
}

/// Header, one line per pairing, the ranking and the head-to-head matrix.
pub fn text(t: &Tournament, file: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "file {file} · {} games per pairing · rules {} · seed {}\n",
        t.games_per_pair(),
        t.variant().name(),
        t.seed()
    );
    for ((a, b), p) in t.pairs() {
        let _ = writeln!(
            out,
            "die {} vs die {}: wins {} : {}  draws {}  capped {}",
            a + 1,
            b + 1,
            p.a_wins,
            p.b_wins,
            p.draws,
            p.capped
        );
    }
    let mut ranking = Table::new();
    ranking.load_preset(UTF8_FULL_CONDENSED);
    ranking.set_header(vec![
        "rank",
        "die",
        "faces",
        "wins / games",
        "win %",
        "95 % CI",
        "draw %",
    ]);
    for (i, r) in t.ranking().iter().enumerate() {
        ranking.add_row(vec![
            right(i + 1),
            right(r.die + 1),
            Cell::new(t.dice()[r.die].to_string()),
            right(format!("{} / {}", r.wins, r.games)),
            right(format!("{:.2}", 100.0 * r.win_rate)),
            right(format!("{:.2}–{:.2}", 100.0 * r.ci95.0, 100.0 * r.ci95.1)),
            right(format!(
                "{:.2}",
                100.0 * r.draws as f64 / r.games.max(1) as f64
            )),
        ]);
    }
    let _ = writeln!(out, "\nranking by total win rate\n{ranking}");
    let n = t.dice().len();
    if n > MAX_MATRIX_DICE {
        let _ = writeln!(
            out,
            "\nhead-to-head matrix left out: {n} dice (it is printed for at most {MAX_MATRIX_DICE})"
        );
        return out;
    }
    let mut matrix = Table::new();
    matrix.load_preset(UTF8_FULL_CONDENSED);
    matrix.set_header(
        std::iter::once("row beats col %".to_string()).chain((1..=n).map(|j| format!("{j}"))),
    );
    for (i, row) in t.matrix().iter().enumerate() {
        let mut cells = vec![Cell::new(format!("{} ({})", i + 1, t.dice()[i]))];
        cells.extend(row.iter().map(|v| match v {
            Some(x) => right(format!("{:.2}", 100.0 * x)),
            None => right("—"),
        }));
        matrix.add_row(cells);
    }
    let _ = writeln!(out, "\nhead-to-head\n{matrix}");
    out
}

/// The `--json` object.
pub fn json(t: &Tournament) -> String {
    let ranking: Vec<_> = t
        .ranking()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "rank": i + 1, "die": r.die + 1, "faces": t.dice()[r.die].faces(),
                "wins": r.wins, "games": r.games, "win_rate": r.win_rate,
                "ci95": [r.ci95.0, r.ci95.1], "draws": r.draws,
            })
        })
        .collect();
    let pairs: Vec<_> = t
        .pairs()
        .iter()
        .map(|((a, b), p)| {
            json!({"a": a + 1, "b": b + 1, "a_wins": p.a_wins, "b_wins": p.b_wins,
                   "draws": p.draws, "capped": p.capped})
        })
        .collect();
    json!({
        "games_per_pair": t.games_per_pair(), "variant": t.variant().name(), "seed": t.seed(),
        "ranking": ranking, "pairs": pairs,
    })
    .to_string()
}

/// The head-to-head matrix as an SVG heatmap: red where the row die loses, green where it wins.
pub fn svg(t: &Tournament) -> String {
    let n = t.dice().len();
    let (cell, left, top) = (64, 150, 60);
    let (w, h) = (left + cell * n + 20, top + cell * n + 40);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"20\" font-size=\"14\">Würfelglück: row die's win % against column die \
         ({} games per pairing, {})</text>\n",
        t.games_per_pair(),
        t.variant().name()
    );
    for (i, die) in t.dice().iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{} ({})</text>",
            left - 8,
            top + cell * i + cell / 2 + 4,
            i + 1,
            die
        );
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            left + cell * i + cell / 2,
            top - 8,
            i + 1
        );
    }
    for (i, row) in t.matrix().iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            let (x, y) = (left + cell * j, top + cell * i);
            let (fill, label) = match v {
                Some(p) => (heat(*p), format!("{:.1}", 100.0 * p)),
                None => ("#dddddd".to_string(), String::new()),
            };
            let _ = writeln!(
                s,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\" \
                 stroke=\"white\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{label}</text>",
                x + cell / 2,
                y + cell / 2 + 4
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// Diverging colour: red (0) through white (0.5) to green (1).
fn heat(p: f64) -> String {
    let p = p.clamp(0.0, 1.0);
    let (r, g, b) = if p < 0.5 {
        let k = p / 0.5;
        (215.0 + 40.0 * k, 48.0 + 207.0 * k, 39.0 + 216.0 * k)
    } else {
        let k = (p - 0.5) / 0.5;
        (255.0 - 229.0 * k, 255.0 - 103.0 * k, 255.0 - 190.0 * k)
    };
    format!("#{:02x}{:02x}{:02x}", r as u8, g as u8, b as u8)
}
