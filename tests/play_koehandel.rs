//! `kibitz play koehandel` with input piped in: the market's questions read as sentences
//! (who auctions which animal, the bid, money as values), never as the engine's Debug text.

/// A whole game against heuristic bots (seed 3): auction whenever it is our turn, pass every
/// bid and payment question. Its stdout.
fn whole_game() -> String {
    let input = "a\n\n".repeat(400);
    kibitz_testkit::run_bin_input(
        env!("CARGO_BIN_EXE_kibitz"),
        &["play", "koehandel", "--bot", "heuristic", "--seed", "3"],
        &input,
    )
    .stdout
}

#[test]
fn koehandel_prompts_are_readable() {
    let text = &whole_game();
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

#[test]
fn koehandel_explains_the_animal_letters_and_names_the_herds() {
    let text = &whole_game();
    let legend = "animals (quartet value): A rooster 10 · B goose 40 · C cat 90";
    assert_eq!(text.matches(legend).count(), 1, "once per game: {text}");
    assert!(text.contains("herd nothing"), "{text}");
    // Somebody buys an animal in a whole game: herds are named, never bare letters.
    assert!(text.contains(" × "), "{text}");
    assert!(
        !text.lines().any(|l| l.trim_end().ends_with("herd")),
        "{text}"
    );
}
