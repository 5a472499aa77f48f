//! Research tool for issue 38: the cost of an evaluation preset in the late game. Replays
//! match records and searches every position from turn 30 to 58 of each game at a fixed
//! node budget with one preset, then prints the nodes searched and the thread's CPU time
//! (nodes per CPU second), so two presets compare without wall-clock noise. Also prints
//! the search's score and depth on issue 38's turn-50 position and the default preset's bench
//! signature (`kibitz bench`).
//!
//! Run: `cargo run --release -p kibitz-piranhas --example limit_nps -- PRESET NODES GAMES RECORDS.jsonl`.

use kibitz_piranhas::kraken::parse_pair;
use kibitz_piranhas::{Engine, EngineConfig, EvalParams, Move, State};
use kibitz_search::time::TimeControl;
use std::io::BufRead;

/// Issue 38's turn-50 position (RED to move).
const ISSUE_38: &str =
    "--------B---------------B-------O-BR-------RRBR------B-B---B--R-R----------O-----B------------B-----";

/// CPU time of the calling thread, in seconds (the workspace's one CPU clock).
fn thread_cpu() -> f64 {
    kibitz_search::time::thread_cpu().as_secs_f64()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [preset, nodes, games, path] = args.as_slice() else {
        return Err("usage: limit_nps PRESET NODES GAMES RECORDS.jsonl".into());
    };
    let eval = EvalParams::preset(preset).ok_or("unknown preset")?;
    let (nodes, games): (u64, usize) = (nodes.parse()?, games.parse()?);
    let mut config = EngineConfig {
        eval,
        ..EngineConfig::default()
    };
    config.search.max_nodes = nodes;
    let mut positions = Vec::new();
    for line in std::io::BufReader::new(std::fs::File::open(path)?)
        .lines()
        .take(games)
    {
        let r: serde_json::Value = serde_json::from_str(&line?)?;
        let krakens = parse_pair(r["setup"]["krakens"].as_str().ok_or("no krakens")?)?;
        let mut s = State::start(krakens);
        for m in r["moves"].as_array().ok_or("no moves")? {
            let m: Move = m.as_str().ok_or("move")?.parse()?;
            if (30..=58).contains(&s.turn()) && s.outcome().is_none() {
                positions.push(s);
            }
            s = s.apply(m)?;
        }
    }
    // One engine for every position (its table allocated once, outside the timing).
    let mut engine = Engine::new(config.clone());
    let (mut total, start) = (0u64, thread_cpu());
    for s in &positions {
        total += engine.choose(s, &TimeControl::infinite()).nodes;
    }
    let cpu = thread_cpu() - start;
    println!(
        "{preset}: {} positions, {total} nodes, {cpu:.2} s CPU, {:.0} nodes/s",
        positions.len(),
        total as f64 / cpu.max(1e-9)
    );
    let s = State::from_letters(ISSUE_38, 50)?;
    let mut engine = Engine::new(config);
    let c = engine.choose(&s, &TimeControl::infinite());
    println!(
        "issue 38 turn 50: {:?} score {} depth {}",
        c.mv, c.score, c.depth
    );
    // The default preset's bench signature (`kibitz bench`; v4: 647,281).
    println!("bench signature: {}", kibitz_piranhas::bench());
    Ok(())
}
