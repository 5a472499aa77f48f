//! Speed workload for the late game (issue 38, search speed): fixed-depth searches with
//! fresh tables from positions of turn 30 to 58 taken from the official playouts
//! (`data/piranhas/playouts_small.jsonl.gz`), every `STRIDE`-th one, so that the node count
//! is a signature like `kibitz piranhas bench`'s (pure speed-ups keep it) and the CPU time
//! compares builds: `perf stat -e task-clock` on two builds of this example, alternated.
//!
//! Prints `late bench: NODES nodes, POSITIONS positions, CPU s, nodes/CPU s`. With the
//! argument `bench` it runs the crate's [`kibitz_piranhas::bench`] instead (the workload of
//! `kibitz piranhas bench`, signature 647,281 nodes), without building the whole CLI.
//!
//! Run: `cargo run --release -p kibitz-piranhas --example late_bench [-- DEPTH [STRIDE [MB
//! [FROM TO [END_PLIES]]]]]` (defaults: depth 5, every 12th position, 2 MB tables, turns 30
//! to 58, the engine's default `end_plies`; a
//! larger table mostly measures the allocation of a fresh one per position, which is also
//! why `bench` is noisy: page clearing of its 3 × 16 MB tables is a tenth of its CPU time).

use kibitz_piranhas::{Engine, EngineConfig, State};
use kibitz_search::time::TimeControl;

mod common;
use common::{playout_states, thread_cpu};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "bench") {
        let start = thread_cpu();
        let nodes = kibitz_piranhas::bench();
        let cpu = thread_cpu() - start;
        println!(
            "piranhas bench: {nodes} nodes, {cpu:.2} s CPU, {:.0} nodes/CPU s",
            nodes as f64 / cpu.max(1e-9)
        );
        return Ok(());
    }
    let depth: u32 = args.first().map_or(Ok(5), |a| a.parse())?;
    let stride: usize = args.get(1).map_or(Ok(12), |a| a.parse())?;
    let hash_mb: usize = args.get(2).map_or(Ok(2), |a| a.parse())?;
    let from: u32 = args.get(3).map_or(Ok(30), |a| a.parse())?;
    let to: u32 = args.get(4).map_or(Ok(58), |a| a.parse())?;
    let end_plies: Option<u32> = args.get(5).map(|a| a.parse()).transpose()?;
    if stride == 0 {
        return Err("STRIDE must be at least 1".into());
    }
    let positions: Vec<State> = playout_states(from..=to)?
        .into_iter()
        .filter(|s| s.outcome().is_none())
        .collect();
    let positions: Vec<State> = positions.into_iter().step_by(stride).collect();
    let (mut nodes, start) = (0u64, thread_cpu());
    for s in &positions {
        let mut config = EngineConfig::default();
        config.search.max_depth = depth;
        config.search.hash_mb = hash_mb;
        if let Some(p) = end_plies {
            config.end_plies = p;
        }
        let mut engine = Engine::new(config);
        nodes += engine.choose(s, &TimeControl::infinite()).nodes;
    }
    let cpu = thread_cpu() - start;
    println!(
        "late bench: {nodes} nodes, {} positions, {cpu:.2} s CPU, {:.0} nodes/CPU s",
        positions.len(),
        nodes as f64 / cpu.max(1e-9)
    );
    Ok(())
}
