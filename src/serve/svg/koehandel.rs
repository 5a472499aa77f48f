//! Koehandel: one panel per seat (herd by kind with counts, money cards and their value,
//! score), the auction or cow trade in progress above them with the seats in it marked.

use super::{num, seat_colour};
use crate::serve::html::esc;
use serde_json::Value;

/// Names of the kinds `A`..`J` (spec order; `G` is the donkey).
const ANIMALS: [&str; 10] = [
    "rooster", "goose", "cat", "dog", "sheep", "goat", "donkey", "pig", "cow", "horse",
];

fn animal_name(letter: &str) -> &'static str {
    letter
        .bytes()
        .next()
        .and_then(|b| b.checked_sub(b'A'))
        .and_then(|i| ANIMALS.get(i as usize))
        .copied()
        .unwrap_or("?")
}

/// The SVG of a Koehandel state (`Arena::positions` of `arena::koehandel`).
pub fn draw(state: &Value) -> String {
    let herds = state["herds"].as_array().cloned().unwrap_or_default();
    let seats = herds.len().max(1);
    let (pw, ph) = (250usize, 190usize);
    let w = 20 + seats.min(2) * (pw + 12);
    let h = 112 + seats.div_ceil(2) * (ph + 12);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board koehandel\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#f3ead3\" rx=\"10\"/>"
    );
    let deal = &state["deal"];
    let involved: Vec<usize> = deal["seats"]
        .as_array()
        .map(|a| a.iter().map(num).collect())
        .unwrap_or_default();
    let head = match deal["kind"].as_str() {
        Some(kind) => format!(
            "{kind}{}",
            deal["animal"]
                .as_str()
                .map(|a| format!(": {}", animal_name(a)))
                .unwrap_or_default()
        ),
        None => "game over".to_string(),
    };
    s += &format!(
        "<text class=\"deal\" x=\"16\" y=\"30\" font-size=\"19\" font-weight=\"600\">{}</text>\
         <text x=\"{}\" y=\"30\" font-size=\"13\" text-anchor=\"end\">deck left {}</text>",
        esc(&head),
        w - 16,
        num(&state["deck_left"])
    );
    // The question, wrapped to the width (at most three lines).
    let mut lines: Vec<String> = vec![String::new()];
    for word in deal["text"].as_str().unwrap_or("").split_whitespace() {
        let cur = lines.last_mut().expect("never empty");
        if !cur.is_empty() && cur.chars().count() + word.chars().count() > 72 {
            lines.push(word.to_string());
        } else {
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(word);
        }
    }
    for (i, l) in lines.iter().take(3).enumerate() {
        s += &format!(
            "<text x=\"16\" y=\"{}\" font-size=\"12\">{}</text>",
            50 + i * 15,
            esc(l)
        );
    }
    for (seat, herd) in herds.iter().enumerate() {
        let (x, y) = (12 + (seat % 2) * (pw + 12), 100 + (seat / 2) * (ph + 12));
        let asked = state["asked"].as_u64() == Some(seat as u64);
        let stroke = if involved.contains(&seat) {
            " stroke=\"#e07a00\" stroke-width=\"4\""
        } else {
            " stroke=\"#999\""
        };
        s += &format!(
            "<g class=\"seat\" data-seat=\"{seat}\"><rect x=\"{x}\" y=\"{y}\" width=\"{pw}\" height=\"{ph}\" rx=\"8\" fill=\"#fff\"{stroke}/>\
             <text x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"600\" fill=\"{}\">seat {seat}{}</text>",
            x + 10,
            y + 22,
            seat_colour(seat),
            if asked { " · asked" } else { "" }
        );
        let money = &state["money"][seat];
        s += &format!(
            "<text class=\"money\" x=\"{}\" y=\"{}\" font-size=\"13\">money: {} cards, {}</text>\
             <text x=\"{}\" y=\"{}\" font-size=\"13\">score {}</text>",
            x + 10,
            y + 42,
            num(&money["cards"]),
            num(&money["value"]),
            x + 170,
            y + 22,
            num(&state["scores"][seat])
        );
        for (i, kind) in herd.as_array().into_iter().flatten().enumerate() {
            let letter = kind[0].as_str().unwrap_or("?");
            let count = num(&kind[1]);
            let (cx, cy) = (x + 10 + (i % 2) * 120, y + 64 + (i / 2) * 24);
            s += &format!(
                "<text class=\"herd\" x=\"{cx}\" y=\"{cy}\" font-size=\"13\">{} × {}{}</text>",
                count,
                esc(animal_name(letter)),
                if count == 4 { " ✓" } else { "" }
            );
        }
        s += "</g>";
    }
    s + "</svg>"
}
