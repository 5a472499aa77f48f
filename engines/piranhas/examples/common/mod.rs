//! What the research examples share: the playouts file's positions and the one CPU clock
//! (`end_choices`, `end_solve`, `late_bench`), and a match's score by colour (`late_match`,
//! `limit_match`).

// Each example uses a part of this module.
#![allow(dead_code)]

use flate2::read::GzDecoder;
use kibitz_piranhas::{Color, State};
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

/// One side's wins, draws and losses in a paired match, by the colour it played.
#[derive(Debug, Default)]
pub struct Tally([[u32; 3]; 2]);

impl Tally {
    /// Counts a game the side played as `colour` and `winner` won (`None`: a draw); returns
    /// the result from the side's view: "win", "draw" or "loss".
    pub fn record(&mut self, colour: Color, winner: Option<Color>) -> &'static str {
        let r = match winner {
            Some(w) if w == colour => 0,
            None => 1,
            Some(_) => 2,
        };
        self.0[colour as usize][r] += 1;
        ["win", "draw", "loss"][r]
    }

    /// `W-D-L w-d-l score s | as RED [w, d, l] s | as BLUE [w, d, l] s`, scores counting a
    /// draw as half a win.
    pub fn summary(&self) -> String {
        let score =
            |t: [u32; 3]| (t[0] as f64 + t[1] as f64 / 2.0) / (t.iter().sum::<u32>().max(1) as f64);
        let [red, blue] = self.0;
        let all = [0, 1, 2].map(|k| red[k] + blue[k]);
        format!(
            "W-D-L {}-{}-{} score {:.3} | as RED {red:?} {:.3} | as BLUE {blue:?} {:.3}",
            all[0],
            all[1],
            all[2],
            score(all),
            score(red),
            score(blue)
        )
    }
}
