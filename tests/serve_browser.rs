//! `kibitz serve` in a real browser: Debian's `chromium` driven over WebDriver (`chromedriver`
//! on a free loopback port, fantoccini), headless with a fresh profile per session.
//!
//! The records are made here (`kibitz match` with untimed players and a fixed seed), the
//! server is `kibitz serve --port 0` on 127.0.0.1, and what the page shows is compared with
//! `kibitz replay --all` (the adapters' text positions). Trials:
//! - `connect4_arrow_keys`: → five times, the board read from the page is position 5;
//! - `piranhas_ply_in_url`: `#ply=20` opens position 20;
//! - `no_console_errors`: index, every game's page and a match page log no error (and a page
//!   with a deliberate error does, so the check can fail);
//! - `live_updates`: a game page and the index follow a record file that grows;
//! - `thinking_graph`: a searching player's numbers per move and the evaluation graph;
//! - `piranhas_think`: a Piranhas search player's depth, nodes and pv of move 3 as recorded;
//! - `live_standings`: the standings page of a folder changes when a record line is appended.
//!
//! A missing browser never passes quietly: the trials are marked ignored when chromium or
//! chromedriver is missing locally, and FAIL when the environment variable `CI` is set.
//! Everything is bounded: waits have deadlines, and a watchdog ends the run (failing) after
//! [`WATCHDOG`], killing the processes it started.

use fantoccini::Locator;
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Value};
use std::io::Write;
use std::time::{Duration, Instant};

#[path = "serve_browser/harness.rs"]
mod harness;
use harness::*;

fn connect4_arrow_keys() -> Result<(), Failed> {
    with_browser("c4", |env, c| {
        Box::pin(async move {
            let path = env.records.join(env.file("connect4"));
            let (game, moves) = longest(&path)?;
            if moves < 6 {
                return Err(format!("the longest Connect Four game has {moves} moves").into());
            }
            c.goto(&format!(
                "{}game/0/{}/{game}",
                env.url,
                env.file("connect4")
            ))
            .await
            .map_err(|e| e.to_string())?;
            let body = c
                .find(Locator::Css("body"))
                .await
                .map_err(|e| e.to_string())?;
            let right = char::from(fantoccini::key::Key::Right).to_string();
            for _ in 0..5 {
                body.send_keys(&right).await.map_err(|e| e.to_string())?;
            }
            wait_for(c, "return document.body.dataset.ply", &json!("5")).await?;
            let url = c.current_url().await.map_err(|e| e.to_string())?;
            if url.fragment() != Some("ply=5") {
                return Err(format!("URL after five → is {url}").into());
            }
            let want = &replay_boards(&path, game)?[5];
            let got = page_board(c).await?;
            if &got != want {
                return Err(format!("page shows {got:?}, replay position 5 is {want:?}").into());
            }
            // And back: ← once is position 4.
            body.send_keys(&char::from(fantoccini::key::Key::Left).to_string())
                .await
                .map_err(|e| e.to_string())?;
            wait_for(c, "return document.body.dataset.ply", &json!("4")).await?;
            let want = &replay_boards(&path, game)?[4];
            if &page_board(c).await? != want {
                return Err("← does not show position 4".into());
            }
            Ok(())
        })
    })
}

fn piranhas_ply_in_url() -> Result<(), Failed> {
    with_browser("pi", |env, c| {
        Box::pin(async move {
            let path = env.records.join(env.file("piranhas"));
            let boards = replay_boards(&path, 0)?;
            if boards.len() <= 20 {
                return Err(format!("the Piranhas game has {} positions", boards.len()).into());
            }
            c.goto(&format!(
                "{}game/0/{}/0#ply=20",
                env.url,
                env.file("piranhas")
            ))
            .await
            .map_err(|e| e.to_string())?;
            wait_for(c, "return document.body.dataset.ply", &json!("20")).await?;
            let got = page_board(c).await?;
            if got != boards[20] {
                return Err(
                    format!("page shows {got:?}, replay position 20 is {:?}", boards[20]).into(),
                );
            }
            if got == boards[19] || got == boards[21] {
                return Err("position 20 equals a neighbour: the comparison proves nothing".into());
            }
            Ok(())
        })
    })
}

fn no_console_errors() -> Result<(), Failed> {
    with_browser("console", |env, c| {
        Box::pin(async move {
            // The check itself: a page with an error must be caught.
            c.goto("data:text/html,<script>no_such_function()</script>")
                .await
                .map_err(|e| e.to_string())?;
            if console_errors(env, c).await?.is_empty() {
                return Err("a deliberate script error was not logged: the check is blind".into());
            }
            let mut pages = vec![
                env.url.clone(),
                format!("{}match/0/{}", env.url, env.file("connect4")),
            ];
            for g in ["connect4", "piranhas", "maumau", "koehandel"] {
                pages.push(format!("{}game/0/{}/0#ply=3", env.url, env.file(g)));
            }
            for p in &pages {
                c.goto(p).await.map_err(|e| e.to_string())?;
                // The page's script ran to its end (it sets the ply) or the index has its table.
                let ready = if p.contains("/game/") {
                    "return document.body.dataset.ply"
                } else {
                    "return document.querySelector('table') !== null ? '3' : null"
                };
                wait_for(c, ready, &json!("3")).await?;
                let errors = console_errors(env, c).await?;
                if !errors.is_empty() {
                    return Err(format!("{p}: console errors {errors:?}").into());
                }
            }
            Ok(())
        })
    })
}

fn live_updates() -> Result<(), Failed> {
    with_browser("live", |env, c| {
        Box::pin(async move {
            let src = env.records.join(env.file("connect4"));
            let (game, moves) = longest(&src)?;
            let text = std::fs::read_to_string(&src).map_err(|e| e.to_string())?;
            let rec: Value = serde_json::from_str(text.lines().nth(game).ok_or("line")?)
                .map_err(|e| e.to_string())?;
            let cut = |n: usize| {
                let mut r = rec.clone();
                r["moves"] = json!(rec["moves"].as_array().map(|m| m[..n].to_vec()));
                r.to_string() + "\n"
            };
            let k = moves - 2;
            let file = env.live.join("growing.jsonl");
            std::fs::write(&file, cut(k)).map_err(|e| e.to_string())?;
            // The server notices the new file within its poll interval.
            let page = format!("{}game/1/growing.jsonl/0", env.url);
            let deadline = Instant::now() + WAIT;
            loop {
                c.goto(&page).await.map_err(|e| e.to_string())?;
                if eval(c, "return document.body.dataset.plies || null").await? != Value::Null {
                    break;
                }
                if Instant::now() > deadline {
                    return Err(format!("{page} never showed the game").into());
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let end = char::from(fantoccini::key::Key::End).to_string();
            let body = c
                .find(Locator::Css("body"))
                .await
                .map_err(|e| e.to_string())?;
            body.send_keys(&end).await.map_err(|e| e.to_string())?;
            wait_for(c, "return document.body.dataset.ply", &json!(k.to_string())).await?;
            // The game gains a move: the page follows without a reload.
            eval(c, "window.__same_page = 1; return 1").await?;
            std::fs::write(&file, cut(k + 1)).map_err(|e| e.to_string())?;
            wait_for(
                c,
                "return document.body.dataset.ply",
                &json!((k + 1).to_string()),
            )
            .await?;
            wait_for(c, "return window.__same_page", &json!(1)).await?;
            let want = &replay_boards(&src, game)?[k + 1];
            if &page_board(c).await? != want {
                return Err("the live page does not show the new move's position".into());
            }
            // The index gains a row when a record is appended.
            c.goto(&env.url).await.map_err(|e| e.to_string())?;
            let count = "return document.querySelectorAll('#games tbody tr').length";
            let before = eval(c, count).await?.as_u64().ok_or("row count")?;
            eval(c, "window.__same_page = 2; return 1").await?;
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&file)
                .map_err(|e| e.to_string())?;
            f.write_all(cut(k).as_bytes()).map_err(|e| e.to_string())?;
            drop(f);
            wait_for(c, count, &json!(before + 1)).await?;
            wait_for(c, "return window.__same_page", &json!(2)).await?;
            Ok(())
        })
    })
}

/// A trial's body.
type TrialFn = fn() -> Result<(), Failed>;

fn thinking_graph() -> Result<(), Failed> {
    with_browser("think", |env, c| {
        Box::pin(async move {
            let path = env.records.join("connect4-4.jsonl");
            let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
            let rec: Value = serde_json::from_str(text.lines().next().ok_or("no record")?)
                .map_err(|e| e.to_string())?;
            let think = rec["think"].as_array().ok_or("the record has no think")?;
            let scored = think.iter().filter(|t| t["score"].is_i64()).count();
            if scored < 2 {
                return Err(format!("only {scored} scored moves: no graph to check").into());
            }
            c.goto(&format!("{}game/0/connect4-4.jsonl/0#ply=1", env.url))
                .await
                .map_err(|e| e.to_string())?;
            wait_for(c, "return document.body.dataset.ply", &json!("1")).await?;
            // One graph point per scored move.
            let points = "const l = document.querySelector('#graph polyline'); \
                          return l ? l.getAttribute('points').trim().split(/\\s+/).length : 0";
            wait_for(c, points, &json!(scored)).await?;
            // The numbers of the move that led to ply 1 (seat 0 searched it).
            let shown = eval(c, "return document.getElementById('think').textContent").await?;
            let nodes = think[0]["nodes"].as_u64().ok_or("no nodes")?;
            if !shown
                .as_str()
                .unwrap_or("")
                .contains(&format!("{nodes} nodes"))
            {
                return Err(format!("ply 1 shows {shown}, the record says {nodes} nodes").into());
            }
            Ok(())
        })
    })
}

fn piranhas_think() -> Result<(), Failed> {
    with_browser("pthink", |env, c| {
        Box::pin(async move {
            let path = env.records.join("piranhas-5.jsonl");
            let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
            let rec: Value = serde_json::from_str(text.lines().next().ok_or("no record")?)
                .map_err(|e| e.to_string())?;
            // Move 3 leads to ply 3; its think is the record's third entry.
            let t = &rec["think"][2];
            let depth = t["depth"].as_u64().ok_or("move 3 has no depth")?;
            let nodes = t["nodes"].as_u64().ok_or("move 3 has no nodes")?;
            let pv = t["pv"][0].as_str().ok_or("move 3 has no pv")?;
            if rec["think"][1]["depth"] == t["depth"] {
                return Err(
                    "moves 2 and 3 searched as deep: the depth check proves nothing".into(),
                );
            }
            c.goto(&format!("{}game/0/piranhas-5.jsonl/0#ply=3", env.url))
                .await
                .map_err(|e| e.to_string())?;
            wait_for(c, "return document.body.dataset.ply", &json!("3")).await?;
            let shown = eval(c, "return document.getElementById('think').textContent").await?;
            let shown = shown.as_str().unwrap_or("");
            for want in [
                format!("depth {depth}"),
                format!("{nodes} nodes"),
                format!("pv {pv}"),
            ] {
                if !shown.contains(&want) {
                    return Err(format!("ply 3 shows {shown:?}, the record says {want}").into());
                }
            }
            // Piranhas scores are graphed too: one point per move.
            let points = "const l = document.querySelector('#graph polyline'); \
                          return l ? l.getAttribute('points').trim().split(/\\s+/).length : 0";
            let moves = rec["moves"].as_array().map_or(0, Vec::len);
            wait_for(c, points, &json!(moves)).await?;
            Ok(())
        })
    })
}

fn live_standings() -> Result<(), Failed> {
    with_browser("standings", |env, c| {
        Box::pin(async move {
            let line = |a: &str, b: &str, winner: Value| {
                json!({"format": "kibitz-record/1", "game": "connect4", "players": [a, b],
                       "moves": [], "result": {"winner": winner, "reason": "test"}})
                .to_string()
                    + "\n"
            };
            let file = env.live.join("tournament.jsonl");
            let first = line("alpha", "beta", json!(0)) + &line("beta", "alpha", json!(1));
            std::fs::write(&file, first).map_err(|e| e.to_string())?;
            let page = format!("{}standings/1", env.url);
            let cell = |who: &str, class: &str| {
                format!(
                    "const r = document.querySelector('#standings tr[data-player=\"{who}\"] .{class}'); \
                     return r ? r.textContent : null"
                )
            };
            // The server notices the file within its poll interval.
            let deadline = Instant::now() + WAIT;
            loop {
                c.goto(&page).await.map_err(|e| e.to_string())?;
                if eval(c, &cell("alpha", "points")).await? == json!("2") {
                    break;
                }
                if Instant::now() > deadline {
                    return Err(format!("{page} never showed alpha's two wins").into());
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            wait_for(c, &cell("beta", "l"), &json!("2")).await?;
            // A game ends: the line is appended, the tables change without a reload.
            eval(c, "window.__same_page = 3; return 1").await?;
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&file)
                .map_err(|e| e.to_string())?;
            f.write_all(line("beta", "alpha", json!(0)).as_bytes())
                .map_err(|e| e.to_string())?;
            drop(f);
            wait_for(c, &cell("beta", "w"), &json!("1")).await?;
            wait_for(c, &cell("alpha", "games"), &json!("3")).await?;
            wait_for(c, "return window.__same_page", &json!(3)).await?;
            let cross = "return [...document.querySelectorAll('#standings table.cross td')].map(t => t.textContent)";
            let cells = eval(c, cross).await?;
            if !cells
                .as_array()
                .is_some_and(|a| a.contains(&json!("2/3")) && a.contains(&json!("1/3")))
            {
                return Err(format!("crosstable after three games: {cells}").into());
            }
            Ok(())
        })
    })
}

fn main() {
    let mut args = Arguments::from_args();
    // One browser at a time: the machine is small and the trials share one server.
    args.test_threads = Some(1);
    let trials: [(&str, TrialFn); 7] = [
        ("connect4_arrow_keys", connect4_arrow_keys),
        ("piranhas_ply_in_url", piranhas_ply_in_url),
        ("no_console_errors", no_console_errors),
        ("live_updates", live_updates),
        ("thinking_graph", thinking_graph),
        ("piranhas_think", piranhas_think),
        ("live_standings", live_standings),
    ];
    // Run, ignore locally (reported as ignored, never as passed), or fail in CI.
    let found = kibitz_testkit::browser_and_driver();
    let tests = trials
        .into_iter()
        .map(|(name, f)| match &found {
            Ok(Some(_)) => Trial::test(name, f),
            Err(why) => {
                let why = why.clone();
                Trial::test(name, move || Err(why.clone().into()))
            }
            Ok(None) => Trial::test(name, move || {
                Err("no chromium or chromedriver on PATH".into())
            })
            .with_ignored_flag(true),
        })
        .collect();
    match &found {
        Err(why) => eprintln!("serve_browser: {why}"),
        Ok(None) => eprintln!("serve_browser: no chromium or chromedriver: trials ignored"),
        Ok(Some(_)) => {}
    }
    std::thread::spawn(|| {
        std::thread::sleep(WATCHDOG);
        eprintln!("serve_browser: watchdog: still running after {WATCHDOG:?}, giving up");
        kill_children();
        std::process::exit(101);
    });
    let conclusion = libtest_mimic::run(&args, tests);
    kill_children();
    if let Some(Ok(env)) = ENV.get() {
        let _ = std::fs::remove_dir_all(&env.root);
    }
    conclusion.exit();
}
