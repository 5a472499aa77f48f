//! The records `kibitz serve` shows: every `*.jsonl` file in the `--records` folders, read
//! again whenever its size or modification time changes (so records appended while the server
//! runs show up; see `live`).
//!
//! A line that is not a JSON object (a line still being written, a foreign file) is skipped
//! with a warning and read again on the next change; nothing in a record can fail the server.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// One record file as last read.
#[derive(Debug, Default)]
pub struct FileRecords {
    /// Size and modification time when read (a change means: read again).
    stamp: (u64, Option<SystemTime>),
    /// The records in file order (skipped lines left out).
    pub records: Vec<Value>,
}

/// Where a record lives: folder number (order of `--records`), file name, record number.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    /// Index of the `--records` folder.
    pub dir: usize,
    /// File name inside the folder (no path separators).
    pub file: String,
}

/// Every record file of the folders.
#[derive(Debug, Default)]
pub struct Store {
    dirs: Vec<PathBuf>,
    /// Files by key, in folder then name order.
    pub files: BTreeMap<Key, FileRecords>,
}

impl Store {
    /// A store over `dirs`, read once.
    pub fn new(dirs: Vec<PathBuf>) -> Store {
        let mut s = Store {
            dirs,
            files: BTreeMap::new(),
        };
        s.refresh();
        s
    }

    /// Reads files that are new or changed and forgets removed ones; true if anything changed.
    pub fn refresh(&mut self) -> bool {
        let mut seen = Vec::new();
        let mut changed = false;
        for (d, dir) in self.dirs.iter().enumerate() {
            let entries = match std::fs::read_dir(dir) {
                Ok(e) => e,
                Err(e) => {
                    tracing::debug!("{}: {e}", dir.display());
                    continue;
                }
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                    continue;
                };
                if !name.ends_with(".jsonl") {
                    continue;
                }
                let Ok(meta) = entry.metadata() else { continue };
                let stamp = (meta.len(), meta.modified().ok());
                let key = Key {
                    dir: d,
                    file: name.to_string(),
                };
                seen.push(key.clone());
                if self.files.get(&key).is_some_and(|f| f.stamp == stamp) {
                    continue;
                }
                let records = read_lenient(&path);
                self.files.insert(key, FileRecords { stamp, records });
                changed = true;
            }
        }
        let before = self.files.len();
        self.files.retain(|k, _| seen.contains(k));
        changed || before != self.files.len()
    }

    /// The `--records` folders, in order (folder `d` of a [`Key`] is `dirs()[d]`).
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The record `n` of file `key`, if there is one.
    pub fn record(&self, key: &Key, n: usize) -> Option<&Value> {
        self.files.get(key)?.records.get(n)
    }
}

/// The JSON objects of a JSON-lines file; unreadable files and bad lines are logged and skipped.
pub fn read_lenient(path: &Path) -> Vec<Value> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!("{}: {e}", path.display());
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(v) if v.is_object() => out.push(v),
            Ok(_) => tracing::warn!("{}:{}: not a JSON object", path.display(), i + 1),
            Err(e) => tracing::warn!("{}:{}: {e}", path.display(), i + 1),
        }
    }
    out
}

/// What the index shows of one record.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The game's name (`connect4`, ...; `?` when the record names none).
    pub game: String,
    /// The spec or name in each seat, seat 0 first.
    pub players: Vec<String>,
    /// Filter key of the result: `seat0`, `seat1`, ... (that seat won), `draw` or `unknown`.
    pub result: String,
    /// The result as a person reads it (`seat 0 wins (CONNECTED_LINE)`).
    pub result_text: String,
    /// Moves in the record.
    pub moves: usize,
}

/// The index's view of a record.
pub fn summary(rec: &Value) -> Summary {
    let players = rec["players"]
        .as_array()
        .map(|p| {
            p.iter()
                .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let reason = rec["result"]["reason"].as_str().unwrap_or("");
    let (result, text) = match rec["result"].get("winner") {
        Some(Value::Number(n)) => {
            let w = n.as_u64().unwrap_or(u64::MAX);
            (format!("seat{w}"), format!("seat {w} wins"))
        }
        Some(Value::Null) => ("draw".to_string(), "draw".to_string()),
        _ => ("unknown".to_string(), "unknown".to_string()),
    };
    let result_text = if reason.is_empty() {
        text
    } else {
        format!("{text} ({reason})")
    };
    Summary {
        game: rec["game"].as_str().unwrap_or("?").to_string(),
        players,
        result,
        result_text,
        moves: rec["moves"].as_array().map_or(0, Vec::len),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn summaries_read_winners_draws_and_junk() {
        let s = summary(&json!({"game": "connect4", "players": ["a", "b"],
            "moves": [1, 2], "result": {"winner": 1, "reason": "CONNECTED_LINE"}}));
        assert_eq!(
            (s.result.as_str(), s.result_text.as_str(), s.moves),
            ("seat1", "seat 1 wins (CONNECTED_LINE)", 2)
        );
        assert_eq!(summary(&json!({"result": {"winner": null}})).result, "draw");
        let junk = summary(&json!({"players": 3, "result": "x"}));
        assert_eq!((junk.game.as_str(), junk.result.as_str()), ("?", "unknown"));
    }

    #[test]
    fn bad_lines_are_skipped_and_changes_noticed() {
        let dir = std::env::temp_dir().join(format!("kibitz-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("x.jsonl");
        std::fs::write(&f, "{\"game\":\"connect4\"}\nnot json\n[1]\n{\"game\":\"pi").unwrap();
        let mut s = Store::new(vec![dir.clone()]);
        let key = Key {
            dir: 0,
            file: "x.jsonl".into(),
        };
        assert_eq!(s.files[&key].records.len(), 1);
        assert!(!s.refresh());
        std::fs::write(&f, "{\"game\":\"connect4\"}\n{\"game\":\"piranhas\"}\n").unwrap();
        assert!(s.refresh());
        assert_eq!(s.record(&key, 1).unwrap()["game"], "piranhas");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
