//! Full games through the market over loopback HTTP: our bot endpoints against baselines,
//! the HTTP transport against the in-process one, and misbehaving players.

mod common;

use common::{dead_url, scripted, Act};
use kibitz_bots_koehandel::client::{self, best_strategy, Bot};
use kibitz_bots_koehandel::protocol::Cards;
use kibitz_bots_koehandel::server::{Entrant, GameRecord, Market, MarketConfig, MarketError};
use kibitz_bots_koehandel::web;
use std::sync::Arc;
use std::time::Duration;

fn cfg(deadline_ms: u64) -> MarketConfig {
    MarketConfig {
        deadline: Duration::from_millis(deadline_ms),
        ..MarketConfig::default()
    }
}

/// Money and animals are conserved: 40 animals, and the cards paid in by the donkeys.
fn assert_conserved(r: &GameRecord) {
    let animals: usize = r.herds.iter().map(String::len).sum();
    assert_eq!(animals, 40, "herds {:?}", r.herds);
    let total = r
        .money
        .iter()
        .map(|m| Cards::parse(m).unwrap())
        .fold(Cards::EMPTY, |mut a, c| {
            a.add(&c);
            a
        });
    assert_eq!(
        (total.len(), total.value()),
        (44, 3760),
        "money {:?}",
        r.money
    );
    let scores = r.scores.expect("game over");
    for (i, log) in r.logs.iter().enumerate() {
        let s = scores;
        let want = format!(
            "type=end&message=S{}W{}N{}E{}",
            s[i],
            s[(i + 1) % 4],
            s[(i + 2) % 4],
            s[(i + 3) % 4]
        );
        assert!(log.contains(&want), "seat {i} log lacks {want}");
    }
}

/// Logs without timings and the header line (which names the transport).
fn transcript(r: &GameRecord) -> Vec<String> {
    r.logs
        .iter()
        .map(|l| {
            l.lines()
                .skip(1)
                .map(|x| x.rsplit_once(" (").map_or(x, |(a, _)| a))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_game_equals_in_process_game_message_for_message() {
    let strategies = ["heuristic", "random", "heuristic", "random"];
    let mut endpoints = Vec::new();
    for s in strategies {
        endpoints.push(client::spawn("127.0.0.1:0", s).await.unwrap());
    }
    let http = Market::new(cfg(5000))
        .play(endpoints.iter().map(|e| Entrant::Url(e.url())).collect())
        .await
        .unwrap();
    let local = Market::new(cfg(5000))
        .play(
            strategies
                .iter()
                .map(|s| Entrant::Local(Arc::new(Bot::new(s).unwrap())))
                .collect(),
        )
        .await
        .unwrap();
    assert_conserved(&http);
    assert_eq!(http.scores, local.scores);
    assert_eq!(transcript(&http), transcript(&local));
    for c in http.counters {
        assert_eq!(c.failures, 0);
        assert!(c.requests > 40);
    }
    for e in &endpoints {
        assert_eq!(e.bot.sessions(), 0, "sessions end with the game");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_bot_against_baselines_through_the_server_front_door() {
    let server = web::spawn("127.0.0.1:0", cfg(5000)).await.unwrap();
    let ours = client::spawn("127.0.0.1:0", best_strategy()).await.unwrap();
    let heur = client::spawn("127.0.0.1:0", "heuristic").await.unwrap();
    let rand = client::spawn("127.0.0.1:0", "random").await.unwrap();
    // Two games at once through the same endpoints; the second leaves seat 4 passive.
    let mut started = Vec::new();
    for urls in [
        vec![ours.url(), heur.url(), rand.url(), heur.url()],
        vec![heur.url(), ours.url(), rand.url()],
    ] {
        let q: String = urls
            .iter()
            .enumerate()
            .map(|(i, u)| format!("&url{}={}", i + 1, form_encode(u)))
            .collect();
        let body = get(&format!("{}?connect{q}", server.url())).await;
        assert!(body.starts_with("?market="), "{body}");
        let p = kibitz_bots_koehandel::protocol::pairs(&body);
        let market: u64 = p[0].1.parse().unwrap();
        let ids: Vec<u64> = p[1..].iter().map(|(_, v)| v.parse().unwrap()).collect();
        assert_eq!(ids.len(), 4);
        started.push((market, ids));
    }
    for (market, ids) in started {
        let r = server
            .market
            .wait(market, Duration::from_secs(60))
            .await
            .expect("game finished");
        assert_conserved(&r);
        assert_eq!(r.ids.to_vec(), ids);
        let log = get(&format!("{}?log={}", server.url(), ids[0])).await;
        assert!(log.starts_with(&format!("# market {market} seat 0")));
        assert!(log.contains("&type=start"));
        for (i, c) in r.counters.iter().enumerate() {
            assert_eq!(c.failures, 0, "seat {i}");
        }
    }
    assert_eq!(
        get(&format!("{}?log=999999", server.url())).await,
        "no log for id \"999999\"\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dead_slow_and_garbage_players_get_defaults_and_the_game_completes() {
    // Seat 1 answers garbage of every kind (and sometimes too late), seat 2 is a dead URL,
    // seat 3 is a URL that is no http URL; seat 0 is our bot.
    let script = Arc::new(|_seat: usize, k: usize, q: &str| {
        let junk = [
            Act::Bytes(vec![0xff, 0xfe, b'?', b'm']),
            Act::Body("?money=".to_string() + &"F".repeat(100_000)),
            Act::Status(404),
            Act::Body("?type=trade&opponent=S&goods=ZZ&money=QQQ".into()),
            Act::Body("?type=trade&opponent=E&goods=A&money=FFFF".into()),
            Act::Body(
                "?money=ttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt".into(),
            ),
            Act::Body("?money=FFFFF".into()),
            Act::Body("money=h&money=n".into()),
            Act::Body("\u{0}\u{7}%%%&&==".into()),
        ];
        let _ = q;
        if k == 7 || k == 107 {
            return Act::Slow(Duration::from_millis(2500), "?type=auction".into());
        }
        junk[k % junk.len()].clone()
    });
    let (urls, _rec) = scripted(script).await;
    let ours = client::spawn("127.0.0.1:0", best_strategy()).await.unwrap();
    let market = Market::new(MarketConfig {
        give_up_after: None,
        ..cfg(2000)
    });
    let r = market
        .play(vec![
            Entrant::Url(ours.url()),
            Entrant::Url(urls[1].clone()),
            Entrant::Url(dead_url()),
            Entrant::Passive,
        ])
        .await
        .unwrap();
    assert_conserved(&r);
    assert_eq!(r.counters[0].failures, 0);
    assert!(r.counters[1].failures > 0 && r.counters[1].failures < r.counters[1].requests);
    assert_eq!(r.counters[2].failures, r.counters[2].requests);
    assert!(r.stats[1].defaults > 0 && r.stats[2].defaults > 0);
    for needle in ["timeout", "status 404", "unusable body"] {
        assert!(r.logs[1].contains(needle), "garbage log lacks {needle}");
    }
    assert!(r.logs[2].contains("connection error"));
    // A URL the market cannot call never gets a seat (tests/hardening.rs).
    assert!(matches!(
        market
            .play(vec![Entrant::Url("ftp://nowhere/".into())])
            .await,
        Err(MarketError::BadUrl { seat: 1, .. })
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unresponsive_seat_is_given_up_after_repeated_failures() {
    let market = Market::new(MarketConfig {
        give_up_after: Some(3),
        ..cfg(200)
    });
    let r = market.play(vec![Entrant::Url(dead_url())]).await.unwrap();
    assert_conserved(&r);
    assert!(r.logs[0].contains("skipped: seat unresponsive"));
    assert_eq!(r.logs[0].matches("connection error").count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_connect_requests_are_refused_cleanly() {
    let server = web::spawn("127.0.0.1:0", cfg(100)).await.unwrap();
    let long = "x".repeat(3000);
    let (status, _) = get_status(&format!("{}?connect&url1=http://{long}", server.url())).await;
    assert_eq!(status, 400);
    let (status, body) = get_status(&format!("{}?market=abc", server.url())).await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = get_status(&server.url()).await;
    assert_eq!(status, 200);
    assert!(body.contains("<form"));
}

fn form_encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

async fn get(url: &str) -> String {
    get_status(url).await.1
}

async fn get_status(url: &str) -> (u16, String) {
    let caller =
        kibitz_bots_koehandel::caller::Caller::with_limit(Duration::from_secs(10), 1 << 24);
    let (url, query) = url.split_once('?').unwrap_or((url, ""));
    let (res, _) = caller.call_raw(url, query).await;
    res.unwrap_or_else(|e| panic!("GET {url}?{query}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_endpoint_survives_garbage_and_serves_interleaved_games() {
    let bot = client::spawn("127.0.0.1:0", best_strategy()).await.unwrap();
    let base = bot.url();
    for q in [
        "",
        "market=1",
        "market=1&id=2&type=dance",
        "market=1&id=2&type=auction&opponent=X",
        "%FF%FE%00=%C3%28&&==",
        &"x".repeat(5000),
    ] {
        let (status, body) = get_status(&format!("{base}?{q}")).await;
        assert_eq!((status, body.as_str()), (200, "?"), "{q:?}");
    }
    // A game the bot never saw begin: it still answers sensibly.
    let body = get(&format!("{base}?market=5&id=9&type=start")).await;
    assert!(
        body == "?type=auction" || body.starts_with("?type=trade"),
        "{body}"
    );
    // Two games interleaved, each asked for a bid: separate sessions.
    for m in [6, 7] {
        get(&format!(
            "{base}?market={m}&id=1&type=information&message=begin"
        ))
        .await;
    }
    for m in [6, 7] {
        let body = get(&format!(
            "{base}?market={m}&id=1&type=auction&opponent=E&auctioneer=E&goods=J"
        ))
        .await;
        assert!(body.starts_with("?money=") || body == "?", "{body}");
    }
    assert_eq!(bot.bot.sessions(), 3);
    get(&format!("{base}?market=6&id=1&type=end&message=S0W0N0E0")).await;
    assert_eq!(bot.bot.sessions(), 2);
}
