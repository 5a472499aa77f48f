//! Game records in the one kibitz format, `kibitz-record/1`: a JSON object per line, one line
//! per game, written by `kibitz match`, `kibitz tournament --records` and every reference
//! server's `--records DIR`, and read by `kibitz replay`.
//!
//! The keys every line carries are documented in the root crate's `arena::record` (the
//! format's one description); this module owns the tag, a writer that several games
//! (threads, tasks) can append to at once, a whole line at a time, flushed per game so a
//! record survives a killed server, and the reader of such a file.

use serde_json::Value;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Record format tag, the `format` key of every line.
pub const FORMAT: &str = "kibitz-record/1";

/// Appends game records to `DIR/<name>.jsonl`, one line per game.
#[derive(Debug)]
pub struct RecordWriter {
    path: PathBuf,
    out: Mutex<BufWriter<File>>,
}

impl RecordWriter {
    /// Creates `dir` if needed and opens `dir/<name>.jsonl` for appending (a restarted server
    /// keeps the games it recorded before).
    pub fn create(dir: &Path, name: &str) -> std::io::Result<Self> {
        Self::open(dir, name, false)
    }

    /// Like [`Self::create`], but starts the file empty: one file per run (a rerun of the
    /// same match replaces its records instead of adding to them).
    pub fn replace(dir: &Path, name: &str) -> std::io::Result<Self> {
        Self::open(dir, name, true)
    }

    fn open(dir: &Path, name: &str, truncate: bool) -> std::io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(format!("{name}.jsonl"));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(!truncate)
            .write(true)
            .truncate(truncate)
            .open(&path)?;
        Ok(Self {
            path,
            out: Mutex::new(BufWriter::new(file)),
        })
    }

    /// The file this writer appends to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one game: `record` gets `"format": FORMAT` if it lacks it, then goes out as one
    /// line and is flushed.
    pub fn write(&self, record: &Value) -> std::io::Result<()> {
        let mut record = record.clone();
        if let Some(obj) = record.as_object_mut() {
            obj.entry("format").or_insert_with(|| Value::from(FORMAT));
        }
        let line = serde_json::to_string(&record)?;
        let mut out = self
            .out
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        writeln!(out, "{line}")?;
        out.flush()
    }
}

/// Reads every record of a JSON-lines file, blank lines skipped. A line that is not whole
/// JSON (a torn write, a foreign file) is an `InvalidData` error naming the file and line.
pub fn read(path: &Path) -> std::io::Result<Vec<Value>> {
    let with_path =
        |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let file = File::open(path).map_err(with_path)?;
    let mut out = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(with_path)?;
        if line.trim().is_empty() {
            continue;
        }
        let v = serde_json::from_str(&line).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{} line {}: not JSON ({e})", path.display(), i + 1),
            )
        })?;
        out.push(v);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lines_are_appended_tagged_and_survive_reopening() {
        let dir = std::env::temp_dir().join(format!("kibitz-net-record-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let w = RecordWriter::create(&dir, "games").unwrap();
        w.write(&json!({"game": "connect4", "moves": [4, 4]}))
            .unwrap();
        drop(w);
        let w = RecordWriter::create(&dir, "games").unwrap();
        w.write(&json!({"format": "other", "game": "piranhas"}))
            .unwrap();
        let lines = read(w.path()).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["format"], FORMAT);
        assert_eq!(lines[0]["moves"], json!([4, 4]));
        assert_eq!(lines[1]["format"], "other");
        // `replace` starts the file over.
        drop(w);
        let w = RecordWriter::replace(&dir, "games").unwrap();
        w.write(&json!({"game": "maumau"})).unwrap();
        let text = std::fs::read_to_string(w.path()).unwrap();
        assert_eq!(text.lines().count(), 1);
        assert!(text.contains("maumau"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn read_skips_blank_lines_and_names_a_torn_one() {
        let dir = std::env::temp_dir().join(format!("kibitz-net-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("r.jsonl");
        std::fs::write(&f, "{\"a\":1}\n\n{\"a\":2}\n").unwrap();
        let v = read(&f).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[1]["a"], 2);
        std::fs::write(&f, "{\"a\":1}\n{\"a\":\n").unwrap();
        let e = read(&f).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("line 2"), "{e}");
        assert!(read(&dir.join("missing.jsonl")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
