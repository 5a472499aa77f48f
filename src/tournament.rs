//! `kibitz tournament`: every contest played locally over its real protocol against our
//! reference servers, with standings per contest.
//!
//! Each bots crate runs its own contest (server on loopback, our bots and baselines as real
//! network clients) within a time budget and returns standings; Würfelglück, whose "protocol" is
//! a file in and a ranking out, ranks the dice of the four official example files.

use anyhow::Context;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use kibitz_search::stats::Standing;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Flags of `kibitz tournament`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Seconds each network contest may take.
    #[arg(long, default_value_t = 20)]
    pub budget_secs: u64,
    /// Run only these contests (connect4, piranhas, maumau, koehandel, wuerfel); default all.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Folder with the Würfelglück example files.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/wuerfel"))]
    pub wuerfel_dir: PathBuf,
}

type Runner = fn(Duration) -> anyhow::Result<Vec<Standing>>;

/// Runs `kibitz tournament`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let budget = Duration::from_secs(args.budget_secs.max(1));
    let contests: [(&str, &str, Runner); 4] = [
        (
            "connect4",
            "Connect Four (UDP)",
            kibitz_bots_connect4::tournament::run,
        ),
        (
            "piranhas",
            "Piranhas (XML over TCP)",
            kibitz_bots_piranhas::tournament::run,
        ),
        (
            "maumau",
            "Mau-Mau (JSON lines over TCP)",
            kibitz_bots_maumau::tournament::run,
        ),
        (
            "koehandel",
            "Koehandel (HTTP GET)",
            kibitz_bots_koehandel::tournament::run,
        ),
    ];
    let wanted = |name: &str| args.only.is_empty() || args.only.iter().any(|o| o == name);
    let mut failed = Vec::new();
    let total = Instant::now();
    for (name, title, runner) in contests {
        if !wanted(name) {
            continue;
        }
        println!("\n━━ {title} ━━");
        let start = Instant::now();
        match runner(budget) {
            Ok(standings) => {
                println!("{}", standings_table(&standings));
                println!("({:.1} s)", start.elapsed().as_secs_f64());
            }
            Err(e) => {
                println!("FAILED: {e:#}");
                failed.push(name);
            }
        }
    }
    if wanted("wuerfel") {
        println!("\n━━ Würfelglück (file in, ranking out) ━━");
        if let Err(e) = wuerfel(&args.wuerfel_dir) {
            println!("FAILED: {e:#}");
            failed.push("wuerfel");
        }
    }
    println!(
        "\ntournament finished in {:.1} s",
        total.elapsed().as_secs_f64()
    );
    if failed.is_empty() {
        Ok(())
    } else {
        anyhow::bail!("contests failed: {}", failed.join(", "))
    }
}

fn right(s: impl ToString) -> Cell {
    Cell::new(s.to_string()).set_alignment(CellAlignment::Right)
}

/// Standings as a table, best first by points.
pub fn standings_table(rows: &[Standing]) -> Table {
    let mut rows = rows.to_vec();
    rows.sort_by(|a, b| b.points.total_cmp(&a.points).then(a.player.cmp(&b.player)));
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec![
        "#", "player", "games", "won", "drawn", "lost", "points", "note",
    ]);
    for (i, r) in rows.iter().enumerate() {
        t.add_row(vec![
            right(i + 1),
            Cell::new(&r.player),
            right(r.games),
            right(r.wins),
            right(r.draws),
            right(r.losses),
            right(format!("{:.1}", r.points)),
            Cell::new(&r.note),
        ]);
    }
    t
}

/// Ranks the dice of every example file until the ranking is settled at 99 %.
fn wuerfel(dir: &std::path::Path) -> anyhow::Result<()> {
    for k in 0..4 {
        let path = dir.join(format!("wuerfel{k}.txt"));
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let dice = kibitz_madn::parse_dice(&text).with_context(|| path.display().to_string())?;
        let start = Instant::now();
        let mut t = kibitz_madn::Tournament::new(dice, kibitz_madn::Variant::Default, 1);
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
        println!(
            "{} — {} games per pairing, {} ({:.1} s); points = win %",
            path.file_name().unwrap_or_default().to_string_lossy(),
            t.games_per_pair(),
            if settled {
                "ranking settled at 99 %"
            } else {
                "NOT settled (cap)"
            },
            start.elapsed().as_secs_f64()
        );
        println!("{}", standings_table(&rows));
    }
    Ok(())
}
