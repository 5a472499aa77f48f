//! A match's page: A's result per game read from the file's records, and two SVG plots over
//! the games in file order: Elo of A over B with its 95 % band, and the SPRT log-likelihood
//! ratio with its bounds (H0 Elo 0, H1 Elo 10, α = β = 0.05, as `kibitz match --sprt`'s
//! default). Statistics come from `kibitz_search::stats`, the same as `kibitz match`.
//!
//! Who is A: the record's `a` key (arena records), else seat 0's player of the first record
//! (server records). A game counts for A when A's seat won, against when another seat won,
//! as a draw when nobody did; Koehandel records with `a_sum` / `b_sum` compare the sums.
//! Games A did not play in (server records of other players) are left out.

use super::html::{esc, page, url_enc};
use super::store::Key;
use kibitz_search::stats::{elo_from_wdl, Sprt};
use serde_json::Value;

/// A's result in one game: 1 win, ½ draw, 0 loss, `None` when A did not play.
pub fn a_score(rec: &Value, a: &str) -> Option<f64> {
    let r = &rec["result"];
    if let (Some(x), Some(y)) = (r["a_sum"].as_u64(), r["b_sum"].as_u64()) {
        return Some(match x.cmp(&y) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        });
    }
    let players: Vec<&str> = rec["players"]
        .as_array()?
        .iter()
        .map(|p| p.as_str().unwrap_or(""))
        .collect();
    let b = rec["b"].as_str();
    // A's seat: by name, or (self-play, a == b) by the side A had.
    let seat = if b == Some(a) {
        match rec["side"].as_str()? {
            "first" | "red" | "seat0" => 0,
            _ => 1,
        }
    } else {
        players.iter().position(|p| *p == a)?
    };
    match r.get("winner")? {
        Value::Null => Some(0.5),
        Value::Number(w) => Some(if w.as_u64() == Some(seat as u64) {
            1.0
        } else {
            0.0
        }),
        _ => None,
    }
}

/// Running W/D/L after each counted game.
pub fn running(records: &[Value]) -> (String, Vec<(u32, u32, u32)>) {
    let a = records
        .first()
        .and_then(|r| r["a"].as_str().or_else(|| r["players"][0].as_str()))
        .unwrap_or("?")
        .to_string();
    let mut out = Vec::new();
    let (mut w, mut d, mut l) = (0, 0, 0);
    for rec in records {
        match a_score(rec, &a) {
            Some(s) if s > 0.75 => w += 1,
            Some(s) if s > 0.25 => d += 1,
            Some(_) => l += 1,
            None => continue,
        }
        out.push((w, d, l));
    }
    (a, out)
}

/// A line plot: `series` of (x = game number, y) with an optional band (lo, hi) and
/// horizontal reference lines (y, label).
fn plot(title: &str, class: &str, ys: &[(f64, f64, f64)], refs: &[(f64, &str)]) -> String {
    let (w, h, m) = (560.0, 220.0, 40.0);
    let mut lo = refs.iter().map(|r| r.0).fold(0.0f64, f64::min);
    let mut hi = refs.iter().map(|r| r.0).fold(0.0f64, f64::max);
    for &(y, a, b) in ys {
        lo = lo.min(y).min(a);
        hi = hi.max(y).max(b);
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let n = ys.len().max(2) as f64 - 1.0;
    let x = |i: usize| m + i as f64 / n * (w - 2.0 * m);
    let y = |v: f64| h - m - (v - lo) / (hi - lo) * (h - 2.0 * m);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{class}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fff\" stroke=\"#ccc\"/>\
         <text x=\"{m}\" y=\"22\" font-size=\"15\" font-weight=\"600\">{}</text>",
        esc(title)
    );
    if !ys.is_empty() {
        let upper: Vec<String> = ys
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.2)))
            .collect();
        let lower: Vec<String> = ys
            .iter()
            .enumerate()
            .rev()
            .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.1)))
            .collect();
        s += &format!(
            "<polygon class=\"band\" points=\"{} {}\" fill=\"#1558b0\" opacity=\"0.15\"/>",
            upper.join(" "),
            lower.join(" ")
        );
        let line: Vec<String> = ys
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.0)))
            .collect();
        s += &format!(
            "<polyline class=\"series\" points=\"{}\" fill=\"none\" stroke=\"#1558b0\" stroke-width=\"2\"/>",
            line.join(" ")
        );
    }
    for (v, label) in refs {
        s += &format!(
            "<line x1=\"{m}\" x2=\"{}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#c1121f\" stroke-dasharray=\"4 3\"/>\
             <text x=\"{}\" y=\"{:.1}\" font-size=\"12\" fill=\"#c1121f\">{}</text>",
            w - m,
            y(*v),
            y(*v),
            w - m + 2.0,
            y(*v) + 4.0,
            esc(label)
        );
    }
    s += &format!(
        "<text x=\"4\" y=\"{:.1}\" font-size=\"11\">{hi:.1}</text><text x=\"4\" y=\"{:.1}\" font-size=\"11\">{lo:.1}</text>\
         <text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">games</text></svg>",
        y(hi) + 4.0,
        y(lo),
        w / 2.0,
        h - 8.0
    );
    s
}

/// The Elo plot's range: unbounded values are drawn at ±this.
const ELO_PLOT_RANGE: f64 = 800.0;

/// The two plots of a match from A's running W/D/L after each game: Elo of A with its 95 %
/// band, and the SPRT log-likelihood ratio between its bounds. Shared by the match page and
/// `kibitz score --plots DIR`, which writes them as files.
pub fn match_plots(run: &[(u32, u32, u32)], sprt: &Sprt) -> (String, String) {
    let elo: Vec<(f64, f64, f64)> = run
        .iter()
        .map(|&(w, d, l)| {
            // Where Elo is unbounded (a sweep, or an interval reaching 0 or 100 %) the plot
            // draws it at the edge of its range instead of at infinity.
            let e = elo_from_wdl(w, d, l);
            let c = |v: f64| v.clamp(-ELO_PLOT_RANGE, ELO_PLOT_RANGE);
            if !e.elo.is_finite() {
                (c(e.elo), c(e.elo), c(e.elo))
            } else if !e.error95.is_finite() {
                (e.elo, -ELO_PLOT_RANGE, ELO_PLOT_RANGE)
            } else {
                (c(e.elo), c(e.elo - e.error95), c(e.elo + e.error95))
            }
        })
        .collect();
    let llr: Vec<(f64, f64, f64)> = run
        .iter()
        .map(|&(w, d, l)| {
            let v = sprt.llr(w, d, l);
            (v, v, v)
        })
        .collect();
    let (lower, upper) = sprt.bounds();
    (
        plot("Elo of A ± 95 %", "elo", &elo, &[(0.0, "0")]),
        plot(
            &format!("SPRT log-likelihood ratio [{}, {}]", sprt.elo0, sprt.elo1),
            "llr",
            &llr,
            &[(lower, "H0"), (upper, "H1")],
        ),
    )
}

/// The match page of one record file.
pub fn match_page(key: &Key, records: &[Value]) -> String {
    let (a, run) = running(records);
    let sprt = Sprt::default();
    let (elo_svg, llr_svg) = match_plots(&run, &sprt);
    let (lower, upper) = sprt.bounds();
    let (w, d, l) = run.last().copied().unwrap_or((0, 0, 0));
    let e = elo_from_wdl(w, d, l);
    let summary = format!(
        "A = {}: {} games counted, W {w} D {d} L {l}, Elo {}, LLR {:.2} [{lower:.2}, {upper:.2}]",
        a,
        run.len(),
        e.text(1),
        sprt.llr(w, d, l)
    );
    let mut rows = String::new();
    for (n, rec) in records.iter().enumerate() {
        let score = a_score(rec, &a).map_or("—".to_string(), |s| format!("{s}"));
        rows += &format!(
            "<tr><td><a href=\"/game/{}/{}/{n}\">#{n}</a></td><td>{}</td><td>{}</td></tr>",
            key.dir,
            url_enc(&key.file),
            esc(rec["side"].as_str().unwrap_or("")),
            esc(&score)
        );
    }
    let body = format!(
        "<p><a href=\"/\">all games</a></p><h1>match {}</h1><p id=\"summary\">{}</p>\
         <div class=\"plots\">{}{}</div>\
         <table><thead><tr><th>game</th><th>A's side</th><th>A's score</th></tr></thead><tbody>{rows}</tbody></table>",
        esc(&key.file),
        esc(&summary),
        elo_svg,
        llr_svg,
    );
    page(&format!("match {}", key.file), &body, "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_scores_from_winners_sides_and_sums() {
        let r = |w: Value, side: &str| {
            json!({"a": "x", "b": "y", "players": if side == "first" {["x", "y"]} else {["y", "x"]},
                   "side": side, "result": {"winner": w}})
        };
        assert_eq!(a_score(&r(json!(0), "first"), "x"), Some(1.0));
        assert_eq!(a_score(&r(json!(0), "second"), "x"), Some(0.0));
        assert_eq!(a_score(&r(json!(null), "second"), "x"), Some(0.5));
        assert_eq!(
            a_score(&json!({"result": {"a_sum": 3, "b_sum": 9}}), "x"),
            Some(0.0)
        );
        assert_eq!(
            a_score(
                &json!({"players": ["p", "q"], "result": {"winner": 1}}),
                "x"
            ),
            None
        );
        let (a, run) = running(&[
            r(json!(0), "first"),
            r(json!(0), "second"),
            r(json!(null), "first"),
        ]);
        assert_eq!(
            (a.as_str(), run),
            ("x", vec![(1, 0, 0), (1, 0, 1), (1, 1, 1)])
        );
        let page = match_page(
            &Key {
                dir: 0,
                file: "m<.jsonl".into(),
            },
            &[r(json!(0), "first")],
        );
        assert!(page.contains("m&lt;.jsonl") && page.contains("<polyline"));
    }
}
