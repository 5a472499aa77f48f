//! `kibitz tournament`: every contest played locally over its real protocol against our
//! reference servers, a fixed number of games per pairing, with standings per contest.
//!
//! Each bots crate runs its own contest (server on loopback, our bot — always named `kibitz` —
//! and baselines as real network clients) for a fixed number of games and returns standings;
//! Würfelglück, whose "protocol" is a file in and a ranking out, ranks the dice of the four
//! official example files. Game counts, Kraken pairs, deals, decks and random players derive
//! from `--seed`; in Connect Four and Piranhas every engine player searches a fixed node
//! budget (printed in the setup lines), so two runs with the same `--seed` and `--games` print
//! the same standings. Everything that depends on the machine's load (seconds, move times)
//! goes to stderr, as does the progress: a bar per contest when stderr is a terminal, else a
//! line per tenth of the contest's games. `--records DIR` hands DIR to every contest
//! (`DIR/<contest>.jsonl`, kibitz-record/1; replay with `kibitz replay`).

use anyhow::Context;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use indicatif::{ProgressBar, ProgressStyle};
use kibitz_net::tournament::{Options, Progress, ProgressSink};
use kibitz_search::stats::{elo_from_wdl, Standing};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Flags of `kibitz tournament`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games per pairing (Connect Four: seasons of 2 games per pair = games/2; Mau-Mau: best of
    /// N, made odd; Koehandel: rounded up to a multiple of 4 seat rotations).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Seed of Kraken pairs, deals, decks, random players and dice games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run only these contests (connect4, piranhas, maumau, koehandel, wuerfel); default all.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Folder with the Würfelglück example files (default: the repository's data/wuerfel).
    #[arg(long)]
    pub wuerfel_dir: Option<PathBuf>,
    /// Write every game to `DIR/<contest>.jsonl` (kibitz-record/1; Piranhas also writes its
    /// Software-Challenge replays `DIR/piranhas-<n>.xml`). `kibitz replay FILE` reads them.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Old flag: the tournament now plays a fixed number of games (`--games`); ignored.
    #[arg(long, hide = true)]
    pub budget_secs: Option<u64>,
}

type Runner = fn(&Options) -> anyhow::Result<Vec<Standing>>;

/// One contest: flag name, title, runner, setup line, what points mean, baseline name.
struct Contest {
    name: &'static str,
    title: &'static str,
    runner: Runner,
    setup: String,
    points: &'static str,
    baseline: &'static str,
}

fn contests(games: u32) -> Vec<Contest> {
    vec![
        Contest {
            name: "connect4",
            title: "Connect Four (UDP)",
            runner: kibitz_bots_connect4::tournament::run,
            setup: format!(
                "7×6 board, connect 4; kibitz {} nodes/move, kibitz-depth4 depth 4 and {} nodes/move, no pondering (server limit 250 ms); {} season(s), each pair plays both colours",
                kibitz_bots_connect4::tournament::NODES,
                kibitz_bots_connect4::tournament::DEPTH4_NODES,
                games.div_ceil(2).max(1)
            ),
            points: "points = 1 per win, ½ per draw",
            baseline: "random-1",
        },
        Contest {
            name: "piranhas",
            title: "Piranhas (XML over TCP)",
            runner: kibitz_bots_piranhas::tournament::run,
            setup: format!(
                "10×10 board, Software-Challenge 2019 rules; kibitz searches {} nodes/move (server limit 2 s); {} games per pair (both colours per Kraken pair)",
                kibitz_bots_piranhas::tournament::NODES,
                games.max(1).div_ceil(2) * 2
            ),
            points: "points = contest match points: 2 per win, 1 per draw",
            baseline: "random",
        },
        Contest {
            name: "maumau",
            title: "Mau-Mau (JSON lines over TCP)",
            runner: kibitz_bots_maumau::tournament::run,
            setup: format!(
                "2 players per table, knock-out, matches of {} games (all played); kibitz (ISMCTS) {} iterations per move",
                games.max(1) | 1,
                kibitz_bots_maumau::tournament::ISMCTS_ITERATIONS
            ),
            points: "points = games won",
            baseline: "random",
        },
        Contest {
            name: "koehandel",
            title: "Koehandel (HTTP GET)",
            runner: kibitz_bots_koehandel::tournament::run,
            setup: format!(
                "4 seats, all four entrants in every game, {} games (seats rotated); kibitz (strong) {} worlds per decision",
                games.max(1).div_ceil(4) * 4,
                kibitz_bots_koehandel::tournament::STRONG_WORLDS
            ),
            points: "points = 1 per game won outright, 1/k shared by a k-way tie for first",
            baseline: "random",
        },
    ]
}

/// Runs `kibitz tournament`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.budget_secs.is_some() {
        eprintln!(
            "note: --budget-secs is gone; the tournament plays --games {} per pairing",
            args.games
        );
    }
    let wanted = |name: &str| args.only.is_empty() || args.only.iter().any(|o| o == name);
    let list = contests(args.games);
    let known = |o: &str| o == "wuerfel" || list.iter().any(|c| c.name == o);
    if let Some(bad) = args.only.iter().find(|o| !known(o)) {
        let mut names: Vec<&str> = list.iter().map(|c| c.name).collect();
        names.push("wuerfel");
        anyhow::bail!(
            "--only {bad}: no such contest; contests: {}",
            names.join(", ")
        );
    }
    println!(
        "kibitz tournament — seed {}, {} games per pairing (repeat with --seed {} --games {})",
        args.seed, args.games, args.seed, args.games
    );
    for c in list.iter().filter(|c| wanted(c.name)) {
        println!("  {:<32} {}", c.title, c.setup);
    }
    let mut failed = Vec::new();
    let mut summary = Vec::new();
    let total = Instant::now();
    for c in list {
        if !wanted(c.name) {
            continue;
        }
        println!("\n━━ {} ━━", c.title);
        eprintln!("… playing {} ({})", c.title, c.setup);
        let start = Instant::now();
        let sink = Arc::new(ContestProgress::new(c.name));
        let opts = Options {
            games: args.games,
            seed: args.seed,
            records: args.records.clone(),
            progress: Progress::new(sink.clone()),
        };
        let outcome = (c.runner)(&opts);
        sink.finish();
        eprintln!("  {} took {:.1} s", c.name, start.elapsed().as_secs_f64());
        match outcome {
            Ok(standings) => {
                println!("{}", standings_table(&standings, Some(c.baseline)));
                println!(
                    "{}; Elo = performance against the field, relative to {} (± 95 %)",
                    c.points, c.baseline,
                );
                summary.push(format!("{} {}", c.name, place_of_kibitz(&standings)));
            }
            Err(e) => {
                println!("FAILED: {e:#}");
                failed.push(c.name);
            }
        }
    }
    if wanted("wuerfel") {
        println!("\n━━ Würfelglück (file in, ranking out) ━━");
        let dir = match &args.wuerfel_dir {
            Some(d) => Ok(d.clone()),
            None => find_wuerfel_dir(),
        };
        if let Err(e) = dir.and_then(|d| wuerfel(&d, args.seed)) {
            println!("FAILED: {e:#}");
            failed.push("wuerfel");
        }
    }
    println!(
        "\nsummary: kibitz {}; {} failed",
        if summary.is_empty() {
            "-".to_string()
        } else {
            summary.join(", ")
        },
        failed.len(),
    );
    eprintln!("tournament took {:.1} s", total.elapsed().as_secs_f64());
    if failed.is_empty() {
        Ok(())
    } else {
        anyhow::bail!("contests failed: {}", failed.join(", "))
    }
}

/// A contest's progress on stderr: an indicatif bar when stderr is a terminal, else one line
/// whenever another tenth of the games is done (logs and CI stay readable).
struct ContestProgress {
    name: &'static str,
    bar: Option<ProgressBar>,
    total: AtomicU64,
    done: AtomicU64,
    /// Tenths already reported (line mode).
    tenths: AtomicU64,
}

impl ContestProgress {
    fn new(name: &'static str) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::new(0);
            b.set_style(
                ProgressStyle::with_template("  {prefix:<9} {bar:30} {pos}/{len} games  {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b.set_prefix(name);
            b
        });
        Self {
            name,
            bar,
            total: AtomicU64::new(0),
            done: AtomicU64::new(0),
            tenths: AtomicU64::new(0),
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl ProgressSink for ContestProgress {
    fn total(&self, games: u64) {
        self.total.store(games, Ordering::Relaxed);
        if let Some(b) = &self.bar {
            b.set_length(games);
        }
    }

    fn game_done(&self, summary: &str) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(b) = &self.bar {
            b.inc(1);
            b.set_message(summary.to_string());
            return;
        }
        let total = self.total.load(Ordering::Relaxed).max(done);
        let tenths = done * 10 / total;
        if self.tenths.fetch_max(tenths, Ordering::Relaxed) < tenths {
            eprintln!(
                "  {}: {done}/{total} games ({}%), last: {summary}",
                self.name,
                done * 100 / total
            );
        }
    }
}

/// `#1 of 4` (our bot's place by points; `#1= of 4` when it shares the place).
fn place_of_kibitz(rows: &[Standing]) -> String {
    match rows.iter().find(|r| r.player == "kibitz") {
        Some(r) => format!("#{} of {}", place(rows, r.points), rows.len()),
        None => "absent".into(),
    }
}

/// The one tie rule of the standings: a player's place is one more than the number of players
/// with more points, so equal points share a place, marked `=` (`1=`, `1=`, `3`).
fn place(rows: &[Standing], points: f64) -> String {
    let above = rows.iter().filter(|r| r.points > points).count();
    let tied = rows.iter().filter(|r| r.points == points).count() > 1;
    format!("{}{}", above + 1, if tied { "=" } else { "" })
}

/// The repository's `data/wuerfel` (where this binary was built from), else `data/wuerfel` in the
/// current folder or one of its ancestors.
fn find_wuerfel_dir() -> anyhow::Result<PathBuf> {
    let mut cands = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("data/wuerfel")];
    if let Ok(cwd) = std::env::current_dir() {
        cands.extend(cwd.ancestors().map(|r| r.join("data/wuerfel")));
    }
    cands
        .into_iter()
        .find(|c| c.join("wuerfel0.txt").is_file())
        .ok_or_else(|| anyhow::anyhow!("no data/wuerfel with wuerfel0.txt found in the repository or the current folder; pass --wuerfel-dir"))
}

fn right(s: impl ToString) -> Cell {
    Cell::new(s.to_string()).set_alignment(CellAlignment::Right)
}

/// Standings as a table, best first by points; with a baseline, a column of performance Elo
/// (from each player's W/D/L against the field) relative to the baseline's, ± 95 %.
pub fn standings_table(rows: &[Standing], baseline: Option<&str>) -> Table {
    let mut rows = rows.to_vec();
    rows.sort_by(|a, b| b.points.total_cmp(&a.points).then(a.player.cmp(&b.player)));
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    let base = baseline
        .and_then(|b| rows.iter().find(|r| r.player == b))
        .map(|r| elo_from_wdl(r.wins, r.draws, r.losses));
    let mut header = vec!["#", "player", "games", "won", "drawn", "lost", "points"];
    if let Some(b) = baseline.filter(|_| base.is_some()) {
        header.push(if b.starts_with("random") {
            "Elo vs random"
        } else {
            "Elo vs baseline"
        });
    }
    header.push("note");
    t.set_header(header);
    for r in &rows {
        let elo = base.map(|b| {
            let e = elo_from_wdl(r.wins, r.draws, r.losses);
            let err = (e.error95.powi(2) + b.error95.powi(2)).sqrt();
            if r.player == baseline.unwrap_or_default() {
                "0 (baseline)".to_string()
            } else if (e.elo - b.elo).is_finite() && err.is_finite() {
                format!("{:+.0} ± {:.0}", e.elo - b.elo, err)
            } else {
                "unbounded (a score of 0 or 100 %)".to_string()
            }
        });
        t.add_row(
            vec![
                right(place(&rows, r.points)),
                Cell::new(&r.player),
                right(r.games),
                right(r.wins),
                right(r.draws),
                right(r.losses),
                right(format!("{:.1}", r.points)),
            ]
            .into_iter()
            .chain(elo.map(right))
            .chain(std::iter::once(Cell::new(&r.note)))
            .collect::<Vec<_>>(),
        );
    }
    t
}

/// Ranks the dice of every example file until the ranking is settled at 99 %.
fn wuerfel(dir: &Path, seed: u64) -> anyhow::Result<()> {
    for k in 0..4 {
        let path = dir.join(format!("wuerfel{k}.txt"));
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let dice = kibitz_madn::parse_dice(&text).with_context(|| path.display().to_string())?;
        let start = Instant::now();
        let mut t = kibitz_madn::Tournament::new(dice, kibitz_madn::Variant::Default, seed);
        let settled = t.run_until_settled(20_000, 0.99, 2_000_000, &|_| {});
        let rows: Vec<Standing> = t
            .ranking()
            .iter()
            .map(|r| Standing {
                player: format!("die {} ({})", r.die + 1, t.dice()[r.die]),
                games: r.games as u32,
                wins: r.wins as u32,
                draws: r.draws as u32,
                losses: (r.games - r.wins - r.draws) as u32,
                points: 100.0 * r.win_rate,
                note: format!("win % {:.2}–{:.2}", 100.0 * r.ci95.0, 100.0 * r.ci95.1),
            })
            .collect();
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        eprintln!("  {file} took {:.1} s", start.elapsed().as_secs_f64());
        println!(
            "{file} — {} games per pairing, {}; points = win %",
            t.games_per_pair(),
            if settled {
                "ranking settled at 99 %"
            } else {
                "NOT settled (cap)"
            },
        );
        println!("{}", standings_table(&rows, None));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(player: &str, points: f64) -> Standing {
        Standing {
            player: player.into(),
            points,
            ..Default::default()
        }
    }

    #[test]
    fn one_tie_rule_for_table_and_summary() {
        let rows = vec![row("kibitz", 2.0), row("greedy", 2.0), row("random", 0.0)];
        assert_eq!(place_of_kibitz(&rows), "#1= of 3");
        let table = standings_table(&rows, None).to_string();
        let places: Vec<&str> = table
            .lines()
            .filter(|l| l.contains("kibitz") || l.contains("greedy") || l.contains("random"))
            .map(|l| {
                l.trim_start_matches('│')
                    .split('┆')
                    .next()
                    .unwrap_or("")
                    .trim()
            })
            .collect();
        assert_eq!(places, ["1=", "1=", "3"], "{table}");
        let alone = vec![row("kibitz", 1.0), row("greedy", 2.0)];
        assert_eq!(place_of_kibitz(&alone), "#2 of 2");
    }
}
