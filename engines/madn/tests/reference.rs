//! The reference results of `data/wuerfel/reference/` (an independent simulation, 100,000 games
//! per pair): one test per die row and per pairing row of every reference file.
//!
//! We simulate 100,000 games per pair with our own seed. Overall win rates must lie within three
//! standard errors of the reference (the error of both simulations combined), and every
//! head-to-head win fraction within 1.0 percentage point (spec §8's rule; ≈ 4.5 standard errors).

use kibitz_madn::{parse_dice, Tournament, Variant};
use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

const GAMES: u64 = 100_000;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/wuerfel")
}

type Cache = Mutex<HashMap<String, Arc<OnceLock<Tournament>>>>;

fn tournament(cache: &Cache, input: &str, variant: Variant) -> Arc<OnceLock<Tournament>> {
    let key = format!("{input}/{}", variant.name());
    let cell = cache.lock().unwrap().entry(key).or_default().clone();
    cell.get_or_init(|| {
        let text = std::fs::read_to_string(data_dir().join(input)).expect("dice file");
        let mut t = Tournament::new(parse_dice(&text).expect("valid dice"), variant, 2021);
        t.extend_to(GAMES, &|_| {});
        t
    });
    cell
}

fn variant(name: &str) -> Variant {
    match name {
        "goal-first" => Variant::GoalFirst,
        "frozen-goal" => Variant::FrozenGoal,
        _ => Variant::Default,
    }
}

fn main() {
    let args = Arguments::from_args();
    let cache: &'static Cache = Box::leak(Box::default());
    let mut trials = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(data_dir().join("reference"))
        .expect("reference dir")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for path in files {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let (input, var) = stem.split_once('_').expect("wuerfelK_variant");
        let input = format!("{input}.txt");
        let var = variant(var);
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("pair ") {
                // pair 1 vs 2: wins 40578 : 59422  draws 0  capped 0  (…)
                let nums: Vec<f64> = rest
                    .split(|c: char| !c.is_ascii_digit())
                    .filter(|s| !s.is_empty())
                    .take(6)
                    .map(|s| s.parse().unwrap())
                    .collect();
                let (a, b) = (nums[0] as usize - 1, nums[1] as usize - 1);
                let n = nums[2] + nums[3] + nums[4] + nums[5];
                let (ra, rb) = (nums[2] / n, nums[3] / n);
                let input = input.clone();
                trials.push(Trial::test(
                    format!("{stem}::pair_{}_{}", a + 1, b + 1),
                    move || {
                        let t = tournament(cache, &input, var);
                        let m = t.get().unwrap().matrix();
                        let (ga, gb) = (m[a][b].unwrap(), m[b][a].unwrap());
                        if (ga - ra).abs() > 0.01 || (gb - rb).abs() > 0.01 {
                            return Err(Failed::from(format!(
                                "head-to-head {ga:.4}/{gb:.4}, reference {ra:.4}/{rb:.4}"
                            )));
                        }
                        Ok(())
                    },
                ));
            } else if let Some((die, cols)) = die_row(line) {
                let (wins, played) = cols;
                let input = input.clone();
                trials.push(Trial::test(format!("{stem}::die_{}", die + 1), move || {
                    let t = tournament(cache, &input, var);
                    let rank = t.get().unwrap().ranking();
                    let row = rank.iter().find(|r| r.die == die).unwrap();
                    let p_ref = wins / played;
                    let se = (p_ref.max(1e-4) * (1.0 - p_ref).max(1e-4) / played
                        + row.win_rate.max(1e-4) * (1.0 - row.win_rate).max(1e-4)
                            / row.games as f64)
                        .sqrt();
                    if (row.win_rate - p_ref).abs() > 3.0 * se {
                        return Err(Failed::from(format!(
                            "win rate {:.4} vs reference {p_ref:.4} (3 SE = {:.4})",
                            row.win_rate,
                            3.0 * se
                        )));
                    }
                    Ok(())
                }));
            }
        }
    }
    libtest_mimic::run(&args, trials).exit();
}

/// `1 | 1 2 3 4 5 6 | 290950/500000 | 0.5819 | 0` → (die index, (wins, played)).
fn die_row(line: &str) -> Option<(usize, (f64, f64))> {
    let cols: Vec<&str> = line.split('|').map(str::trim).collect();
    if cols.len() != 5 {
        return None;
    }
    let die: usize = cols[0].parse().ok()?;
    let (w, p) = cols[2].split_once('/')?;
    Some((die - 1, (w.parse().ok()?, p.parse().ok()?)))
}
