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

/// Sample games per pairing `kibitz wuerfel --records` writes unless `--samples` says otherwise.
pub const DEFAULT_SAMPLES: u64 = 2;
/// Most sample games per pairing (`--samples` above it is refused).
pub const MAX_SAMPLES: u64 = 10;
/// Most pairings with sample games (the first ones in file order): records are examples to
/// look at, not the simulation.
pub const SAMPLE_PAIRINGS: usize = 45;
/// Most rolls kept of one sample game; a longer game's record ends there (`truncated`).
pub const SAMPLE_ROLLS: usize = 4000;

/// The name of a die in records: `die 2 (1,1,6,6)`.
fn die_name(i: usize, d: &kibitz_madn::Die) -> String {
    format!("die {} ({d})", i + 1)
}

/// The variant of a record's `setup.variant`.
fn variant_named(name: &str) -> Option<kibitz_madn::Variant> {
    use kibitz_madn::Variant;
    [Variant::Default, Variant::GoalFirst, Variant::FrozenGoal]
        .into_iter()
        .find(|v| v.name() == name)
}

/// Sample games as `kibitz-record/1` lines (`game: "wuerfel"`): for each of the first
/// [`SAMPLE_PAIRINGS`] pairings `a < b`, `per_pair` games, die `a` starting in the even ones.
/// They are drawn from their own random stream (`Rng::for_block(seed, a, b, u64::MAX - k)`),
/// apart from the simulated blocks, so the same seed gives the same samples whatever `--games`.
///
/// A line: `players` the two dice (`die 1 (1-6)`), `setup: {"dice": [[faces], [faces]],
/// "first": side, "variant"}`, `moves: [{"side", "roll"}]` (every roll, whether it moved a
/// piece or not; a 6 rolls again), `result: {"winner": side | null, "reason", "rolls",
/// "truncated"}` (`truncated`: only the first [`SAMPLE_ROLLS`] rolls are kept).
pub fn sample_records(
    dice: &[kibitz_madn::Die],
    variant: kibitz_madn::Variant,
    seed: u64,
    per_pair: u64,
) -> Vec<serde_json::Value> {
    use kibitz_madn::game::{play, FastDie};
    use kibitz_madn::rng::Rng;
    use kibitz_madn::GameResult;
    let mut out = Vec::new();
    let pairs = (0..dice.len())
        .flat_map(|a| (a + 1..dice.len()).map(move |b| (a, b)))
        .take(SAMPLE_PAIRINGS);
    for (a, b) in pairs {
        let fast = [FastDie::new(&dice[a]), FastDie::new(&dice[b])];
        for k in 0..per_pair {
            let first = (k % 2) as usize;
            let mut rng = Rng::for_block(seed, a, b, u64::MAX - k);
            let mut moves = Vec::new();
            let mut rolls = 0usize;
            let result = play(
                [&fast[0], &fast[1]],
                first,
                variant,
                &mut rng,
                |side, r, _| {
                    rolls += 1;
                    if moves.len() < SAMPLE_ROLLS {
                        moves.push(json!({"side": side, "roll": r}));
                    }
                },
            );
            let (winner, reason) = match result {
                GameResult::Win(s) => (json!(s), "all four pieces in the goal"),
                GameResult::Draw => (json!(null), "deadlock: no roll changes anything"),
                GameResult::Capped => (json!(null), "stopped by the roll cap"),
            };
            out.push(json!({
                "game": "wuerfel",
                "seed": seed,
                "index": out.len(),
                "players": [die_name(a, &dice[a]), die_name(b, &dice[b])],
                "setup": {"dice": [dice[a].faces(), dice[b].faces()], "first": first,
                          "variant": variant.name()},
                "moves": moves,
                "result": {"winner": winner, "reason": reason, "rolls": rolls,
                           "truncated": rolls > SAMPLE_ROLLS},
            }));
        }
    }
    out
}

/// The positions of a sample game (the viewer's plies): the start, then one per roll. `state`
/// is `{"progress": [[4 per side: -1 home, 0..=39 track from the side's start, 40..=43
/// goal]], "dice": [[faces], [faces]], "roll": face | null, "side": who rolled | null,
/// "moved": bool, "again": bool (a 6: the same side rolls again)}`. Fails on a record whose
/// rolls are not faces of the die, or whose sides do not take turns as the rules say.
pub fn positions(rec: &serde_json::Value) -> anyhow::Result<Vec<(String, serde_json::Value)>> {
    use anyhow::Context;
    let setup = &rec["setup"];
    let faces: Vec<Vec<u32>> = (0..2)
        .map(|s| {
            setup["dice"][s]
                .as_array()
                .context("record has no setup.dice")?
                .iter()
                .map(|f| f.as_u64().and_then(|f| u32::try_from(f).ok()))
                .collect::<Option<Vec<u32>>>()
                .context("a face is not a number")
        })
        .collect::<anyhow::Result<_>>()?;
    let variant = variant_named(setup["variant"].as_str().unwrap_or("default"))
        .context("unknown setup.variant")?;
    let mut side = setup["first"]
        .as_u64()
        .filter(|&f| f < 2)
        .context("setup.first is not 0 or 1")? as usize;
    let mut pos = kibitz_madn::game::Position::default();
    let state =
        |pos: &kibitz_madn::game::Position, roll: Option<u32>, who: Option<usize>, moved: bool| {
            json!({"progress": [pos.progress(0), pos.progress(1)], "dice": faces, "roll": roll,
               "side": who, "moved": moved, "again": roll == Some(6)})
        };
    let mut out = vec![(
        format!("start: die {} rolls first", side + 1),
        state(&pos, None, None, false),
    )];
    for (i, m) in rec["moves"]
        .as_array()
        .context("record has no moves")?
        .iter()
        .enumerate()
    {
        let who = m["side"].as_u64().context("a roll has no side")? as usize;
        let r = m["roll"]
            .as_u64()
            .and_then(|r| u32::try_from(r).ok())
            .context("a roll has no face")?;
        anyhow::ensure!(
            who == side,
            "roll {}: side {who} rolled, but it was side {side}'s turn",
            i + 1
        );
        anyhow::ensure!(
            faces[who].contains(&r),
            "roll {}: {r} is not a face of side {who}'s die",
            i + 1
        );
        let moved = pos.apply(who, r, variant);
        let mut what = format!(
            "{}. side {} rolls {r}{}",
            i + 1,
            who,
            if moved { "" } else { " (no move)" }
        );
        if r == 6 {
            what += ", rolls again";
        }
        if pos.won(who) {
            what += " — all four pieces home";
        }
        out.push((what, state(&pos, Some(r), Some(who), moved)));
        if r != 6 {
            side ^= 1;
        }
    }
    if let (Some(r), Some(last)) = (rec["result"]["reason"].as_str(), out.last_mut()) {
        if rec["result"]["truncated"].as_bool() == Some(true) {
            last.0 += &format!(" — record ends here (first {SAMPLE_ROLLS} rolls); {r}");
        } else if !last.0.contains("all four") {
            last.0 += &format!(" — {r}");
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_games_are_few_reproducible_and_replay_to_their_result() {
        let dice: Vec<_> = [
            vec![1, 2, 3, 4, 5, 6],
            vec![1, 1, 1, 6, 6, 6],
            vec![2, 3, 4, 5, 6, 6],
        ]
        .into_iter()
        .map(|f| kibitz_madn::dice::Die::new(f).unwrap())
        .collect();
        let recs = sample_records(&dice, kibitz_madn::Variant::Default, 7, 2);
        assert_eq!(recs.len(), 3 * 2, "two per pairing");
        assert_eq!(
            recs,
            sample_records(&dice, kibitz_madn::Variant::Default, 7, 2)
        );
        assert_eq!(recs[1]["setup"]["first"], 1);
        for r in &recs {
            let ps = positions(r).unwrap();
            assert_eq!(ps.len(), r["moves"].as_array().unwrap().len() + 1);
            let whole = r["result"]["truncated"] == false;
            if let (Some(w), true) = (r["result"]["winner"].as_u64(), whole) {
                // The winner's four pieces are in the goal (40..=43) at the end.
                let last = &ps.last().unwrap().1["progress"][w as usize];
                assert!(
                    last.as_array()
                        .unwrap()
                        .iter()
                        .all(|p| p.as_i64().unwrap() >= 40),
                    "{last}"
                );
            }
        }
        // A roll that is not a face of the die, or out of turn, is refused.
        let mut bad = recs[0].clone();
        bad["moves"][0]["roll"] = json!(9);
        assert!(positions(&bad)
            .unwrap_err()
            .to_string()
            .contains("not a face"));
        let mut bad = recs[0].clone();
        bad["moves"][0]["side"] = json!(1);
        assert!(positions(&bad).is_err());
        assert!(positions(&json!({"setup": {"dice": "x"}})).is_err());
    }

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
