//! The market page's picture of one game: each seat's herd (animal names and counts), its money
//! (the number of cards while the game runs, as the other players see it; the values once it is
//! over), the auction or cow trade in progress, and the bluffs caught, drawn as SVG.
//!
//! The server keeps a [`MarketView`] per game and updates it from the engine after every
//! batch of notices ([`MarketView::update`]), so the page needs neither the wire logs nor a
//! replay to show where a game stands.

use crate::protocol::SEATS;
use crate::record::{question_text, ANIMAL_NAMES};
use kibitz_koehandel::{Animal, Ask, Event, Game, Notice, Question, Seat};
use kibitz_net::html::escape as esc;
use std::fmt::Write as _;

/// What is being dealt right now: the pending question and who is in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deal {
    /// `turn`, `auction`, `buy back`, `pay` or `cow trade`.
    pub kind: &'static str,
    /// The animal on sale or traded, if any.
    pub animal: Option<Animal>,
    /// The seats involved (auctioneer and high bidder, challenger and challenged, ...).
    pub seats: Vec<usize>,
    /// The seat asked now.
    pub asked: usize,
    /// The question as a person reads it.
    pub text: String,
}

/// A bid caught as a bluff: the bidder could not pay and had to show his hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bluff {
    /// The bluffer's seat.
    pub bluffer: usize,
    /// The animal on sale.
    pub animal: Animal,
    /// Cards in his hand, shown to everybody.
    pub cards: u32,
    /// Their value.
    pub value: u32,
}

/// The state of one game as the market page draws it (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MarketView {
    /// False until the first [`MarketView::update`].
    pub started: bool,
    /// Animal cards left in the deck.
    pub deck_left: usize,
    /// Seat whose turn it is.
    pub active: usize,
    /// Each seat's herd: `(animal, count)` for every kind held.
    pub herds: [Vec<(Animal, u8)>; SEATS],
    /// Money cards per seat.
    pub money_cards: [u32; SEATS],
    /// Money value per seat (shown only once the game is over).
    pub money_value: [u32; SEATS],
    /// Scores per seat (final once over).
    pub scores: [u32; SEATS],
    /// The auction or trade in progress; `None` once over.
    pub deal: Option<Deal>,
    /// Bluffs caught so far, in game order.
    pub bluffs: Vec<Bluff>,
    /// True once the game is over.
    pub over: bool,
}

impl MarketView {
    /// Takes the state of `game` and the bluffs among `notices` (the notices drained since
    /// the last update; each bluff is told to every seat, it is counted once).
    pub fn update(&mut self, game: &Game, notices: &[Notice]) {
        let mut seen = Vec::new();
        for n in notices {
            if let Event::Bluffed {
                animal,
                bluffer,
                cards,
            } = &n.event
            {
                let b = Bluff {
                    bluffer: bluffer.idx(),
                    animal: *animal,
                    cards: cards.len(),
                    value: cards.value(),
                };
                if !seen.contains(&b) {
                    seen.push(b);
                }
            }
        }
        self.bluffs.extend(seen);
        self.started = true;
        self.deck_left = game.deck_left();
        self.active = game.active().idx();
        for (i, seat) in kibitz_koehandel::Seat::ALL.into_iter().enumerate() {
            let h = game.herd(seat);
            self.herds[i] = Animal::all()
                .filter(|&a| h.count(a) > 0)
                .map(|a| (a, h.count(a)))
                .collect();
            let m = game.money(seat);
            self.money_cards[i] = m.len();
            self.money_value[i] = m.value();
        }
        self.scores = game.scores();
        self.over = game.is_over();
        self.deal = game.ask().map(|a| {
            let (kind, animal, seats) = deal_in_progress(&a);
            Deal {
                kind,
                animal,
                seats: seats.iter().map(|s| s.idx()).collect(),
                asked: a.seat.idx(),
                text: question_text(&a.question),
            }
        });
    }
}

/// What is going on at the table while `a` is asked: the kind (`turn`, `auction`,
/// `buy back`, `pay`, `cow trade`), the animal dealt for, and the seats involved. Shared by
/// the market page and the arena's positions for the viewer.
pub fn deal_in_progress(a: &Ask) -> (&'static str, Option<Animal>, Vec<Seat>) {
    match &a.question {
        Question::Start => ("turn", None, vec![a.seat]),
        Question::Bid {
            animal,
            auctioneer,
            high_bidder,
            ..
        } => (
            "auction",
            Some(*animal),
            [Some(*auctioneer), *high_bidder]
                .into_iter()
                .flatten()
                .collect(),
        ),
        Question::BuyBack {
            animal,
            high_bidder,
            ..
        } => ("buy back", Some(*animal), vec![a.seat, *high_bidder]),
        Question::Pay { animal, to, .. } => ("pay", Some(*animal), vec![a.seat, *to]),
        Question::Challenged {
            challenger, animal, ..
        } => ("cow trade", Some(*animal), vec![*challenger, a.seat]),
        Question::Reoffer {
            opponent, animal, ..
        } => ("cow trade", Some(*animal), vec![a.seat, *opponent]),
    }
}

/// The animal's name (`cow`).
pub fn animal_name(a: Animal) -> &'static str {
    ANIMAL_NAMES.get(a.idx()).copied().unwrap_or("animal")
}

/// A fill colour per animal kind (cheap to expensive: light to dark).
fn animal_fill(a: Animal) -> &'static str {
    const FILLS: [&str; 10] = [
        "#fff4c2", "#fde9a9", "#fbd8a0", "#f5c59a", "#eeeeee", "#e3d5c0", "#d9d9d9", "#f7c6cf",
        "#d8c3a5", "#c9b79c",
    ];
    FILLS.get(a.idx()).copied().unwrap_or("#fff")
}

const SEAT_COLOURS: [&str; SEATS] = ["#c0392b", "#1f5fa8", "#2e8b57", "#8e44ad"];

/// The SVG picture of `v`, seats labelled with `names` (escaped here).
pub fn svg(v: &MarketView, names: &[String; SEATS]) -> String {
    let (pw, ph) = (330usize, 210usize);
    let (w, h) = (24 + 2 * (pw + 12), 96 + 2 * (ph + 12));
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"picture\" class=\"market\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#f3ead3\" rx=\"10\"/>"
    );
    let head = match (&v.deal, v.over, v.started) {
        (_, _, false) => "not started yet".to_string(),
        (_, true, _) => "game over".to_string(),
        (Some(d), _, _) => match d.animal {
            Some(a) => format!("{}: {}", d.kind, animal_name(a)),
            None => format!("turn: seat {}", d.asked),
        },
        (None, false, true) => "between questions".to_string(),
    };
    let _ = write!(
        s,
        "<text id=\"deal\" x=\"16\" y=\"30\" font-size=\"20\" font-weight=\"600\">{}</text>\
         <text x=\"{}\" y=\"30\" font-size=\"14\" text-anchor=\"end\">deck: {} animals left · bluffs caught: {}</text>",
        esc(&head),
        w - 16,
        v.deck_left,
        v.bluffs.len()
    );
    if let Some(d) = v.deal.as_ref().filter(|_| !v.over) {
        let text = if d.text.chars().count() > 110 {
            format!("{}…", d.text.chars().take(110).collect::<String>())
        } else {
            d.text.clone()
        };
        let _ = write!(
            s,
            "<text id=\"question\" x=\"16\" y=\"56\" font-size=\"13\">asked: seat {} — {}</text>",
            d.asked,
            esc(&text)
        );
    } else if v.over {
        let best = v.scores.iter().copied().max().unwrap_or(0);
        let winners: Vec<String> = (0..SEATS)
            .filter(|&i| v.scores[i] == best)
            .map(|i| format!("seat {i}"))
            .collect();
        let _ = write!(
            s,
            "<text x=\"16\" y=\"56\" font-size=\"14\">won by {} with {best} points</text>",
            winners.join(" and ")
        );
    }
    let involved: &[usize] = v.deal.as_ref().map_or(&[], |d| &d.seats);
    for (seat, colour) in SEAT_COLOURS.iter().enumerate() {
        let (x, y) = (12 + (seat % 2) * (pw + 12), 80 + (seat / 2) * (ph + 12));
        let stroke = if involved.contains(&seat) && !v.over {
            "stroke=\"#e07a00\" stroke-width=\"4\""
        } else {
            "stroke=\"#999\""
        };
        let name = names.get(seat).map(String::as_str).unwrap_or("");
        let name = if name.chars().count() > 28 {
            format!("{}…", name.chars().take(28).collect::<String>())
        } else {
            name.to_string()
        };
        let _ = write!(
            s,
            "<g class=\"seat\" data-seat=\"{seat}\"><rect x=\"{x}\" y=\"{y}\" width=\"{pw}\" height=\"{ph}\" rx=\"8\" fill=\"#fff\" {stroke}/>\
             <text x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"600\" fill=\"{}\">seat {seat}{}</text>\
             <text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#555\">{}</text>\
             <text class=\"score\" x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"end\">{} points</text>",
            x + 10,
            y + 22,
            colour,
            if v.active == seat && !v.over { " · to move" } else { "" },
            x + 10,
            y + 38,
            esc(&name),
            x + pw - 10,
            y + 22,
            v.scores[seat],
        );
        // The herd: one card per kind held, its name and how many.
        for (i, (a, n)) in v.herds[seat].iter().enumerate() {
            let (cx, cy) = (x + 10 + (i % 4) * 78, y + 50 + (i / 4) * 46);
            let _ = write!(
                s,
                "<g class=\"herd\"><rect x=\"{cx}\" y=\"{cy}\" width=\"72\" height=\"40\" rx=\"5\" fill=\"{}\" stroke=\"#8a7a5a\"/>\
                 <text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>\
                 <text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"600\" text-anchor=\"middle\">× {n}{}</text></g>",
                animal_fill(*a),
                cx + 36,
                cy + 16,
                animal_name(*a),
                cx + 36,
                cy + 33,
                if *n == 4 { " ✓" } else { "" }
            );
        }
        // Money: face-down cards while the game runs, their value once it is over.
        let my = y + ph - 42;
        let shown = v.money_cards[seat].min(20) as usize;
        for k in 0..shown {
            let _ = write!(
                s,
                "<rect x=\"{}\" y=\"{my}\" width=\"14\" height=\"22\" rx=\"2\" fill=\"#3d7a3d\" stroke=\"#fff\"/>",
                x + 10 + k * 9
            );
        }
        let money = if v.over {
            format!(
                "{} money cards, worth {}",
                v.money_cards[seat], v.money_value[seat]
            )
        } else {
            format!("{} money cards", v.money_cards[seat])
        };
        let _ = write!(
            s,
            "<text class=\"money\" x=\"{}\" y=\"{}\" font-size=\"13\">{money}</text>",
            x + 10,
            y + ph - 8
        );
        let caught = v.bluffs.iter().filter(|b| b.bluffer == seat).count();
        if caught > 0 {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"#b00020\" text-anchor=\"end\">caught bluffing ×{caught}</text>",
                x + pw - 10,
                y + ph - 8
            );
        }
        s.push_str("</g>");
    }
    s + "</svg>"
}

/// The bluffs as an HTML list (shown under the picture once the game is over): who bluffed
/// on which animal and the hand he had to show.
pub fn bluffs_html(v: &MarketView) -> String {
    if v.bluffs.is_empty() {
        return "<p id=\"bluffs\">No bluff was caught.</p>".into();
    }
    let mut s = String::from("<h2>Bluffs revealed</h2><ol id=\"bluffs\">");
    for b in &v.bluffs {
        let _ = write!(
            s,
            "<li>seat {} bid on the {} without the money: {} cards worth {}</li>",
            b.bluffer,
            animal_name(b.animal),
            b.cards,
            b.value
        );
    }
    s + "</ol>"
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz_koehandel::Answer;

    #[test]
    fn a_game_is_pictured_from_start_to_end() {
        let mut g = Game::new(2011);
        let mut v = MarketView::default();
        let names: [String; SEATS] = std::array::from_fn(|i| format!("<bot {i}>"));
        assert!(svg(&v, &names).contains("not started yet"));
        let notices: Vec<_> = g.drain_notices().collect();
        v.update(&g, &notices);
        assert_eq!(v.deal.as_ref().map(|d| d.kind), Some("turn"));
        assert_eq!(
            v.money_cards, [7; SEATS],
            "everybody starts with seven cards"
        );
        // Seat 0 auctions the first animal: the picture names it and marks the auction.
        g.answer(Answer::Auction);
        let notices: Vec<_> = g.drain_notices().collect();
        v.update(&g, &notices);
        let d = v.deal.clone().unwrap();
        assert_eq!(d.kind, "auction");
        let pic = svg(&v, &names);
        let first = animal_name(d.animal.unwrap());
        assert!(pic.contains(&format!("auction: {first}")), "{pic}");
        assert!(pic.contains("&lt;bot 0&gt;") && !pic.contains("<bot 0>"));
        assert!(pic.contains("7 money cards") && !pic.contains("worth"));
        // Everyone answers with the default until the end.
        let mut steps = 0;
        while g.ask().is_some() && steps < 100_000 {
            g.answer(Answer::None);
            let notices: Vec<_> = g.drain_notices().collect();
            v.update(&g, &notices);
            steps += 1;
        }
        assert!(v.over && v.deal.is_none());
        let pic = svg(&v, &names);
        assert!(pic.contains("game over") && pic.contains("worth"));
        assert_eq!(v.scores, g.scores());
        let held: u8 = v.herds.iter().flatten().map(|&(_, n)| n).sum();
        assert_eq!(held, 40, "all forty animals are in some herd");
    }

    #[test]
    fn bluffs_told_to_every_seat_count_once() {
        let g = Game::new(1);
        let bluff = |seat: u8| Notice {
            seat: kibitz_koehandel::Seat(seat),
            event: Event::Bluffed {
                animal: Animal(3),
                bluffer: kibitz_koehandel::Seat(2),
                cards: kibitz_koehandel::Cards::EMPTY,
            },
        };
        let mut v = MarketView::default();
        v.update(&g, &[bluff(0), bluff(1), bluff(2), bluff(3)]);
        assert_eq!(v.bluffs.len(), 1);
        assert!(bluffs_html(&v).contains("seat 2 bid on the dog"));
        assert!(svg(&v, &Default::default()).contains("caught bluffing ×1"));
        assert!(bluffs_html(&MarketView::default()).contains("No bluff"));
    }
}
