//! Tests of `game.rs`.

use super::*;
use rand::SeedableRng;

fn c(r: Rank, s: Suit) -> Card {
    Card::new(r, s)
}

#[test]
fn the_table_says_how_the_game_ended_in_words() {
    let hands = [
        [c(Rank::Ace, Suit::Herz)].into_iter().collect(),
        [c(Rank::Queen, Suit::Pik)].into_iter().collect(),
    ];
    let talon = [c(Rank::Nine, Suit::Kreuz), c(Rank::Nine, Suit::Pik)];
    let mut g = Game::from_parts(
        Config::default(),
        &hands,
        &talon,
        &[c(Rank::Ten, Suit::Herz)],
        None,
        0,
        0,
        0,
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    g.begin_turn(&mut rng).unwrap();
    let card = c(Rank::Ace, Suit::Herz);
    g.act(
        Action::Play {
            card,
            wish: Suit::Pik,
        },
        &mut rng,
    )
    .unwrap();
    let text = g.to_string();
    assert!(
        text.ends_with("└ over: seat 0 wins (emptied hand)"),
        "{text}"
    );
}

/// Two seats sharing a name (one effect group): seat 0's 7 hits both, seat 1 draws and
/// plays an 8 that skips both, so seat 0 is skipped with a 7 still pending (§7 item 2).
fn same_name_seven_then_eight(talon: &[Card]) -> Game {
    let hands = [
        [c(Rank::Seven, Suit::Herz), c(Rank::Ace, Suit::Pik)]
            .into_iter()
            .collect(),
        [c(Rank::Eight, Suit::Herz), c(Rank::Queen, Suit::Pik)]
            .into_iter()
            .collect(),
    ];
    let mut g = Game::from_parts(
        Config::default(),
        &hands,
        talon,
        &[c(Rank::Ten, Suit::Herz)],
        None,
        0,
        0,
        0,
    );
    g.set_effect_groups([0, 0, 2, 3]);
    g
}

fn play(g: &mut Game, card: Card, rng: &mut rand_chacha::ChaCha8Rng) {
    let r = g.act(
        Action::Play {
            card,
            wish: Suit::Pik,
        },
        rng,
    );
    assert_eq!(r, Ok(Reaction::Played { card, wish: None }));
}

#[test]
fn a_skipped_seat_with_a_pending_seven_draws_silently_during_the_skip() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let talon = [
        c(Rank::Nine, Suit::Pik),
        c(Rank::Nine, Suit::Karo),
        c(Rank::Ten, Suit::Pik),
        c(Rank::Ten, Suit::Karo),
        c(Rank::King, Suit::Pik),
    ];
    let mut g = same_name_seven_then_eight(&talon);
    g.begin_turn(&mut rng).unwrap();
    play(&mut g, c(Rank::Seven, Suit::Herz), &mut rng);
    let s = g.begin_turn(&mut rng).unwrap();
    assert_eq!(s.draw_two, DrawTwo::Drawn([talon[0], talon[1]]));
    play(&mut g, c(Rank::Eight, Suit::Herz), &mut rng);
    // Seat 0: skipped; the broadcast shows the hand before the draw, the draw happens now.
    let s = g.begin_turn(&mut rng).unwrap();
    assert_eq!((s.seat, s.skipped, s.cards_left), (0, true, 1));
    assert_eq!(s.draw_two, DrawTwo::Drawn([talon[2], talon[3]]));
    assert_eq!(g.hand_size(0), 3);
    assert!(!g.pending_draw_two(0));
    // Seat 1: skipped by its own 8 (same group), nothing pending to draw.
    let s = g.begin_turn(&mut rng).unwrap();
    assert_eq!((s.seat, s.skipped, s.draw_two), (1, true, DrawTwo::None));
    // Seat 0's next played turn: 2 cards more in the broadcast, no draw-two any more.
    let s = g.begin_turn(&mut rng).unwrap();
    assert_eq!((s.seat, s.skipped, s.cards_left), (0, false, 3));
    assert_eq!(s.draw_two, DrawTwo::None);
    assert_eq!(g.phase(), Phase::Answer(0));
}

#[test]
fn a_silent_draw_that_fails_ends_the_game_after_the_skipped_turn() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    // Seat 0 has a skip and a 7 pending; talon empty, the pile only its top card.
    let hands = [
        [c(Rank::Ace, Suit::Pik)].into_iter().collect(),
        [c(Rank::Queen, Suit::Pik)].into_iter().collect(),
    ];
    let top = [c(Rank::Ten, Suit::Herz)];
    let mut g = Game::from_parts(Config::default(), &hands, &[], &top, None, 1, 1, 0);
    let s = g.begin_turn(&mut rng).unwrap();
    assert_eq!((s.seat, s.skipped, s.draw_two), (0, true, DrawTwo::Failed));
    assert_eq!(g.outcome(), Some(GameEnd::Exhausted(1)));
}
