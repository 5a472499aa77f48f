//! `kibitz-fuzz`: runs fuzz targets for a given time and reports executions and failures.
//! Usually started by `fuzz/run.sh SECONDS [TARGET...]`.

use clap::Parser;
use kibitz_fuzz::{fuzz, targets, Budget, Failure};
use std::path::PathBuf;
use std::time::Duration;

/// Mutation fuzzing of kibitz's wire codecs and file parsers.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Seconds per target.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Targets to run (default: all). Known: connect4-udp, piranhas-xml, maumau-json,
    /// koehandel-query, wuerfel-dice, connect4-position.
    targets: Vec<String>,
    /// Seed of the mutator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where failing inputs are written.
    #[arg(long, default_value = "fuzz/artifacts")]
    artifacts: PathBuf,
}

fn main() -> anyhow::Result<()> {
    let a = Args::parse();
    let all = targets::all();
    for t in &a.targets {
        if !all.iter().any(|x| x.name == t) {
            anyhow::bail!("unknown target {t:?}");
        }
    }
    // Panics are recorded by the driver; keep the terminal readable.
    if std::env::var_os("FUZZ_SHOW_PANICS").is_none() {
        std::panic::set_hook(Box::new(|_| {}));
    }
    let mut failed = false;
    println!(
        "target\texecs\texecs/s\tseeds\tcorpus\tsignatures\tcrashes\tviolations\thangs\tslowest_ms"
    );
    for t in all
        .iter()
        .filter(|t| a.targets.is_empty() || a.targets.iter().any(|x| x == t.name))
    {
        let s = fuzz(t, Budget::Time(Duration::from_secs(a.seconds)), a.seed);
        println!(
            "{}\t{}\t{:.0}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.1}",
            t.name,
            s.execs,
            s.execs as f64 / s.elapsed.as_secs_f64(),
            s.seeds,
            s.corpus,
            s.signatures,
            s.crashes.len(),
            s.violations.len(),
            s.hangs.len(),
            s.slowest.as_secs_f64() * 1e3
        );
        for (kind, list) in [
            ("crash", &s.crashes),
            ("violation", &s.violations),
            ("hang", &s.hangs),
        ] {
            for (i, f) in list.iter().enumerate().take(5) {
                failed = true;
                save(&a.artifacts, t.name, kind, i, f)?;
            }
        }
    }
    if failed {
        anyhow::bail!(
            "failures found; inputs written to {}",
            a.artifacts.display()
        );
    }
    Ok(())
}

fn save(dir: &PathBuf, target: &str, kind: &str, i: usize, f: &Failure) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let p = dir.join(format!("{target}-{kind}-{i}.bin"));
    std::fs::write(&p, &f.input)?;
    eprintln!(
        "{target} {kind} -> {}: {}\n  input: {:?}",
        p.display(),
        f.what,
        String::from_utf8_lossy(&f.input[..f.input.len().min(300)])
    );
    Ok(())
}
