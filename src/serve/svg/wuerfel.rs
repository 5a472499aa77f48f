//! Würfelglück (Mensch ärgere dich nicht for two dice): the cross-shaped board of 40 track
//! squares on an 11 × 11 grid, each side's four home squares (B) and four goal squares, the
//! pieces by progress, and both dice with the face just rolled marked.
//!
//! Side 0 starts on the left arm's outer square and enters its goal from the left; side 1
//! starts opposite (track square 20) and enters from the right (spec: the sides start 20
//! squares apart).

use super::seat_colour;
use crate::serve::html::esc;
use serde_json::Value;

/// Grid cells `(column, row)` of the 40 track squares, square 0 first (side 0's start).
const TRACK: [(u8, u8); 40] = [
    (0, 4),
    (1, 4),
    (2, 4),
    (3, 4),
    (4, 4),
    (4, 3),
    (4, 2),
    (4, 1),
    (4, 0),
    (5, 0),
    (6, 0),
    (6, 1),
    (6, 2),
    (6, 3),
    (6, 4),
    (7, 4),
    (8, 4),
    (9, 4),
    (10, 4),
    (10, 5),
    (10, 6),
    (9, 6),
    (8, 6),
    (7, 6),
    (6, 6),
    (6, 7),
    (6, 8),
    (6, 9),
    (6, 10),
    (5, 10),
    (4, 10),
    (4, 9),
    (4, 8),
    (4, 7),
    (4, 6),
    (3, 6),
    (2, 6),
    (1, 6),
    (0, 6),
    (0, 5),
];
/// Goal squares a..d per side.
const GOALS: [[(u8, u8); 4]; 2] = [
    [(1, 5), (2, 5), (3, 5), (4, 5)],
    [(9, 5), (8, 5), (7, 5), (6, 5)],
];
/// Home squares (B) per side.
const HOMES: [[(u8, u8); 4]; 2] = [
    [(0, 0), (1, 0), (0, 1), (1, 1)],
    [(9, 9), (10, 9), (9, 10), (10, 10)],
];
/// Grid cell size in px.
const CELL: usize = 40;

/// The cell of a piece of `side` at `progress` (−1 home, numbered `k` among the home pieces).
fn cell(side: usize, progress: i64, k: usize) -> (u8, u8) {
    match progress {
        p if p < 0 => HOMES[side][k.min(3)],
        p @ 0..=39 => TRACK[(p as usize + 20 * side) % 40],
        p => GOALS[side][((p - 40) as usize).min(3)],
    }
}

fn centre((c, r): (u8, u8)) -> (usize, usize) {
    (
        20 + c as usize * CELL + CELL / 2,
        20 + r as usize * CELL + CELL / 2,
    )
}

/// The SVG of a Würfelglück state (`wuerfel_report::positions`).
pub fn draw(state: &Value) -> String {
    let board = 20 * 2 + 11 * CELL;
    let (w, h) = (board + 230, board);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board wuerfel\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fbf3d9\" rx=\"10\"/>"
    );
    let square = |s: &mut String, at: (u8, u8), fill: &str, stroke: &str| {
        let (x, y) = centre(at);
        *s += &format!(
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"15\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"2\"/>"
        );
    };
    for (i, &t) in TRACK.iter().enumerate() {
        let fill = match i {
            0 => "#f6c1c1",
            20 => "#c1d6f6",
            _ => "#fff",
        };
        square(&mut s, t, fill, "#777");
    }
    for side in 0..2 {
        for &g in &GOALS[side] {
            square(&mut s, g, "#fff", seat_colour(side));
        }
        for &b in &HOMES[side] {
            square(&mut s, b, "#eee", seat_colour(side));
        }
    }
    // The pieces.
    for side in 0..2 {
        let mut home = 0;
        for p in state["progress"][side]
            .as_array()
            .into_iter()
            .flatten()
            .take(4)
        {
            let p = p.as_i64().unwrap_or(-1);
            let at = cell(side, p, home);
            if p < 0 {
                home += 1;
            }
            let (x, y) = centre(at);
            s += &format!(
                "<circle class=\"piece\" data-side=\"{side}\" data-progress=\"{p}\" cx=\"{x}\" cy=\"{y}\" r=\"11\" fill=\"{}\" stroke=\"#222\"/>",
                seat_colour(side)
            );
        }
    }
    // The dice: each die's faces, the one just rolled marked.
    let x0 = board + 10;
    let roll = state["roll"].as_u64();
    let who = state["side"].as_u64();
    for side in 0..2usize {
        let y0 = 40 + side * 190;
        let mover = who == Some(side as u64);
        s += &format!(
            "<text x=\"{x0}\" y=\"{}\" font-size=\"15\" font-weight=\"600\" fill=\"{}\">die {}{}</text>",
            y0,
            seat_colour(side),
            side + 1,
            if mover { " rolled" } else { "" }
        );
        let faces: Vec<u64> = state["dice"][side]
            .as_array()
            .map(|f| f.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        let mut marked = false;
        for (i, f) in faces.iter().take(24).enumerate() {
            let (fx, fy) = (x0 + (i % 6) * 34, y0 + 12 + (i / 6) * 34);
            let hit = mover && !marked && roll == Some(*f);
            marked |= hit;
            let (fill, stroke) = if hit {
                ("#ffe38a", "#e07a00")
            } else {
                ("#fff", "#888")
            };
            s += &format!(
                "<rect{} x=\"{fx}\" y=\"{fy}\" width=\"28\" height=\"28\" rx=\"5\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"2\"/>\
                 <text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{f}</text>",
                if hit { " class=\"rolled\"" } else { "" },
                fx + 14,
                fy + 19
            );
        }
    }
    if let Some(r) = roll {
        let note = match (state["moved"].as_bool(), state["again"].as_bool()) {
            (Some(false), _) => "no piece could move",
            (_, Some(true)) => "a 6: rolls again",
            _ => "",
        };
        s += &format!(
            "<text id=\"roll\" x=\"{x0}\" y=\"{}\" font-size=\"22\" font-weight=\"700\">rolled {r}</text>\
             <text x=\"{x0}\" y=\"{}\" font-size=\"13\">{}</text>",
            h - 50,
            h - 30,
            esc(note)
        );
    }
    s + "</svg>"
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pieces_sit_on_home_track_and_goal_squares_and_the_roll_is_marked() {
        assert_eq!(cell(0, 0, 0), (0, 4));
        assert_eq!(cell(1, 0, 0), (10, 6), "side 1 starts 20 squares on");
        assert_eq!(cell(1, 25, 0), TRACK[5]);
        assert_eq!(cell(0, 43, 0), (4, 5));
        assert_eq!(cell(1, -1, 2), (9, 10));
        let svg = draw(&json!({"progress": [[41, 3, -1, -1], [0, -1, -1, -1]],
            "dice": [[1, 2, 3, 4, 5, 6], [6, 6, 1]], "roll": 6, "side": 1, "moved": true, "again": true}));
        assert_eq!(svg.matches("class=\"piece\"").count(), 8);
        assert_eq!(
            svg.matches("class=\"rolled\"").count(),
            1,
            "one face marked"
        );
        assert!(svg.contains("rolls again") && svg.contains("die 2 rolled"));
    }
}
