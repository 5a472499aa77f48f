//! The market's HTTP front end (spec C6): `?connect&url1=..` starts a game, `?log=ID` returns a
//! player's log, and `/` serves a small HTML page to start games and read logs and scores.

use crate::guard::{truncate, Reject, RejectLog};
use crate::protocol::{pairs, SEATS};
use crate::server::{Entrant, GameRecord, Market, MarketConfig, MarketError};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;

/// Longest URL accepted for a seat.
pub const MAX_URL: usize = crate::guard::MAX_URL;
/// Log lines shown per player on the game page (the full log is at `?log=ID`).
pub const PAGE_LOG_LINES: usize = 400;
/// The methods the market answers (every other one gets `405 Method Not Allowed`).
pub const ALLOW: &str = "GET, HEAD";

/// The axum app of the market.
pub fn router(market: Market) -> Router {
    Router::new().fallback(root).with_state(market)
}

fn text(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
        .into_response()
}

fn html(body: String) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

fn first<'a>(p: &'a [(String, String)], key: &str) -> Option<&'a str> {
    p.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// Reads `url1..url4` (empty or absent = passive seat). The URLs themselves are checked when
/// the game is registered ([`crate::guard::check_player_url`]), wherever they come from.
fn entrants(p: &[(String, String)]) -> Vec<Entrant> {
    (1..=SEATS)
        .map(|i| match first(p, &format!("url{i}")).map(str::trim) {
            None | Some("") => Entrant::Passive,
            Some(u) => Entrant::Url(u.to_string()),
        })
        .collect()
}

/// Who sent the request, for the log (`?` when served without [`serve`]).
fn peer(req: &Request) -> String {
    req.extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or_else(|| "?".to_string(), |c| c.0.to_string())
}

async fn root(State(market): State<Market>, req: Request) -> Response {
    let rejects = market.rejects();
    let who = peer(&req);
    let reject = |kind: Reject, detail: String| rejects.note(kind, &format!("{who}: {detail}"));
    let method = req.method();
    if method != Method::GET && method != Method::HEAD {
        reject(
            Reject::Method,
            format!("{} {}", truncate(method.as_str(), 20), req.uri()),
        );
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [
                (header::ALLOW, ALLOW),
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            ],
            format!(
                "method {} not allowed: the market answers GET (and HEAD)\n",
                truncate(method.as_str(), 20)
            ),
        )
            .into_response();
    }
    let p = pairs(req.uri().query().unwrap_or(""));
    let has = |k: &str| p.iter().any(|(key, _)| key == k);
    if has("connect") || has("start") {
        let started = market.start(entrants(&p));
        return match started {
            Ok(s) if has("connect") => text(StatusCode::OK, s.reply()),
            Ok(s) => (
                StatusCode::SEE_OTHER,
                [(header::LOCATION, format!("/?market={}", s.market))],
            )
                .into_response(),
            Err(e @ MarketError::Busy) => text(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
            Err(e) => {
                let kind = match e {
                    MarketError::BadUrl { too_long: true, .. } => Reject::Oversize,
                    MarketError::BadUrl { .. } => Reject::Url,
                    _ => Reject::Query,
                };
                let url = (1..=SEATS)
                    .filter_map(|i| first(&p, &format!("url{i}")))
                    .map(|u| truncate(u, 100))
                    .collect::<Vec<_>>()
                    .join(" ");
                reject(kind, format!("{e} [{url}]"));
                if has("connect") {
                    text(StatusCode::BAD_REQUEST, format!("{e}\n"))
                } else {
                    // The page's form: the form again, with the reason above it.
                    let page = index_page(&market, Some(&e.to_string()));
                    (StatusCode::BAD_REQUEST, html(page)).into_response()
                }
            }
        };
    }
    if let Some(id) = first(&p, "log") {
        return match id.trim().parse().ok().and_then(|id| market.log(id)) {
            Some(log) => text(StatusCode::OK, log),
            None => {
                reject(Reject::Query, format!("no log for id {}", truncate(id, 60)));
                text(
                    StatusCode::NOT_FOUND,
                    format!("no log for id {:?}\n", truncate(id, 60)),
                )
            }
        };
    }
    if let Some(m) = first(&p, "market") {
        return match m.trim().parse().ok().and_then(|m| market.game(m)) {
            Some(rec) if first(&p, "part") == Some("view") => {
                html(view_part(&rec, market.config().seed))
            }
            Some(rec) => html(game_page(&rec, market.config().seed)),
            None => {
                reject(Reject::Query, format!("no market {}", truncate(m, 60)));
                text(
                    StatusCode::NOT_FOUND,
                    format!("no market {:?}\n", truncate(m, 60)),
                )
            }
        };
    }
    html(index_page(&market, None))
}

pub use kibitz_net::html::escape as esc;

const STYLE: &str =
    "body{font-family:sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}\
td,th{border:1px solid #999;padding:.2em .6em;text-align:left}input[type=text]{width:30em}\
pre{background:#f4f4f4;padding:.5em;max-height:30em;overflow:auto}svg.market{display:block;margin:.5em 0}";

fn head(title: &str, refresh: bool) -> String {
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{}</title>{}<style>{STYLE}</style></head><body>",
        esc(title),
        if refresh { "<meta http-equiv=\"refresh\" content=\"2\">" } else { "" }
    )
}

fn index_page(market: &Market, error: Option<&str>) -> String {
    let mut s = head("Koehandel market", false);
    s.push_str("<h1>Koehandel market</h1><h2>Start a game</h2>");
    if let Some(e) = error {
        let _ = write!(s, "<p id=\"error\"><b>Not started:</b> {}</p>", esc(e));
    }
    s.push_str("<form id=\"start\" method=\"get\" action=\"/\">");
    s.push_str("<input type=\"hidden\" name=\"start\" value=\"\">");
    for i in 1..=SEATS {
        let _ = write!(
            s,
            "<p><label>Seat {} URL <input type=\"text\" name=\"url{i}\" placeholder=\"http://host:port/ (empty: passes on everything)\"></label></p>",
            i - 1
        );
    }
    s.push_str("<p><button type=\"submit\">Start game</button></p></form>");
    s.push_str("<h2>Read a log</h2><form id=\"log\" method=\"get\" action=\"/\"><label>Player id <input name=\"log\" size=\"8\"></label> <button type=\"submit\">Show log</button></form>");
    s.push_str(
        "<h2>Games</h2><table id=\"games\"><tr><th>market</th><th>players</th><th>state</th></tr>",
    );
    for m in market.markets().into_iter().rev().take(50) {
        if let Some(r) = market.game(m) {
            let _ = write!(
                s,
                "<tr><td><a href=\"/?market={m}\">{m}</a></td><td>{}</td><td>{}</td></tr>",
                esc(&r.names.join(", ")),
                state(&r)
            );
        }
    }
    s.push_str("</table></body></html>");
    s
}

fn state(r: &GameRecord) -> String {
    match r.scores {
        Some(sc) => format!("over: {}", sc.map(|x| x.to_string()).join(" / ")),
        None => format!("running, turn {}", r.turns),
    }
}

/// What the page says about the seeds: the server's seed (what a record's `seed` holds and
/// `kibitz replay` prints), the market number and the deck seed the game was dealt from.
///
/// Game `M` of a server started with seed `s` is dealt from deck seed `s + M` (see
/// `server`): market 1 of seed 2010 deals deck 2011. The page once said only "seed 2011"
/// while the record and the replay said "seed 2010": two true numbers under one name.
pub fn seed_text(r: &GameRecord, server_seed: u64) -> String {
    if r.seed == server_seed.wrapping_add(r.market) {
        format!(
            "server seed {server_seed} · market {} · deck seed {} ({server_seed} + {})",
            r.market, r.seed, r.market
        )
    } else {
        // A game played from a given position (`Market::play_from`) has no deck seed.
        format!(
            "server seed {server_seed} · market {} · deck seed {} (a given position)",
            r.market, r.seed
        )
    }
}

/// The part of the game page that follows the game (`?market=M&part=view`): the seeds and
/// state line, the picture, and once over the final scores and the bluffs revealed.
/// `data-over` tells the page's poll script when to stop.
pub fn view_part(r: &GameRecord, server_seed: u64) -> String {
    let over = r.scores.is_some();
    let mut s = format!(
        "<div id=\"view\" data-over=\"{}\"><p id=\"state\">{} · {}</p>",
        u8::from(over),
        esc(&seed_text(r, server_seed)),
        esc(&state(r))
    );
    s.push_str(&crate::market_view::svg(&r.view, &r.names));
    if let Some(sc) = r.scores {
        let best = sc.iter().copied().max().unwrap_or(0);
        s.push_str("<h2>Final scores</h2><ol id=\"scores\">");
        let mut order: Vec<usize> = (0..SEATS).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(sc[i]));
        for i in order {
            let _ = write!(
                s,
                "<li>seat {i} (id {}) {}: <b>{}</b>{}</li>",
                r.ids[i],
                esc(&r.names[i]),
                sc[i],
                if sc[i] == best { " — winner" } else { "" }
            );
        }
        s.push_str("</ol>");
        s.push_str(&crate::market_view::bluffs_html(&r.view));
    }
    s.push_str("</div>");
    s
}

/// While the game runs: fetch the view part every second and swap it in; reload the page
/// once when the game is over (the players table and logs are final then).
const POLL_SCRIPT: &str = "<script>(function(){\
const url='/?market='+document.body.dataset.market+'&part=view';\
async function poll(){\
 try{const r=await fetch(url);if(r.ok){const t=await r.text();\
  const d=document.createElement('div');d.innerHTML=t;const v=d.firstElementChild;\
  if(v&&v.id==='view'){document.getElementById('view').replaceWith(v);\
   document.body.dataset.polls=(+(document.body.dataset.polls||0)+1);\
   if(v.dataset.over==='1'){location.reload();return;}}}}catch(e){}\
 setTimeout(poll,1000);}\
setTimeout(poll,1000);})();</script>";

fn game_page(r: &GameRecord, server_seed: u64) -> String {
    let over = r.scores.is_some();
    let mut s = head(&format!("Koehandel market {}", r.market), false);
    let _ = write!(s, "<h1>Market {}</h1>", r.market);
    // The body names the market for the poll script.
    s = s.replacen("<body>", &format!("<body data-market=\"{}\">", r.market), 1);
    s.push_str(&view_part(r, server_seed));
    s.push_str("<h2>Players</h2><table id=\"players\"><tr><th>seat</th><th>id</th><th>player</th><th>requests</th><th>no answer</th><th>avg ms</th><th>defaults</th><th>bluffs caught</th><th>barred</th><th>score</th><th>log</th></tr>");
    for i in 0..SEATS {
        let c = r.counters[i];
        let avg = if c.requests > 0 {
            c.time.as_secs_f64() * 1000.0 / f64::from(c.requests)
        } else {
            0.0
        };
        let st = r.stats[i];
        let _ = write!(
            s,
            "<tr><td>{i}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{avg:.2}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><a href=\"/?log={}\">log</a></td></tr>",
            r.ids[i],
            esc(&r.names[i]),
            c.requests,
            c.failures,
            st.defaults,
            st.bluffs,
            if st.barred { "yes" } else { "no" },
            r.scores.map_or("–".to_string(), |sc| sc[i].to_string()),
            r.ids[i]
        );
    }
    s.push_str("</table><h2>Wire logs</h2><p>What the market sent and received, per player (click to open; the whole log is behind each table's log link).</p>");
    for i in 0..SEATS {
        let lines: Vec<&str> = r.logs[i].lines().collect();
        let from = lines.len().saturating_sub(PAGE_LOG_LINES);
        let _ = write!(
            s,
            "<details class=\"log\" id=\"log{}\"><summary>seat {i}, id {} ({} lines{})</summary><pre>{}</pre></details>",
            r.ids[i],
            r.ids[i],
            lines.len(),
            if from > 0 { ", last part" } else { "" },
            esc(&lines[from..].join("\n"))
        );
    }
    s.push_str("<p><a href=\"/\">back</a></p>");
    if !over {
        s.push_str(POLL_SCRIPT);
    }
    s.push_str("</body></html>");
    s
}

/// A running market server.
pub struct ServerHandle {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The market behind it.
    pub market: Market,
    task: tokio::task::JoinHandle<()>,
}

impl ServerHandle {
    /// The base URL, e.g. `http://127.0.0.1:4711/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Binds `addr` (port 0 = any free port) and serves a new market in the background, with the
/// connection limits of its [`MarketConfig`] (header timeout, connection caps).
pub async fn spawn(addr: &str, cfg: MarketConfig) -> std::io::Result<ServerHandle> {
    let listener = TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let limits = crate::limits::Limits::new(cfg.max_connections, cfg.max_connections_per_peer);
    let header_timeout = cfg.header_timeout;
    let market = Market::new(cfg);
    let app = router(market.clone());
    let task = tokio::spawn(serve(
        listener,
        app,
        limits,
        header_timeout,
        market.rejects(),
    ));
    Ok(ServerHandle { addr, market, task })
}

/// The accept loop: HTTP/1.1 with a header-read timeout, at most the configured connections in
/// total and per peer address (beyond that a connection is closed without a reply). Every
/// request carries its peer address (`ConnectInfo<SocketAddr>`); refused connections and
/// request heads hyper rejects (malformed, too large) go to `rejects`, whose flood summary is
/// flushed once per its window.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: crate::limits::Limits,
    header_timeout: std::time::Duration,
    rejects: Arc<RejectLog>,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;
    let mut tick = tokio::time::interval(rejects.window());
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = tick.tick() => {
                rejects.flush();
                continue;
            }
        };
        let (stream, peer) = match accepted {
            Ok(x) => x,
            Err(e) => {
                // E.g. out of file descriptors: wait a little instead of spinning.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let Some(permit) = limits.admit(peer.ip()) else {
            rejects.note(
                Reject::Connections,
                &format!("{peer}: connection closed at once"),
            );
            drop(stream);
            continue;
        };
        let service =
            TowerToHyperService::new(app.clone().layer(axum::Extension(ConnectInfo(peer))));
        let rejects = rejects.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service);
            if let Err(e) = conn.await {
                if e.is_parse_too_large() {
                    rejects.note(Reject::Oversize, &format!("{peer}: request head: {e}"));
                } else if e.is_parse() {
                    rejects.note(Reject::Query, &format!("{peer}: request head: {e}"));
                } else {
                    tracing::debug!(%peer, "connection ended: {e}");
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page names the seed a game was dealt from, and the server seed the record (and so
    /// `kibitz replay`) names: market 1 of seed 2010 is dealt from 2011. Before the fix the
    /// page said only "seed 2011" and the replay "seed 2010".
    #[tokio::test]
    async fn the_page_shows_the_seed_used_and_the_records_seed() {
        let dir = std::env::temp_dir().join(format!("kh-web-seed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let writer = kibitz_net::record::RecordWriter::create(&dir, "koehandel").unwrap();
        let market = Market::new(MarketConfig {
            records: Some(Arc::new(writer)),
            ..MarketConfig::default()
        });
        // Four passive seats: the market answers every question with the default.
        let r = market.play(Vec::new()).await.unwrap();
        assert_eq!((r.market, r.seed), (1, 2011));
        let text = std::fs::read_to_string(dir.join("koehandel.jsonl")).unwrap();
        let line: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let page = game_page(&r, market.config().seed);
        // What the record (and the replay's header) calls the seed, and what it deals from.
        let record_seed = line["seed"].as_u64().unwrap();
        let deck_seed = line["setup"]["deck_seed"].as_u64().unwrap();
        assert_eq!((record_seed, deck_seed), (2010, 2011));
        assert!(
            page.contains(&format!("server seed {record_seed}")),
            "{page}"
        );
        assert!(
            page.contains(&format!("deck seed {deck_seed} (2010 + 1)")),
            "{page}"
        );
        assert!(
            !page.contains("seed 2011 ·"),
            "a bare seed 2011 reads as the server's"
        );
        // The deck the page's seed names is the deck the record dealt.
        let deck: Vec<String> = kibitz_koehandel::Game::shuffled_deck(deck_seed)
            .iter()
            .map(|a| a.letter().to_string())
            .collect();
        assert_eq!(line["setup"]["deck"], serde_json::json!(deck));
    }

    /// Running: the picture of the deal in progress and the poll script; over: the scores,
    /// the bluffs and the money values, no polling; logs are folded away but one click away.
    #[tokio::test]
    async fn the_page_pictures_the_game_and_polls_only_while_it_runs() {
        let market = Market::new(MarketConfig::default());
        let r = market.play(Vec::new()).await.unwrap();
        let page = game_page(&r, 2010);
        assert!(page.contains("<svg") && page.contains("game over"));
        assert!(page.contains("<h2>Final scores</h2>") && page.contains("id=\"bluffs\""));
        assert!(page.contains("worth") && !page.contains("setTimeout(poll"));
        assert!(page.contains("<details class=\"log\"") && !page.contains(" open>"));
        assert!(page.contains(&format!("href=\"/?log={}\"", r.ids[0])));
        // The same game while it ran (its state at the start): polled, no scores.
        let mut running = r.clone();
        running.scores = None;
        running.view = crate::market_view::MarketView::default();
        let mut g = kibitz_koehandel::Game::new(r.seed);
        let notices: Vec<_> = g.drain_notices().collect();
        running.view.update(&g, &notices);
        let page = game_page(&running, 2010);
        assert!(page.contains("setTimeout(poll") && page.contains("data-market=\"1\""));
        assert!(page.contains("turn: seat 0") && !page.contains("Final scores"));
        let part = view_part(&running, 2010);
        assert!(part.starts_with("<div id=\"view\" data-over=\"0\">"));
        assert!(view_part(&r, 2010).starts_with("<div id=\"view\" data-over=\"1\">"));
    }
}
