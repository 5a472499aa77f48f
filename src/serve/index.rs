//! The index: every record of every folder in a table (game, players, result, moves, a link
//! to its page), filtered by the query string: `game` (exact), `player` (part of a name,
//! any seat, case-insensitive) and `result` (`seat0`, `seat1`, ..., `draw`, `unknown`).

use super::html::{esc, page, url_enc};
use super::store::{summary, Store};
use std::collections::{BTreeSet, HashMap};

/// The filters of the index page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    /// Only this game.
    pub game: Option<String>,
    /// Only games where some seat's name contains this (lowercase).
    pub player: Option<String>,
    /// Only this result key.
    pub result: Option<String>,
}

impl Filter {
    /// Reads `game`, `player` and `result` from a query string (empty values mean: any).
    pub fn from_query(q: &HashMap<String, String>) -> Filter {
        let get = |k: &str| {
            q.get(k)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        Filter {
            game: get("game"),
            player: get("player").map(|p| p.to_lowercase()),
            result: get("result"),
        }
    }
}

/// The index page at generation `gen` (see `live`).
pub fn render(store: &Store, f: &Filter, gen: u64) -> String {
    let mut games = BTreeSet::new();
    let mut results = BTreeSet::new();
    let mut rows = String::new();
    let mut shown = 0;
    let mut total = 0;
    for (key, file) in &store.files {
        for (n, rec) in file.records.iter().enumerate() {
            let s = summary(rec);
            games.insert(s.game.clone());
            results.insert(s.result.clone());
            total += 1;
            if f.game.as_ref().is_some_and(|g| *g != s.game)
                || f.result.as_ref().is_some_and(|r| *r != s.result)
                || f.player
                    .as_ref()
                    .is_some_and(|p| !s.players.iter().any(|name| name.to_lowercase().contains(p)))
            {
                continue;
            }
            shown += 1;
            let players: Vec<String> = s
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| format!("{i}: {}", esc(p)))
                .collect();
            rows += &format!(
                "<tr data-game=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><a class=\"open\" href=\"/game/{}/{}/{n}\">{} #{n}</a> · <a href=\"/match/{}/{}\">match</a></td></tr>\n",
                esc(&s.game),
                esc(&s.game),
                players.join("<br>"),
                esc(&s.result_text),
                s.moves,
                key.dir,
                url_enc(&key.file),
                esc(&key.file),
                key.dir,
                url_enc(&key.file),
            );
        }
    }
    let select = |name: &str, options: &BTreeSet<String>, cur: &Option<String>| {
        let mut s = format!("<select name=\"{name}\"><option value=\"\">any {name}</option>");
        for o in options {
            let sel = if cur.as_deref() == Some(o.as_str()) {
                " selected"
            } else {
                ""
            };
            s += &format!("<option{sel}>{}</option>", esc(o));
        }
        s + "</select>"
    };
    let folders: Vec<String> = store
        .dirs()
        .iter()
        .enumerate()
        .map(|(d, p)| {
            format!(
                "<a href=\"/standings/{d}\">{}</a>",
                esc(&p.display().to_string())
            )
        })
        .collect();
    let folders = folders.join(" · ");
    let body = format!(
        "<h1>kibitz — game records</h1>\
         <form class=\"filter\" method=\"get\" action=\"/\">{}<input name=\"player\" placeholder=\"player\" value=\"{}\">{}<button>filter</button> <a href=\"/\">clear</a></form>\
         <p id=\"folders\">standings: {folders}</p>\
         <p id=\"count\">{shown} of {total} games</p>\
         <table id=\"games\"><thead><tr><th>game</th><th>players (seat: name)</th><th>result</th><th>moves</th><th>record</th></tr></thead>\
         <tbody>{rows}</tbody></table>",
        select("game", &games, &f.game),
        esc(f.player.as_deref().unwrap_or("")),
        select("result", &results, &f.result),
    );
    page(
        "kibitz records",
        &body,
        &INDEX_SCRIPT.replace("GEN", &gen.to_string()),
    )
}

/// Live index: on a new generation, fetch this URL again and swap the table body and count.
const INDEX_SCRIPT: &str = r#"
let gen = GEN;
const es = new EventSource('/events');
es.addEventListener('records', async (e) => {
  if (+e.data === gen) return;
  gen = +e.data;
  const r = await fetch(location.href);
  if (!r.ok) return;
  const doc = new DOMParser().parseFromString(await r.text(), 'text/html');
  for (const sel of ['#games tbody', '#count']) {
    const fresh = doc.querySelector(sel);
    if (fresh) document.querySelector(sel).innerHTML = fresh.innerHTML;
  }
  document.body.dataset.gen = gen;
});
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_by_game_player_and_result_and_escapes_names() {
        let dir = std::env::temp_dir().join(format!("kibitz-index-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lines = [
            r#"{"game":"connect4","players":["<b>eve</b>","random"],"moves":[1],"result":{"winner":0}}"#,
            r#"{"game":"connect4","players":["random","Greedy"],"moves":[],"result":{"winner":null}}"#,
            r#"{"game":"piranhas","players":["greedy","random"],"moves":[],"result":{"winner":1}}"#,
        ];
        std::fs::write(dir.join("m.jsonl"), lines.join("\n")).unwrap();
        let store = Store::new(vec![dir.clone()]);
        let q = |pairs: &[(&str, &str)]| {
            let map = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let page = render(&store, &Filter::from_query(&map), 0);
            let rows = page.matches("<tr data-game").count();
            (rows, page)
        };
        assert_eq!(q(&[]).0, 3);
        assert_eq!(q(&[("game", "connect4")]).0, 2);
        assert_eq!(q(&[("player", "GREEDY")]).0, 2);
        assert_eq!(q(&[("player", "greedy"), ("game", "piranhas")]).0, 1);
        assert_eq!(q(&[("result", "draw")]).0, 1);
        assert_eq!(q(&[("result", "seat1"), ("game", "connect4")]).0, 0);
        assert_eq!(q(&[("game", ""), ("result", " ")]).0, 3);
        let (_, page) = q(&[("player", "eve")]);
        assert!(page.contains("&lt;b&gt;eve") && !page.contains("<b>eve"));
        assert!(page.contains("href=\"/game/0/m.jsonl/0\""));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
