//! Research tool for issue 38 (the round limit as RED): replays match records
//! (`kibitz-record/1` JSON lines, as `kibitz match --records` writes them) and prints, for
//! every position from turn 40 on, what a fit of the `v5` round-limit terms needs:
//!
//! `game turn red_to_move y v4 d sign exposed bm nm em bo no eo` — `game` counts the replayed
//! records, `y` is the final result for the side to move
//! (1 win, 0.5 draw, 0 loss), `v4` the `v4` evaluation, and `d`, `sign`, `exposed` the
//! unweighted, unramped round-limit terms ([`kibitz_piranhas::eval::limit_terms`]), then per
//! side (mover `m`, opponent `o`) the biggest swarm, the fish count and the exposed fish.
//! Positions from turn 30 on (the fit script keeps turn 40 on unless told otherwise).
//!
//! Run: `cargo run --release -p kibitz-piranhas --example limit_data -- RECORDS.jsonl... > out.txt`.

use kibitz_piranhas::eval::{captures, evaluate, limit_sides, limit_terms, EvalParams};
use kibitz_piranhas::kraken::parse_pair;
use kibitz_piranhas::{Color, Move, State};
use std::io::{BufRead, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut games, mut skipped) = (0u32, 0u32);
    for path in std::env::args().skip(1) {
        let file = std::io::BufReader::new(std::fs::File::open(&path)?);
        for line in file.lines() {
            let line = line?;
            let Some(game) = replay(&line) else {
                skipped += 1;
                continue;
            };
            for l in game {
                writeln!(out, "{games} {l}")?;
            }
            games += 1;
        }
    }
    eprintln!("{games} games replayed, {skipped} skipped");
    Ok(())
}

/// The output lines of one record, or `None` if the record cannot be replayed.
fn replay(line: &str) -> Option<Vec<String>> {
    let r: serde_json::Value = serde_json::from_str(line).ok()?;
    let krakens = parse_pair(r["setup"]["krakens"].as_str()?).ok()?;
    // The server's winner: 0 RED, 1 BLUE, absent or null a draw.
    let winner = match r["result"]["winner"].as_u64() {
        Some(0) => Some(Color::Red),
        Some(1) => Some(Color::Blue),
        _ => None,
    };
    // Only games that ended by the rules (a server's causes all REGULAR; in-process records
    // have none).
    let causes = r["result"]["cause"].as_array().cloned().unwrap_or_default();
    if causes.iter().any(|c| c != "REGULAR") {
        return None;
    }
    let mut s = State::start(krakens);
    let mut out = Vec::new();
    for m in r["moves"].as_array()? {
        let m: Move = m.as_str()?.parse().ok()?;
        if s.turn() >= 30 && s.outcome().is_none() {
            let me = s.current();
            let y = match winner {
                None => 0.5,
                Some(w) if w == me => 1.0,
                Some(_) => 0.0,
            };
            let hits = [captures(&s, Color::Red).0, captures(&s, Color::Blue).0];
            let [d, sign, exposed] = limit_terms(&s, hits);
            let sides = limit_sides(&s, hits);
            let (m, o) = (sides[me as usize], sides[me.other() as usize]);
            out.push(format!(
                "{} {} {y} {} {d} {sign} {exposed} {} {} {} {} {} {}",
                s.turn(),
                u8::from(me == Color::Red),
                evaluate(&s, &EvalParams::V4),
                m.biggest,
                s.fish_count(me),
                m.exposed,
                o.biggest,
                s.fish_count(me.other()),
                o.exposed
            ));
        }
        s = s.apply(m).ok()?;
    }
    Some(out)
}
