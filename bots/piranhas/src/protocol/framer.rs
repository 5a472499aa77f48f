//! Streaming framing of the never-closed `<protocol>` root: bytes in, complete depth-1 elements out.
//!
//! Both directions of the 2019 protocol are one XML document that stays open for the whole
//! connection: `<protocol>` first, then top-level messages with no length prefix and no trailing
//! newline, finally `</protocol>`. TCP may split a message anywhere (the recorded server split a
//! memento after `<field x="1" y=`), and one read may hold several messages. The [`Framer`] keeps an
//! incremental scanner state, so feeding a stream byte by byte costs linear time, and hands out
//! each complete depth-1 element as one string slice for the DOM parser.
//!
//! The scanner understands exactly what delimits markup: start/end/empty tags, quoted attribute
//! values (which may contain `>`), comments, processing instructions, CDATA and declarations.
//! Well-formedness of a message's inside is checked afterwards by quick-xml (see `dom.rs`).

use super::ProtocolError;

/// One framing event of the stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    /// The peer opened the root element `<protocol>`.
    Open,
    /// One complete top-level element (the exact text, UTF-8 checked).
    Message(String),
    /// The peer closed the root element: `</protocol>`.
    Close,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Text,
    TagStart,
    StartTag,
    EndTag,
    Quote(u8),
    Pi,
    Bang,
    Comment,
    CData,
    Decl,
}

/// Incremental splitter of a `<protocol>` stream into top-level messages.
#[derive(Debug)]
pub struct Framer {
    buf: Vec<u8>,
    scan: usize,
    state: State,
    depth: u32,
    tag_start: usize,
    msg_start: usize,
    max_message: usize,
    closed: bool,
    failed: Option<ProtocolError>,
    /// The peer pretty-prints like the 2019 server (top-level elements at exactly two spaces).
    pretty: bool,
    /// After [`Framer::recover`]: skipping to the next top-level element.
    resync: bool,
    /// Where reading may resume after a failure (in pretty mode).
    resume_at: usize,
    /// Bytes of a leading UTF-8 byte-order mark consumed so far, counted over the stream (not
    /// the buffer), so a mark split across reads frames like one read whole; `None` once any
    /// other byte arrived.
    bom_seen: Option<u8>,
}

impl Framer {
    /// A framer that rejects any single message (or garbage run) longer than `max_message` bytes.
    pub fn new(max_message: usize) -> Self {
        Self {
            buf: Vec::new(),
            scan: 0,
            state: State::Text,
            depth: 0,
            tag_start: 0,
            msg_start: 0,
            max_message: max_message.max(64),
            closed: false,
            failed: None,
            pretty: false,
            resync: false,
            resume_at: 0,
            bom_seen: Some(0),
        }
    }

    /// Declares that the peer pretty-prints its stream like the 2019 server (spec §7.1: every
    /// top-level element starts a line with exactly two spaces, its children are indented
    /// deeper). Then an element still open when the next top-level element starts is an error
    /// (instead of swallowing the rest of the stream), and [`Framer::recover`] can resume at
    /// the next top-level element.
    pub fn set_pretty(&mut self, pretty: bool) {
        self.pretty = pretty;
    }

    /// After an error: forget it and the unreadable bytes, and continue with the next complete
    /// top-level element (a line starting with two spaces and `<name`). Meant for a reader of a
    /// pretty-printed stream ([`Framer::set_pretty`]); the server side never recovers.
    pub fn recover(&mut self) {
        if self.failed.take().is_none() {
            return;
        }
        let from = self.resume_at.min(self.buf.len());
        self.buf.drain(..from);
        self.scan = 0;
        self.resume_at = 0;
        self.state = State::Text;
        self.depth = self.depth.min(1);
        self.msg_start = 0;
        self.tag_start = 0;
        self.resync = true;
    }

    /// In resync mode: drops bytes up to the next `\n  <name`; false if none is buffered yet.
    fn skip_to_top_level(&mut self) -> bool {
        let b = &self.buf;
        let found = (0..b.len().saturating_sub(4)).find(|&k| {
            &b[k..k + 4] == b"\n  <" && !b[k + 4].is_ascii_whitespace() && b[k + 4] != b'/'
        });
        match found {
            Some(k) => {
                self.buf.drain(..k);
                self.resync = false;
                true
            }
            None => {
                let keep = self.buf.len().saturating_sub(4);
                self.buf.drain(..keep);
                false
            }
        }
    }

    /// Appends received bytes; call [`Framer::next_frame`] until it returns `Ok(None)`.
    pub fn push(&mut self, bytes: &[u8]) {
        if !self.closed && self.failed.is_none() {
            self.buf.extend_from_slice(bytes);
        }
    }

    /// Whether `</protocol>` has been seen.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Whether a message has started but not yet completed (bytes are pending).
    pub fn has_partial(&self) -> bool {
        self.depth >= 2 || self.state != State::Text
    }

    /// The next complete frame, `Ok(None)` when more bytes are needed.
    ///
    /// After an error the framer stays failed: the stream cannot be resynchronised.
    pub fn next_frame(&mut self) -> Result<Option<Frame>, ProtocolError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.resync && !self.skip_to_top_level() {
            return Ok(None);
        }
        match self.scan_frame() {
            Ok(f) => Ok(f),
            Err(e) => {
                self.failed = Some(e.clone());
                if self.pretty {
                    // Keep what follows the failure for `recover`.
                    let from = if self.resume_at > 0 {
                        self.resume_at
                    } else {
                        self.scan
                    };
                    self.buf.drain(..from.min(self.buf.len()));
                    self.resume_at = 0;
                } else {
                    self.buf.clear();
                }
                Err(e)
            }
        }
    }

    fn scan_frame(&mut self) -> Result<Option<Frame>, ProtocolError> {
        if self.closed {
            return Ok(None);
        }
        while self.scan < self.buf.len() {
            let i = self.scan;
            let b = self.buf[i];
            self.scan += 1;
            if self.depth >= 1 && never_in_markup(b) {
                // A byte no XML document can hold: the stream is broken here (e.g. cut off
                // mid-tag and continued with binary garbage). Report it at once instead of
                // waiting for a `>` that may never come.
                return Err(ProtocolError::Garbage(
                    self.snippet(self.msg_or_tag_start(i)),
                ));
            }
            match self.state {
                State::Text => {
                    if b == b'<' {
                        self.bom_seen = None;
                        self.tag_start = i;
                        self.state = State::TagStart;
                    } else if self.depth <= 1 && !b.is_ascii_whitespace() && !self.is_bom(b) {
                        return Err(ProtocolError::Garbage(self.snippet(i)));
                    }
                }
                State::TagStart => {
                    if self.pretty
                        && self.depth >= 2
                        && b != b'/'
                        && self.tag_start >= 3
                        && &self.buf[self.tag_start - 3..self.tag_start] == b"\n  "
                    {
                        // A new top-level element while the previous one is still open.
                        self.resume_at = self.tag_start - 3;
                        let unclosed = self.snippet(self.msg_start);
                        return Err(ProtocolError::Garbage(format!(
                            "element not closed before the next message: {unclosed}"
                        )));
                    }
                    self.state = match b {
                        b'/' => State::EndTag,
                        b'?' => State::Pi,
                        b'!' => State::Bang,
                        b if b.is_ascii_whitespace() || !in_tag(b) || b == b'=' => {
                            return Err(ProtocolError::Garbage(self.snippet(self.tag_start)));
                        }
                        _ => State::StartTag,
                    }
                }
                State::StartTag => match b {
                    b'"' | b'\'' => self.state = State::Quote(b),
                    b'<' => {
                        self.resume_before(i);
                        return Err(ProtocolError::Garbage(self.snippet(self.tag_start)));
                    }
                    b'>' => {
                        self.state = State::Text;
                        let empty = self.buf[i - 1] == b'/';
                        if let Some(f) = self.start_tag_done(i, empty)? {
                            return Ok(Some(f));
                        }
                    }
                    b if !in_tag(b) => {
                        return Err(ProtocolError::Garbage(self.snippet(self.tag_start)))
                    }
                    _ => {}
                },
                State::Quote(q) => {
                    if b == b'<' {
                        // XML forbids a raw `<` in an attribute value: the tag was cut off.
                        self.resume_before(i);
                        return Err(ProtocolError::Garbage(self.snippet(self.tag_start)));
                    }
                    if b == q {
                        self.state = State::StartTag;
                    }
                }
                State::EndTag => {
                    if b != b'>' && !(in_tag(b) && b != b'=' && b != b'/') {
                        return Err(ProtocolError::Garbage(self.snippet(self.tag_start)));
                    }
                    if b == b'>' {
                        self.state = State::Text;
                        if let Some(f) = self.end_tag_done(i)? {
                            return Ok(Some(f));
                        }
                    }
                }
                State::Pi => {
                    if b == b'>' && self.buf[i - 1] == b'?' && i >= self.tag_start + 3 {
                        self.state = State::Text;
                    }
                }
                State::Bang => {
                    let head = &self.buf[self.tag_start..];
                    if head.starts_with(b"<!--") {
                        self.state = State::Comment;
                    } else if head.starts_with(b"<![CDATA[") {
                        if self.depth <= 1 {
                            return Err(ProtocolError::Garbage(self.snippet(self.tag_start)));
                        }
                        self.state = State::CData;
                    } else if b"<!--".starts_with(head) || b"<![CDATA[".starts_with(head) {
                        // Not enough bytes yet to tell which construct this is.
                    } else {
                        self.state = State::Decl;
                        if b == b'>' {
                            self.state = State::Text;
                        }
                    }
                }
                State::Comment => {
                    if b == b'>' && i >= self.tag_start + 6 && &self.buf[i - 2..i] == b"--" {
                        self.state = State::Text;
                    }
                }
                State::CData => {
                    if b == b'>' && i >= self.tag_start + 11 && &self.buf[i - 2..i] == b"]]" {
                        self.state = State::Text;
                    }
                }
                State::Decl => {
                    if b == b'>' {
                        self.state = State::Text;
                    }
                }
            }
            self.check_size()?;
        }
        self.compact();
        Ok(None)
    }

    /// True when `b` continues a byte-order mark at the very start of the stream.
    fn is_bom(&mut self, b: u8) -> bool {
        const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
        match self.bom_seen {
            Some(n) if self.depth == 0 && (n as usize) < BOM.len() && BOM[n as usize] == b => {
                self.bom_seen = Some(n + 1);
                true
            }
            _ => false,
        }
    }

    fn check_size(&self) -> Result<(), ProtocolError> {
        let start = if self.depth >= 2 {
            self.msg_start
        } else if self.state != State::Text {
            self.tag_start
        } else {
            return Ok(());
        };
        if self.scan - start > self.max_message {
            return Err(ProtocolError::TooLarge(self.max_message));
        }
        Ok(())
    }

    /// Drops consumed bytes while no message is in progress.
    fn compact(&mut self) {
        if self.depth <= 1 && self.state == State::Text {
            self.buf.drain(..self.scan);
            self.scan = 0;
        }
    }

    fn take_until(&mut self, end: usize) -> Result<String, ProtocolError> {
        let bytes: Vec<u8> = self.buf.drain(..=end).collect();
        self.scan = 0;
        let text = &bytes[self.msg_start..];
        self.msg_start = 0;
        self.tag_start = 0;
        String::from_utf8(text.to_vec()).map_err(|_| ProtocolError::Utf8)
    }

    fn start_tag_done(&mut self, i: usize, empty: bool) -> Result<Option<Frame>, ProtocolError> {
        match self.depth {
            0 => {
                let name = tag_name(&self.buf[self.tag_start + 1..=i]);
                if name != b"protocol" {
                    return Err(ProtocolError::NotProtocol(
                        String::from_utf8_lossy(name).into_owned(),
                    ));
                }
                self.buf.drain(..=i);
                self.scan = 0;
                if empty {
                    self.closed = true;
                    return Ok(Some(Frame::Close));
                }
                self.depth = 1;
                Ok(Some(Frame::Open))
            }
            1 => {
                // A restarted stream is never a message (and would never complete).
                if tag_name(&self.buf[self.tag_start + 1..=i]) == b"protocol" {
                    return Err(ProtocolError::Garbage("nested <protocol>".into()));
                }
                self.msg_start = self.tag_start;
                if empty {
                    return Ok(Some(Frame::Message(self.take_until(i)?)));
                }
                self.depth = 2;
                Ok(None)
            }
            _ => {
                if !empty {
                    self.depth += 1;
                }
                Ok(None)
            }
        }
    }

    fn end_tag_done(&mut self, i: usize) -> Result<Option<Frame>, ProtocolError> {
        match self.depth {
            0 => Err(ProtocolError::Garbage(self.snippet(self.tag_start))),
            1 => {
                self.depth = 0;
                self.closed = true;
                self.buf.clear();
                self.scan = 0;
                Ok(Some(Frame::Close))
            }
            2 => {
                self.depth = 1;
                Ok(Some(Frame::Message(self.take_until(i)?)))
            }
            _ => {
                self.depth -= 1;
                Ok(None)
            }
        }
    }

    /// In pretty mode, when the `<` at `i` starts a line with two spaces (a new top-level
    /// message cutting into a broken tag), lets [`Framer::recover`] resume right there.
    fn resume_before(&mut self, i: usize) {
        if self.pretty && i >= 3 && &self.buf[i - 3..i] == b"\n  " {
            self.resume_at = i - 3;
        }
    }

    /// Where the bad byte at `i` is best shown from: the message in progress, else the tag.
    fn msg_or_tag_start(&self, i: usize) -> usize {
        if self.depth >= 2 {
            self.msg_start
        } else if self.state != State::Text {
            self.tag_start
        } else {
            i
        }
    }

    fn snippet(&self, from: usize) -> String {
        let end = (from + 40).min(self.buf.len());
        String::from_utf8_lossy(&self.buf[from..end]).into_owned()
    }
}

/// Bytes that no well-formed XML 1.0 stream contains, escaped or not: C0 control characters
/// other than tab, LF and CR (XML 1.0 §2.2), and the bytes that never occur in UTF-8.
fn never_in_markup(b: u8) -> bool {
    (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || matches!(b, 0xC0 | 0xC1 | 0xF5..=0xFF)
}

/// Bytes that may stand in a start or end tag outside attribute values: name characters
/// (ASCII letters, digits, `_ - . :` and any non-ASCII UTF-8 byte), white space, `=` and the
/// `/` of an empty-element tag. Anything else (`!`, `@`, `&`, `;`, …) means the tag is broken.
fn in_tag(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || b >= 0x80
        || b.is_ascii_whitespace()
        || matches!(b, b'_' | b'-' | b'.' | b':' | b'=' | b'/')
}

fn tag_name(after_lt: &[u8]) -> &[u8] {
    let end = after_lt
        .iter()
        .position(|&c| c.is_ascii_whitespace() || c == b'/' || c == b'>')
        .unwrap_or(after_lt.len());
    &after_lt[..end]
}

#[cfg(test)]
mod tests;
