//! Piranhas: the 10 × 10 board (row 9 at the top, as `kibitz replay` draws it), red and
//! blue fish, the Krakens, the last move as an arrow, fish per colour.

use super::{num, seat_colour};
use crate::serve::html::esc;
use serde_json::Value;

const CELL: usize = 48;
const M: usize = 28;

/// The SVG of a Piranhas state (`Arena::positions` of `arena::piranhas`).
pub fn draw(state: &Value) -> String {
    let board: Vec<char> = state["board"].as_str().unwrap_or("").chars().collect();
    let (w, h) = (10 * CELL + 2 * M, 10 * CELL + 2 * M + 30);
    let px = |x: usize, y: usize| {
        (
            M + x * CELL + CELL / 2,
            M + (9 - y.min(9)) * CELL + CELL / 2,
        )
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board piranhas\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\
         <rect x=\"{M}\" y=\"{M}\" width=\"{}\" height=\"{}\" fill=\"#cfe8f3\"/>",
        10 * CELL,
        10 * CELL
    );
    let last = &state["last"];
    let to = last["to"].as_array().map(|a| (num(&a[0]), num(&a[1])));
    let from = last["from"].as_array().map(|a| (num(&a[0]), num(&a[1])));
    for y in 0..10 {
        for x in 0..10 {
            let (cx, cy) = px(x, y);
            let (x0, y0) = (cx - CELL / 2, cy - CELL / 2);
            let mark = if Some((x, y)) == to {
                " fill=\"#ffe38a\""
            } else if Some((x, y)) == from {
                " fill=\"#fff4c2\""
            } else {
                " fill=\"none\""
            };
            s += &format!(
                "<rect x=\"{x0}\" y=\"{y0}\" width=\"{CELL}\" height=\"{CELL}\" stroke=\"#8fb8c9\"{mark}/>"
            );
            let c = board.get(x + 10 * y).copied().unwrap_or('-');
            s += &match c {
                'R' | 'B' => {
                    let (class, colour) = if c == 'R' {
                        ("fish red", seat_colour(0))
                    } else {
                        ("fish blue", seat_colour(1))
                    };
                    format!(
                        "<ellipse class=\"{class}\" data-x=\"{x}\" data-y=\"{y}\" cx=\"{cx}\" cy=\"{cy}\" rx=\"17\" ry=\"11\" fill=\"{colour}\"/>"
                    )
                }
                'O' => format!(
                    "<rect class=\"kraken\" data-x=\"{x}\" data-y=\"{y}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#3d3d3d\" rx=\"6\"/>",
                    x0 + 4,
                    y0 + 4,
                    CELL - 8,
                    CELL - 8
                ),
                _ => String::new(),
            };
        }
    }
    if let (Some(f), Some(t)) = (from, to) {
        let (a, b) = (px(f.0, f.1), px(t.0, t.1));
        s += &format!(
            "<line class=\"lastmove\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#111\" stroke-width=\"3\" opacity=\"0.6\"/>\
             <circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"#111\" opacity=\"0.6\"/>",
            a.0, a.1, b.0, b.1, b.0, b.1
        );
    }
    for i in 0..10 {
        let (cx, _) = px(i, 0);
        let (_, cy) = px(0, i);
        s += &format!(
            "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" font-size=\"13\">{i}</text>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"13\">{i}</text>",
            M - 10,
            M / 2,
            cy + 4
        );
    }
    let fish = &state["fish"];
    s += &format!(
        "<text x=\"{M}\" y=\"{}\" font-size=\"16\"><tspan fill=\"{}\">● red {}</tspan>   <tspan fill=\"{}\">● blue {}</tspan>   turn {}, {} to move</text>",
        h - 12,
        seat_colour(0),
        num(&fish[0]),
        seat_colour(1),
        num(&fish[1]),
        num(&state["turn"]),
        esc(state["to_move"].as_str().unwrap_or("?"))
    );
    s + "</svg>"
}
