//! Connect Four: the grid (any size), discs coloured by player, the last disc ringed, the
//! winning line marked.

use super::num;
use serde_json::Value;

const CELL: usize = 56;
const MARGIN: usize = 12;

/// The SVG of a Connect Four state (`Arena::positions` of `arena::connect4`).
pub fn draw(state: &Value) -> String {
    let columns = num(&state["columns"]).clamp(1, 64);
    let rows = num(&state["rows"]).clamp(1, 64);
    let grid: Vec<Vec<char>> = state["grid"]
        .as_array()
        .map(|g| {
            g.iter()
                .map(|r| r.as_str().unwrap_or("").chars().collect())
                .collect()
        })
        .unwrap_or_default();
    let pair = |v: &Value| Some((num(v.get(0)?), num(v.get(1)?)));
    let last = pair(&state["last"]);
    let win: Vec<(usize, usize)> = state["win"]
        .as_array()
        .map(|w| w.iter().filter_map(pair).collect())
        .unwrap_or_default();
    let (w, h) = (columns * CELL + 2 * MARGIN, rows * CELL + 2 * MARGIN + 22);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board connect4\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\
         <rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{}\" height=\"{}\" rx=\"8\" fill=\"#2450a8\"/>",
        columns * CELL,
        rows * CELL
    );
    for row in 0..rows {
        // grid[0] is the top row.
        let line = grid.get(rows - 1 - row);
        for col in 0..columns {
            let who = line.and_then(|l| l.get(col)).copied().unwrap_or('.');
            let (class, fill) = match who {
                '1' => ("disc p1", "#e63946"),
                '2' => ("disc p2", "#ffd23f"),
                _ => ("hole", "#f4f4f4"),
            };
            let cx = MARGIN + col * CELL + CELL / 2;
            let cy = MARGIN + (rows - 1 - row) * CELL + CELL / 2;
            let mut extra = String::new();
            if win.contains(&(col, row)) {
                extra += " stroke=\"#111\" stroke-width=\"5\"";
            } else if last == Some((col, row)) {
                extra += " stroke=\"#fff\" stroke-width=\"4\"";
            }
            let cls = if win.contains(&(col, row)) {
                format!("{class} win")
            } else if last == Some((col, row)) {
                format!("{class} last")
            } else {
                class.to_string()
            };
            s += &format!(
                "<circle class=\"{cls}\" data-col=\"{col}\" data-row=\"{row}\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"{fill}\"{extra}/>",
                CELL / 2 - 5
            );
        }
    }
    if win.len() >= 2 {
        let at = |(c, r): (usize, usize)| {
            (
                MARGIN + c * CELL + CELL / 2,
                MARGIN + (rows - 1 - r) * CELL + CELL / 2,
            )
        };
        let (a, b) = (at(win[0]), at(win[win.len() - 1]));
        s += &format!(
            "<line class=\"winline\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#111\" stroke-width=\"6\" stroke-linecap=\"round\" opacity=\"0.7\"/>",
            a.0, a.1, b.0, b.1
        );
    }
    for col in 0..columns {
        s += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">{}</text>",
            MARGIN + col * CELL + CELL / 2,
            h - 8,
            col + 1
        );
    }
    s + "</svg>"
}
