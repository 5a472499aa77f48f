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

/// Width in pixels a sans-serif `text` takes at `size` px, estimated on the wide side (0.62 em
/// per character; digits and most letters are narrower), so labels are never cut off.
fn text_width(text: &str, size: usize) -> usize {
    (text.chars().count() * size * 62).div_ceil(100)
}

/// The head-to-head matrix as an SVG heatmap: red where the row die loses, green where it wins.
/// The canvas is as wide as the widest of the grid, the title and the row labels need.
pub fn svg(t: &Tournament) -> String {
    let n = t.dice().len();
    let title = "Würfelglück: row die's win % against column die";
    let subtitle = format!(
        "{} games per pairing, rules {}",
        t.games_per_pair(),
        t.variant().name()
    );
    let labels: Vec<String> = t
        .dice()
        .iter()
        .enumerate()
        .map(|(i, die)| format!("{} ({})", i + 1, die))
        .collect();
    let widest_label = labels.iter().map(|l| text_width(l, 12)).max().unwrap_or(0);
    let cell = 64;
    let (left, top) = (150.max(widest_label + 18), 70);
    let w = (left + cell * n + 20)
        .max(20 + text_width(title, 14))
        .max(20 + text_width(&subtitle, 12));
    let h = top + cell * n + 40;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"20\" font-size=\"14\">{title}</text>\n\
         <text x=\"10\" y=\"38\" font-size=\"12\">{subtitle}</text>\n"
    );
    for (i, label) in labels.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{label}</text>",
            left - 8,
            top + cell * i + cell / 2 + 4,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `<text>` of the heatmap lies inside the canvas by [`text_width`]'s estimate.
    #[test]
    fn heatmap_title_and_labels_fit_the_canvas() {
        for faces in [
            vec![vec![1, 2, 3, 4, 5, 6], vec![1, 1, 1, 6, 6, 6]],
            vec![vec![6; 6]],
        ] {
            let dice = faces
                .into_iter()
                .map(|f| kibitz_madn::dice::Die::new(f).unwrap())
                .collect();
            let t = Tournament::new(dice, kibitz_madn::Variant::Default, 1);
            let svg = svg(&t);
            let attr = |tag: &str, name: &str| -> usize {
                let at = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                tag[at..].split('"').next().unwrap().parse().unwrap()
            };
            let w = attr(&svg[..svg.find('>').unwrap()], "width");
            let mut texts = 0;
            for part in svg.split("<text").skip(1) {
                let (tag, rest) = part.split_once('>').unwrap();
                let content = rest.split("</text>").next().unwrap();
                let size = if tag.contains("font-size") {
                    attr(tag, "font-size")
                } else {
                    12
                };
                let (x, tw) = (attr(tag, "x"), text_width(content, size));
                let (from, to) = if tag.contains("\"end\"") {
                    (x.checked_sub(tw), x)
                } else if tag.contains("\"middle\"") {
                    (x.checked_sub(tw / 2), x + tw / 2)
                } else {
                    (Some(x), x + tw)
                };
                assert!(
                    from.is_some() && to <= w,
                    "{content:?} at {x} (width {tw}) in {w}"
                );
                texts += 1;
            }
            assert!(texts >= 4);
        }
    }
}
