//! `kibitz score FILE...`: the result of games already played, read from record files
//! (`kibitz-record/1`, see `arena::record`): every player's standing, or one player's match
//! against the field with W/D/L, Elo ± 95 % and LOS per seat and overall, an optional SPRT
//! line, and how the games ended.
//!
//! It exists for matches that `kibitz match` cannot play itself: real bot binaries (an old
//! build against a new one) through a reference server's tournament mode or `--records`,
//! at the contest's own time control, often over several runs with different seeds.

use crate::arena::cli::{sprt_json, sprt_text, tally_json, tally_table};
use crate::arena::{record, SideTally};
use anyhow::{anyhow, bail, Context};
use kibitz_search::stats::{elo_from_wdl, Sprt};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Flags of `kibitz score`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Record files (JSON lines) written by `--records` of a server, a match or a tournament.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The player whose match to score, as named in the records' `players` (without it:
    /// every player's standing).
    #[arg(long)]
    pub a: Option<String>,
    /// Only games against this player (default: every game A played).
    #[arg(long)]
    pub b: Option<String>,
    /// Treat player name FROM as TO (repeatable): merges one bot's games across runs whose
    /// servers named it differently, e.g. `--rename "1: new2.sh=1: new.sh"`.
    #[arg(long, value_name = "FROM=TO")]
    pub rename: Vec<String>,
    /// SPRT `elo0,elo1[,alpha,beta]` of A's result (default alpha = beta = 0.05).
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Print exactly one JSON object on stdout instead of the tables.
    #[arg(long)]
    pub json: bool,
    /// Also write A's Elo ± 95 % and the SPRT log-likelihood ratio over the games, in record
    /// order, as `DIR/elo.svg` and `DIR/sprt.svg` (needs `--a`; SPRT bounds from `--sprt`,
    /// else [0, 10]).
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
}

/// One game as this command needs it: who sat where, and who won.
#[derive(Debug, Clone, PartialEq)]
struct Game {
    kind: String,
    players: Vec<String>,
    /// The winning seats: one for a win, several for a shared first place (a draw for them,
    /// a loss for the rest), every seat for a drawn two-player game.
    winners: Vec<usize>,
    reason: String,
}

/// Counts one game for the player in `seat`.
fn add(t: &mut SideTally, seat: usize, winners: &[usize]) {
    match winners {
        [w] if *w == seat => t.wins += 1,
        ws if ws.contains(&seat) => t.draws += 1,
        _ => t.losses += 1,
    }
}

/// Runs `kibitz score`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let renames = parse_renames(&args.rename)?;
    let mut games = Vec::new();
    for file in &args.files {
        for (i, rec) in record::read(file)?.iter().enumerate() {
            let mut g =
                game_of(rec).with_context(|| format!("{}: record {}", file.display(), i + 1))?;
            for p in &mut g.players {
                if let Some(to) = renames.get(p.as_str()) {
                    p.clone_from(to);
                }
            }
            games.push(g);
        }
    }
    if games.is_empty() {
        bail!("no records in {} file(s)", args.files.len());
    }
    let sprt = args
        .sprt
        .as_deref()
        .map(crate::arena::cli::parse_sprt)
        .transpose()?;
    let report = match &args.a {
        None => standings(&games),
        Some(a) => head_to_head(&games, a, args.b.as_deref(), sprt.as_ref())?,
    };
    if let Some(dir) = &args.plots {
        let a = args
            .a
            .as_deref()
            .context("--plots draws A's match: name A with --a")?;
        let run = running(&games, a, args.b.as_deref());
        let (elo, llr) =
            crate::serve::plots::match_plots(&run, sprt.as_ref().unwrap_or(&Sprt::default()));
        std::fs::create_dir_all(dir).with_context(|| format!("--plots {}", dir.display()))?;
        for (name, svg) in [("elo.svg", elo), ("sprt.svg", llr)] {
            let path = dir.join(name);
            std::fs::write(&path, svg).with_context(|| format!("writing {}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
    }
    if args.json {
        println!("{}", report.json);
    } else {
        print!("{}", report.text);
    }
    Ok(())
}

/// What `run` prints: tables for people, one object for scripts.
struct Report {
    text: String,
    json: Value,
}

fn parse_renames(pairs: &[String]) -> anyhow::Result<BTreeMap<String, String>> {
    pairs
        .iter()
        .map(|p| {
            p.split_once('=')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| anyhow!("--rename {p:?}: expected FROM=TO"))
        })
        .collect()
}

fn game_of(rec: &Value) -> anyhow::Result<Game> {
    let kind = rec["game"].as_str().context("no \"game\"")?.to_string();
    let players: Vec<String> = rec["players"]
        .as_array()
        .context("no \"players\" list")?
        .iter()
        .map(|p| {
            p.as_str()
                .map(str::to_string)
                .context("a player is not a string")
        })
        .collect::<anyhow::Result<_>>()?;
    if players.len() < 2 {
        bail!("{} player(s): a game needs two or more", players.len());
    }
    let result = rec.get("result").context("no \"result\"")?;
    let winners = match result.get("winner") {
        None => bail!("no \"result.winner\""),
        // No single winner: the seats with the best score share first place (Koehandel
        // records its scores), or, without scores, every seat drew.
        Some(Value::Null) => match result.get("scores").and_then(Value::as_array) {
            Some(scores) if scores.len() == players.len() => {
                let scores: Vec<f64> = scores
                    .iter()
                    .map(|x| x.as_f64().context("a score is not a number"))
                    .collect::<anyhow::Result<_>>()?;
                let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                (0..players.len()).filter(|&i| scores[i] == best).collect()
            }
            _ => (0..players.len()).collect(),
        },
        Some(w) => {
            let seat = w
                .as_u64()
                .context("\"result.winner\" is not a seat number or null")?;
            if seat as usize >= players.len() {
                bail!("winner seat {seat} of {} players", players.len());
            }
            vec![seat as usize]
        }
    };
    let reason = result["reason"]
        .as_str()
        .unwrap_or("(no reason given)")
        .to_string();
    Ok(Game {
        kind,
        players,
        winners,
        reason,
    })
}

/// Seat names as each contest calls them (the registry's `seat_label`: Piranhas' colours,
/// Connect Four's move order); `seat N` for a game the registry does not know.
fn seat_label(kind: &str, seat: usize) -> String {
    crate::registry::find(kind)
        .map(|g| (g.seat_label)(seat))
        .unwrap_or_else(|_| format!("seat {seat}"))
}

/// How many games ended for each reason, most common first.
fn reasons(games: &[&Game]) -> Vec<(String, u32)> {
    let mut count: BTreeMap<&str, u32> = BTreeMap::new();
    for g in games {
        *count.entry(g.reason.as_str()).or_default() += 1;
    }
    let mut v: Vec<(String, u32)> = count.into_iter().map(|(r, n)| (r.to_string(), n)).collect();
    v.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
    v
}

fn reasons_json(rs: &[(String, u32)]) -> Value {
    rs.iter()
        .map(|(r, n)| json!({"reason": r, "games": n}))
        .collect()
}

fn reasons_text(rs: &[(String, u32)]) -> String {
    let mut s = String::from("ended by:\n");
    for (r, n) in rs {
        s.push_str(&format!("  {n:>6}  {r}\n"));
    }
    s
}

/// Every player's W/D/L over all the games it sat in, best score first, per game: a
/// tournament's records name our bot `kibitz` in every contest, and a Connect Four result
/// says nothing about Mau-Mau, so the same name in two games is two rows (`connect4: kibitz`).
fn standings(games: &[Game]) -> Report {
    let kinds: std::collections::BTreeSet<&str> = games.iter().map(|g| g.kind.as_str()).collect();
    let mut by: BTreeMap<(&str, &str), SideTally> = BTreeMap::new();
    for g in games {
        for (seat, p) in g.players.iter().enumerate() {
            let t = by.entry((g.kind.as_str(), p.as_str())).or_default();
            if t.label.is_empty() {
                t.label = if kinds.len() > 1 {
                    format!("{}: {p}", g.kind)
                } else {
                    p.clone()
                };
            }
            add(t, seat, &g.winners);
        }
    }
    let score = |t: &SideTally| elo_from_wdl(t.wins, t.draws, t.losses).score;
    let mut keyed: Vec<((&str, &str), SideTally)> = by.into_iter().collect();
    keyed.sort_by(|(kx, x), (ky, y)| {
        kx.0.cmp(ky.0)
            .then(score(y).total_cmp(&score(x)))
            .then(x.label.cmp(&y.label))
    });
    let (keys, rows): (Vec<(&str, &str)>, Vec<SideTally>) = keyed.into_iter().unzip();
    let table = tally_table("player", "Elo (vs field)", &rows.iter().collect::<Vec<_>>());
    let all: Vec<&Game> = games.iter().collect();
    let ends = reasons(&all);
    let text = format!("{} games\n{table}\n{}", games.len(), reasons_text(&ends));
    let json = json!({
        "games": games.len(),
        "players": rows.iter().zip(&keys).map(|(t, (kind, player))| {
            let mut v = tally_json(t);
            v["player"] = json!(player);
            v["game"] = json!(kind);
            v
        }).collect::<Vec<_>>(),
        "reasons": reasons_json(&ends),
    });
    Report { text, json }
}

/// A's games (against B, or against anyone), per seat A sat in and overall.
/// The games A played (against B, if given), each with A's seat, in record order.
fn games_of<'g>(
    games: &'g [Game],
    a: &'g str,
    b: Option<&'g str>,
) -> impl Iterator<Item = (&'g Game, usize)> + 'g {
    games.iter().filter_map(move |g| {
        let seat = g.players.iter().position(|p| p == a)?;
        if b.is_some_and(|b| !g.players.iter().any(|p| p == b)) {
            return None;
        }
        Some((g, seat))
    })
}

/// A's running W/D/L after each of its games, in record order (for `--plots`).
fn running(games: &[Game], a: &str, b: Option<&str>) -> Vec<(u32, u32, u32)> {
    let mut t = SideTally::default();
    games_of(games, a, b)
        .map(|(g, seat)| {
            add(&mut t, seat, &g.winners);
            (t.wins, t.draws, t.losses)
        })
        .collect()
}

fn head_to_head(
    games: &[Game],
    a: &str,
    b: Option<&str>,
    sprt: Option<&Sprt>,
) -> anyhow::Result<Report> {
    let mut seats: BTreeMap<(String, usize), SideTally> = BTreeMap::new();
    let mut total = SideTally {
        label: "all".into(),
        ..SideTally::default()
    };
    let mut played = Vec::new();
    for (g, seat) in games_of(games, a, b) {
        let t = seats.entry((g.kind.clone(), seat)).or_default();
        t.label = seat_label(&g.kind, seat);
        add(t, seat, &g.winners);
        add(&mut total, seat, &g.winners);
        played.push(g);
    }
    if played.is_empty() {
        let mut names: Vec<&str> = games
            .iter()
            .flat_map(|g| g.players.iter().map(String::as_str))
            .collect();
        names.sort_unstable();
        names.dedup();
        bail!(
            "no game of {a:?}{} in the records (players: {})",
            b.map(|b| format!(" against {b:?}")).unwrap_or_default(),
            names.join(", ")
        );
    }
    let mut rows: Vec<&SideTally> = seats.values().collect();
    rows.push(&total);
    let opponent = b.map_or_else(|| "the field".to_string(), |b| format!("{b:?}"));
    let mut text = format!(
        "A = {a:?} against {opponent}: {} games\n{}\n",
        played.len(),
        tally_table("A as", "Elo (A−opponent)", &rows)
    );
    let ends = reasons(&played);
    let mut json = json!({
        "a": a, "b": b,
        "total": tally_json(&total),
        "seats": seats.values().map(|t| {
            let mut v = tally_json(t);
            v["seat"] = json!(t.label);
            v
        }).collect::<Vec<_>>(),
        "reasons": reasons_json(&ends),
    });
    if let Some(s) = sprt {
        text.push_str(&sprt_text(s, &total, None));
        text.push('\n');
        json["sprt"] = sprt_json(s, &total, None);
    }
    text.push_str(&reasons_text(&ends));
    Ok(Report { text, json })
}
