//! Research tool for issue 38: a paired match of two engine settings over the late game at
//! (roughly) equal CPU time. Each pair starts from a position of turn FROM reached by the
//! default engine playing itself at 5,000 nodes per move after four seeded random plies;
//! A and B then play it out twice, each once as RED. A searches NODES per move; B searches
//! NODES × B_SHARE per move from turn B_FROM on (before that NODES too), so that a setting
//! that costs more per node near the end (`end_plies=2`) can be given its time's worth of
//! nodes. Fresh tables every move, one thread. Prints W-D-L and the score of B, overall and
//! as RED, and each side's thread CPU time from turn B_FROM on.
//!
//! Run: `cargo run --release -p kibitz-piranhas --example late_match -- PARAMS_A PARAMS_B
//! NODES B_SHARE B_FROM FROM PAIRS SEED` (params as `name=value,...`, empty for defaults),
//! e.g. `end_qs=0 end_plies=2,end_qs=0 40000 0.5 50 44 100 1`.

mod common;

use common::{thread_cpu, Tally};
use kibitz_piranhas::kraken::random_pair;
use kibitz_piranhas::{Color, Engine, EngineConfig, State};
use kibitz_search::params::Tunable;
use kibitz_search::seed::mix;
use kibitz_search::time::TimeControl;
use rand::{Rng, SeedableRng};

/// The defaults with `params` (`name=value,...`) and `nodes` per move.
fn config(params: &str, nodes: u64) -> Result<EngineConfig, Box<dyn std::error::Error>> {
    let mut c = EngineConfig::default();
    for p in params.split(',').filter(|p| !p.is_empty()) {
        c.apply(p)?;
    }
    c.search.max_nodes = nodes.max(1);
    c.search.hash_mb = 8;
    Ok(c)
}

/// The move of a fresh engine with `config` (none when there is no legal move).
fn choose(config: &EngineConfig, s: &State) -> Option<kibitz_piranhas::Move> {
    Engine::new(config.clone())
        .choose(s, &TimeControl::infinite())
        .mv
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [a, b, nodes, share, b_from, from, pairs, seed] = args.as_slice() else {
        return Err(
            "usage: late_match PARAMS_A PARAMS_B NODES B_SHARE B_FROM FROM PAIRS SEED".into(),
        );
    };
    let nodes: u64 = nodes.parse()?;
    let share: f64 = share.parse()?;
    let (b_from, from): (u32, u32) = (b_from.parse()?, from.parse()?);
    let (pairs, seed): (u64, u64) = (pairs.parse()?, seed.parse()?);
    if !(0.0..=16.0).contains(&share) || from >= 60 {
        return Err("B_SHARE must be in 0..=16 and FROM below 60".into());
    }
    let opening = config("", 5_000)?;
    let a_cfg = config(a, nodes)?;
    let b_early = config(b, nodes)?;
    let b_late = config(b, (nodes as f64 * share) as u64)?;
    // B's results; CPU seconds from B_FROM on: [A, B].
    let (mut tally, mut cpu) = (Tally::default(), [0f64; 2]);
    let mut played_pairs = 0;
    for i in 0..pairs {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(mix(seed, i));
        let mut s = State::start(random_pair(&mut rng));
        while s.turn() < from && s.outcome().is_none() {
            let m = if s.turn() < 4 {
                let moves = s.legal_moves();
                moves[rng.random_range(0..moves.len())]
            } else {
                choose(&opening, &s).ok_or("no move")?
            };
            s = s.apply(m)?;
        }
        if s.outcome().is_some() {
            continue;
        }
        played_pairs += 1;
        for b_colour in [Color::Red, Color::Blue] {
            let mut g = s;
            let winner = loop {
                if let Some(r) = g.outcome() {
                    break r.winner;
                }
                let b_moves = g.current() == b_colour;
                let cfg = match (b_moves, g.turn() >= b_from) {
                    (false, _) => &a_cfg,
                    (true, false) => &b_early,
                    (true, true) => &b_late,
                };
                let start = thread_cpu();
                let m = choose(cfg, &g).ok_or("no move")?;
                if g.turn() >= b_from {
                    cpu[usize::from(b_moves)] += thread_cpu() - start;
                }
                g = g.apply(m)?;
            };
            println!("pair {i} B {b_colour}: {}", tally.record(b_colour, winner));
        }
    }
    println!(
        "{played_pairs} pairs: B {} | CPU from turn {b_from}: A {:.1} s, B {:.1} s",
        tally.summary(),
        cpu[0],
        cpu[1]
    );
    Ok(())
}
