//! The harness of `serve_browser`: the records and the `kibitz serve` process shared by
//! every trial, the browser sessions, and the page and replay readers the trials compare.

use fantoccini::{Client, ClientBuilder};
use libtest_mimic::Failed;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

pub(crate) const KIBITZ: &str = env!("CARGO_BIN_EXE_kibitz");
/// The whole run's limit.
pub(crate) const WATCHDOG: Duration = Duration::from_secs(300);
/// Limit of one wait for the page (a live update, a server's first line).
pub(crate) const WAIT: Duration = Duration::from_secs(20);

/// The browser and its driver (`kibitz_testkit::browser_and_driver`: `CHROMIUM` /
/// `CHROMEDRIVER`, else on PATH), or why the trials cannot run.
pub(crate) fn browser() -> Result<(PathBuf, PathBuf), String> {
    kibitz_testkit::browser_and_driver()?.ok_or_else(|| {
        "no chromium or chromedriver (apt-get install chromium chromium-driver)".into()
    })
}

/// The processes and files the trials share.
pub(crate) struct Env {
    /// Records made by `kibitz match` (served as folder 0).
    pub(crate) records: PathBuf,
    /// Records the live trial writes (folder 1).
    pub(crate) live: PathBuf,
    /// Scratch root (profiles).
    pub(crate) root: PathBuf,
    /// `http://127.0.0.1:PORT/` of `kibitz serve`.
    pub(crate) url: String,
    /// chromedriver's port.
    pub(crate) driver_port: u16,
    pub(crate) chromium: PathBuf,
}

/// Child processes to kill at the end (or by the watchdog).
pub(crate) static CHILDREN: Mutex<Vec<Child>> = Mutex::new(Vec::new());
pub(crate) static ENV: OnceLock<Result<Env, String>> = OnceLock::new();

pub(crate) fn kill_children() {
    let mut kids = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
    for c in kids.iter_mut() {
        let _ = c.kill();
        let _ = c.wait();
    }
    kids.clear();
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

pub(crate) fn run(args: &[&str]) -> Result<String, String> {
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
    pub(crate) fn get() -> Result<&'static Env, Failed> {
        ENV.get_or_init(Env::start)
            .as_ref()
            .map_err(|e| Failed::from(e.clone()))
    }

    pub(crate) fn start() -> Result<Env, String> {
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
    pub(crate) async fn session(&self, tag: &str) -> Result<Client, Failed> {
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
    pub(crate) fn file(&self, game: &str) -> String {
        format!("{game}-3.jsonl")
    }
}

/// A plain HTTP/1.1 request to chromedriver (for what fantoccini has no call: the log).
pub(crate) fn http(port: u16, method: &str, path: &str, body: &str) -> Result<Value, String> {
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
pub(crate) async fn console_errors(env: &Env, c: &Client) -> Result<Vec<String>, Failed> {
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
pub(crate) fn replay_boards(file: &Path, game: usize) -> Result<Vec<Vec<String>>, Failed> {
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
pub(crate) const READ_BOARD: &str = r#"
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

pub(crate) async fn eval(c: &Client, script: &str) -> Result<Value, Failed> {
    c.execute(script, vec![])
        .await
        .map_err(|e| Failed::from(format!("script failed: {e}")))
}

pub(crate) async fn page_board(c: &Client) -> Result<Vec<String>, Failed> {
    let v = eval(c, READ_BOARD).await?;
    serde_json::from_value(v).map_err(|e| e.to_string().into())
}

/// Waits until `script` returns `want` (bounded by [`WAIT`]).
pub(crate) async fn wait_for(c: &Client, script: &str, want: &Value) -> Result<(), Failed> {
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
pub(crate) fn with_browser<F>(tag: &'static str, body: F) -> Result<(), Failed>
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
pub(crate) fn longest(file: &Path) -> Result<(usize, usize), Failed> {
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
