//! The fuzz targets: every wire codec and every file parser of the workspace.
//!
//! Each target takes arbitrary bytes and checks two properties:
//! - it never panics (the driver catches and records panics);
//! - where an encoder exists, `decode(encode(x)) == x` for every `x` the decoder accepted
//!   (and, for the XML framer, that framing does not depend on how TCP splits the bytes).
//!
//! A target returns a short *signature* of what the input did (which message kind or which error
//! kind it produced). The driver keeps inputs with new signatures in its corpus, a cheap stand-in
//! for coverage feedback.

use std::fmt::Debug;
use std::path::{Path, PathBuf};

/// Outcome of one input: `Ok(signature)` or `Err(description of a broken property)`.
pub type Outcome = Result<String, String>;

/// One fuzz target.
pub struct Target {
    /// Name used on the command line and in reports.
    pub name: &'static str,
    /// What it exercises.
    pub about: &'static str,
    /// Runs one input.
    pub check: fn(&[u8]) -> Outcome,
    /// Seed inputs (recorded transcripts and data files, plus a few hand-written ones).
    pub seeds: fn() -> Vec<Vec<u8>>,
}

/// All targets, in report order.
pub fn all() -> Vec<Target> {
    vec![
        Target {
            name: "connect4-udp",
            about: "Connect Four UDP text datagrams: server and client message codecs, registration and reply readers",
            check: connect4_udp,
            seeds: seeds_connect4_udp,
        },
        Target {
            name: "piranhas-xml",
            about: "Piranhas XML stream: framer (whole vs split feeds), DOM, server and client messages",
            check: piranhas_xml,
            seeds: seeds_piranhas_xml,
        },
        Target {
            name: "maumau-json",
            about: "Mau-Mau JSON lines: server message decoder, name line and answer readers",
            check: maumau_json,
            seeds: seeds_maumau_json,
        },
        Target {
            name: "koehandel-query",
            about: "Koehandel HTTP query decoder (server -> player envelope) and reply body parser",
            check: koehandel_query,
            seeds: seeds_koehandel_query,
        },
        Target {
            name: "wuerfel-dice",
            about: "Würfelglück dice files (kibitz wuerfel)",
            check: wuerfel_dice,
            seeds: seeds_wuerfel_dice,
        },
        Target {
            name: "connect4-position",
            about: "Connect Four position lines as `kibitz connect4 solve` reads them (Board::from_digits)",
            check: connect4_position,
            seeds: seeds_connect4_position,
        },
    ]
}

/// The variant name of a value's `Debug` form: `Welcome("x")` → `Welcome`.
fn kind(v: &impl Debug) -> String {
    let s = format!("{v:?}");
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    s[..end].to_string()
}

/// `decode(encode(x)) == x`, or a description of the difference.
fn roundtrip<T: PartialEq + Debug, E: Debug>(
    what: &str,
    x: &T,
    encoded: &str,
    decode: impl Fn(&str) -> Result<T, E>,
) -> Result<(), String> {
    match decode(encoded) {
        Ok(y) if &y == x => Ok(()),
        other => Err(format!(
            "{what}: decode(encode(x)) != x\n  x       = {x:?}\n  encoded = {encoded:?}\n  decoded = {other:?}"
        )),
    }
}

fn connect4_udp(bytes: &[u8]) -> Outcome {
    use kibitz_bots_connect4::protocol as p;
    let s = p::decode_datagram(bytes);
    let server = p::ServerMsg::parse(&s);
    if let Ok(m) = &server {
        roundtrip("connect4 ServerMsg", m, &m.encode(), p::ServerMsg::parse)?;
    }
    let client = p::ClientMsg::parse(&s);
    if let Ok(m) = &client {
        roundtrip("connect4 ClientMsg", m, &m.encode(), p::ClientMsg::parse)?;
    }
    let _ = p::read_register(&s);
    let _ = p::read_insert(&s);
    let _ = p::match_reply(&s, "0123456789abcdef");
    let _ = p::is_join(&s);
    let _ = p::check_bot_name(&s);
    let _ = p::utf16_len(&s);
    let _ = p::java_split(&s);
    let _ = p::parse_java_int(p::java_trim(&s));
    Ok(format!(
        "{}/{}",
        server.as_ref().map_or_else(kind, kind),
        client.as_ref().map_or_else(kind, kind)
    ))
}

fn piranhas_xml(bytes: &[u8]) -> Outcome {
    use kibitz_bots_piranhas::protocol::{ClientMessage, Element, Frame, Framer, ServerMessage};
    const MAX: usize = 1 << 16;
    // Feeds `bytes` in chunks of the given sizes (cycled); returns the frames and whether the
    // framer failed.
    let frames = |chunks: &[usize]| -> (Vec<Frame>, bool) {
        let mut f = Framer::new(MAX);
        let mut out = Vec::new();
        let mut rest = bytes;
        let mut k = 0;
        loop {
            let n = chunks[k % chunks.len()].min(rest.len());
            k += 1;
            f.push(&rest[..n]);
            rest = &rest[n..];
            loop {
                match f.next_frame() {
                    Ok(Some(fr)) => out.push(fr),
                    Ok(None) => break,
                    Err(_) => return (out, true),
                }
            }
            if rest.is_empty() {
                return (out, false);
            }
        }
    };
    let whole = frames(&[bytes.len().max(1)]);
    let split = frames(&[1, 7, 3, 64, 2]);
    // Finding F3 (fuzz/README.md, fixed): a byte-order mark split across reads used to be
    // rejected; framing must now not depend on the split at all.
    if whole != split {
        return Err(format!(
            "piranhas framer: frames depend on TCP splitting\n  whole = {whole:?}\n  split = {split:?}"
        ));
    }
    let mut sig = format!(
        "frames{}{}",
        whole.0.len().min(3),
        if whole.1 { "E" } else { "" }
    );
    for fr in &whole.0 {
        let Frame::Message(text) = fr else { continue };
        let _ = Element::parse(text);
        // The round trip is checked for messages the codec models: `Unknown` keeps only the
        // element name by design, and characters XML 1.0 cannot carry (C0 controls other than
        // tab/LF/CR, U+FFFE/U+FFFF) cannot survive any encoder (finding F1 in fuzz/README.md).
        let representable = !text.chars().any(|c| {
            (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}')
        });
        match ServerMessage::parse(text) {
            Ok(m) => {
                if representable && !matches!(m, ServerMessage::Unknown(_)) {
                    roundtrip(
                        "piranhas ServerMessage",
                        &m,
                        &m.to_xml(),
                        ServerMessage::parse,
                    )?;
                }
                sig.push_str(&format!(" S{}", kind(&m)));
            }
            Err(e) => sig.push_str(&format!(" s{}", kind(&e))),
        }
        match ClientMessage::parse(text) {
            Ok(m) => {
                if representable && !matches!(m, ClientMessage::Unknown(_)) {
                    roundtrip(
                        "piranhas ClientMessage",
                        &m,
                        &m.to_xml(),
                        ClientMessage::parse,
                    )?;
                }
                sig.push_str(&format!(" C{}", kind(&m)));
            }
            Err(e) => sig.push_str(&format!(" c{}", kind(&e))),
        }
    }
    Ok(sig)
}

fn maumau_json(bytes: &[u8]) -> Outcome {
    use kibitz_bots_maumau::protocol as p;
    let m = p::ServerMsg::decode(bytes);
    if let Ok(m) = &m {
        roundtrip("maumau ServerMsg", m, &m.encode(), |s| {
            p::ServerMsg::decode(s.as_bytes())
        })?;
    }
    let name = p::read_name_line(bytes);
    let answer = p::read_answer(bytes);
    let _ = p::truncate(bytes);
    Ok(format!(
        "{}/{}/{}",
        m.as_ref().map_or_else(kind, kind),
        kind(&name),
        kind(&answer)
    ))
}

fn koehandel_query(bytes: &[u8]) -> Outcome {
    use kibitz_bots_koehandel::protocol::{Envelope, Reply};
    let s = String::from_utf8_lossy(bytes);
    let env = Envelope::parse(&s);
    if let Ok(e) = &env {
        roundtrip("koehandel Envelope", e, &e.to_query(), Envelope::parse)?;
    }
    let r = Reply::parse(&s);
    roundtrip::<_, ()>("koehandel Reply", &r, &r.to_string(), |b| {
        Ok(Reply::parse(b))
    })?;
    Ok(match &env {
        Ok(e) => format!("E{}", kind(&e.msg)),
        Err(e) => format!("e{}", kind(e)),
    })
}

fn wuerfel_dice(bytes: &[u8]) -> Outcome {
    let s = String::from_utf8_lossy(bytes);
    match kibitz_madn::parse_dice(&s) {
        Ok(dice) => {
            // The file format's encoder: n, then per die m and its faces.
            let mut text = format!("{}\n", dice.len());
            for d in &dice {
                let faces: Vec<String> = d.faces().iter().map(u32::to_string).collect();
                text.push_str(&format!("{} {}\n", faces.len(), faces.join(" ")));
            }
            roundtrip("wuerfel dice", &dice, &text, kibitz_madn::parse_dice)?;
            Ok(format!("ok{}", dice.len().min(4)))
        }
        Err(e) => Ok(kind(&e)),
    }
}

fn connect4_position(bytes: &[u8]) -> Outcome {
    use kibitz_connect4::Board;
    let s = String::from_utf8_lossy(bytes);
    let mut kinds = std::collections::BTreeSet::new();
    for line in s.split('\n').take(64) {
        let mut fields = line.split_whitespace();
        let Some(moves) = fields.next() else { continue };
        let _ = fields.next().map(str::parse::<i32>);
        for (c, r, k) in [(7, 6, 4), (6, 5, 4), (8, 7, 5)] {
            kinds.insert(match Board::<u64>::from_digits(c, r, k, moves) {
                Ok(_) => "ok".to_string(),
                Err(e) => kind(&e),
            });
        }
    }
    Ok(kinds.into_iter().collect::<Vec<_>>().join(","))
}

// ---- seeds ---------------------------------------------------------------------------------------

/// The repository's `data/` folder (a copy of the project's shared test data).
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

fn repo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// Undoes the escapes of a Python string or bytes literal body (`\n`, `\\`, `\'`, `\xNN`, ...).
pub fn unescape_python(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            i += 1;
            match b[i] {
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'0' => out.push(0),
                b'x' if i + 2 < b.len() => {
                    let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("");
                    out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
                    i += 2;
                }
                c => out.push(c),
            }
        } else {
            out.push(b[i]);
        }
        i += 1;
    }
    out
}

/// The body of the quoted literal that follows `marker` on a transcript line.
fn literal_after(line: &str, marker: &str) -> Option<Vec<u8>> {
    let rest = &line[line.find(marker)? + marker.len()..];
    let rest = rest.trim_start().trim_start_matches('b');
    let q = rest.chars().next()?;
    if q != '\'' && q != '"' {
        return None;
    }
    let end = rest.rfind(q)?;
    (end > 0).then(|| unescape_python(&rest[1..end]))
}

fn seeds_connect4_udp() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = [
        "REGISTER;alice",
        "WELCOME;alice",
        "NEW SEASON;0123456789abcdef",
        "NEW GAME;bob",
        "YOURTURN;0123456789abcdef",
        "INSERT;3;0123456789abcdef",
        "JOIN;0123456789abcdef",
        "TOKEN INSERTED;bob;4",
        "RESULT;WIN;alice;CONNECTED_LINE",
        "RESULT;LOSE;bob;COLUMN_IS_FULL",
        "RESULT;DRAW;;",
        "UNREGISTER",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    for f in files_in(&data_dir().join("connect4/transcripts")) {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        for line in text.lines() {
            for m in ["-> ", "<- "] {
                if let Some(b) = literal_after(line, m) {
                    v.push(b);
                }
            }
        }
    }
    dedup(v)
}

fn seeds_piranhas_xml() -> Vec<Vec<u8>> {
    let mut v = vec![
        b"<protocol><join gameType=\"swc_2019_piranhas\"/>".to_vec(),
        b"<protocol><joined roomId=\"r\"/></protocol>".to_vec(),
    ];
    let root = data_dir().join("piranhas/transcripts");
    let mut files = files_in(&root);
    for d in files.clone() {
        files.extend(files_in(&d));
    }
    for f in files {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !(name.ends_with(".xml") || name.starts_with('_')) {
            continue;
        }
        if let Ok(b) = std::fs::read(&f) {
            // Whole streams are long; their first messages and a window from the middle are
            // enough to reach every message kind.
            v.push(b[..b.len().min(16 * 1024)].to_vec());
            if b.len() > 32 * 1024 {
                let mut w = b"<protocol>".to_vec();
                let mid = b.len() / 2;
                w.extend_from_slice(&b[mid..(mid + 16 * 1024).min(b.len())]);
                v.push(w);
            }
        }
    }
    dedup(v)
}

fn seeds_maumau_json() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for f in files_in(&data_dir().join("maumau/transcripts")) {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        for line in text.lines() {
            for m in ["SRV->BOT", "BOT->SRV"] {
                if let Some(b) = literal_after(line, m) {
                    v.push(b);
                }
            }
        }
    }
    dedup(v)
}

fn seeds_koehandel_query() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = [
        "market=1&id=1&type=start",
        "market=1&id=2&type=auction&opponent=W&auctioneer=S&goods=D&money=xyz&message=S12X3",
        "market=1&id=1&type=trade&opponent=E&goods=2D&money=QQ",
        "market=1&id=1&type=end&message=W750N2020E=500",
        "?type=trade&opponent=N&goods=D&money=QR",
        "?type=auction",
        "?",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    // Every query literal in the crate's tests and in the spec.
    let mut sources = files_in(&repo_dir().join("bots/koehandel/tests"));
    sources.push(data_dir().join("../specs/koehandel.md"));
    for f in sources {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        for piece in text.split(['"', '`']) {
            if piece.contains("market=") || piece.starts_with("?type") {
                v.push(piece.as_bytes().to_vec());
            }
        }
    }
    dedup(v)
}

fn seeds_wuerfel_dice() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = vec![b"2\n6 1 2 3 4 5 6\n2 1 6\n".to_vec()];
    for f in files_in(&data_dir().join("wuerfel")) {
        if let Ok(b) = std::fs::read(&f) {
            v.push(b);
        }
    }
    dedup(v)
}

fn seeds_connect4_position() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = vec![b"4455\n".to_vec(), b"1 0\n".to_vec()];
    for f in files_in(&data_dir().join("connect4")) {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        // A few lines of every test set, alone and in groups.
        let lines: Vec<&str> = text.lines().collect();
        for chunk in lines.chunks(lines.len().div_ceil(16).max(1)).take(16) {
            v.push(chunk[0].as_bytes().to_vec());
            v.push(chunk[..chunk.len().min(4)].join("\n").into_bytes());
        }
    }
    dedup(v)
}

fn dedup(mut v: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    v.sort();
    v.dedup();
    v
}
