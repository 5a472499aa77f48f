//! The market's web page in headless Chromium: start a game, read scores and logs.
//!
//! Runs under libtest-mimic so it decides at run time ([`kibitz_testkit::browser`]): without a
//! Chromium binary it is reported as *ignored* (never as passed), and in CI (`CI` set) a missing
//! browser is a *failure*. `--include-ignored` runs the ignored body, which fails saying why.

use kibitz_bots_koehandel::client;
use kibitz_bots_koehandel::server::MarketConfig;
use kibitz_bots_koehandel::web;
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::time::Duration;

const NAME: &str = "market_page_starts_games_and_shows_scores_and_logs_in_chromium";

fn main() {
    let args = Arguments::from_args();
    let trial = match kibitz_testkit::browser() {
        Ok(Some(bin)) => Trial::test(NAME, move || run(&bin)),
        Ok(None) => Trial::test(NAME, || {
            Err("no chromium found (install Debian's `chromium` or set CHROMIUM)".into())
        })
        .with_ignored_flag(true),
        Err(why) => Trial::test(NAME, move || Err(why.into())),
    };
    libtest_mimic::run(&args, vec![trial]).exit();
}

/// Runs the test body on a two-thread runtime; a panic inside is the failure.
fn run(bin: &Path) -> Result<(), Failed> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(market_page(bin.to_path_buf()));
    Ok(())
}

/// The DOM of `url` after Chromium loaded it.
async fn dump_dom(bin: &PathBuf, url: &str) -> String {
    let dir = std::env::temp_dir().join(format!(
        "kh-chromium-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    let mut cmd = tokio::process::Command::new(bin);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
    ])
    .arg(format!("--user-data-dir={}", dir.display()))
    .args(["--dump-dom", url])
    .kill_on_drop(true)
    .stdin(std::process::Stdio::null())
    .stderr(std::process::Stdio::null());
    let out = tokio::time::timeout(Duration::from_secs(90), cmd.output())
        .await
        .expect("chromium finished within 90 s")
        .expect("chromium ran");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "chromium failed: {:?}", out.status);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

async fn market_page(bin: PathBuf) {
    let server = web::spawn("127.0.0.1:0", MarketConfig::default())
        .await
        .unwrap();
    let bot = client::spawn("127.0.0.1:0", "heuristic").await.unwrap();
    let rand = client::spawn("127.0.0.1:0", "random").await.unwrap();

    // 1. Start a game from the page's form (the browser follows the redirect to the game).
    let enc = |u: String| form_urlencoded::byte_serialize(u.as_bytes()).collect::<String>();
    let form_url = format!(
        "{}?start=&url1={}&url2={}&url3=&url4=",
        server.url(),
        enc(bot.url()),
        enc(rand.url())
    );
    let dom = dump_dom(&bin, &form_url).await;
    assert!(dom.contains("<h1>Market 1</h1>"), "{dom}");
    assert!(dom.contains("id=\"players\""));
    assert!(dom.contains(&bot.url()));

    // 2. Once over, the game page shows the final scores and each player's log.
    let r = server
        .market
        .wait(1, Duration::from_secs(60))
        .await
        .expect("game over");
    let scores = r.scores.unwrap();
    let dom = dump_dom(&bin, &format!("{}?market=1", server.url())).await;
    assert!(dom.contains("<h2>Final scores</h2>"), "{dom}");
    for (seat, s) in scores.iter().enumerate() {
        assert!(dom.contains(&format!("<b>{s}</b>")), "score {s} missing");
        let end = format!(
            "type=end&amp;message=S{}W{}N{}E{}",
            s,
            scores[(seat + 1) % 4],
            scores[(seat + 2) % 4],
            scores[(seat + 3) % 4]
        );
        assert!(dom.contains(&end), "log of seat {seat} lacks {end}");
        assert!(dom.contains(&format!("href=\"/?log={}\"", r.ids[seat])));
    }
    assert!(dom.contains("winner"));

    // 3. The front page lists the game and offers the start and log forms.
    let dom = dump_dom(&bin, &server.url()).await;
    assert!(dom.contains("<form id=\"start\""));
    assert!(dom.contains("<form id=\"log\""));
    assert!(dom.contains("href=\"/?market=1\""));
    assert!(dom.contains(&format!(
        "over: {}",
        scores.map(|x| x.to_string()).join(" / ")
    )));

    // 4. A log link shows the plain-text log.
    let dom = dump_dom(&bin, &format!("{}?log={}", server.url(), r.ids[0])).await;
    assert!(dom.contains("# market 1 seat 0"), "{dom}");
}
