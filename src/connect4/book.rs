//! `kibitz connect4 book`: grow the opening book and print its statistics.

use super::solver;
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use kibitz_connect4::book::{self, Book};
use kibitz_connect4::{Board, TimeControl};
use std::path::Path;
use std::time::{Duration, Instant};

/// Grows the book at `file` to `plies` stones (resumable); with `recheck_easy`, first drops
/// the "easy" mark of entries that `easy_nodes` no longer proves, so the book also grows
/// below them.
pub fn grow_book(
    plies: usize,
    file: &Path,
    easy_nodes: u64,
    exact_secs: u64,
    max_new: usize,
    hash: usize,
    recheck_easy: bool,
) -> anyhow::Result<()> {
    let mut book = match std::fs::read(file) {
        Ok(bytes) => Book::from_bytes(&bytes).with_context(|| format!("{}", file.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Book::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", file.display())),
    };
    let start_len = book.len();
    let mut big = solver(hash);
    let mut quick = solver(48);
    let root = Board::<u64>::new(7, 6, 4).expect("7×6");
    if recheck_easy {
        let bar = ProgressBar::new(0).with_style(
            ProgressStyle::with_template(
                "recheck easy {bar:40} {pos}/{len} [{elapsed_precise}<{eta}]",
            )
            .expect("valid template"),
        );
        let dropped = book::recheck_easy(&mut book, &mut quick, root, plies, easy_nodes, |i, n| {
            bar.set_length(n as u64);
            bar.set_position(i as u64);
        });
        bar.finish();
        save_book(&book, file)?;
        println!("recheck: {dropped} positions no longer easy within {easy_nodes} nodes");
    }
    let mut added = 0;
    let mut last_save = Instant::now();
    // Each pass adds the frontier positions not yet in the book; their book moves open the
    // next pass's frontier. Stops when a pass adds nothing.
    'passes: loop {
        let todo: Vec<_> = book::frontier(&book, root, plies)
            .into_iter()
            .filter(|b| !book.contains(b))
            .collect();
        if todo.is_empty() {
            break;
        }
        let bar = ProgressBar::new(todo.len() as u64).with_style(
            ProgressStyle::with_template(
                "{msg} {bar:40} {pos}/{len} [{elapsed_precise}<{eta}] {per_sec}",
            )
            .expect("valid template"),
        );
        bar.set_message(format!("book ({} positions)", book.len()));
        for b in &todo {
            let exact = TimeControl::new(
                Duration::from_secs(exact_secs),
                Duration::from_secs(exact_secs),
            );
            if let Some(e) = book::analyse(&mut big, &mut quick, b, easy_nodes, &exact) {
                book.insert(b, e);
                added += 1;
            }
            bar.inc(1);
            bar.set_message(format!("book ({} positions)", book.len()));
            if last_save.elapsed() > Duration::from_secs(30) {
                save_book(&book, file)?;
                last_save = Instant::now();
            }
            if max_new > 0 && added >= max_new {
                bar.finish();
                break 'passes;
            }
        }
        bar.finish();
        save_book(&book, file)?;
    }
    save_book(&book, file)?;
    let per_ply = book_plies(&book);
    println!(
        "book {}: {} positions ({} new), {} bytes, positions per ply {:?}",
        file.display(),
        book.len(),
        book.len() - start_len,
        book.len() * book::RECORD,
        per_ply
    );
    Ok(())
}

/// Book positions per ply (positions reachable along book moves that are in the book).
fn book_plies(book: &Book) -> Vec<usize> {
    let root = Board::<u64>::new(7, 6, 4).expect("7×6");
    let mut per_ply = vec![0; 43];
    for b in book::frontier(book, root, 42) {
        if book.contains(&b) {
            per_ply[b.moves_played()] += 1;
        }
    }
    while per_ply.len() > 1 && per_ply.last() == Some(&0) {
        per_ply.pop();
    }
    per_ply
}

/// Prints the statistics of the book at `file`.
pub fn book_stats(file: &Path) -> anyhow::Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let book = Book::from_bytes(&bytes)?;
    let per_ply = book_plies(&book);
    let count = |f: u8| book.entries().filter(|(_, e)| e.flags & f != 0).count();
    println!(
        "{}: {} positions, {} bytes; exact {}, easy (solver alone) {}; positions per ply {:?}",
        file.display(),
        book.len(),
        bytes.len(),
        count(book::EXACT),
        count(book::EASY),
        per_ply
    );
    Ok(())
}

fn save_book(book: &Book, file: &Path) -> anyhow::Result<()> {
    let tmp = file.with_extension("tmp");
    std::fs::write(&tmp, book.to_bytes()).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, file).with_context(|| format!("renaming to {}", file.display()))?;
    Ok(())
}
