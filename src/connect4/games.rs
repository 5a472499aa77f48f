//! `kibitz connect4 games`: the engine against a random or engine opponent, per-ply stats.

use super::fmt_dur;
use comfy_table::{presets::UTF8_FULL, Table};
use indicatif::ProgressBar;
use kibitz_bots_connect4::client::engine_deadlines;
use kibitz_connect4::players::{play_game, Opponent, Outcome};
use kibitz_connect4::Engine;
use rand::SeedableRng;
use std::time::Duration;

/// Plays `games` games and prints per-ply statistics.
pub fn play_games(games: usize, ms: u64, opponent: &str, seed: u64) -> anyhow::Result<()> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    // The bot's own deadlines for a reply time (soft half of it, hard 30 ms before it).
    let (soft, hard, _) = engine_deadlines(Duration::from_millis(ms));
    // Per ply: [moves, book, proven (book or solver), exact, heuristic], total time, max time.
    let mut stats = vec![([0usize; 5], Duration::ZERO, Duration::ZERO); 43];
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let bar = ProgressBar::new(games as u64);
    for g in 0..games {
        let mut us = Engine::new(7, 6, 4, 64)?;
        let mut them = Opponent::named(opponent, 64)?;
        let outcome = play_game(
            &mut us,
            &mut them,
            g % 2 == 0,
            (soft, hard),
            false,
            &mut rng,
            |m| {
                let c = m.choice;
                let s = &mut stats[m.board.moves_played()];
                s.0[0] += 1;
                s.0[1] += usize::from(c.source == "book");
                s.0[2] += usize::from(c.source == "book" || c.source == "solver");
                s.0[3] += usize::from(c.exact);
                s.0[4] += usize::from(c.source == "search");
                s.1 += m.time;
                s.2 = s.2.max(m.time);
                Ok::<(), kibitz_connect4::Error>(())
            },
        )?;
        match outcome {
            Outcome::Win => wins += 1,
            Outcome::Draw => draws += 1,
            Outcome::Loss => losses += 1,
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec![
        "ply",
        "our moves",
        "book",
        "proven",
        "exact",
        "heuristic",
        "mean time",
        "max time",
    ]);
    for (ply, (c, total, max)) in stats.iter().enumerate() {
        if c[0] == 0 {
            continue;
        }
        let pct = |x: usize| format!("{:.0}%", 100.0 * x as f64 / c[0] as f64);
        table.add_row(vec![
            ply.to_string(),
            c[0].to_string(),
            pct(c[1]),
            pct(c[2]),
            pct(c[3]),
            pct(c[4]),
            fmt_dur(total.div_f64(c[0] as f64)),
            fmt_dur(*max),
        ]);
    }
    println!("{table}");
    println!("our results: {wins} wins, {draws} draws, {losses} losses (opponent {opponent})");
    Ok(())
}
