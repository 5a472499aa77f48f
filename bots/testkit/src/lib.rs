//! Helpers shared by the integration tests of the `bots/*` crates and of the `kibitz` binary:
//! running a binary (with or without input piped in) and capturing what it printed, a fresh
//! scratch folder, reading a records file, counting what a
//! tournament reports, the comparable part of a standings table, and whether a browser test
//! can run ([`browser`]).
//!
//! Only a dev-dependency. It exists because the four bots crates' tests, and the `kibitz`
//! binary's own, had grown the same helpers again and again; a fix to one (a flaky temp-dir
//! name, a lossy decode, a pipe that fills up) now reaches all.

use kibitz_net::tournament::ProgressSink;
use kibitz_search::stats::Standing;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// What a binary run to its end printed, and whether it exited with success.
#[derive(Clone, Debug)]
pub struct Ran {
    /// Exit status 0.
    pub ok: bool,
    /// Standard output (lossy UTF-8).
    pub stdout: String,
    /// Standard error (lossy UTF-8).
    pub stderr: String,
}

impl Ran {
    /// Standard output followed by standard error: where a `--help` or an error line went
    /// does not matter to most assertions.
    pub fn text(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

pub mod flags;

/// Runs `bin` with `args` to its end (stdin closed) and captures its output.
///
/// Panics when the binary cannot be started at all: that is a broken test set-up, not a
/// finding about the binary.
pub fn run_bin(bin: &str, args: &[&str]) -> Ran {
    let out = Command::new(bin)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {bin}: {e}"));
    Ran {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `bin` with `args`, writes `input` to its standard input and closes it, and captures
/// what it printed to its end: a person's moves or a file's lines piped in. A backtrace the
/// caller's environment asks for is switched off, so error text is the binary's own.
///
/// The input is written from a second thread, so a binary that prints a lot before it reads
/// everything cannot block on a full pipe. Panics when the binary cannot be started.
pub fn run_bin_input(bin: &str, args: &[&str], input: &str) -> Ran {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(bin)
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .env_remove("RUST_LIB_BACKTRACE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {bin}: {e}"));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    // A binary that stops reading early closes the pipe: that is its business, not an error.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("{bin} did not end: {e}"));
    let _ = writer.join();
    Ran {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `kibitz match GAME --a A --b B --games 2 --seed SEED --concurrency 2 --json --records
/// DIR` (plus `extra` flags) with the `kibitz` binary `kibitz`, asserts it succeeded and wrote
/// both games, and returns its `--json` line and the records of `DIR/GAME-SEED.jsonl`: the
/// two-game match every `cmd:` test plays.
pub fn two_game_match(
    kibitz: &str,
    game: &str,
    (a, b): (&str, &str),
    seed: u64,
    dir: &Path,
    extra: &[&str],
) -> (serde_json::Value, Vec<serde_json::Value>) {
    let seed_text = seed.to_string();
    let dir_text = dir.to_string_lossy();
    let mut args = vec![
        "match",
        game,
        "--a",
        a,
        "--b",
        b,
        "--games",
        "2",
        "--seed",
        &seed_text,
        "--concurrency",
        "2",
        "--json",
        "--records",
        &dir_text,
    ];
    args.extend_from_slice(extra);
    let out = run_bin(kibitz, &args);
    assert!(out.ok, "{}", out.stderr);
    let v: serde_json::Value =
        serde_json::from_str(out.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", out.stdout));
    let recs = json_lines(&dir.join(format!("{game}-{seed}.jsonl")));
    assert_eq!(recs.len(), 2, "two records");
    (v, recs)
}

/// Fails with a clear message when python3 is missing (it is on every machine here and in CI):
/// the tests of `cmd:` players run Python test bots and are never skipped silently.
pub fn need_python() {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "python3 is needed for the cmd: tests (tests/bots/*.py) and was not found on PATH"
    );
}

/// An empty scratch folder under the system temp dir, unique to `tag` and this test process
/// (whatever an earlier run with the same process id left there is removed first).
pub fn fresh_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kibitz-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {dir:?}: {e}"));
    dir
}

/// Every record of a JSON-lines file ([`kibitz_net::record::read`]); panics with the reader's
/// error, which names the file and the line, on anything that is not whole JSON: that is what
/// a records test must catch.
pub fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    kibitz_net::record::read(path).unwrap_or_else(|e| panic!("{e}"))
}

/// A [`ProgressSink`] that remembers what a tournament runner reported: the announced total
/// and each finished game's summary, in the order reported.
#[derive(Default)]
pub struct CountingProgress {
    total: AtomicU64,
    done: Mutex<Vec<String>>,
}

impl CountingProgress {
    /// The total the runner announced (0 if it announced none).
    pub fn announced(&self) -> u64 {
        self.total.load(Ordering::SeqCst)
    }

    /// The summaries of the finished games, in the order they were reported.
    pub fn done(&self) -> Vec<String> {
        self.done.lock().map(|d| d.clone()).unwrap_or_default()
    }
}

impl ProgressSink for CountingProgress {
    fn total(&self, games: u64) {
        self.total.store(games, Ordering::SeqCst);
    }
    fn game_done(&self, summary: &str) {
        if let Ok(mut d) = self.done.lock() {
            d.push(summary.to_string());
        }
    }
}

/// The part of a standings table two runs with the same seed must agree on: per player, the
/// games, W/D/L and points (one decimal), and the note when `with_note`; sorted by player, so
/// the order of equal scores does not matter.
pub fn standings_key(
    rows: &[Standing],
    with_note: bool,
) -> Vec<(String, u32, u32, u32, u32, String)> {
    let mut v: Vec<_> = rows
        .iter()
        .map(|r| {
            let points = if with_note {
                format!("{:.1} {}", r.points, r.note)
            } else {
                format!("{:.1}", r.points)
            };
            (r.player.clone(), r.games, r.wins, r.draws, r.losses, points)
        })
        .collect();
    v.sort();
    v
}

/// Whether the browser tests can run here: `Ok(Some(chromium))` to run them, `Ok(None)` to
/// report them as *ignored* (no browser on this machine, not in CI), `Err(why)` to report them
/// as *failed*: in CI (`CI` set to anything but empty, `0` or `false`) a missing browser must
/// never pass, and neither may a `CHROMIUM` variable naming no file.
///
/// The binary is `$CHROMIUM` if set, else the first of `chromium`, `chromium-browser`,
/// `google-chrome`, `google-chrome-stable` on `PATH`. One place for every browser test (the
/// market page, the viewer), so "skipped" means the same everywhere and never counts as passed.
pub fn browser() -> Result<Option<PathBuf>, String> {
    browser_in(
        std::env::var_os("CHROMIUM"),
        std::env::var_os("PATH"),
        std::env::var_os("CI"),
    )
}

/// [`browser`] with the environment passed in (testable without touching the process's).
fn browser_in(
    chromium: Option<std::ffi::OsString>,
    path: Option<std::ffi::OsString>,
    ci: Option<std::ffi::OsString>,
) -> Result<Option<PathBuf>, String> {
    if let Some(p) = chromium.filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(Some(p))
        } else {
            Err(format!("CHROMIUM={} is not a file", p.display()))
        };
    }
    let names = [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ];
    let found = path.and_then(|path| {
        std::env::split_paths(&path)
            .flat_map(|d| names.iter().map(move |n| d.join(n)))
            .find(|p| p.is_file())
    });
    let in_ci = ci_set(ci);
    match found {
        Some(p) => Ok(Some(p)),
        None if in_ci => Err(
            "CI is set and no chromium was found (install Debian's `chromium` or set CHROMIUM): \
             the browser tests cannot run"
                .into(),
        ),
        None => Ok(None),
    }
}

/// Whether a `CI` value means "in CI": set, and not empty, `0` or `false`.
fn ci_set(ci: Option<std::ffi::OsString>) -> bool {
    ci.is_some_and(|v| {
        let v = v.to_string_lossy();
        !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false"))
    })
}

/// [`browser`] and its WebDriver for WebDriver tests: `CHROMEDRIVER` when set (it must name a
/// file), else `chromedriver` on PATH; the same three answers as [`browser`] (run, ignore
/// locally, fail in CI).
pub fn browser_and_driver() -> Result<Option<(PathBuf, PathBuf)>, String> {
    let Some(chromium) = browser()? else {
        return Ok(None);
    };
    if let Some(p) = std::env::var_os("CHROMEDRIVER").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(Some((chromium, p)))
        } else {
            Err(format!("CHROMEDRIVER={} is not a file", p.display()))
        };
    }
    let driver = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|d| d.join("chromedriver"))
            .find(|p| p.is_file())
    });
    match driver {
        Some(d) => Ok(Some((chromium, d))),
        None if ci_set(std::env::var_os("CI")) => Err(
            "CI is set and no chromedriver was found (install Debian's `chromium-driver` or set \
             CHROMEDRIVER): the browser tests cannot run"
                .into(),
        ),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_reads_every_line_and_fresh_dir_starts_empty() {
        let dir = fresh_dir("testkit-self");
        let f = dir.join("r.jsonl");
        std::fs::write(&f, "{\"a\":1}\n{\"a\":2}\n").unwrap();
        let v = json_lines(&f);
        assert_eq!(v.len(), 2);
        assert_eq!(v[1]["a"], 2);
        let again = fresh_dir("testkit-self");
        assert_eq!(std::fs::read_dir(again).unwrap().count(), 0);
    }

    #[test]
    #[should_panic(expected = "line 2")]
    fn json_lines_names_a_torn_line() {
        let dir = fresh_dir("testkit-torn");
        let f = dir.join("r.jsonl");
        std::fs::write(&f, "{\"a\":1}\n{\"a\":\n").unwrap();
        json_lines(&f);
    }

    #[test]
    fn run_bin_input_pipes_the_input_through() {
        let ran = run_bin_input("cat", &[], "one\ntwo\n");
        assert!(ran.ok);
        assert_eq!(ran.stdout, "one\ntwo\n");
        let big = "x".repeat(1 << 20);
        assert_eq!(run_bin_input("cat", &[], &big).stdout.len(), 1 << 20);
        assert!(!run_bin_input("false", &[], "").ok);
    }

    #[test]
    fn counting_progress_keeps_order_and_total() {
        let c = CountingProgress::default();
        c.total(3);
        c.game_done("x");
        c.game_done("y");
        assert_eq!(c.announced(), 3);
        assert_eq!(c.done(), ["x", "y"]);
    }

    #[test]
    fn browser_found_ignored_or_failed() {
        use std::ffi::OsString;
        let dir = fresh_dir("testkit-browser");
        let bin = dir.join("chromium-browser");
        std::fs::write(&bin, "").unwrap();
        let on = |d: &Path| Some(OsString::from(d));
        let ci = |v: &str| Some(OsString::from(v));
        let empty = fresh_dir("testkit-browser-empty");
        assert_eq!(browser_in(None, on(&dir), None), Ok(Some(bin.clone())));
        assert_eq!(
            browser_in(None, on(&dir), ci("true")),
            Ok(Some(bin.clone()))
        );
        assert_eq!(browser_in(None, on(&empty), None), Ok(None));
        assert_eq!(browser_in(None, None, ci("false")), Ok(None));
        assert_eq!(browser_in(None, on(&empty), ci("0")), Ok(None));
        for v in ["true", "1", "yes"] {
            let e = browser_in(None, on(&empty), ci(v)).unwrap_err();
            assert!(e.contains("CI is set"), "{v}: {e}");
        }
        assert_eq!(
            browser_in(Some(bin.clone().into()), None, None),
            Ok(Some(bin))
        );
        let gone = dir.join("nothing-here");
        assert!(browser_in(Some(gone.into()), on(&dir), None).is_err());
    }
}
