//! `kibitz replay FILE`: steps through a game record (see `arena::record`) with the board
//! drawn, forwards and backwards with the arrow keys, or prints every position with `--all`.

use crate::arena::{adapter, record};
use anyhow::Context;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Flags of `kibitz replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A JSON-lines record file written by `--records`.
    pub file: PathBuf,
    /// Which game of the file (0-based line number among the records; default: the first,
    /// or every game with `--all`).
    #[arg(long)]
    pub game: Option<usize>,
    /// Print every position and exit (no key handling).
    #[arg(long)]
    pub all: bool,
}

/// Runs `kibitz replay`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let records = record::read(&args.file)?;
    if records.is_empty() {
        anyhow::bail!("{}: no records", args.file.display());
    }
    let chosen: Vec<usize> = match args.game {
        Some(g) if g < records.len() => vec![g],
        Some(g) => anyhow::bail!("--game {g}: the file holds {} games", records.len()),
        None if args.all => (0..records.len()).collect(),
        None => vec![0],
    };
    for g in chosen {
        let rec = &records[g];
        let game = rec["game"].as_str().context("record has no \"game\"")?;
        let positions =
            positions(game, rec).with_context(|| format!("game {g} of {}", args.file.display()))?;
        // A record without a seed (a server started by hand) says nothing about one.
        let seed = rec
            .get("seed")
            .filter(|s| !s.is_null())
            .map(|s| format!(" (seed {s})"))
            .unwrap_or_default();
        let header = format!(
            "{game} game {}{seed}: {}",
            rec["index"],
            rec["players"]
                .as_array()
                .map(|p| p
                    .iter()
                    .enumerate()
                    .map(|(i, s)| format!("seat {i} = {}", s.as_str().unwrap_or("?")))
                    .collect::<Vec<_>>()
                    .join(", "))
                .unwrap_or_default()
        );
        if args.all || !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
            println!("{header}");
            for (i, (what, board)) in positions.iter().enumerate() {
                println!("[{i}/{}] {what}\n{board}", positions.len() - 1);
            }
        } else {
            interactive(&header, &positions)?;
        }
    }
    Ok(())
}

/// The positions of one record. Connect Four is drawn on the record's own board
/// (`setup.columns`, `rows`, `connect`: a server may play any size, and the arena adapter
/// only knows 7 × 6); every other game goes through its arena adapter.
fn positions(game: &str, rec: &serde_json::Value) -> anyhow::Result<Vec<(String, String)>> {
    if !matches!(game, "connect4" | "c4") {
        return adapter(game)?.replay(rec);
    }
    use kibitz_connect4::{Player, Position};
    let setup = &rec["setup"];
    let size = |k: &str, default: usize| -> anyhow::Result<usize> {
        match setup.get(k) {
            None => Ok(default),
            Some(v) => v
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .with_context(|| format!("setup.{k} is not a size: {v}")),
        }
    };
    let (columns, rows, connect) = (size("columns", 7)?, size("rows", 6)?, size("connect", 4)?);
    let mut b = Position::new(columns, rows, connect)
        .map_err(|e| anyhow::anyhow!("setup {columns}x{rows} connect {connect}: {e}"))?;
    // An absent opening is the empty one (server records leave it out).
    let open = setup.get("opening").and_then(|o| o.as_str()).unwrap_or("");
    for ch in open.chars() {
        let c = ch
            .to_digit(10)
            .map(|d| d as usize)
            .filter(|d| (1..=columns).contains(d))
            .with_context(|| format!("bad opening {open:?}"))?;
        b.play(c - 1)
            .map_err(|e| anyhow::anyhow!("bad opening {open:?}: {e}"))?;
    }
    let mut out = vec![(format!("start, opening {open:?}"), b.to_string())];
    let moves = rec["moves"].as_array().context("record has no moves")?;
    for (i, m) in moves.iter().enumerate() {
        let c = m
            .as_u64()
            .filter(|c| (1..=columns as u64).contains(c))
            .with_context(|| format!("move {}: not a column of {columns}", i + 1))?;
        let who = if b.side_to_move() == Player::First {
            "● first"
        } else {
            "○ second"
        };
        b.play(c as usize - 1)
            .map_err(|e| anyhow::anyhow!("move {} (column {c}) is illegal: {e}", i + 1))?;
        out.push((format!("{}. {who} plays column {c}", i + 1), b.to_string()));
    }
    if let Some(last) = out.last_mut() {
        last.0 += match b.winner() {
            Some(Player::First) => "  — first player wins",
            Some(Player::Second) => "  — second player wins",
            None if b.is_full() => "  — draw",
            None => "",
        };
    }
    Ok(out)
}

/// Arrow keys / space / backspace step, Home/End jump, q or Esc quits.
fn interactive(header: &str, positions: &[(String, String)]) -> anyhow::Result<()> {
    use crossterm::event::{read, Event, KeyCode, KeyEventKind};
    use crossterm::terminal::{disable_raw_mode, enable_raw_mode, Clear, ClearType};
    use crossterm::{cursor::MoveTo, execute};
    let mut out = std::io::stdout();
    let mut i = 0usize;
    enable_raw_mode()?;
    let result = (|| -> anyhow::Result<()> {
        loop {
            execute!(out, Clear(ClearType::All), MoveTo(0, 0))?;
            let (what, board) = &positions[i];
            let text = format!(
                "{header}\n[{i}/{}] {what}\n\n{board}\n→/space next   ←/backspace back   Home/End   q quit\n",
                positions.len() - 1
            );
            // Raw mode needs explicit carriage returns.
            write!(out, "{}", text.replace('\n', "\r\n"))?;
            out.flush()?;
            if let Event::Key(k) = read()? {
                if k.kind != KeyEventKind::Press {
                    continue;
                }
                match k.code {
                    KeyCode::Right | KeyCode::Char(' ') | KeyCode::Enter | KeyCode::Char('l') => {
                        i = (i + 1).min(positions.len() - 1)
                    }
                    KeyCode::Left | KeyCode::Backspace | KeyCode::Char('h') => {
                        i = i.saturating_sub(1)
                    }
                    KeyCode::Home => i = 0,
                    KeyCode::End => i = positions.len() - 1,
                    KeyCode::Char('q') | KeyCode::Esc => return Ok(()),
                    _ => {}
                }
            }
        }
    })();
    disable_raw_mode()?;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz_bots_connect4::protocol::GameResult;
    use kibitz_bots_connect4::record::from_server;
    use kibitz_bots_connect4::server::GameRecord;

    /// Issue 37 item 6: an 8 × 7 server record (seven stones in one column) replays on an
    /// 8 × 7 board; it used to fail with "column 4 is full" on the adapter's 7 × 6.
    #[test]
    fn connect4_records_replay_on_their_own_board() {
        let game = GameRecord {
            season: 1,
            home: "a".into(),
            away: "b".into(),
            // Column 3 (0-based) filled to the top of 7 rows, then a's line on the bottom.
            moves: vec![3, 3, 3, 3, 3, 3, 3, 0, 4, 1, 5, 2],
            result: GameResult::Draw,
        };
        let rec = from_server(&game, 8, 7, 5);
        let dir = std::env::temp_dir().join(format!("kibitz-replay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("c4.jsonl");
        std::fs::write(&file, format!("{rec}\n")).unwrap();
        let got = run(Args {
            file: file.clone(),
            game: None,
            all: true,
        });
        let _ = std::fs::remove_dir_all(&dir);
        got.expect("an 8x7 record replays");
        let pos = positions("connect4", &rec).unwrap();
        assert_eq!(pos.len(), 13);
        // The drawn board is 8 columns wide and 7 rows high.
        let (_, last) = pos.last().unwrap();
        let mut want = kibitz_connect4::Position::new(8, 7, 5).unwrap();
        for c in [3, 3, 3, 3, 3, 3, 3, 0, 4, 1, 5, 2] {
            want.play(c).unwrap();
        }
        assert_eq!(*last, want.to_string());
        // A column beyond the record's board is refused with a message.
        let mut bad = rec.clone();
        bad["moves"] = serde_json::json!([9]);
        let e = positions("connect4", &bad).unwrap_err().to_string();
        assert!(e.contains("not a column of 8"), "{e}");
    }
}
