//! One game's page: the board of the current ply as server-drawn SVG, what happened, the move
//! list beside it, ←/→ and Home/End to step, the ply in the URL (`#ply=17`), and, where the
//! record carries what the bot thought (`think`, see `arena::record`), the search's numbers
//! per move and an evaluation graph.
//!
//! Every ply's SVG is embedded in the page as JSON (`<script type="application/json">`, with
//! `<`, `>`, `&` escaped), so stepping needs no round trip; `data.json` gives the same data
//! for the live update.

use super::html::{esc, page, script_json, url_enc};
use super::store::{summary, Key};
use super::svg;
use crate::arena::adapter;
use serde_json::{json, Value};

/// Largest evaluation the graph draws (beyond it: a won or lost game, drawn at the limit).
pub const GRAPH_LIMIT: f64 = 1000.0;

/// The page data of a record: `{"gen", "plies": [{"what", "svg", "think", "eval"}], "error"}`
/// (`think`: the record's entry for the move that led to the ply; `eval`: its score from seat
/// 0's side, for the graph: `score`, or else a `win_rate` as percentage points above 50).
pub fn data(rec: &Value, gen: u64) -> Value {
    let game = rec["game"].as_str().unwrap_or("?");
    let positions = if game == "wuerfel" {
        // Würfelglück sample games (`kibitz wuerfel --records`) have no match adapter.
        crate::wuerfel_report::positions(rec).map(|ps| {
            ps.into_iter()
                .map(|(what, state)| crate::arena::Position { what, state })
                .collect::<Vec<_>>()
        })
    } else {
        adapter(game).and_then(|a| a.positions(rec))
    };
    let thinks = rec["think"].as_array();
    match positions {
        Ok(ps) => {
            // think[k] belongs to move k + 1, i.e. to the ply that move led to: every ply after
            // the first but Mau-Mau's skipped turns (a ply of the replay, not a move).
            let mut next = 0usize;
            let move_of: Vec<Option<usize>> = ps
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let skipped = game == "maumau" && p.what.contains(" is skipped");
                    (i > 0 && !skipped).then(|| {
                        next += 1;
                        next - 1
                    })
                })
                .collect();
            let plies: Vec<Value> = ps
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let think = move_of[i]
                        .and_then(|k| thinks.and_then(|t| t.get(k)))
                        .cloned()
                        .unwrap_or(Value::Null);
                    // The graph's value: the score from seat 0's side (an ISMCTS win rate
                    // as percentage points above even, so both read "above 0: seat 0 better").
                    let score = think["score"].as_f64().or_else(|| {
                        think["win_rate"].as_f64().map(|w| ((w - 0.5) * 100.0).round())
                    });
                    // Won / lost scores (Piranhas: near ±31,000) are drawn at ±1,000 so they
                    // do not flatten the rest of the graph.
                    let score = score.map(|v| v.clamp(-GRAPH_LIMIT, GRAPH_LIMIT));
                    let eval = score.map(|v| {
                        if think["seat"].as_u64() == Some(1) {
                            -v
                        } else {
                            v
                        }
                    });
                    json!({"what": p.what, "svg": svg::draw(game, &p.state), "think": think, "eval": eval})
                })
                .collect();
            json!({"gen": gen, "plies": plies, "error": null})
        }
        Err(e) => json!({
            "gen": gen,
            "plies": [{"what": "cannot replay this record", "svg": svg::text(&format!("{e:#}")), "think": null}],
            "error": format!("{e:#}"),
        }),
    }
}

/// The page of record `n` of `key`, drawn at generation `gen`.
pub fn render(key: &Key, n: usize, rec: &Value, gen: u64) -> String {
    let s = summary(rec);
    let d = data(rec, gen);
    let players: Vec<String> = s
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| format!("seat {i}: <b>{}</b>", esc(p)))
        .collect();
    let title = format!("{} — {} #{n}", s.game, key.file);
    let error = d["error"]
        .as_str()
        .map(|e| format!("<p class=\"error\">{}</p>", esc(e)))
        .unwrap_or_default();
    let body = format!(
        "<p><a href=\"/\">all games</a> · <a href=\"/match/{}/{}\">match</a></p>\
         <h1>{}</h1><p>{} — {}</p>{error}\
         <div class=\"game\"><div><div id=\"board\"></div><p class=\"what\" id=\"what\"></p>\
         <p class=\"think\" id=\"think\"></p><div id=\"graph\"></div>\
         <p class=\"keys\">← → step · Home / End · click a move</p></div>\
         <ol id=\"moves\" start=\"0\"></ol></div>\
         <script type=\"application/json\" id=\"data\">{}</script>",
        key.dir,
        url_enc(&key.file),
        esc(&title),
        players.join(" · "),
        esc(&s.result_text),
        script_json(&d),
    );
    let data_url = format!("/game/{}/{}/{n}/data.json", key.dir, url_enc(&key.file));
    page(&title, &body, &GAME_SCRIPT.replace("DATA_URL", &data_url))
}

/// Stepping, the move list, the URL's ply, the evaluation graph and the live update.
const GAME_SCRIPT: &str = r#"
let D = JSON.parse(document.getElementById('data').textContent);
let ply = 0;
const board = document.getElementById('board'), what = document.getElementById('what'),
      think = document.getElementById('think'), moves = document.getElementById('moves'),
      graph = document.getElementById('graph');
function fmtThink(t) {
  if (!t) return '';
  const parts = [];
  if (t.score !== undefined && t.score !== null) parts.push('score ' + t.score);
  if (t.depth !== undefined && t.depth !== null) parts.push('depth ' + t.depth);
  if (t.nodes !== undefined && t.nodes !== null) parts.push(t.nodes + ' nodes');
  if (t.iterations !== undefined && t.iterations !== null) parts.push(t.iterations + ' iterations');
  if (t.visits !== undefined && t.visits !== null) parts.push(t.visits + ' visits');
  if (typeof t.win_rate === 'number') parts.push('win rate ' + (100 * t.win_rate).toFixed(1) + '%');
  if (t.worlds !== undefined && t.worlds !== null) parts.push(t.worlds + ' worlds');
  if (t.candidates !== undefined && t.candidates !== null) parts.push(t.candidates + ' candidates');
  if (typeof t.estimate === 'number') parts.push('estimate ' + t.estimate.toFixed(3));
  if (t.ms !== undefined && t.ms !== null) parts.push(t.ms + ' ms');
  if (t.source) parts.push(t.source);
  if (t.exact) parts.push('exact');
  if (Array.isArray(t.pv) && t.pv.length) parts.push('pv ' + t.pv.join(' '));
  return (typeof t.seat === 'number' ? 'seat ' + t.seat + ' thought: ' : '') + parts.join(' · ');
}
function drawGraph() {
  const pts = [];
  D.plies.forEach((p, i) => { if (typeof p.eval === 'number') pts.push([i, p.eval]); });
  graph.textContent = '';
  if (pts.length < 2) return;
  const W = 420, H = 120, n = Math.max(1, D.plies.length - 1);
  const lim = Math.max(1, ...pts.map(p => Math.abs(p[1])));
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('width', W); svg.setAttribute('height', H); svg.setAttribute('class', 'evalgraph');
  const axis = document.createElementNS(ns, 'line');
  axis.setAttribute('x1', 0); axis.setAttribute('x2', W); axis.setAttribute('y1', H / 2); axis.setAttribute('y2', H / 2);
  axis.setAttribute('stroke', '#999'); svg.appendChild(axis);
  const line = document.createElementNS(ns, 'polyline');
  line.setAttribute('points', pts.map(([i, s]) => (i / n * W).toFixed(1) + ',' + (H / 2 - s / lim * (H / 2 - 4)).toFixed(1)).join(' '));
  line.setAttribute('fill', 'none'); line.setAttribute('stroke', '#1558b0'); line.setAttribute('stroke-width', 2);
  svg.appendChild(line);
  const mark = document.createElementNS(ns, 'line');
  mark.setAttribute('id', 'graphmark'); mark.setAttribute('y1', 0); mark.setAttribute('y2', H); mark.setAttribute('stroke', '#e07a00');
  svg.appendChild(mark);
  graph.appendChild(svg);
}
function list() {
  moves.textContent = '';
  D.plies.forEach((p, i) => {
    const li = document.createElement('li');
    li.dataset.ply = i;
    li.textContent = p.what + (p.think && typeof p.think.score === 'number' ? '   [' + p.think.score + ']' : '');
    li.addEventListener('click', () => show(i));
    moves.appendChild(li);
  });
  drawGraph();
}
function show(i) {
  ply = Math.max(0, Math.min(D.plies.length - 1, i | 0));
  const p = D.plies[ply];
  board.innerHTML = p.svg;
  what.textContent = '[' + ply + '/' + (D.plies.length - 1) + '] ' + p.what;
  think.textContent = fmtThink(p.think);
  for (const li of moves.children) li.classList.toggle('cur', +li.dataset.ply === ply);
  const cur = moves.children[ply];
  if (cur) cur.scrollIntoView({block: 'nearest'});
  const mark = document.getElementById('graphmark');
  if (mark) { const x = ply / Math.max(1, D.plies.length - 1) * 420; mark.setAttribute('x1', x); mark.setAttribute('x2', x); }
  if (location.hash !== '#ply=' + ply) history.replaceState(null, '', '#ply=' + ply);
  document.body.dataset.ply = ply;
  document.body.dataset.plies = D.plies.length;
}
function fromHash() { const m = /ply=(\d+)/.exec(location.hash); return m ? +m[1] : 0; }
document.addEventListener('keydown', (e) => {
  const to = {ArrowRight: ply + 1, ArrowLeft: ply - 1, Home: 0, End: D.plies.length - 1}[e.key];
  if (to === undefined) return;
  e.preventDefault();
  show(to);
});
window.addEventListener('hashchange', () => show(fromHash()));
list();
show(fromHash());
const es = new EventSource('/events');
es.addEventListener('records', async (e) => {
  if (+e.data === D.gen) return;
  const r = await fetch('DATA_URL');
  if (!r.ok) return;
  const fresh = await r.json();
  const atEnd = ply === D.plies.length - 1;
  const changed = fresh.plies.length !== D.plies.length;
  D = fresh;
  if (changed) { list(); show(atEnd ? D.plies.length - 1 : ply); }
});
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_goes_to_the_ply_it_led_to_with_the_eval_from_seat_0() {
        let rec = json!({"game": "connect4", "players": ["a", "b"],
            "setup": {"columns": 7, "rows": 6, "connect": 4, "opening": ""},
            "moves": [4, 4, 3],
            "think": [{"seat": 0, "score": 3, "nodes": 10}, null, {"seat": 0, "score": -2}],
            "result": {"winner": null}});
        let d = data(&rec, 7);
        let plies = d["plies"].as_array().unwrap();
        assert_eq!(plies.len(), 4);
        assert_eq!(d["gen"], 7);
        assert!(plies[0]["think"].is_null() && plies[0]["eval"].is_null());
        assert_eq!(plies[1]["think"]["nodes"], 10);
        assert_eq!(plies[1]["eval"], 3.0);
        assert!(plies[2]["eval"].is_null());
        assert_eq!(plies[3]["eval"], -2.0);
        let seat1 = json!({"game": "connect4", "moves": [4, 5],
            "think": [null, {"seat": 1, "score": 5}]});
        assert_eq!(data(&seat1, 0)["plies"][2]["eval"], -5.0);
        let won = json!({"game": "connect4", "moves": [4], "think": [{"seat": 0, "score": 31000}]});
        assert_eq!(data(&won, 0)["plies"][1]["eval"], GRAPH_LIMIT);
        // An ISMCTS win rate (Mau-Mau) is graphed as points above even, from seat 0's side.
        let mm = json!({"game": "connect4", "moves": [4, 5],
            "think": [{"seat": 0, "win_rate": 0.75}, {"seat": 1, "win_rate": 0.6}]});
        let d = data(&mm, 0);
        assert_eq!(
            (d["plies"][1]["eval"].clone(), d["plies"][2]["eval"].clone()),
            (json!(25.0), json!(-10.0))
        );
        // A record that does not replay still gives a page, with the reason.
        let bad = data(&json!({"game": "connect4", "moves": [9]}), 0);
        assert!(bad["error"].as_str().unwrap().contains("not a column"));
        let page = render(
            &Key {
                dir: 0,
                file: "f</script>.jsonl".into(),
            },
            0,
            &rec,
            0,
        );
        assert!(!page.contains("f</script>"));
    }

    /// Mau-Mau replays have plies that are no move (a skipped turn): each think still sits
    /// on the ply of its own move.
    #[test]
    fn maumau_thinks_skip_the_skipped_turns() {
        use crate::arena::{maumau::Maumau, Arena, Job};
        let mut checked_skip = false;
        for seed in 0..12 {
            let job = Job {
                a: "ismcts:iterations=20",
                b: "heuristic",
                seed,
                index: 0,
                unit: 0,
                slot: 0,
                seating: crate::arena::Seating::single(2, 0),
                opening: None,
                tc_ms: None,
            };
            let rec = Maumau::default().play(&job).unwrap().record;
            let d = data(&rec, 0);
            let plies = d["plies"].as_array().unwrap();
            let mut seen_skip = false;
            for p in plies {
                let what = p["what"].as_str().unwrap();
                seen_skip |= what.contains(" is skipped");
                let ismcts_moved =
                    what.starts_with("seat 0 plays") || what.starts_with("seat 0 draws");
                if what.contains(" is skipped") || !what.starts_with("seat 0 ") {
                    assert!(p["think"].is_null(), "{what}: {}", p["think"]);
                } else if ismcts_moved && seen_skip {
                    // After a skip, seat 0's own moves still carry its (non-null) think or a
                    // forced move's null, never seat 1's.
                    assert!(p["think"].is_null() || p["think"]["seat"] == 0, "{what}");
                }
            }
            let thinks = rec["think"]
                .as_array()
                .map_or(0, |t| t.iter().filter(|t| !t.is_null()).count());
            let shown = plies.iter().filter(|p| !p["think"].is_null()).count();
            assert_eq!(shown, thinks, "every think is shown once");
            checked_skip |= seen_skip;
        }
        assert!(
            checked_skip,
            "no game had a skipped turn: the check proves nothing"
        );
    }

    /// Records from a file can hold anything: every page still renders, with the reason.
    #[test]
    fn junk_records_render_without_panicking() {
        let junk = [
            json!({}),
            json!({"game": 7}),
            json!({"game": "nope", "moves": [1]}),
            json!({"game": "connect4", "setup": {"columns": u64::MAX, "rows": u64::MAX}, "moves": []}),
            json!({"game": "connect4", "setup": {"columns": 0, "rows": 0, "connect": 0}, "moves": [1]}),
            json!({"game": "connect4", "moves": "1234", "think": "x"}),
            json!({"game": "connect4", "moves": [1, 1, 1, 1, 1, 1, 1], "think": [{"score": "x", "seat": "y"}]}),
            json!({"game": "piranhas", "setup": {"krakens": "99,99,0,0"}, "moves": ["x"]}),
            json!({"game": "piranhas", "setup": {"krakens": "3,3,6,6"}, "moves": ["0,1,UP", 5]}),
            json!({"game": "maumau", "setup": {"deal_seed": 1, "players": 99, "max_turns": -1}, "moves": [{"seat": 7, "action": "draw"}]}),
            json!({"game": "maumau", "setup": {"deal_seed": "x"}}),
            json!({"game": "koehandel", "setup": {"deck_seed": 3}, "moves": [{"answer": {"kind": "??"}}]}),
            json!({"game": "koehandel", "setup": {"deck_seed": 3}, "moves": []}),
            json!({"game": "koehandel", "players": [1, null, {"a": "<x>"}], "result": {"winner": "0"}}),
        ];
        for rec in junk {
            let d = data(&rec, 0);
            assert!(!d["plies"].as_array().unwrap().is_empty(), "{rec}");
            let page = render(
                &Key {
                    dir: 0,
                    file: "j.jsonl".into(),
                },
                0,
                &rec,
                0,
            );
            assert!(
                page.contains("id=\"data\"") && !page.contains("<x>"),
                "{rec}"
            );
        }
    }
}
