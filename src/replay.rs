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
        let header = format!(
            "{game} game {} (seed {}): {}",
            rec["index"],
            rec["seed"],
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
