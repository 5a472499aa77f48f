//! Boards drawn as SVG on the server, one file per game, from the structured positions of
//! `Arena::positions`. Every string that comes from a record goes through [`esc`]; a state
//! missing a key draws as an empty board rather than failing (the state is ours, but the
//! page must never die on it).

mod connect4;
mod koehandel;
mod maumau;
mod piranhas;
mod wuerfel;

use super::html::esc;
use serde_json::Value;

/// The SVG of one position of `game`.
pub fn draw(game: &str, state: &Value) -> String {
    if state.get("text").is_some() {
        return text(state["text"].as_str().unwrap_or(""));
    }
    match game {
        "connect4" | "c4" => connect4::draw(state),
        "piranhas" => piranhas::draw(state),
        "maumau" => maumau::draw(state),
        "koehandel" => koehandel::draw(state),
        "wuerfel" => wuerfel::draw(state),
        _ => text(&state.to_string()),
    }
}

/// A text board (the `kibitz replay` drawing) as SVG lines in a monospace font.
pub fn text(board: &str) -> String {
    let lines: Vec<&str> = board.lines().collect();
    let w = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) * 9 + 20;
    let h = lines.len() * 18 + 20;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board text\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fff\"/>"
    );
    for (i, l) in lines.iter().enumerate() {
        s += &format!(
            "<text x=\"10\" y=\"{}\" font-family=\"monospace\" font-size=\"15\" xml:space=\"preserve\">{}</text>",
            24 + i * 18,
            esc(l)
        );
    }
    s + "</svg>"
}

/// `v` as a `usize` (0 when it is not a number).
fn num(v: &Value) -> usize {
    v.as_u64().unwrap_or(0) as usize
}

/// Colour of a seat (0..4) in every game's drawing.
fn seat_colour(seat: usize) -> &'static str {
    ["#d62828", "#1d6fd6", "#2a9d3f", "#9b5de5"][seat % 4]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_boards_are_escaped_and_junk_states_still_draw() {
        let s = draw("connect4", &json!({"text": "<script>"}));
        assert!(s.contains("&lt;script&gt;") && !s.contains("<script>"));
        for game in [
            "connect4",
            "piranhas",
            "maumau",
            "koehandel",
            "wuerfel",
            "madn",
        ] {
            let s = draw(game, &json!({"grid": 3, "hands": "x", "herds": [[1]]}));
            assert!(
                s.starts_with("<svg") && s.ends_with("</svg>"),
                "{game}: {s}"
            );
        }
    }
}
