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
        let positions = adapter(game)?
            .replay(rec)
            .with_context(|| format!("game {g} of {}", args.file.display()))?;
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
            // A reader that stops early (`| head`) closes the pipe: that ends the replay, it
            // is no error (println! would panic on it).
            match print_all(&header, &positions) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                other => other?,
            }
        } else {
            interactive(&header, &positions)?;
        }
    }
    Ok(())
}

/// Every position, one after the other, to stdout.
fn print_all(header: &str, positions: &[(String, String)]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{header}")?;
    for (i, (what, board)) in positions.iter().enumerate() {
        writeln!(out, "[{i}/{}] {what}\n{board}", positions.len() - 1)?;
    }
    out.flush()
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
        let pos = adapter("connect4").unwrap().replay(&rec).unwrap();
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
        let e = adapter("connect4")
            .unwrap()
            .replay(&bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a column of 8"), "{e}");
    }
}
