//! `kibitz roundrobin <game> --players SPEC SPEC SPEC... [--gauntlet]`: more than two
//! players, as cutechess-cli and fastchess run them.
//!
//! Every pair of players (with `--gauntlet`: the first spec against each of the others)
//! plays one `kibitz match` of `--games` games: the same pairing units, seeds and concurrency,
//! and **the same match seed for every pair**, so every pair plays the same openings / deals
//! and a pair's games are exactly `kibitz match <game> --a SPEC_i --b SPEC_j --seed S`.
//! Pairs are played one after the other (each with all of `--concurrency`).
//!
//! The report is a crosstable (W/D/L of the row player against the column player) and one
//! Elo table over all games, fitted by maximum likelihood
//! ([`kibitz_search::stats::elo_ml`]: Bradley–Terry / logistic as Ordo, a draw counts half a
//! win; anchor `--anchor mean` (default: the ratings average 0) or `first` (player 1 is 0);
//! ± 95 % from the observed information). Should a player win or lose every game, the fit
//! adds one virtual draw per pair and the report says so.
//!
//! `--openings FILE` and `--deals FILE` are those of `kibitz match`, the same lines for
//! every pair.
//!
//! `--records DIR` writes each pair's games to `DIR/<game>-<seed>-<i>v<j>.jsonl` (players
//! numbered from 1 in the order given; the lines are those of `kibitz match --records`).

use crate::arena::cli::{tally_json, tally_table};
use crate::arena::play_flags::{PlayFlags, Resolved};
use crate::arena::{adapter, run_match, Arena, MatchOutcome, MatchSettings, SideTally};
use anyhow::Context;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use kibitz_search::stats::elo_ml::{self, Anchor, MlFit, PairResult};
use serde_json::{json, Value};
use std::path::PathBuf;

/// Flags of `kibitz roundrobin`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The game: connect4, piranhas, maumau or koehandel.
    pub game: String,
    /// The players' specs (as `kibitz match --a`), at least two; a spec may repeat.
    #[arg(long, num_args = 2.., required = true, value_name = "SPEC")]
    pub players: Vec<String>,
    /// Gauntlet: only the first player against each of the others.
    #[arg(long)]
    pub gauntlet: bool,
    /// Games per pair (rounded up to whole pairing units).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Seed (one for every pair), concurrency, default time, openings or deals, as in
    /// `kibitz match`.
    #[command(flatten)]
    pub play: PlayFlags,
    /// Connect Four: end games the exact solver proves within NODES nodes per move
    /// (as `kibitz match --adjudicate`).
    #[arg(long, value_name = "NODES", num_args = 0..=1, require_equals = true)]
    pub adjudicate: Option<Option<u64>>,
    /// Where the Elo scale is pinned: `mean` (ratings average 0) or `first` (player 1 is 0).
    #[arg(long, default_value = "mean", value_parser = ["mean", "first"])]
    pub anchor: String,
    /// Write every pair's games as JSON lines to `DIR/<game>-<seed>-<i>v<j>.jsonl`.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Print exactly one JSON object on stdout at the end (nothing else on stdout).
    #[arg(long)]
    pub json: bool,
}

/// The pairs `(i, j)` to play, `i < j`: every pair, or `(0, j)` for a gauntlet.
pub fn schedule(players: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..players).map(|j| (0, j)).collect()
    } else {
        (0..players)
            .flat_map(|i| (i + 1..players).map(move |j| (i, j)))
            .collect()
    }
}

/// One played pair: player indices and the match between them (`i` is A).
pub struct PairOutcome {
    /// Player A's index.
    pub i: usize,
    /// Player B's index.
    pub j: usize,
    /// The match.
    pub outcome: MatchOutcome,
}

/// The maximum-likelihood Elo list of the played pairs.
pub fn fit(players: usize, pairs: &[PairOutcome], anchor: Anchor) -> anyhow::Result<MlFit> {
    let results: Vec<PairResult> = pairs
        .iter()
        .map(|p| PairResult {
            i: p.i,
            j: p.j,
            wins: p.outcome.total.wins,
            draws: p.outcome.total.draws,
            losses: p.outcome.total.losses,
        })
        .collect();
    Ok(elo_ml::fit(players, &results, anchor)?)
}

/// Runs `kibitz roundrobin`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let game = adapter(&args.game)?;
    let options = crate::arena::GameOptions {
        seats: crate::arena::check_seats(game.as_ref(), None)?,
        adjudicate: args.adjudicate,
        ..Default::default()
    };
    let arena = crate::arena::configured(game, &options)?;
    for p in &args.players {
        arena.check_spec(p)?;
    }
    let Resolved {
        seed,
        concurrency,
        openings,
    } = args.play.resolve(arena.as_ref(), "tournament")?;
    let anchor = if args.anchor == "first" {
        Anchor::First
    } else {
        Anchor::Mean
    };
    let pairs_to_play = schedule(args.players.len(), args.gauntlet);
    if !args.json {
        println!(
            "{} {}: {} players, {} pairs × {} games, seed {seed}, concurrency {concurrency}",
            arena.name(),
            if args.gauntlet {
                "gauntlet"
            } else {
                "round robin"
            },
            args.players.len(),
            pairs_to_play.len(),
            args.games,
        );
        for (k, p) in args.players.iter().enumerate() {
            println!("  {}: {p}", k + 1);
        }
    }
    let mut played = Vec::new();
    for (i, j) in pairs_to_play {
        let scratch = args.records.as_ref().map(|d| {
            d.join(format!(
                ".roundrobin-{}-{seed}-{}v{}",
                arena.name(),
                i + 1,
                j + 1
            ))
        });
        let settings = MatchSettings {
            games: args.games,
            seed,
            concurrency,
            sprt: None,
            sprt_stop: false,
            openings: openings.clone(),
            tc_ms: args.play.tc,
            progress: true,
            records_dir: scratch.clone(),
        };
        let (a, b) = (&args.players[i], &args.players[j]);
        let out = run_match(arena.as_ref(), a, b, &settings)
            .with_context(|| format!("pair {} v {}", i + 1, j + 1))?;
        if let (Some(dir), Some(scratch), Some((file, lines))) =
            (&args.records, &scratch, &out.record_file)
        {
            let to = dir.join(format!("{}-{seed}-{}v{}.jsonl", arena.name(), i + 1, j + 1));
            std::fs::rename(file, &to)
                .with_context(|| format!("moving {} to {}", file.display(), to.display()))?;
            std::fs::remove_dir(scratch)
                .with_context(|| format!("removing {}", scratch.display()))?;
            eprintln!("{lines} records written to {}", to.display());
        }
        if !args.json {
            let t = &out.total;
            println!(
                "  {} v {}: +{} ={} -{}",
                i + 1,
                j + 1,
                t.wins,
                t.draws,
                t.losses
            );
        }
        played.push(PairOutcome { i, j, outcome: out });
    }
    let ml = fit(args.players.len(), &played, anchor)?;
    if args.json {
        println!("{}", json_report(arena.as_ref(), &args, seed, &played, &ml));
    } else {
        println!("{}", crosstable(&args.players, &played));
        println!("{}", elo_table(&args.players, &ml));
        println!(
            "Elo: maximum likelihood (logistic, draws as half points), anchor {}, ± 95 % from the observed information{}",
            if anchor == Anchor::First { "player 1 = 0" } else { "mean = 0" },
            if ml.regularised {
                "; regularised with one virtual draw per pair (someone won or lost every game)"
            } else {
                ""
            }
        );
        let rows: Vec<SideTally> = played
            .iter()
            .map(|p| SideTally {
                label: format!("{} v {}", p.i + 1, p.j + 1),
                ..p.outcome.total.clone()
            })
            .collect();
        println!(
            "{}",
            tally_table("pair", "Elo (i−j)", &rows.iter().collect::<Vec<_>>())
        );
    }
    Ok(())
}

/// The crosstable: row player's W-D-L against each column player, and their total.
pub fn crosstable(players: &[String], pairs: &[PairOutcome]) -> Table {
    let m = players.len();
    let mut cells = vec![vec![None::<(u32, u32, u32)>; m]; m];
    for p in pairs {
        let t = &p.outcome.total;
        cells[p.i][p.j] = Some((t.wins, t.draws, t.losses));
        cells[p.j][p.i] = Some((t.losses, t.draws, t.wins));
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    let mut header = vec![Cell::new("#"), Cell::new("player")];
    header.extend((1..=m).map(right));
    header.push(Cell::new("W-D-L"));
    header.push(Cell::new("points"));
    table.set_header(header);
    for (r, row) in cells.iter().enumerate() {
        let mut line = vec![right(r + 1), Cell::new(&players[r])];
        let (mut w, mut d, mut l) = (0, 0, 0);
        for c in row {
            line.push(right(match c {
                Some((a, b, x)) => {
                    w += a;
                    d += b;
                    l += x;
                    format!("{a}-{b}-{x}")
                }
                None => "·".into(),
            }));
        }
        line.push(right(format!("{w}-{d}-{l}")));
        line.push(right(format!("{:.1}", w as f64 + 0.5 * d as f64)));
        table.add_row(line);
    }
    table
}

/// The Elo list, strongest first.
pub fn elo_table(players: &[String], ml: &MlFit) -> Table {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| ml.ratings[b].elo.total_cmp(&ml.ratings[a].elo));
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_header(vec![
        "rank", "#", "player", "Elo", "± 95 %", "games", "points", "score",
    ]);
    for (rank, &k) in order.iter().enumerate() {
        let r = &ml.ratings[k];
        table.add_row(vec![
            right(rank + 1),
            right(k + 1),
            Cell::new(&players[k]),
            right(format!("{:+.1}", r.elo)),
            right(format!("{:.1}", r.error95)),
            right(r.games),
            right(format!("{:.1}", r.points)),
            right(format!(
                "{:.1} %",
                100.0 * r.points / f64::from(r.games.max(1))
            )),
        ]);
    }
    table
}

/// The `--json` object: `game`, `seed`, `gauntlet`, `games_per_pair`, `players` (specs),
/// `pairs` (per pair `i`, `j` (1-based), `a`, `b` and the totals of `kibitz match --json`),
/// `ratings` (per player `player` (1-based), `spec`, `elo`, `elo_ci95`, `games`, `points`),
/// `anchor` ("mean" | "first"), `model` and `regularised`.
pub fn json_report(
    arena: &dyn Arena,
    args: &Args,
    seed: u64,
    pairs: &[PairOutcome],
    ml: &MlFit,
) -> Value {
    json!({
        "game": arena.name(),
        "seed": seed,
        "gauntlet": args.gauntlet,
        "games_per_pair": args.games,
        "players": args.players,
        "pairs": pairs.iter().map(|p| {
            let mut v = tally_json(&p.outcome.total);
            v["i"] = json!(p.i + 1);
            v["j"] = json!(p.j + 1);
            v["a"] = json!(args.players[p.i]);
            v["b"] = json!(args.players[p.j]);
            if let Some(pent) = &p.outcome.pairs {
                v["pentanomial"] = json!(pent.counts);
            }
            v
        }).collect::<Vec<_>>(),
        "ratings": ml.ratings.iter().enumerate().map(|(k, r)| json!({
            "player": k + 1, "spec": args.players[k], "elo": r.elo, "elo_ci95": r.error95,
            "games": r.games, "points": r.points,
        })).collect::<Vec<_>>(),
        "anchor": if ml.anchor == Anchor::First { "first" } else { "mean" },
        "model": "bradley-terry ml, draws as half points",
        "regularised": ml.regularised,
    })
}

fn right(s: impl ToString) -> Cell {
    Cell::new(s.to_string()).set_alignment(CellAlignment::Right)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robins_pair_everyone_and_gauntlets_only_the_first() {
        assert_eq!(schedule(3, false), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(schedule(4, false).len(), 6);
        assert_eq!(schedule(4, true), vec![(0, 1), (0, 2), (0, 3)]);
    }
}
