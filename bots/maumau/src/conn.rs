//! One bot's TCP connection as the server sees it: a capped line reader task, an inbox of lines in
//! arrival order, writes with a deadline and the real server's "retry 3 times, then offline" rule.
//!
//! Nothing a bot sends can hang or crash the server: lines longer than [`MAX_LINE`] are cut (the
//! rest of the line is discarded and the line counts as garbage), bytes need not be UTF-8 (the codec
//! rejects them), and every wait has a deadline.

use crate::protocol::MAX_LINE;
use kibitz_net::limits::Permit;
use std::collections::VecDeque;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Longest a single write may take before the bot counts as gone (it stopped reading).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Most unanswered lines kept queued per bot.
pub const MAX_QUEUED: usize = 256;

/// What the reader task reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inbound {
    /// One line, without its newline (possibly cut at [`MAX_LINE`]).
    Line(Vec<u8>),
    /// The bot closed its side (or the read failed).
    Eof,
}

/// Result of waiting for a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wait {
    /// A line arrived (or was already queued).
    Line(Vec<u8>),
    /// The bot closed its connection.
    Eof,
    /// Nothing within the time limit.
    Timeout,
}

/// A connected bot.
pub struct Conn {
    writer: Option<OwnedWriteHalf>,
    inbox: mpsc::Receiver<Inbound>,
    queued: VecDeque<Inbound>,
    reader: JoinHandle<()>,
    eof: bool,
    writes_after_eof: u32,
    /// True while the bot owes an answer; lines arriving otherwise are protocol warnings.
    pub awaiting: bool,
    unsolicited: Vec<Vec<u8>>,
    /// Peer address, for logs.
    pub peer: String,
    /// The connection's slot under the server's caps, freed when it closes.
    permit: Option<Permit>,
}

impl Conn {
    /// Wraps a fresh connection (sets TCP_NODELAY) and starts its reader task.
    pub fn new(stream: TcpStream) -> Conn {
        let _ = stream.set_nodelay(true);
        let peer = stream
            .peer_addr()
            .map(|a| a.to_string())
            .unwrap_or_default();
        let (mut rd, wr) = stream.into_split();
        let (tx, rx) = mpsc::channel(64);
        let reader = tokio::spawn(async move {
            let mut buf = vec![0u8; 4096];
            let mut line = Vec::new();
            let mut overflow = false;
            loop {
                let n = match rd.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                for &b in &buf[..n] {
                    if b == b'\n' {
                        let mut l = std::mem::take(&mut line);
                        if l.last() == Some(&b'\r') {
                            l.pop();
                        }
                        overflow = false;
                        if tx.send(Inbound::Line(l)).await.is_err() {
                            return;
                        }
                    } else if line.len() < MAX_LINE {
                        line.push(b);
                    } else if !overflow {
                        // An oversized line: keep the first MAX_LINE bytes, drop the rest.
                        overflow = true;
                    }
                }
            }
            let _ = tx.send(Inbound::Eof).await;
        });
        Conn {
            writer: Some(wr),
            inbox: rx,
            queued: VecDeque::new(),
            reader,
            eof: false,
            writes_after_eof: 0,
            awaiting: false,
            unsolicited: Vec::new(),
            peer,
            permit: None,
        }
    }

    /// Keeps `permit` (a slot under the server's connection caps) until the connection is
    /// closed or dropped.
    pub fn hold(&mut self, permit: Permit) {
        self.permit = Some(permit);
    }

    /// Moves everything the reader has delivered so far into the queue, noting lines that
    /// arrived while no answer was owed and a closed connection.
    pub fn poll(&mut self) {
        // Beyond MAX_QUEUED lines stop draining: the bounded channel and TCP flow control then
        // hold a flooding bot back instead of our memory.
        while self.queued.len() < MAX_QUEUED {
            let Ok(ev) = self.inbox.try_recv() else { break };
            self.take(ev);
        }
    }

    /// Ready once the bot has closed its side, so a seated bot that leaves while it waits for
    /// the game can be let go at once rather than found out at the deal. Lines arriving
    /// meanwhile are queued as [`Conn::poll`] does. Cancel-safe: nothing received is lost.
    pub fn poll_closed(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            if self.eof {
                return Poll::Ready(());
            }
            if self.queued.len() >= MAX_QUEUED {
                // A flooding bot: leave the rest to flow control; the deal's check still sees it.
                return Poll::Pending;
            }
            match self.inbox.poll_recv(cx) {
                Poll::Ready(Some(ev)) => self.take(ev),
                Poll::Ready(None) => self.take(Inbound::Eof),
                Poll::Pending => return Poll::Pending,
            }
        }
    }

    /// Queues one event from the reader, noting unsolicited lines and a closed connection.
    fn take(&mut self, ev: Inbound) {
        match &ev {
            Inbound::Line(l) if !self.awaiting => self.unsolicited.push(l.clone()),
            Inbound::Line(_) => {}
            Inbound::Eof => self.eof = true,
        }
        self.queued.push_back(ev);
    }

    /// Lines that arrived while the bot owed no answer (kept queued as its next answers; the
    /// server logs them as protocol warnings).
    pub fn take_unsolicited(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.unsolicited)
    }

    /// Whether the bot has closed its side (as far as seen yet).
    pub fn saw_eof(&self) -> bool {
        self.eof
    }

    /// Takes the next line, waiting at most `limit` (`None` = forever).
    pub async fn next_line(&mut self, limit: Option<Duration>) -> Wait {
        let ev = match self.queued.pop_front() {
            Some(ev) => Some(ev),
            None => {
                let recv = self.inbox.recv();
                match limit {
                    Some(t) => match tokio::time::timeout(t, recv).await {
                        Ok(ev) => ev,
                        Err(_) => return Wait::Timeout,
                    },
                    None => recv.await,
                }
            }
        };
        match ev {
            Some(Inbound::Line(l)) => Wait::Line(l),
            Some(Inbound::Eof) | None => {
                self.eof = true;
                // Keep reporting EOF to later waits.
                self.queued.push_front(Inbound::Eof);
                Wait::Eof
            }
        }
    }

    /// Writes `bytes`; on failure retries 3 times like the real server. Returns false when the
    /// bot must be marked offline.
    ///
    /// After the bot closed its side, the first write is treated as delivered and every later
    /// one as failed. That is what TCP does (the first write after the peer's FIN succeeds, the
    /// peer answers with RST, later writes fail) and makes a vanishing bot deterministic.
    pub async fn send(&mut self, bytes: &[u8]) -> bool {
        self.poll();
        if self.eof {
            self.writes_after_eof += 1;
            if self.writes_after_eof > 1 {
                return false;
            }
        }
        let Some(w) = self.writer.as_mut() else {
            return false;
        };
        for _attempt in 0..4 {
            match tokio::time::timeout(WRITE_TIMEOUT, w.write_all(bytes)).await {
                Ok(Ok(())) => return true,
                Ok(Err(_)) if self.eof => return true,
                Ok(Err(_)) => continue,
                Err(_) => return false,
            }
        }
        false
    }

    /// Closes the connection (both directions) and stops the reader.
    pub async fn close(&mut self) {
        // The slot first: once the peer sees the close, its slot is free again.
        self.permit = None;
        if let Some(mut w) = self.writer.take() {
            let _ = tokio::time::timeout(Duration::from_secs(1), w.shutdown()).await;
        }
        self.reader.abort();
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.reader.abort();
    }
}
