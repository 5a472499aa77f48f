//! The server's `--log` transcript: every line in both directions with time, seat and direction,
//! in the style of the recorded games (`<seq> <seconds> seat<n> <kind> <payload>`).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A transcript being written (or a no-op when no path was given).
pub struct TransLog {
    out: Option<BufWriter<File>>,
    start: Instant,
    seq: u32,
}

impl TransLog {
    /// Opens the transcript of game `index`; with `numbered`, `PATH-0001.log` style names.
    pub fn open(path: Option<&Path>, index: u32, numbered: bool) -> TransLog {
        let out = path.and_then(|p| {
            let p: PathBuf = if numbered {
                let stem = p.with_extension("");
                PathBuf::from(format!("{}-{:04}.log", stem.display(), index + 1))
            } else {
                p.to_path_buf()
            };
            match File::create(&p) {
                Ok(f) => Some(BufWriter::new(f)),
                Err(e) => {
                    tracing::warn!("cannot write transcript {}: {e}", p.display());
                    None
                }
            }
        });
        TransLog {
            out,
            start: Instant::now(),
            seq: 0,
        }
    }

    fn line(&mut self, seat: usize, kind: &str, payload: &str) {
        if let Some(w) = self.out.as_mut() {
            self.seq += 1;
            let t = self.start.elapsed().as_secs_f64();
            let _ = writeln!(w, "{:05} {t:8.3} seat{seat} {kind:<9} {payload}", self.seq);
            let _ = w.flush();
        }
    }

    /// Bytes written to a seat.
    pub fn out(&mut self, seat: usize, bytes: &[u8]) {
        self.line(
            seat,
            "SRV->BOT",
            &format!("{:?}", String::from_utf8_lossy(bytes)),
        );
    }

    /// A line read from a seat.
    pub fn inp(&mut self, seat: usize, bytes: &[u8]) {
        self.line(
            seat,
            "BOT->SRV",
            &format!("{:?}", String::from_utf8_lossy(bytes)),
        );
    }

    /// A server annotation about a seat.
    pub fn note(&mut self, seat: usize, text: &str) {
        self.line(seat, "NOTE", text);
    }
}
