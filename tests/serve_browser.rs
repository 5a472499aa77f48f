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

use fantoccini::{Client, ClientBuilder, Locator};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");
/// The whole run's limit.
const WATCHDOG: Duration = Duration::from_secs(300);
/// Limit of one wait for the page (a live update, a server's first line).
const WAIT: Duration = Duration::from_secs(20);

/// The browser and its driver (`kibitz_testkit::browser_and_driver`: `CHROMIUM` /
/// `CHROMEDRIVER`, else on PATH), or why the trials cannot run.
fn browser() -> Result<(PathBuf, PathBuf), String> {
    kibitz_testkit::browser_and_driver()?.ok_or_else(|| {
        "no chromium or chromedriver (apt-get install chromium chromium-driver)".into()
    })
}

/// The processes and files the trials share.
struct Env {
    /// Records made by `kibitz match` (served as folder 0).
    records: PathBuf,
    /// Records the live trial writes (folder 1).
    live: PathBuf,
    /// Scratch root (profiles).
    root: PathBuf,
    /// `http://127.0.0.1:PORT/` of `kibitz serve`.
    url: String,
    /// chromedriver's port.
    driver_port: u16,
    chromium: PathBuf,
}

/// Child processes to kill at the end (or by the watchdog).
static CHILDREN: Mutex<Vec<Child>> = Mutex::new(Vec::new());
static ENV: OnceLock<Result<Env, String>> = OnceLock::new();

fn kill_children() {
    let mut kids = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
    for c in kids.iter_mut() {
        let _ = c.kill();
        let _ = c.wait();
    }
    kids.clear();
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

fn run(args: &[&str]) -> Result<String, String> {
    let out = Command::new(KIBITZ)
        .args(args)
        .output()
        .map_err(|e| format!("kibitz {args:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "kibitz {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

impl Env {
    fn get() -> Result<&'static Env, Failed> {
        ENV.get_or_init(Env::start)
            .as_ref()
            .map_err(|e| Failed::from(e.clone()))
    }

    fn start() -> Result<Env, String> {
        let (chromium, driver) = browser()?;
        let root =
            std::env::temp_dir().join(format!("kibitz-serve-browser-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (records, live) = (root.join("records"), root.join("live"));
        for d in [&records, &live] {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        let dir = records.to_str().ok_or("temp dir is not UTF-8")?;
        // Small fixed budgets: a few seconds of CPU for all four games.
        // Seed 3: one game of each; seed 4: a searching Connect Four player (its `think`).
        for (game, a, b, n, seed) in [
            ("connect4", "random", "random", "2", "3"),
            ("piranhas", "greedy", "random", "1", "3"),
            ("maumau", "heuristic", "random", "1", "3"),
            ("koehandel", "heuristic", "random", "1", "3"),
            (
                "connect4",
                "search:depth=4,solve=16",
                "search:depth=2,solve=16",
                "1",
                "4",
            ),
            // Seed 5: a searching Piranhas player against itself at other depths (its `think`).
            ("piranhas", "search:depth=3", "search:depth=2", "1", "5"),
        ] {
            run(&[
                "match",
                game,
                "--a",
                a,
                "--b",
                b,
                "--games",
                n,
                "--seed",
                seed,
                "--records",
                dir,
            ])?;
        }
        // The server, on a free port it picks itself; its first line names the address.
        let mut serve = Command::new(KIBITZ)
            .args([
                "serve",
                "--port",
                "0",
                "--poll-ms",
                "100",
                "--records",
                dir,
                "--records",
            ])
            .arg(&live)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("kibitz serve: {e}"))?;
        let stdout = serve.stdout.take().ok_or("no stdout")?;
        CHILDREN
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(serve);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(WAIT)
            .map_err(|_| "kibitz serve printed no address")?;
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://127.0.0.1:"))
            .ok_or_else(|| format!("kibitz serve said {line:?}"))?
            .to_string();
        // chromedriver on a free loopback port.
        let driver_port = free_port();
        let child = Command::new(&driver)
            .arg(format!("--port={driver_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: {e}", driver.display()))?;
        CHILDREN
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(child);
        let deadline = Instant::now() + WAIT;
        while http(driver_port, "GET", "/status", "").is_err() {
            if Instant::now() > deadline {
                return Err("chromedriver did not answer /status".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Ok(Env {
            records,
            live,
            root,
            url,
            driver_port,
            chromium,
        })
    }

    /// A fresh headless browser session.
    async fn session(&self, tag: &str) -> Result<Client, Failed> {
        let profile = self.root.join(format!("profile-{tag}"));
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": self.chromium,
                "args": ["--headless", "--no-sandbox", "--disable-gpu",
                         "--disable-background-networking", "--disable-component-update",
                         "--no-first-run", "--window-size=1200,900",
                         format!("--user-data-dir={}", profile.display())],
            },
            "goog:loggingPrefs": {"browser": "ALL"},
            "timeouts": {"pageLoad": 30000, "script": 30000},
        });
        let Value::Object(caps) = caps else {
            unreachable!()
        };
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.driver_port))
            .await
            .map_err(|e| format!("new browser session: {e}"))?;
        Ok(client)
    }

    /// The record file of `game` made by `kibitz match`.
    fn file(&self, game: &str) -> String {
        format!("{game}-3.jsonl")
    }
}

/// A plain HTTP/1.1 request to chromedriver (for what fantoccini has no call: the log).
fn http(port: u16, method: &str, path: &str, body: &str) -> Result<Value, String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(WAIT)).map_err(|e| e.to_string())?;
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| e.to_string())?;
    // chromedriver keeps the connection open: read the header, then exactly the body.
    let mut r = BufReader::new(s);
    let (mut length, mut chunked) = (None, false);
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Err("connection closed in the header".into());
        }
        let l = line.trim().to_ascii_lowercase();
        if l.is_empty() {
            break;
        }
        if let Some(v) = l.strip_prefix("content-length:") {
            length = v.trim().parse::<usize>().ok();
        }
        if l.starts_with("transfer-encoding:") && l.contains("chunked") {
            chunked = true;
        }
    }
    let mut bytes = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).map_err(|e| e.to_string())?;
            let n = usize::from_str_radix(size.trim(), 16).map_err(|e| e.to_string())?;
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).map_err(|e| e.to_string())?;
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = length {
        bytes.resize(n, 0);
        r.read_exact(&mut bytes).map_err(|e| e.to_string())?;
    } else {
        r.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    }
    let body = String::from_utf8_lossy(&bytes);
    serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))
}

/// Severe browser-log entries since the last call (console errors, failed loads).
async fn console_errors(env: &Env, c: &Client) -> Result<Vec<String>, Failed> {
    let id = c
        .session_id()
        .await
        .map_err(|e| e.to_string())?
        .ok_or("no session id")?;
    let log = http(
        env.driver_port,
        "POST",
        &format!("/session/{id}/se/log"),
        r#"{"type":"browser"}"#,
    )?;
    let entries = log["value"].as_array().ok_or(format!("log: {log}"))?;
    Ok(entries
        .iter()
        .filter(|e| e["level"] == "SEVERE")
        .map(|e| e["message"].as_str().unwrap_or("?").to_string())
        .collect())
}

/// Positions `kibitz replay FILE --game N --all` prints: the board glyphs of each, rows top
/// to bottom (only lines with a board row: `●○▒·`).
fn replay_boards(file: &Path, game: usize) -> Result<Vec<Vec<String>>, Failed> {
    let text = run(&[
        "replay",
        file.to_str().ok_or("path")?,
        "--game",
        &game.to_string(),
        "--all",
    ])?;
    let mut out: Vec<Vec<String>> = Vec::new();
    for line in text.lines() {
        if line.starts_with('[') {
            out.push(Vec::new());
            continue;
        }
        let g: String = line.chars().filter(|c| "●○▒·".contains(*c)).collect();
        if g.chars().count() >= 7 {
            if let Some(b) = out.last_mut() {
                b.push(g);
            }
        }
    }
    Ok(out)
}

/// The board the page shows, as glyph rows top to bottom (read from the SVG's data).
const READ_BOARD: &str = r#"
const c4 = [...document.querySelectorAll('#board circle[data-col]')];
if (c4.length) {
  const rows = Math.max(...c4.map(c => +c.dataset.row)) + 1, cols = Math.max(...c4.map(c => +c.dataset.col)) + 1;
  const g = Array.from({length: rows}, () => Array(cols).fill('·'));
  for (const c of c4) {
    const cl = c.getAttribute('class');
    g[rows - 1 - +c.dataset.row][+c.dataset.col] = cl.includes('p1') ? '●' : cl.includes('p2') ? '○' : '·';
  }
  return g.map(r => r.join(''));
}
const g = Array.from({length: 10}, () => Array(10).fill('·'));
for (const e of document.querySelectorAll('#board [data-x]')) {
  const cl = e.getAttribute('class');
  g[9 - +e.dataset.y][+e.dataset.x] = cl.includes('red') ? '●' : cl.includes('blue') ? '○' : '▒';
}
return g.map(r => r.join(''));
"#;

async fn eval(c: &Client, script: &str) -> Result<Value, Failed> {
    c.execute(script, vec![])
        .await
        .map_err(|e| Failed::from(format!("script failed: {e}")))
}

async fn page_board(c: &Client) -> Result<Vec<String>, Failed> {
    let v = eval(c, READ_BOARD).await?;
    serde_json::from_value(v).map_err(|e| e.to_string().into())
}

/// Waits until `script` returns `want` (bounded by [`WAIT`]).
async fn wait_for(c: &Client, script: &str, want: &Value) -> Result<(), Failed> {
    let deadline = Instant::now() + WAIT;
    loop {
        let got = eval(c, script).await?;
        if &got == want {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("{script}: {got} after {WAIT:?}, wanted {want}").into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Runs `body` with a fresh session and closes it whatever happened.
fn with_browser<F>(tag: &'static str, body: F) -> Result<(), Failed>
where
    F: for<'a> FnOnce(
        &'a Env,
        &'a Client,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<(), Failed>> + 'a>,
    >,
{
    let env = Env::get()?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async {
        let c = env.session(tag).await?;
        let r = body(env, &c).await;
        let _ = c.close().await;
        r
    })
}

/// Which game of a record file has the most moves (and how many).
fn longest(file: &Path) -> Result<(usize, usize), Failed> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            let v: Value = serde_json::from_str(l).unwrap_or(Value::Null);
            (i, v["moves"].as_array().map_or(0, Vec::len))
        })
        .max_by_key(|&(_, n)| n)
        .ok_or_else(|| "no records".into())
}

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
