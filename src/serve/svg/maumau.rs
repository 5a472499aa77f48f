//! Mau-Mau: the top card and the wished suit in the middle, every seat's hand (a replay from
//! the deal knows each card) with its size, the talon, the seat that acted last marked.

use super::{num, seat_colour};
use crate::serve::html::esc;
use serde_json::Value;

const CARD_W: usize = 38;
const CARD_H: usize = 54;

/// One card face: red suits (♥ ♦) in red.
fn card(x: usize, y: usize, label: &str, class: &str) -> String {
    let red = label.contains('♥') || label.contains('♦');
    format!(
        "<g class=\"{class}\"><rect x=\"{x}\" y=\"{y}\" width=\"{CARD_W}\" height=\"{CARD_H}\" rx=\"4\" fill=\"#fff\" stroke=\"#555\"/>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"15\" fill=\"{}\">{}</text></g>",
        x + CARD_W / 2,
        y + CARD_H / 2 + 5,
        if red { "#c1121f" } else { "#111" },
        esc(label)
    )
}

/// The SVG of a Mau-Mau state (`Arena::positions` of `arena::maumau`).
pub fn draw(state: &Value) -> String {
    let hands: Vec<Vec<String>> = state["hands"]
        .as_array()
        .map(|h| {
            h.iter()
                .map(|cards| {
                    cards
                        .as_array()
                        .map(|c| {
                            c.iter()
                                .map(|x| x.as_str().unwrap_or("?").to_string())
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default();
    let sizes = state["hand_sizes"].as_array().cloned().unwrap_or_default();
    let actor = state["actor"].as_u64().map(|a| a as usize);
    let to_move = num(&state["to_move"]);
    let widest = hands.iter().map(Vec::len).max().unwrap_or(0).max(8);
    let w = 140 + widest * (CARD_W + 4);
    let row_h = CARD_H + 26;
    let h = 110 + hands.len().max(1) * row_h;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board maumau\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#2d6a4f\" rx=\"10\"/>"
    );
    s += &card(20, 20, state["top"].as_str().unwrap_or("?"), "top");
    s += &format!(
        "<text x=\"70\" y=\"42\" fill=\"#fff\" font-size=\"15\">top card</text>\
         <text class=\"talon\" x=\"70\" y=\"64\" fill=\"#fff\" font-size=\"14\">talon {}</text>",
        num(&state["talon"])
    );
    if let Some(wish) = state["wish"].as_str() {
        s += &format!(
            "<text class=\"wish\" x=\"190\" y=\"52\" fill=\"#ffd23f\" font-size=\"20\">wish {}</text>",
            esc(wish)
        );
    }
    for (seat, hand) in hands.iter().enumerate() {
        let y = 100 + seat * row_h;
        let online = state["online"][seat].as_bool().unwrap_or(true);
        let mut label = format!(
            "seat {seat}: {} cards",
            sizes.get(seat).map_or(hand.len(), num)
        );
        if seat == to_move {
            label += " · to move";
        }
        if !online {
            label += " · dropped";
        }
        if actor == Some(seat) {
            s += &format!(
                "<rect class=\"actor\" x=\"12\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ffd23f\" stroke-width=\"3\" rx=\"6\"/>",
                y - 4,
                w - 24,
                row_h - 4
            );
        }
        s += &format!(
            "<circle cx=\"26\" cy=\"{}\" r=\"6\" fill=\"{}\"/><text class=\"seat\" x=\"38\" y=\"{}\" fill=\"#fff\" font-size=\"14\" font-weight=\"600\">{}</text>",
            y + 9,
            seat_colour(seat),
            y + 14,
            esc(&label)
        );
        for (i, c) in hand.iter().enumerate() {
            s += &card(20 + i * (CARD_W + 4), y + 20, c, "card");
        }
    }
    s + "</svg>"
}
