//! A fixed Würfelglück workload for profiling the hot loop (callgrind, `perf stat`) without
//! building the whole `kibitz` binary: `cargo run --release -p kibitz-madn --example
//! wuerfel_bench -- FILE GAMES [default|goal-first|frozen-goal]` plays GAMES games per pairing
//! of the dice in FILE on one thread (seed 1) and prints the tallies and the number of rolls.

use kibitz_madn::{parse_dice, Tournament, Variant};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: wuerfel_bench FILE GAMES [default|goal-first|frozen-goal]";
    let file = args.get(1).ok_or(usage)?;
    let games: u64 = args
        .get(2)
        .ok_or(usage)?
        .parse()
        .map_err(|e| format!("GAMES: {e}"))?;
    let variant = match args.get(3).map(String::as_str) {
        None | Some("default") => Variant::Default,
        Some("goal-first") => Variant::GoalFirst,
        Some("frozen-goal") => Variant::FrozenGoal,
        Some(other) => return Err(format!("unknown variant `{other}`; {usage}")),
    };
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let dice = parse_dice(&text).map_err(|e| format!("{file}: {e}"))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| e.to_string())?;
    let mut t = Tournament::new(dice, variant, 1);
    pool.install(|| t.extend_to(games, &|_| {}));
    let mut rolls = 0;
    for ((a, b), tally) in t.pairs() {
        println!(
            "{} {}: {} : {} draws {} capped {} rolls {}",
            a + 1,
            b + 1,
            tally.a_wins,
            tally.b_wins,
            tally.draws,
            tally.capped,
            tally.rolls
        );
        rolls += tally.rolls;
    }
    println!("rolls {rolls}");
    Ok(())
}
