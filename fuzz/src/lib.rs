//! kibitz-fuzz: mutation fuzzing of every wire codec and file parser, on stable Rust.
//!
//! cargo-fuzz needs a nightly toolchain, so this crate brings its own small engine instead: seed
//! inputs come from the recorded transcripts and data files in `shared/data`, a seeded mutator
//! ([`mutate`]) edits them the way libFuzzer's default mutator does (bit flips, dictionary
//! tokens, range deletes and duplicates, splices, numeric edge values), and inputs that produce a
//! new outcome signature are kept in the corpus. Each target ([`targets`]) must never panic and,
//! where an encoder exists, must satisfy `decode(encode(x)) == x`.
//!
//! - `cargo test --release -p kibitz-fuzz` runs every target briefly (a few hundred inputs each,
//!   fixed seed) as part of the normal test suite.
//! - `fuzz/run.sh SECONDS [TARGET...]` runs each target for `SECONDS` and prints executions,
//!   crashes, property failures and the slowest input; failing inputs are written to
//!   `fuzz/artifacts/`.
#![warn(missing_docs)]

pub mod mutate;
pub mod targets;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};
use targets::Target;

/// An input that took longer than this counts as a hang.
pub const HANG: Duration = Duration::from_secs(1);

/// Most inputs kept in the corpus (seeds plus inputs with new signatures).
pub const MAX_CORPUS: usize = 4096;

/// When a run stops.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// After this many executions (mutated inputs; seeds are run first and counted too).
    Execs(u64),
    /// After this much time.
    Time(Duration),
}

/// A failing input.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The input bytes.
    pub input: Vec<u8>,
    /// Panic message, broken property, or "hang: N ms".
    pub what: String,
}

/// What one run of one target did.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Inputs executed.
    pub execs: u64,
    /// Seed inputs.
    pub seeds: usize,
    /// Inputs that panicked.
    pub crashes: Vec<Failure>,
    /// Inputs that broke a property (round trip, split-independence).
    pub violations: Vec<Failure>,
    /// Inputs slower than [`HANG`].
    pub hangs: Vec<Failure>,
    /// Slowest single input.
    pub slowest: Duration,
    /// Final corpus size.
    pub corpus: usize,
    /// Distinct outcome signatures seen.
    pub signatures: usize,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl Stats {
    /// True when nothing failed.
    pub fn clean(&self) -> bool {
        self.crashes.is_empty() && self.violations.is_empty() && self.hangs.is_empty()
    }
}

/// Runs one input through `target`, catching panics.
pub fn run_one(target: &Target, input: &[u8]) -> Result<targets::Outcome, String> {
    catch_unwind(AssertUnwindSafe(|| (target.check)(input))).map_err(|p| {
        p.downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic with a non-string payload".into())
    })
}

/// Fuzzes `target` until `budget` is spent. Panics inside the target are caught and recorded
/// (the default panic hook still prints them; `fuzz` callers may silence it).
pub fn fuzz(target: &Target, budget: Budget, seed: u64) -> Stats {
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut corpus = (target.seeds)();
    if corpus.is_empty() {
        corpus.push(Vec::new());
    }
    let mut stats = Stats {
        seeds: corpus.len(),
        ..Stats::default()
    };
    let mut seen = HashSet::new();
    let done = |stats: &Stats| match budget {
        Budget::Execs(n) => stats.execs >= n,
        Budget::Time(t) => start.elapsed() >= t,
    };
    let mut queue: Vec<Vec<u8>> = corpus.clone();
    loop {
        let input = match queue.pop() {
            Some(i) => i,
            None => {
                let mut i = corpus[rng.random_range(0..corpus.len())].clone();
                mutate::mutate(&mut rng, &mut i, &corpus);
                i
            }
        };
        let t = Instant::now();
        let result = run_one(target, &input);
        let took = t.elapsed();
        stats.execs += 1;
        stats.slowest = stats.slowest.max(took);
        if took > HANG {
            stats.hangs.push(Failure {
                input: input.clone(),
                what: format!("hang: {} ms", took.as_millis()),
            });
        }
        match result {
            Ok(Ok(sig)) => {
                if seen.insert(sig) && corpus.len() < MAX_CORPUS {
                    corpus.push(input);
                }
            }
            Ok(Err(v)) => stats.violations.push(Failure { input, what: v }),
            Err(p) => stats.crashes.push(Failure {
                input,
                what: format!("panic: {p}"),
            }),
        }
        // Keep failure lists bounded: a systematic bug would otherwise fill memory.
        for l in [&mut stats.crashes, &mut stats.violations, &mut stats.hangs] {
            l.truncate(100);
        }
        if done(&stats) {
            break;
        }
    }
    stats.corpus = corpus.len();
    stats.signatures = seen.len();
    stats.elapsed = start.elapsed();
    stats
}
