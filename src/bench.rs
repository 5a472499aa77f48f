//! `kibitz bench`: the deterministic bench signature of every engine.
//!
//! Each engine's `bench()` runs a fixed workload (fixed positions, depths, seeds) and returns its
//! node count; the count is the signature that changes only when search or rules behaviour
//! changes, and the time gives nodes per second on this machine.

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use std::time::Instant;

/// Flags of `kibitz bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Run only these engines (default: all).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
}

type Bench = fn() -> u64;

/// Runs `kibitz bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let engines: &[(&str, &str, Bench)] = &[
        ("connect4", "nodes", kibitz_connect4::bench),
        ("piranhas", "nodes", kibitz_piranhas::bench),
        ("maumau", "playouts", kibitz_maumau::mcts::bench),
        ("koehandel", "decisions", kibitz_koehandel::bench),
        ("madn", "rolls", kibitz_madn::bench),
    ];
    if let Some(bad) = args
        .only
        .iter()
        .find(|o| !engines.iter().any(|e| e.0 == *o))
    {
        let names: Vec<&str> = engines.iter().map(|e| e.0).collect();
        let hint = if bad == "wuerfel" {
            " (Würfelglück's engine is madn)"
        } else {
            ""
        };
        anyhow::bail!(
            "--only {bad}: no such engine{hint}; engines: {}",
            names.join(", ")
        );
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec![
        "engine",
        "signature",
        "unit",
        "time (s)",
        "per second",
    ]);
    let mut total = 0u64;
    for &(name, unit, bench) in engines {
        if !args.only.is_empty() && !args.only.iter().any(|o| o == name) {
            continue;
        }
        let start = Instant::now();
        let nodes = bench();
        let secs = start.elapsed().as_secs_f64();
        total = total.wrapping_add(nodes);
        table.add_row(vec![
            Cell::new(name),
            Cell::new(nodes).set_alignment(CellAlignment::Right),
            Cell::new(unit),
            Cell::new(format!("{secs:.3}")).set_alignment(CellAlignment::Right),
            Cell::new(format!("{:.0}", nodes as f64 / secs.max(1e-9)))
                .set_alignment(CellAlignment::Right),
        ]);
    }
    println!("{table}");
    println!("bench signature (sum): {total}");
    Ok(())
}
