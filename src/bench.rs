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
    #[arg(long, value_delimiter = ',', long_help = crate::registry::long_help(crate::registry::bench_of))]
    pub only: Vec<String>,
}

/// Runs `kibitz bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    use crate::registry::{bench_of, lookup, GAMES};
    // Unknown names fail before any engine runs; the error lists the engines.
    for o in &args.only {
        lookup(o, "kibitz bench --only", bench_of)?;
    }
    let engines = GAMES.iter().filter_map(|g| {
        let wanted = args.only.is_empty() || args.only.iter().any(|o| g.answers_to(o));
        bench_of(g)
            .filter(|_| wanted)
            .map(|b| (g.name, b.unit, b.run))
    });
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
    for (name, unit, bench) in engines {
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
