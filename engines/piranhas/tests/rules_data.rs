//! Rules tests generated from the repository's data/piranhas: one trial per data row (perft counts,
//! the 340 start positions, the 2,700 playout positions, the rule scenarios).

use kibitz_piranhas::kraken::all_pairs;
use kibitz_piranhas::{perft, Color, State};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use std::collections::BTreeSet;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/piranhas/");

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{DATA}{name}"))
        .unwrap_or_else(|e| panic!("cannot read {DATA}{name}: {e}"))
}

fn check(cond: bool, msg: impl FnOnce() -> String) -> Result<(), Failed> {
    if cond {
        Ok(())
    } else {
        Err(msg().into())
    }
}

fn sorted_moves(s: &State) -> Vec<String> {
    let mut v: Vec<String> = s.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn color_key(c: Color) -> &'static str {
    c.name()
}

// ---------------------------------------------------------------- perft.txt

fn parse_krakens(s: &str) -> [(u8, u8); 2] {
    // "(3,3)(6,7)"
    let nums: Vec<u8> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    [(nums[0], nums[1]), (nums[2], nums[3])]
}

fn perft_trials() -> Vec<Trial> {
    let mut out = Vec::new();
    for (line_no, line) in read("perft.txt").lines().enumerate() {
        let mut krakens = None;
        let mut board = None;
        for tok in line.split_whitespace() {
            if let Some(k) = tok.strip_prefix("krakens=") {
                krakens = Some(parse_krakens(k));
            } else if let Some(b) = tok.strip_prefix("board=") {
                board = Some(b.to_string());
            } else if let Some(rest) = tok.strip_prefix("perft") {
                let (d, n) = rest.split_once('=').unwrap();
                let depth: u32 = d.parse().unwrap();
                let expected: u64 = n.parse().unwrap();
                let krakens = krakens.unwrap();
                let board = board.clone();
                let name = format!("perft/line{}/{:?}/depth{depth}", line_no + 1, krakens);
                out.push(Trial::test(name, move || {
                    let start = State::start(krakens);
                    if let Some(b) = &board {
                        check(&start.board().to_letters() == b, || {
                            format!("start board differs: {}", start.board().to_letters())
                        })?;
                    }
                    let got = perft(&start, depth);
                    check(got == expected, || format!("perft {got} != {expected}"))
                }));
            }
        }
    }
    out
}

// ---------------------------------------------------------------- start_positions.jsonl

fn start_trials() -> Vec<Trial> {
    let text = read("start_positions.jsonl");
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let pair_of = |v: &Value| -> [(u8, u8); 2] {
        let k = v["krakens"].as_array().unwrap();
        let p = |i: usize| {
            (
                k[i][0].as_u64().unwrap() as u8,
                k[i][1].as_u64().unwrap() as u8,
            )
        };
        [p(0), p(1)]
    };
    let file_pairs: BTreeSet<[(u8, u8); 2]> = rows
        .iter()
        .map(|r| {
            let mut p = pair_of(r);
            p.sort();
            p
        })
        .collect();
    let mut out = vec![Trial::test("start/kraken_pair_set", move || {
        let ours: BTreeSet<[(u8, u8); 2]> = all_pairs()
            .into_iter()
            .map(|mut p| {
                p.sort();
                p
            })
            .collect();
        check(ours.len() == 340 && ours == file_pairs, || {
            format!("{} pairs, file has {}", ours.len(), file_pairs.len())
        })
    })];
    for row in rows {
        let pair = pair_of(&row);
        out.push(Trial::test(format!("start/{pair:?}"), move || {
            let s = State::start(pair);
            check(
                s.board().to_letters() == row["board"].as_str().unwrap(),
                || "board differs".into(),
            )?;
            let red = s.legal_moves().len() as u64;
            check(red == row["red_moves"].as_u64().unwrap(), || {
                format!("red moves {red}")
            })?;
            let blue_state = State::from_board(*s.board(), 1).unwrap();
            let blue = blue_state.legal_moves().len() as u64;
            check(blue == row["blue_moves"].as_u64().unwrap(), || {
                format!("blue moves {blue}")
            })?;
            let want: Vec<String> = row["red_move_list"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            check(sorted_moves(&s) == want, || "red move list differs".into())
        }));
    }
    out
}

// ---------------------------------------------------------------- playouts_small.jsonl

fn playout_row(row: &Value, next: Option<&Value>) -> Result<(), Failed> {
    let turn = row["turn"].as_u64().unwrap() as u32;
    let s = State::from_letters(row["board"].as_str().unwrap(), turn)?;
    check(
        s.current().name() == row["current"].as_str().unwrap(),
        || "side to move differs".into(),
    )?;
    for c in Color::BOTH {
        let k = color_key(c);
        let sw = s.biggest_swarm(c) as u64;
        check(sw == row["swarm"][k].as_u64().unwrap(), || {
            format!("{k} swarm {sw}")
        })?;
        let f = s.fish_count(c) as u64;
        check(f == row["fish"][k].as_u64().unwrap(), || {
            format!("{k} fish {f}")
        })?;
        let con = s.is_connected(c);
        check(con == row["connected"][k].as_bool().unwrap(), || {
            format!("{k} connected {con}")
        })?;
    }
    let result = s.result();
    match (&row["win"], result) {
        (Value::Null, None) => {}
        (Value::Null, Some(r)) => return Err(format!("unexpected result {r}").into()),
        (w, None) => return Err(format!("missed result {w}").into()),
        (w, Some(r)) => {
            let winner = r.winner.map(|c| c.name());
            check(w["winner"].as_str() == winner, || {
                format!("winner {winner:?}")
            })?;
            check(w["reason"].as_str() == r.reason.text(), || {
                format!("reason {:?}", r.reason)
            })?;
        }
    }
    let want: Vec<String> = row["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    check(sorted_moves(&s) == want, || "move list differs".into())?;
    if let Some(n) = next.filter(|n| n["game"] == row["game"]) {
        // The incrementally updated state (hash, line counts, sums) must equal the one built
        // from scratch.
        let next_state = State::from_letters(n["board"].as_str().unwrap(), turn + 1)?;
        let found = s
            .legal_moves()
            .into_iter()
            .any(|m| s.apply(m).unwrap() == next_state);
        check(found, || "no legal move leads to the next position".into())?;
    }
    Ok(())
}

fn playout_trials() -> Vec<Trial> {
    // Stored gzipped (2.3 MB as text, 110 kB compressed).
    let path = format!("{DATA}playouts_small.jsonl.gz");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(file), &mut text)
        .unwrap_or_else(|e| panic!("cannot unzip {path}: {e}"));
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let rows = std::sync::Arc::new(rows);
    (0..rows.len())
        .map(|i| {
            let rows = rows.clone();
            let name = format!("playout/game{}/turn{}", rows[i]["game"], rows[i]["turn"]);
            Trial::test(name, move || playout_row(&rows[i], rows.get(i + 1)))
        })
        .collect()
}

// ---------------------------------------------------------------- scenarios.txt

#[path = "rules_data/scenarios.rs"]
mod scenarios;

fn main() {
    let args = Arguments::from_args();
    let mut trials = perft_trials();
    trials.extend(start_trials());
    trials.extend(playout_trials());
    trials.extend(scenarios::trials(&read("scenarios.txt")));
    libtest_mimic::run(&args, trials).exit();
}
