//! External bots in the arena: a `cmd:` player spec runs a program (any language) that plays
//! through our reference server over the contest's own protocol.
//!
//! `--a 'cmd:./mybot -h {host} -p {port}'`: for every game with a `cmd:` seat the adapter starts
//! the contest's reference server in process on 127.0.0.1, port 0, starts the command fresh for
//! that game with the placeholders filled in, and lets a built-in spec on the other seat play
//! as an in-process network client, so both sides go over the wire. Placeholders per contest
//! ([`PLACEHOLDERS`]):
//!
//! | game | placeholders | how the bot joins |
//! |---|---|---|
//! | piranhas | `{host} {port} {reservation}` | TCP XML, `joinPrepared` with the reservation code |
//! | connect4 | `{host} {port} {name}` | UDP text, `REGISTER;{name}`, then `JOIN` the one season of one game |
//! | koehandel | `{host} {port}` | HTTP GET: the program serves an endpoint on `{port}` for every seat its side holds; the market calls it |
//! | maumau | `{host} {port} {name}` | JSON lines, registers under `{name}`; seats join one at a time in seat order (2 seats only) |
//!
//! The command line is split as a shell would split it (whitespace; `'…'` literal; `"…"` with
//! `\"` and `\\`; `\x` outside quotes), but no shell runs: no pipes, variables or globs.
//! stdin and stdout are closed; stderr goes to `DIR/stderr/<game>-<seed>-<index>-<seat>.log`
//! with `kibitz match --records DIR`, else to the same names under
//! `$TMPDIR/kibitz-stderr-<pid>/`; the game's record names the file under `stderr`.
//! At the game's end the process is killed and reaped.
//!
//! A seat loses the game, with the reason in the record, when its command cannot be started,
//! exits or does not join within [`CONNECT_DEADLINE`], or (the server's own rules) answers
//! late, not at all, or illegally; the match goes on.

pub mod connect4;
pub mod koehandel;
pub mod maumau;
pub mod piranhas;

use anyhow::{bail, Context};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The spec prefix of an external bot.
pub const PREFIX: &str = "cmd:";

/// How long a started command has to join its game on the server.
pub const CONNECT_DEADLINE: Duration = Duration::from_secs(10);

/// Placeholders each game fills in (see the module docs).
pub const PLACEHOLDERS: &[(&str, &[&str])] = &[
    ("piranhas", &["host", "port", "reservation"]),
    ("connect4", &["host", "port", "name"]),
    ("koehandel", &["host", "port"]),
    ("maumau", &["host", "port", "name"]),
];

/// Where stderr logs go when no `--records DIR` was given to this process.
static STDERR_DIR: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Whether `spec` names an external bot (`cmd:…`).
pub fn is_cmd(spec: &str) -> bool {
    spec.trim_start().starts_with(PREFIX)
}

/// Sends the external bots' stderr logs to `records/stderr/` (called by `kibitz match` with
/// `--records DIR`); `None` selects a temporary directory.
pub fn set_stderr_dir(records: Option<&Path>) {
    let mut d = STDERR_DIR.lock().unwrap_or_else(|e| e.into_inner());
    *d = records.map(|r| r.join("stderr"));
}

fn stderr_dir() -> PathBuf {
    let d = STDERR_DIR.lock().unwrap_or_else(|e| e.into_inner());
    d.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("kibitz-stderr-{}", std::process::id()))
    })
}

/// Splits a command line like a shell: words separated by whitespace, `'…'` taken literally,
/// `"…"` with `\"` and `\\` escapes, `\x` outside quotes is `x`. No expansion of any kind.
pub fn split_command(line: &str) -> anyhow::Result<Vec<String>> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => bail!("unterminated ' in command {line:?}"),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\')) => cur.push(x),
                            Some(x) => {
                                cur.push('\\');
                                cur.push(x);
                            }
                            None => bail!("unterminated \" in command {line:?}"),
                        },
                        Some(x) => cur.push(x),
                        None => bail!("unterminated \" in command {line:?}"),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(x) => cur.push(x),
                    None => bail!("command {line:?} ends in a lone backslash"),
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// A parsed `cmd:` spec: the words, placeholders still in them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CmdSpec {
    /// The command's words (program first) with `{name}` placeholders unexpanded.
    pub words: Vec<String>,
}

impl CmdSpec {
    /// Parses `cmd:LINE` for `game`: the line is split ([`split_command`]) and every `{name}`
    /// must be one of the game's placeholders, so a typo fails before any game starts.
    pub fn parse(game: &str, spec: &str) -> anyhow::Result<CmdSpec> {
        let line = spec
            .trim_start()
            .strip_prefix(PREFIX)
            .with_context(|| format!("{spec:?} is not a cmd: spec"))?;
        let allowed = PLACEHOLDERS
            .iter()
            .find(|(g, _)| *g == game)
            .map(|(_, p)| *p)
            .with_context(|| format!("{game} does not take cmd: players yet"))?;
        let words = split_command(line).with_context(|| format!("spec {spec:?}"))?;
        if words.is_empty() {
            bail!("spec {spec:?}: empty command");
        }
        for w in &words {
            for name in placeholders_in(w) {
                if !allowed.contains(&name) {
                    bail!(
                        "spec {spec:?}: unknown placeholder {{{name}}} ({game} has {})",
                        allowed
                            .iter()
                            .map(|p| format!("{{{p}}}"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    );
                }
            }
        }
        Ok(CmdSpec { words })
    }

    /// The words with every `{name}` replaced by its value in `vars`.
    pub fn expand(&self, vars: &[(&str, String)]) -> Vec<String> {
        self.words
            .iter()
            .map(|w| {
                let mut w = w.clone();
                for (k, v) in vars {
                    w = w.replace(&format!("{{{k}}}"), v);
                }
                w
            })
            .collect()
    }
}

/// The `{name}` placeholders in `word` (names of letters, digits and `_`).
fn placeholders_in(word: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = word;
    while let Some(i) = rest.find('{') {
        rest = &rest[i + 1..];
        if let Some(j) = rest.find('}') {
            let name = &rest[..j];
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                out.push(name);
            }
        }
    }
    out
}

/// One started external bot: killed and reaped when dropped.
pub struct Bot {
    child: Option<Child>,
    /// Where its stderr goes.
    pub log: PathBuf,
    /// Why it could not start or how it ended, once known.
    status: Option<String>,
}

impl Bot {
    /// Starts `spec` with `vars` filled in, stderr to `<dir>/<game>-<seed>-<index>-<seat>.log`.
    /// A command that cannot be started is not an error here: the bot then counts as exited
    /// (see [`Bot::exited`]) and its seat loses.
    pub fn start(
        spec: &CmdSpec,
        vars: &[(&str, String)],
        game: &str,
        job: &super::Job,
        seat: &str,
    ) -> Bot {
        let dir = stderr_dir();
        let log = dir.join(format!("{game}-{}-{}-{seat}.log", job.seed, job.index));
        let argv = spec.expand(vars);
        let started = std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::File::create(&log))
            .with_context(|| format!("cannot create {}", log.display()))
            .and_then(|file| {
                Command::new(&argv[0])
                    .args(&argv[1..])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(file)
                    .spawn()
                    .with_context(|| format!("cannot start {:?}", argv[0]))
            });
        match started {
            Ok(child) => {
                tracing::debug!(
                    "started {argv:?} (pid {}) for {game} game {}",
                    child.id(),
                    job.index
                );
                Bot {
                    child: Some(child),
                    log,
                    status: None,
                }
            }
            Err(e) => Bot {
                child: None,
                log,
                status: Some(format!("{e:#}")),
            },
        }
    }

    /// `Some(why)` once the process could not start or has exited; `None` while it runs.
    pub fn exited(&mut self) -> Option<String> {
        if self.status.is_none() {
            if let Some(c) = self.child.as_mut() {
                match c.try_wait() {
                    Ok(Some(st)) => {
                        self.status = Some(format!("exited ({st})"));
                        self.child = None;
                    }
                    Ok(None) => {}
                    Err(e) => self.status = Some(format!("cannot be watched: {e}")),
                }
            }
        }
        self.status.clone()
    }

    /// Kills (if still running) and reaps the process.
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// How each seat's program ended, then every program stopped. A program whose seat lost by
/// leaving (`left(seat)`) gets up to `grace` to be seen exiting, so the record can say it
/// crashed rather than went silent; the others are asked once. `None`: still running when
/// looked at (it is then killed). Seats without a program (`None`) stay `None`.
pub fn end_all<const N: usize>(
    bots: &mut [Option<Bot>; N],
    grace: Duration,
    left: impl Fn(usize) -> bool,
) -> [Option<String>; N] {
    let mut status: [Option<String>; N] = std::array::from_fn(|_| None);
    for (seat, b) in bots.iter_mut().enumerate() {
        let Some(b) = b.as_mut() else { continue };
        let until = Instant::now() + if left(seat) { grace } else { Duration::ZERO };
        status[seat] = loop {
            match b.exited() {
                Some(why) => break Some(why),
                None if Instant::now() >= until => break None,
                None => std::thread::sleep(Duration::from_millis(10)),
            }
        };
    }
    for b in bots.iter_mut().flatten() {
        b.stop();
    }
    status
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            split_command(r#"python3  'a b.py' -x "c \"d\" \\e" f\ g {port}"#).unwrap(),
            ["python3", "a b.py", "-x", r#"c "d" \e"#, "f g", "{port}"]
        );
        assert_eq!(split_command("  ").unwrap(), Vec::<String>::new());
        assert_eq!(split_command("a ''").unwrap(), ["a", ""]);
        assert!(split_command("a 'b").is_err());
        assert!(split_command("a \"b").is_err());
        assert!(split_command("a \\").is_err());
    }

    #[test]
    fn placeholders_are_checked_and_filled() {
        let s = CmdSpec::parse("piranhas", "cmd:bot -h {host} -p {port} -r{reservation}").unwrap();
        assert_eq!(
            s.expand(&[
                ("host", "127.0.0.1".into()),
                ("port", "5".into()),
                ("reservation", "xy".into())
            ]),
            ["bot", "-h", "127.0.0.1", "-p", "5", "-rxy"]
        );
        let e = CmdSpec::parse("piranhas", "cmd:bot -p {prot}").unwrap_err();
        assert!(
            format!("{e:#}").contains("unknown placeholder {prot}"),
            "{e:#}"
        );
        assert!(CmdSpec::parse("piranhas", "cmd:  ").is_err());
        assert!(CmdSpec::parse("piranhas", "cmd:a 'b").is_err());
        assert!(is_cmd(" cmd:x") && !is_cmd("random"));
    }

    #[test]
    fn a_missing_program_counts_as_exited_with_the_reason() {
        let job = crate::arena::Job {
            a: "",
            b: "",
            seed: 1,
            index: 0,
            unit: 0,
            slot: 0,
            seating: crate::arena::Seating::single(2, 0),
            opening: None,
            tc_ms: None,
        };
        let spec = CmdSpec::parse("piranhas", "cmd:/nonexistent/kibitz-bot {port}").unwrap();
        let mut bot = Bot::start(&spec, &[("port", "1".into())], "piranhas", &job, "red");
        let why = bot.exited().unwrap();
        assert!(why.contains("cannot start"), "{why}");
    }
}
