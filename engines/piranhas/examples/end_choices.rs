//! Research tool for issue 38: do two engine settings choose differently in the late game?
//! Searches positions of turn FROM to TO from the official playouts
//! (`data/piranhas/playouts_small.jsonl.gz`, every STRIDE-th one, as `late_bench` picks
//! them) to a fixed depth with fresh tables under settings A and B (`--param`-style lists,
//! `name=value,name=value`, empty for the defaults; `depth=N` overrides DEPTH for that
//! side), and prints how many chosen moves and
//! scores differ (each differing move with both scores), with each setting's nodes and
//! thread CPU time.
//!
//! Run: `cargo run --release -p kibitz-piranhas --example end_choices -- DEPTH STRIDE FROM TO
//! PARAMS_A PARAMS_B`, e.g. `5 4 50 58 end_plies=1 end_plies=2`.

use kibitz_piranhas::{Choice, Engine, EngineConfig, State};
use kibitz_search::params::Tunable;
use kibitz_search::time::TimeControl;

mod common;
use common::{playout_states, thread_cpu};

/// The engine settings of one side: the defaults, fixed depth, then `params`.
fn config(depth: u32, params: &str) -> Result<EngineConfig, Box<dyn std::error::Error>> {
    let mut c = EngineConfig::default();
    c.search.max_depth = depth;
    c.search.hash_mb = 2;
    for p in params.split(',').filter(|p| !p.is_empty()) {
        match p.strip_prefix("depth=") {
            Some(d) => c.search.max_depth = d.parse()?,
            None => c.apply(p)?,
        }
    }
    Ok(c)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [depth, stride, from, to, a, b] = args.as_slice() else {
        return Err("usage: end_choices DEPTH STRIDE FROM TO PARAMS_A PARAMS_B".into());
    };
    let (depth, stride): (u32, usize) = (depth.parse()?, stride.parse()?);
    let (from, to): (u32, u32) = (from.parse()?, to.parse()?);
    if stride == 0 {
        return Err("STRIDE must be at least 1".into());
    }
    let configs = [config(depth, a)?, config(depth, b)?];
    let positions: Vec<State> = playout_states(from..=to)?
        .into_iter()
        .filter(|s| s.outcome().is_none())
        .collect();
    let positions: Vec<State> = positions.into_iter().step_by(stride).collect();
    let (mut moves, mut scores) = (0, 0);
    let (mut nodes, mut cpu) = ([0u64; 2], [0f64; 2]);
    for s in &positions {
        let mut choices: Vec<Choice> = Vec::new();
        for (i, c) in configs.iter().enumerate() {
            let start = thread_cpu();
            let choice = Engine::new(c.clone()).choose(s, &TimeControl::infinite());
            cpu[i] += thread_cpu() - start;
            nodes[i] += choice.nodes;
            choices.push(choice);
        }
        if choices[0].mv != choices[1].mv {
            let show = |c: &Choice| c.mv.map_or("none".to_string(), |m| m.to_string());
            println!(
                "turn {}: A {} ({}), B {} ({})",
                s.turn(),
                show(&choices[0]),
                choices[0].score,
                show(&choices[1]),
                choices[1].score
            );
        }
        moves += usize::from(choices[0].mv != choices[1].mv);
        scores += usize::from(choices[0].score != choices[1].score);
    }
    println!(
        "{} positions: {moves} moves and {scores} scores differ; A {} nodes {:.2} s CPU, \
         B {} nodes {:.2} s CPU",
        positions.len(),
        nodes[0],
        cpu[0],
        nodes[1],
        cpu[1]
    );
    Ok(())
}
