//! The codec against every line of every recorded transcript (one trial per line).
//!
//! Each line `<ms> ms  <bot>  -> '<sent>'` / `<- '<received>'` is decoded from its Python
//! string literal. Received datagrams must parse as [`ServerMsg`] and re-encode byte for byte.
//! Sent datagrams must parse as [`ClientMsg`] and re-encode byte for byte, and a reply must
//! carry the token of the request it answers; the few datagrams that are not valid messages
//! (the probe's `HELLO`, an `INSERT` with a trailing newline) must be exactly those that the
//! server's own reading ignores. The logging client's notes (`'(no reply …)'`) are checked to
//! be no protocol message.

use kibitz_bots_connect4::protocol::{match_reply, read_register, ClientMsg, ServerMsg};
use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::HashMap;

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/connect4/transcripts"
);

/// Decodes a Python string literal ('...' or "..." with backslash escapes).
fn python_literal(s: &str) -> Result<String, String> {
    let q = s.chars().next().ok_or("empty literal")?;
    if !(q == '\'' || q == '"') || s.len() < 2 || !s.ends_with(q) {
        return Err(format!("not a string literal: {s}"));
    }
    let body = &s[1..s.len() - 1];
    let mut out = String::new();
    let mut it = body.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = it.next().ok_or("dangling backslash")?;
        match e {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '0' => out.push('\0'),
            '\\' | '\'' | '"' => out.push(e),
            'x' | 'u' | 'U' => {
                let n = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = it.by_ref().take(n).collect();
                let v =
                    u32::from_str_radix(&hex, 16).map_err(|_| format!("bad escape \\{e}{hex}"))?;
                out.push(char::from_u32(v).ok_or("bad code point")?);
            }
            other => return Err(format!("unknown escape \\{other}")),
        }
    }
    Ok(out)
}

#[derive(Debug, Clone)]
struct Line {
    file: String,
    number: usize,
    bot: String,
    sent: bool,
    datagram: String,
    /// For a sent datagram: the token of the last request this bot received.
    outstanding: Option<String>,
    /// Whether the bot had been welcomed when it sent this.
    registered: bool,
    /// The whole transcript, for checks on what followed.
    later: Vec<(String, bool, String)>,
}

fn parse_file(file: &str, text: &str) -> Result<Vec<Line>, String> {
    let mut raw = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let mut parts = l.trim_start().splitn(2, " ms ");
        let _ms: f64 = parts
            .next()
            .and_then(|m| m.trim().parse().ok())
            .ok_or(format!("{file}:{}: no time", i + 1))?;
        let rest = parts
            .next()
            .ok_or(format!("{file}:{}: no body", i + 1))?
            .trim_start();
        let (bot, rest) = rest
            .split_once(' ')
            .ok_or(format!("{file}:{}: no bot", i + 1))?;
        let rest = rest.trim_start();
        let (dir, lit) = rest
            .split_once(' ')
            .ok_or(format!("{file}:{}: no direction", i + 1))?;
        let sent = match dir {
            "->" => true,
            "<-" => false,
            _ => return Err(format!("{file}:{}: bad direction {dir}", i + 1)),
        };
        raw.push((i + 1, bot.to_string(), sent, python_literal(lit.trim())?));
    }
    let all: Vec<(String, bool, String)> = raw
        .iter()
        .map(|(_, b, s, d)| (b.clone(), *s, d.clone()))
        .collect();
    let mut outstanding: HashMap<String, String> = HashMap::new();
    let mut registered: HashMap<String, bool> = HashMap::new();
    let mut lines = Vec::new();
    for (idx, (number, bot, sent, datagram)) in raw.into_iter().enumerate() {
        let line = Line {
            file: file.to_string(),
            number,
            bot: bot.clone(),
            sent,
            datagram: datagram.clone(),
            outstanding: outstanding.get(&bot).cloned(),
            registered: registered.get(&bot).copied().unwrap_or(false),
            later: all[idx + 1..].to_vec(),
        };
        if !sent {
            if let Ok(m) = ServerMsg::parse(&datagram) {
                if let Some(t) = m.token() {
                    outstanding.insert(bot.clone(), t.to_string());
                }
                if matches!(m, ServerMsg::Welcome(_)) {
                    registered.insert(bot.clone(), true);
                }
            }
        }
        lines.push(line);
    }
    Ok(lines)
}

fn is_note(d: &str) -> bool {
    d.starts_with('(') && d.ends_with(')')
}

fn check(l: &Line) -> Result<(), Failed> {
    let d = &l.datagram;
    if !l.sent {
        if is_note(d) {
            if ServerMsg::parse(d).is_ok() {
                return Err(format!("note {d:?} parsed as a message").into());
            }
            return Ok(());
        }
        let m = ServerMsg::parse(d).map_err(|e| format!("{d:?}: {e}"))?;
        if m.encode() != *d {
            return Err(format!("re-encoded {:?} != {d:?}", m.encode()).into());
        }
        return Ok(());
    }
    match ClientMsg::parse(d) {
        Ok(m) => {
            if m.encode() != *d {
                return Err(format!("re-encoded {:?} != {d:?}", m.encode()).into());
            }
            match &m {
                ClientMsg::Register(_) => {
                    if read_register(d).is_none() {
                        return Err("the server would not read this as REGISTER".into());
                    }
                }
                ClientMsg::Join(t) | ClientMsg::Insert { token: t, .. } => {
                    if l.outstanding.as_deref() != Some(t.as_str()) {
                        return Err(format!(
                            "reply token {t} but last request was {:?}",
                            l.outstanding
                        )
                        .into());
                    }
                    if match_reply(d, t).is_none() {
                        return Err("the server would not match this reply".into());
                    }
                }
            }
            Ok(())
        }
        Err(e) => {
            // Not a valid message: the server's own reading must ignore it, and the transcript
            // must show the consequence (no reply to an unregistered bot; a timeout otherwise).
            if !l.registered {
                if read_register(d).is_some() {
                    return Err(format!("{d:?} ({e}) would be read as REGISTER").into());
                }
                let answered = l
                    .later
                    .iter()
                    .take_while(|(_, s, _)| !*s)
                    .any(|(b, _, r)| *b == l.bot && !is_note(r));
                if answered {
                    return Err(format!("{d:?} ({e}) got an answer").into());
                }
                return Ok(());
            }
            let token = l
                .outstanding
                .clone()
                .ok_or(format!("{d:?} ({e}) without a request"))?;
            if match_reply(d, &token).is_some() {
                return Err(format!("{d:?} ({e}) would be matched to {token}").into());
            }
            let timeout = format!("Timeout while waiting for response for UUID {token}");
            let lost = l
                .later
                .iter()
                .any(|(b, s, r)| *b == l.bot && !*s && r.ends_with(&timeout));
            if !lost {
                return Err(format!("{d:?} ({e}): no timeout result for {token} follows").into());
            }
            Ok(())
        }
    }
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .unwrap_or_else(|e| panic!("reading {DIR}: {e}"))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with("_client.txt"))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no transcripts in {DIR}");
    for path in files {
        let name = path
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let lines = match parse_file(&name, &text) {
            Ok(l) => l,
            Err(e) => {
                trials.push(Trial::test(format!("{name}::parse"), move || Err(e.into())));
                continue;
            }
        };
        for l in lines {
            let id = format!("{}::line{:04}", l.file, l.number);
            let _ = &l.bot;
            trials.push(Trial::test(id, move || check(&l)));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
