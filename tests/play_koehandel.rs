//! `kibitz play koehandel` with input piped in: the market's questions read as sentences
//! (who auctions which animal, the bid, money as values), never as the engine's Debug text.

#[test]
fn koehandel_prompts_are_readable() {
    // Auction whenever it is our turn, pass every bid and payment question: a whole game.
    let input = "a\n\n".repeat(400);
    let out = kibitz_testkit::run_bin_input(
        env!("CARGO_BIN_EXE_kibitz"),
        &["play", "koehandel", "--bot", "heuristic", "--seed", "3"],
        &input,
    );
    let text = &out.stdout;
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
