//! `kibitz connect4 games`: the engine against a random or engine opponent, per-ply stats.

use super::{fmt_dur, play_one, Score};
use comfy_table::{presets::UTF8_FULL, Table};
use indicatif::ProgressBar;
use kibitz_bots_connect4::client::engine_deadlines;
use kibitz_connect4::agents::{self, AgentSpec, EngineAgent, EngineSpec};
use kibitz_connect4::game_impl::C4Config;
use kibitz_connect4::TimeControl;
use std::time::Duration;

/// Plays `games` games and prints per-ply statistics.
pub fn play_games(games: usize, ms: u64, opponent: &str, seed: u64) -> anyhow::Result<()> {
    let them_spec = AgentSpec::opponent(opponent, 64)?;
    // The bot's own deadlines for a reply time (soft half of it, hard 30 ms before it).
    let (soft, hard, _) = engine_deadlines(Duration::from_millis(ms));
    // Per ply: [moves, book, proven (book or solver), exact, heuristic], total time, max time.
    let mut stats = vec![([0usize; 5], Duration::ZERO, Duration::ZERO); 43];
    let mut score = Score::default();
    let bar = ProgressBar::new(games as u64);
    for g in 0..games {
        let config = C4Config::default();
        let mut us = EngineAgent::new(&EngineSpec::engine(64), &config)?;
        let mut them = them_spec.build(&config)?;
        score.add(play_one(
            &mut us,
            &mut *them,
            g % 2,
            (seed, g as u64),
            || TimeControl::new(soft, hard),
            |m| {
                let d = m.decision;
                let source = agents::source(d).unwrap_or("none");
                let s = &mut stats[m.board.moves_played()];
                s.0[0] += 1;
                s.0[1] += usize::from(source == "book");
                s.0[2] += usize::from(source == "book" || source == "solver");
                s.0[3] += usize::from(agents::exact(d));
                s.0[4] += usize::from(source == "search");
                s.1 += d.elapsed;
                s.2 = s.2.max(d.elapsed);
                Ok::<(), kibitz_connect4::Error>(())
            },
        )?);
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
    let Score {
        wins,
        draws,
        losses,
    } = score;
    println!("our results: {wins} wins, {draws} draws, {losses} losses (opponent {opponent})");
    Ok(())
}
