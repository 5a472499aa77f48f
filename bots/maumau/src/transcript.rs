//! Reader for the recorded real-server games in `shared/data/maumau/transcripts/`.
//!
//! Line format (see `shared/data/README.md`): `<seq> <seconds> <bot> <kind> <payload>`, where a
//! `SRV->BOT` payload is a Python bytes literal of the exact bytes received and a `BOT->SRV` payload
//! a Python string literal of the line sent (a `\n` was appended on the wire). Used by the codec and
//! byte-identity tests and by replays.

/// One event of a transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Sequence number.
    pub seq: u32,
    /// Seconds since the harness started.
    pub secs: f64,
    /// Bot column (`HARN` for the harness).
    pub bot: String,
    /// What happened.
    pub kind: Kind,
}

/// Kind of a transcript event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Bytes the bot received (exact, newline included).
    ServerToBot(Vec<u8>),
    /// Line the bot sent (without the newline added on the wire).
    BotToServer(Vec<u8>),
    /// The bot connected.
    Connect,
    /// The bot saw end of file.
    Eof,
    /// The bot closed its socket.
    Quit,
    /// The bot stopped answering.
    Silent,
    /// Anything else (`SERVER`, `STATE`, `NOTE`, `MISMATCH`): annotation text.
    Other(String, String),
}

/// A transcript line that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("transcript line {line}: {msg}")]
pub struct TranscriptError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub msg: String,
}

/// Parses a whole transcript.
pub fn parse(text: &str) -> Result<Vec<Event>, TranscriptError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_line(l).map_err(|msg| TranscriptError { line: i + 1, msg }))
        .collect()
}

/// Parses one transcript line.
pub fn parse_line(line: &str) -> Result<Event, String> {
    let mut rest = line;
    let mut field = || {
        let t = rest.trim_start();
        let end = t.find(' ').unwrap_or(t.len());
        let (f, r) = t.split_at(end);
        rest = r;
        f
    };
    let seq = field().parse().map_err(|e| format!("seq: {e}"))?;
    let secs = field().parse().map_err(|e| format!("seconds: {e}"))?;
    let bot = field().to_owned();
    let kind = field().to_owned();
    let payload = rest.trim();
    let kind = match kind.as_str() {
        "SRV->BOT" => Kind::ServerToBot(python_literal(payload)?),
        "BOT->SRV" => Kind::BotToServer(python_literal(payload)?),
        "CONNECT" => Kind::Connect,
        "EOF" => Kind::Eof,
        "QUIT" => Kind::Quit,
        "SILENT" => Kind::Silent,
        "" => return Err("missing kind".into()),
        _ => Kind::Other(kind, payload.to_owned()),
    };
    Ok(Event {
        seq,
        secs,
        bot,
        kind,
    })
}

/// Decodes a Python `b'...'` or `'...'` literal (either quote) into bytes.
pub fn python_literal(s: &str) -> Result<Vec<u8>, String> {
    let body = s.strip_prefix('b').unwrap_or(s);
    let quote = body.chars().next().ok_or("empty literal")?;
    if quote != '\'' && quote != '"' {
        return Err(format!("not a Python literal: {s}"));
    }
    let inner = body[1..]
        .strip_suffix(quote)
        .ok_or_else(|| format!("unterminated literal: {s}"))?;
    let mut out = Vec::with_capacity(inner.len());
    let bytes = inner.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        i += 1;
        if c != b'\\' {
            out.push(c);
            continue;
        }
        let e = *bytes.get(i).ok_or("dangling backslash")?;
        i += 1;
        match e {
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'0' => out.push(0),
            b'\\' | b'\'' | b'"' => out.push(e),
            b'x' => {
                let hex = inner.get(i..i + 2).ok_or("short \\x escape")?;
                out.push(u8::from_str_radix(hex, 16).map_err(|e| format!("\\x escape: {e}"))?);
                i += 2;
            }
            _ => return Err(format!("unknown escape \\{}", e as char)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(python_literal(r"b'a\nb\x41\\'").unwrap(), b"a\nbA\\");
        assert_eq!(python_literal(r#""it's""#).unwrap(), b"it's");
        assert!(python_literal("x").is_err());
    }

    #[test]
    fn line() {
        let e = parse_line(r#"00004    0.115 Alpha  BOT->SRV  '{"status":"okay","name":"Alpha"}'"#)
            .unwrap();
        assert_eq!(e.bot, "Alpha");
        assert_eq!(
            e.kind,
            Kind::BotToServer(br#"{"status":"okay","name":"Alpha"}"#.to_vec())
        );
        let e = parse_line("00002    0.109 Alpha  CONNECT   ").unwrap();
        assert_eq!(e.kind, Kind::Connect);
    }
}
