//! The market's defences against bad input from the network: which seat URLs may play
//! ([`check_player_url`]) and a warn log of rejected requests that a flood cannot fill
//! ([`RejectLog`]).
//!
//! Both exist because the HTTP front end is reachable by anyone who can reach the port: a
//! `javascript:` or `file:` URL must never become a player, and an attack must show in the log
//! (escaped, so a request cannot forge log lines) without burying it.

use std::collections::BTreeMap;
use std::net::Ipv6Addr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Longest URL accepted for a seat, in bytes.
pub const MAX_URL: usize = 2000;

/// Checks that `url` is a URL the market can call: `http://HOST:PORT[/PATH][?QUERY]` with a host
/// name, an IPv4 address or a bracketed IPv6 address, an explicit port 1–65535, printable
/// ASCII only, no user info and no fragment (the market appends its query, spec C1).
///
/// Returns why not otherwise (a short phrase for the error message).
pub fn check_player_url(url: &str) -> Result<(), String> {
    if url.len() > MAX_URL {
        return Err(format!("longer than {MAX_URL} bytes"));
    }
    if let Some(c) = url.chars().find(|c| !c.is_ascii_graphic()) {
        return Err(format!("contains the character {c:?}"));
    }
    let scheme_end = url.find("://").ok_or("not an http:// URL")?;
    if !url[..scheme_end].eq_ignore_ascii_case("http") {
        return Err(format!(
            "scheme {:?} is not http",
            truncate(&url[..scheme_end], 40)
        ));
    }
    if url.contains('#') {
        return Err("has a fragment (#)".into());
    }
    let rest = &url[scheme_end + 3..];
    let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
    if authority.contains('@') {
        return Err("has user info (@)".into());
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (addr, after) = v6
            .split_once(']')
            .ok_or("IPv6 address without its closing ]")?;
        addr.parse::<Ipv6Addr>()
            .map_err(|_| format!("bad IPv6 address {:?}", truncate(addr, 60)))?;
        (addr, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err("no host".into());
    }
    if !authority.starts_with('[')
        && !host
            .split('.')
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    {
        return Err(format!("bad host {:?}", truncate(host, 60)));
    }
    match port.map(str::parse::<u16>) {
        None => return Err("no port (write http://HOST:PORT/)".into()),
        Some(Ok(p)) if p > 0 => {}
        Some(_) => return Err("port is not 1..=65535".into()),
    }
    // What the caller will request must parse as well (the market appends `?market=..`).
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}market=1")
        .parse::<hyper::Uri>()
        .map_err(|e| format!("not a valid URI ({e})"))?;
    Ok(())
}

/// At most `max` characters of `s` (for messages about hostile input).
pub fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// What kind of request was rejected (the keys of the flood summary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reject {
    /// A method other than GET or HEAD (405).
    Method,
    /// A seat URL that cannot be a player (400).
    Url,
    /// Too long: a seat URL over [`MAX_URL`], or a request head hyper refused.
    Oversize,
    /// A `?log=` or `?market=` that names nothing (404), or a malformed request head.
    Query,
    /// A connection closed at once by the connection caps.
    Connections,
}

impl Reject {
    /// The name used in log lines.
    pub fn name(self) -> &'static str {
        match self {
            Reject::Method => "bad method",
            Reject::Url => "bad url",
            Reject::Oversize => "oversize",
            Reject::Query => "bad query",
            Reject::Connections => "too many connections",
        }
    }
}

#[derive(Debug)]
struct Window {
    start: Instant,
    logged: u32,
    suppressed: BTreeMap<Reject, u64>,
}

/// A warn log of rejected requests that a flood cannot fill: per window of
/// [`RejectLog::window`], the first [`RejectLog::burst`] rejections are logged one by one
/// (escaped, truncated); the rest are only counted and summarised in one line when the window
/// is over ([`RejectLog::flush`], which the accept loop calls periodically). So at most
/// `burst + 1` lines per window, and every rejection is either logged or counted.
#[derive(Debug)]
pub struct RejectLog {
    window: Duration,
    burst: u32,
    state: Mutex<Window>,
}

/// Default window of [`RejectLog`].
pub const REJECT_WINDOW: Duration = Duration::from_secs(10);
/// Default number of rejections logged one by one per window.
pub const REJECT_BURST: u32 = 5;

impl Default for RejectLog {
    fn default() -> Self {
        RejectLog::new(REJECT_WINDOW, REJECT_BURST)
    }
}

impl RejectLog {
    /// A log with the given window and per-window burst of single lines.
    pub fn new(window: Duration, burst: u32) -> RejectLog {
        RejectLog {
            window: window.max(Duration::from_millis(1)),
            burst,
            state: Mutex::new(Window {
                start: Instant::now(),
                logged: 0,
                suppressed: BTreeMap::new(),
            }),
        }
    }

    /// The summary window.
    pub fn window(&self) -> Duration {
        self.window
    }

    /// Single lines per window.
    pub fn burst(&self) -> u32 {
        self.burst
    }

    /// Counts one rejection at `now`; returns the lines to log: the summary of the window that
    /// just ended (if any) and the single line for this one (unless the burst is spent).
    pub fn note_at(&self, now: Instant, kind: Reject, detail: &str) -> Vec<String> {
        let mut w = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut lines = Vec::new();
        lines.extend(self.roll(&mut w, now));
        if w.logged < self.burst {
            w.logged += 1;
            lines.push(format!(
                "rejected request ({}): {:?}",
                kind.name(),
                truncate(detail, 200)
            ));
        } else {
            *w.suppressed.entry(kind).or_insert(0) += 1;
        }
        lines
    }

    /// The summary line of the window, if it is over at `now` and counted anything.
    pub fn flush_at(&self, now: Instant) -> Option<String> {
        let mut w = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.roll(&mut w, now)
    }

    /// Counts one rejection now and logs what [`RejectLog::note_at`] returns at warn.
    pub fn note(&self, kind: Reject, detail: &str) {
        for line in self.note_at(Instant::now(), kind, detail) {
            tracing::warn!("{line}");
        }
    }

    /// Logs the summary of an ended window at warn (see [`RejectLog::flush_at`]).
    pub fn flush(&self) {
        if let Some(line) = self.flush_at(Instant::now()) {
            tracing::warn!("{line}");
        }
    }

    fn roll(&self, w: &mut Window, now: Instant) -> Option<String> {
        let elapsed = now.saturating_duration_since(w.start);
        if elapsed < self.window {
            return None;
        }
        let suppressed = std::mem::take(&mut w.suppressed);
        let secs = elapsed.as_secs_f64();
        w.start = now;
        w.logged = 0;
        let total: u64 = suppressed.values().sum();
        (total > 0).then(|| {
            let parts: Vec<String> = suppressed
                .iter()
                .map(|(k, n)| format!("{} {n}", k.name()))
                .collect();
            format!(
                "rejected {total} more requests in the last {secs:.0} s, not logged one by one ({})",
                parts.join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_urls() {
        for ok in [
            "http://127.0.0.1:8080/",
            "http://127.0.0.1:8080",
            "http://localhost:1/p?x=1",
            "HTTP://bot-1.example:65535/a/b",
            "http://[::1]:4711/",
        ] {
            assert_eq!(check_player_url(ok), Ok(()), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "file:///etc/passwd",
            "http://[::1",
            "http://[::1]/",
            "http://[zz]:80/",
            "https://127.0.0.1:80/",
            "ftp://nowhere/",
            "http://127.0.0.1/",
            "http://127.0.0.1:0/",
            "http://127.0.0.1:99999/",
            "http://:80/",
            "http://user@127.0.0.1:80/",
            "http://127.0.0.1:80/#x",
            "http://127.0.0.1:80/a b",
            "http://127.0.0.1:80/\n",
            "http://a..b:80/",
            "http://a_b:80/",
            "127.0.0.1:80",
            "",
        ] {
            assert!(check_player_url(bad).is_err(), "{bad:?} accepted");
        }
        let long = format!("http://h:1/{}", "x".repeat(MAX_URL));
        assert!(check_player_url(&long).unwrap_err().contains("longer"));
    }

    #[test]
    fn a_flood_is_summarised_and_every_rejection_counted() {
        let log = RejectLog::new(Duration::from_secs(10), 3);
        let t0 = Instant::now();
        let mut lines = Vec::new();
        for i in 0..1000u64 {
            let kind = if i % 2 == 0 {
                Reject::Method
            } else {
                Reject::Url
            };
            lines.extend(log.note_at(t0 + Duration::from_millis(i), kind, "x\ny\u{1b}"));
        }
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(
            lines[0].contains(r#""x\ny\u{1b}""#),
            "escaped: {}",
            lines[0]
        );
        assert_eq!(log.flush_at(t0 + Duration::from_secs(5)), None);
        let sum = log.flush_at(t0 + Duration::from_secs(11)).expect("summary");
        assert!(
            sum.contains("rejected 997 more requests") && sum.contains("bad method 498"),
            "{sum}"
        );
        assert!(sum.contains("bad url 499"), "{sum}");
        // The next window starts afresh; nothing left to summarise.
        assert_eq!(log.flush_at(t0 + Duration::from_secs(30)), None);
        assert_eq!(
            log.note_at(t0 + Duration::from_secs(31), Reject::Query, "q")
                .len(),
            1
        );
    }
}
