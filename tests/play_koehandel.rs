//! `kibitz play koehandel` with input piped in: the market's questions read as sentences
//! (who auctions which animal, the bid, money as values), never as the engine's Debug text.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn koehandel_prompts_are_readable() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(["play", "koehandel", "--bot", "heuristic", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kibitz runs");
    // Auction whenever it is our turn, pass every bid and payment question: a whole game.
    let input = "a\n\n".repeat(400);
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write answers");
    let out = child.wait_with_output().expect("kibitz ends");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("your turn: auction the next animal"),
        "{text}"
    );
    assert!(
        text.contains("auctions the") || text.contains("bidding on your"),
        "{text}"
    );
    assert!(
        text.contains("your money 90 (50+10+10+10+10+0+0)"),
        "{text}"
    );
    for debug in [
        "Bid {",
        "BuyBack {",
        "Pay {",
        "Challenged {",
        "Seat(",
        "Animal(",
    ] {
        assert!(!text.contains(debug), "Debug text {debug:?} in\n{text}");
    }
}
