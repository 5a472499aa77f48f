//! What `kibitz tournament` hands each contest's runner: game count, seed, where to write game
//! records, and whom to tell when a game ends (the progress bar lives in the CLI).

use crate::record::RecordWriter;
use std::path::PathBuf;
use std::sync::Arc;

/// Options of one contest's local tournament.
#[derive(Clone, Default)]
pub struct Options {
    /// Games per pairing, as `kibitz tournament --games` gives it; each contest rounds it to
    /// its own unit (seasons, odd matches, seat rotations) and says so in its docs.
    pub games: u32,
    /// Seed of everything random in the contest: openings, Kraken pairs, deals, decks and the
    /// random players.
    pub seed: u64,
    /// Folder for game records (`<contest>.jsonl`, format [`crate::record`]); none when `None`.
    pub records: Option<PathBuf>,
    /// Told about the contest's size and each finished game.
    pub progress: Progress,
}

impl Options {
    /// Opens `<records>/<contest>.jsonl` when records were asked for.
    pub fn record_writer(&self, contest: &str) -> std::io::Result<Option<Arc<RecordWriter>>> {
        match &self.records {
            Some(dir) => Ok(Some(Arc::new(RecordWriter::create(dir, contest)?))),
            None => Ok(None),
        }
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("games", &self.games)
            .field("seed", &self.seed)
            .field("records", &self.records)
            .finish_non_exhaustive()
    }
}

/// Receives a contest's progress: the number of games it will play, then one call per game.
pub trait ProgressSink: Send + Sync {
    /// The contest will play `games` games in all.
    fn total(&self, games: u64);
    /// One game finished; `summary` is a short line about it (players, result).
    fn game_done(&self, summary: &str);
}

/// A cheap, clonable handle on an optional [`ProgressSink`]; the default reports nowhere.
#[derive(Clone, Default)]
pub struct Progress(Option<Arc<dyn ProgressSink>>);

impl Progress {
    /// Reports to `sink`.
    pub fn new(sink: Arc<dyn ProgressSink>) -> Self {
        Self(Some(sink))
    }

    /// See [`ProgressSink::total`].
    pub fn total(&self, games: u64) {
        if let Some(s) = &self.0 {
            s.total(games);
        }
    }

    /// See [`ProgressSink::game_done`].
    pub fn game_done(&self, summary: &str) {
        if let Some(s) = &self.0 {
            s.game_done(summary);
        }
    }
}
