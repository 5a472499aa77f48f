//! `kibitz wuerfel FILE`: rank dice by simulated Mensch-ärgere-dich-nicht games (BwInf 2021).

use anyhow::{anyhow, bail, Context};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use indicatif::{ProgressBar, ProgressStyle};
use kibitz_madn::game::{play, FastDie};
use kibitz_madn::rng::Rng;
use kibitz_madn::tournament::ADAPTIVE_CAP;
use kibitz_madn::{parse_dice, GameResult, Tournament, Variant};
use std::path::PathBuf;
use std::time::Instant;

/// Flags of `kibitz wuerfel`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Dice file: n, then per die its face count and faces.
    pub file: PathBuf,
    /// Games per pairing, at least 1 (odd rounds up); without it, play until the ranking is
    /// settled.
    #[arg(long)]
    pub games: Option<u64>,
    /// Confidence at which adjacent dice in the ranking must be separated (adaptive mode).
    #[arg(long, default_value_t = 0.99, conflicts_with = "games")]
    pub confidence: f64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Random seed; results depend only on it and the number of games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Pieces in the goal count as front-most.
    #[arg(long, conflicts_with = "frozen_goal")]
    pub goal_first: bool,
    /// First published rules: pieces in the goal never move.
    #[arg(long)]
    pub frozen_goal: bool,
    /// Print one JSON object instead of the text report.
    #[arg(long)]
    pub json: bool,
    /// Also write the head-to-head matrix as an SVG heatmap.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Play one game of the first pairing and print every roll.
    #[arg(long)]
    pub trace: bool,
    /// Also write a few sample games per pairing (board and dice per roll, for `kibitz serve`)
    /// to `DIR/wuerfel-<seed>.jsonl`; the simulation itself is not recorded.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Sample games per pairing with --records (1 to 10; the first 45 pairings only).
    #[arg(long, default_value_t = super::wuerfel_report::DEFAULT_SAMPLES, requires = "records")]
    pub samples: u64,
}

/// Runs `kibitz wuerfel`.
pub fn run(args: Args) -> anyhow::Result<()> {
    // Every error is one line naming the file (no multi-line "Caused by" chain).
    let file = args.file.display().to_string();
    if args.games == Some(0) {
        // Zero games would print an all-zero ranking as if it meant something.
        bail!("--games must be at least 1 (games per pairing); leave it out to play until the ranking is settled");
    }
    let text = read_bounded(&args.file).map_err(|e| anyhow!("{file}: {e}"))?;
    let dice = parse_dice(&text).map_err(|e| anyhow!("{file}: {e}"))?;
    if !(args.confidence > 0.0 && args.confidence < 1.0) {
        bail!("--confidence must lie strictly between 0 and 1");
    }
    if args.svg.is_some() && dice.len() > super::wuerfel_report::MAX_MATRIX_DICE {
        bail!(
            "--svg draws at most {} dice ({} given); use --json for larger files",
            super::wuerfel_report::MAX_MATRIX_DICE,
            dice.len()
        );
    }
    let variant = match (args.goal_first, args.frozen_goal) {
        (true, _) => Variant::GoalFirst,
        (_, true) => Variant::FrozenGoal,
        _ => Variant::Default,
    };
    if !(1..=super::wuerfel_report::MAX_SAMPLES).contains(&args.samples) {
        bail!(
            "--samples must be between 1 and {} (sample games per pairing)",
            super::wuerfel_report::MAX_SAMPLES
        );
    }
    if let Some(dir) = &args.records {
        let name = format!("wuerfel-{}", args.seed);
        let w = kibitz_net::record::RecordWriter::replace(dir, &name)
            .with_context(|| format!("cannot write records to {}", dir.display()))?;
        let recs = super::wuerfel_report::sample_records(&dice, variant, args.seed, args.samples);
        for r in &recs {
            w.write(r)
                .with_context(|| format!("cannot write {}", w.path().display()))?;
        }
        eprintln!(
            "{} sample games written to {}",
            recs.len(),
            w.path().display()
        );
    }
    if args.trace {
        trace(&dice, variant, args.seed);
        return Ok(());
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t.max(1));
    }
    let pool = builder.build()?;
    let mut t = Tournament::new(dice, variant, args.seed);
    let pairs = t.pairs().len() as u64;
    let bar = ProgressBar::new(args.games.unwrap_or(20_000).saturating_mul(pairs));
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {human_pos}/{human_len} games {per_sec} ETA {eta}")
            .expect("valid template"),
    );
    if args.json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let start = Instant::now();
    let progress = |n: u64| bar.inc(n);
    let settled = pool.install(|| match args.games {
        Some(n) => {
            t.extend_to(n, &progress);
            None
        }
        None => Some(
            t.run_until_settled(20_000, args.confidence, ADAPTIVE_CAP, &|n| {
                if bar.position() + n > bar.length().unwrap_or(0) {
                    bar.set_length((bar.length().unwrap_or(0) * 2).max(bar.position() + n));
                }
                bar.inc(n)
            }),
        ),
    });
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if let Some(path) = &args.svg {
        std::fs::write(path, super::wuerfel_report::svg(&t))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        println!("{}", super::wuerfel_report::json(&t));
        return Ok(());
    }
    print!(
        "{}",
        super::wuerfel_report::text(&t, &args.file.display().to_string())
    );
    let games = t.games_per_pair() * pairs;
    match settled {
        Some(true) => println!(
            "settled at {:.0} % confidence after {} games per pairing",
            args.confidence * 100.0,
            t.games_per_pair()
        ),
        Some(false) => println!(
            "NOT settled: the cap of {ADAPTIVE_CAP} games per pairing was reached \
             (some adjacent dice are too close to separate at {:.0} %)",
            args.confidence * 100.0
        ),
        None => {}
    }
    println!(
        "{games} games ({} rolls) in {secs:.2} s: {:.0} games/s",
        t.rolls(),
        games as f64 / secs
    );
    Ok(())
}

/// Largest dice file `kibitz wuerfel` reads (16 MiB): reading stops there, so a huge or endless
/// file (`/dev/zero`) is refused instead of filling memory. With two bytes per number this still
/// allows [`kibitz_madn::dice::MAX_DICE`] dice of thousands of faces each.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads `path` as UTF-8, refusing files larger than [`MAX_FILE_BYTES`] before holding more.
fn read_bounded(path: &std::path::Path) -> anyhow::Result<String> {
    use std::io::Read;
    let f = std::fs::File::open(path).map_err(|e| anyhow!("cannot read: {e}"))?;
    let mut bytes = Vec::new();
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        bail!("file too large: more than {MAX_FILE_BYTES} bytes (the limit of kibitz wuerfel)");
    }
    String::from_utf8(bytes).map_err(|e| anyhow!("not UTF-8 text: {e}"))
}

/// `--trace`: one game of the first pairing, die 1 starting, every roll with all eight pieces.
fn trace(dice: &[kibitz_madn::Die], variant: Variant, seed: u64) {
    let fast = [FastDie::new(&dice[0]), FastDie::new(&dice[1])];
    let mut rng = Rng::for_block(seed, 0, 1, 0);
    let mut n = 0u64;
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(vec![
        "roll #",
        "die",
        "face",
        "die 1 pieces",
        "die 2 pieces",
    ]);
    let fmt = |p: [i8; 4]| {
        p.iter()
            .map(|&x| {
                if x < 0 {
                    "B".to_string()
                } else {
                    x.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let result = play(
        [&fast[0], &fast[1]],
        0,
        variant,
        &mut rng,
        |side, r, pos| {
            n += 1;
            table.add_row(vec![
                Cell::new(n).set_alignment(CellAlignment::Right),
                Cell::new(side + 1),
                Cell::new(r),
                Cell::new(fmt(pos.progress(0))),
                Cell::new(fmt(pos.progress(1))),
            ]);
        },
    );
    println!("{table}");
    println!("progress per piece: B = waiting at home, 0 = own start square, 40-43 = goal a-d");
    match result {
        GameResult::Win(s) => println!("die {} ({}) wins after {n} rolls", s + 1, dice[s]),
        GameResult::Draw => println!("draw (deadlock) after {n} rolls"),
        GameResult::Capped => println!("stopped by the roll cap after {n} rolls"),
    }
}
