//! What the late-game research examples (`end_choices`, `end_solve`, `late_bench`) share:
//! the playouts file's positions and the one CPU clock.

use flate2::read::GzDecoder;
use kibitz_piranhas::State;
use std::error::Error;
use std::io::BufRead;
use std::ops::RangeInclusive;

/// The playouts file, relative to this crate.
const PLAYOUTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/piranhas/playouts_small.jsonl.gz"
);

/// CPU time of the calling thread, in seconds (the workspace's one CPU clock).
pub fn thread_cpu() -> f64 {
    kibitz_search::time::thread_cpu().as_secs_f64()
}

/// Every position of the playouts file with a turn in `turns` whose game goes on (`win`
/// null), in file order.
pub fn playout_states(turns: RangeInclusive<u32>) -> Result<Vec<State>, Box<dyn Error>> {
    let file = std::io::BufReader::new(GzDecoder::new(std::fs::File::open(PLAYOUTS)?));
    let mut states = Vec::new();
    for line in file.lines() {
        let v: serde_json::Value = serde_json::from_str(&line?)?;
        let turn = v["turn"].as_u64().ok_or("no turn")? as u32;
        if !turns.contains(&turn) || !v["win"].is_null() {
            continue;
        }
        states.push(State::from_letters(
            v["board"].as_str().ok_or("no board")?,
            turn,
        )?);
    }
    Ok(states)
}
