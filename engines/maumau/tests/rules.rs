//! Rule cases of spec §4 and §6 that decide games, each on a hand-built position.

use kibitz_maumau::game::{
    Config, DrawTwo, ExhaustionWinner, Game, GameEnd, Phase, RawAnswer, Reaction,
};
use kibitz_maumau::{Action, Card, CardSet, Rank, Suit};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn c(r: Rank, s: Suit) -> Card {
    Card::new(r, s)
}
fn set(cards: &[Card]) -> CardSet {
    cards.iter().copied().collect()
}
fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(3)
}
use Rank::*;
use Suit::*;

/// Seat 0 to move with `h0`, seat 1 holds `h1`; `top` on the pile over `under`.
fn pos(
    h0: &[Card],
    h1: &[Card],
    talon: &[Card],
    under: &[Card],
    top: Card,
    wish: Option<Suit>,
) -> Game {
    let mut pile = under.to_vec();
    pile.push(top);
    let mut g = Game::from_parts(
        Config::default(),
        &[set(h0), set(h1)],
        talon,
        &pile,
        wish,
        0,
        0,
        0,
    );
    g.begin_turn(&mut rng()).unwrap();
    g
}

fn play(card: Card, wish: i64) -> RawAnswer {
    RawAnswer::Play {
        selected: Some(card.index() as i64),
        wished: Some(wish),
    }
}

#[test]
fn first_card_has_no_effect() {
    for top in [c(Seven, Herz), c(Eight, Herz), c(Jack, Herz)] {
        let mut deck: Vec<Card> = Card::all().filter(|&x| x != top).collect();
        deck.insert(0, top);
        let mut g = Game::from_deck(Config::default(), &deck);
        let s = g.begin_turn(&mut rng()).unwrap();
        assert_eq!(
            (s.seat, s.skipped, s.draw_two, s.wish),
            (0, false, DrawTwo::None, None)
        );
        assert_eq!(g.hand_size(0), 7);
        assert_eq!(g.talon_len(), 17);
    }
}

#[test]
fn wish_legality() {
    let g = pos(
        &[c(Jack, Pik), c(Nine, Herz), c(Nine, Kreuz)],
        &[c(Ace, Pik)],
        &[c(Ten, Pik)],
        &[],
        c(Jack, Herz),
        Some(Kreuz),
    );
    // With a wish: only non-Jacks of the wished suit; not the Jack's own suit, not a Jack.
    assert!(g.is_legal(c(Nine, Kreuz)));
    assert!(!g.is_legal(c(Nine, Herz)));
    assert!(!g.is_legal(c(Jack, Pik)));
    assert_eq!(g.legal_plays(0), set(&[c(Nine, Kreuz)]));
    // Without a wish a Jack goes on a Jack, and the Jack's suit or rank follows.
    let g = pos(
        &[c(Jack, Pik), c(Nine, Herz), c(Nine, Kreuz)],
        &[c(Ace, Pik)],
        &[c(Ten, Pik)],
        &[],
        c(Jack, Herz),
        None,
    );
    assert_eq!(g.legal_plays(0), set(&[c(Jack, Pik), c(Nine, Herz)]));
}

#[test]
fn jack_on_jack_sets_no_wish_and_jack_wish_decoding() {
    let mut g = pos(
        &[c(Jack, Pik), c(Nine, Herz)],
        &[c(Ace, Pik), c(Jack, Kreuz)],
        &[c(Ten, Pik)],
        &[],
        c(Jack, Herz),
        None,
    );
    let r = g.answer(play(c(Jack, Pik), 2), &mut rng()).unwrap();
    assert_eq!(
        r,
        Reaction::Played {
            card: c(Jack, Pik),
            wish: None
        }
    );
    assert_eq!(g.wish(), None);
    // Out-of-range wish means Pik; a Jack on a non-Jack sets it.
    for (w, want) in [(3, Kreuz), (-1, Pik), (7, Pik)] {
        let mut g = pos(
            &[c(Jack, Pik), c(Nine, Herz)],
            &[c(Ace, Pik)],
            &[c(Ten, Pik)],
            &[],
            c(Ten, Herz),
            None,
        );
        g.answer(play(c(Jack, Pik), w), &mut rng()).unwrap();
        assert_eq!(g.wish(), Some(want));
    }
}

#[test]
fn jack_without_wish_is_played_with_penalty() {
    let mut g = pos(
        &[c(Jack, Pik), c(Nine, Herz)],
        &[c(Ace, Pik)],
        &[c(Ten, Pik)],
        &[],
        c(Ten, Herz),
        None,
    );
    let r = g
        .answer(
            RawAnswer::Play {
                selected: Some(16),
                wished: None,
            },
            &mut rng(),
        )
        .unwrap();
    assert_eq!(
        r,
        Reaction::PlayedWithPenalty {
            card: c(Jack, Pik),
            penalty: Some(c(Ten, Pik))
        }
    );
    assert_eq!((g.top(), g.wish(), g.hand_size(0)), (c(Jack, Pik), None, 2));
    // A winning Jack without a wish: the penalty refills the hand and the game goes on.
    let mut g = pos(
        &[c(Jack, Pik)],
        &[c(Ace, Pik)],
        &[c(Ten, Pik)],
        &[],
        c(Ten, Herz),
        None,
    );
    g.answer(
        RawAnswer::Play {
            selected: Some(16),
            wished: None,
        },
        &mut rng(),
    )
    .unwrap();
    assert_eq!(g.phase(), Phase::BeginTurn);
    assert_eq!(g.hand(0), set(&[c(Ten, Pik)]));
}

#[test]
fn bad_answers_cost_one_card() {
    for raw in [
        RawAnswer::Invalid,
        RawAnswer::Play {
            selected: None,
            wished: Some(0),
        },
        play(c(Ace, Kreuz), 0), // not in hand
        play(c(Nine, Pik), 0),  // illegal
        RawAnswer::Play {
            selected: Some(99),
            wished: Some(0),
        }, // -> Karo 7, not held
    ] {
        let mut g = pos(
            &[c(Nine, Pik), c(Nine, Herz)],
            &[c(Ace, Pik)],
            &[c(Ten, Pik), c(Queen, Pik)],
            &[],
            c(Ten, Herz),
            None,
        );
        let r = g.answer(raw, &mut rng()).unwrap();
        assert_eq!(r, Reaction::Penalty(Some(c(Ten, Pik))), "{raw:?}");
        assert_eq!(g.top(), c(Ten, Herz));
    }
    // Out of range selects Karo 7, which is played when held and legal.
    let mut g = pos(
        &[c(Seven, Karo), c(Nine, Herz)],
        &[c(Ace, Pik)],
        &[c(Ten, Pik)],
        &[],
        c(Ten, Karo),
        None,
    );
    let r = g
        .answer(
            RawAnswer::Play {
                selected: Some(-5),
                wished: Some(0),
            },
            &mut rng(),
        )
        .unwrap();
    assert_eq!(r.played(), Some(c(Seven, Karo)));
}

#[test]
fn seven_draws_two_without_stacking_and_eight_skips() {
    let talon = [c(Ten, Pik), c(Queen, Pik), c(King, Pik), c(Ace, Kreuz)];
    let mut g = pos(
        &[c(Seven, Herz), c(Eight, Herz), c(Nine, Herz)],
        &[c(Seven, Pik), c(Ace, Pik)],
        &talon,
        &[],
        c(Ten, Herz),
        None,
    );
    let mut r = rng();
    g.act(
        Action::Play {
            card: c(Seven, Herz),
            wish: Pik,
        },
        &mut r,
    )
    .unwrap();
    let s = g.begin_turn(&mut r).unwrap();
    assert_eq!(
        (s.seat, s.cards_left, s.draw_two),
        (1, 2, DrawTwo::Drawn([c(Ten, Pik), c(Queen, Pik)]))
    );
    // A 7 on a 7 just hits the next player; nobody draws four.
    g.act(
        Action::Play {
            card: c(Seven, Pik),
            wish: Pik,
        },
        &mut r,
    )
    .unwrap();
    let s = g.begin_turn(&mut r).unwrap();
    assert_eq!(
        (s.seat, s.draw_two),
        (0, DrawTwo::Drawn([c(King, Pik), c(Ace, Kreuz)]))
    );
    assert_eq!(g.hand_size(1), 3);
    // Seat 0 (8♥ 9♥ K♠ A♣) draws instead; then it is seat 1's turn.
    g.act(Action::Draw, &mut r).unwrap();
    let s = g.begin_turn(&mut r).unwrap();
    assert_eq!(s.seat, 1);
}

#[test]
fn eight_gives_the_player_another_turn() {
    let mut g = pos(
        &[c(Eight, Herz), c(Nine, Herz)],
        &[c(Ace, Pik)],
        &[c(Ten, Pik)],
        &[],
        c(Ten, Herz),
        None,
    );
    let mut r = rng();
    g.act(
        Action::Play {
            card: c(Eight, Herz),
            wish: Pik,
        },
        &mut r,
    )
    .unwrap();
    let s = g.begin_turn(&mut r).unwrap();
    assert_eq!((s.seat, s.skipped, s.cards_left), (1, true, 1));
    let s = g.begin_turn(&mut r).unwrap();
    assert_eq!((s.seat, s.skipped), (0, false));
    g.act(
        Action::Play {
            card: c(Nine, Herz),
            wish: Pik,
        },
        &mut r,
    )
    .unwrap();
    assert_eq!(g.outcome(), Some(GameEnd::Emptied(0)));
}

#[test]
fn reshuffle_keeps_the_last_talon_card_underneath() {
    // Talon [K♠]; pile 9♣ 10♣ A♣ under the 7♣ just played. The draw-two needs 2: the three go
    // on top of K♠.
    let mut g = Game::from_parts(
        Config::default(),
        &[
            set(&[c(Seven, Kreuz), c(Nine, Herz)]),
            set(&[c(Ace, Pik), c(Queen, Herz)]),
        ],
        &[c(King, Pik)],
        &[c(Nine, Kreuz), c(Ten, Kreuz), c(Ace, Kreuz)],
        None,
        0,
        0,
        0,
    );
    let mut r = rng();
    g.begin_turn(&mut r).unwrap();
    g.act(
        Action::Play {
            card: c(Seven, Kreuz),
            wish: Pik,
        },
        &mut r,
    )
    .unwrap();
    let s = g.begin_turn(&mut r).unwrap();
    let DrawTwo::Drawn(d) = s.draw_two else {
        panic!("{s:?}")
    };
    let reshuffled = set(&[c(Nine, Kreuz), c(Ten, Kreuz), c(Ace, Kreuz)]);
    assert_eq!(set(&d).minus(reshuffled), CardSet::EMPTY);
    // K♠ stays at the bottom (drawn last), under the one reshuffled card left.
    assert_eq!(g.talon().len(), 2);
    assert_eq!(g.talon()[0], c(King, Pik));
    assert_eq!(g.pile(), &[c(Seven, Kreuz)]);
}

#[test]
fn exhaustion_declares_seat_one_even_over_an_empty_hand() {
    // Seat 1 must draw two from an empty talon with nothing to reshuffle; it then plays its
    // last card, but exhaustion is checked first: the exhaustion winner (seat 1) all the same.
    for (rule, winner) in [
        (ExhaustionWinner::SecondSeat, 1),
        (ExhaustionWinner::MostValidMoves, 0),
    ] {
        let cfg = Config {
            players: 2,
            exhaustion_winner: rule,
        };
        let mut g = Game::from_parts(
            cfg,
            &[set(&[c(Seven, Herz), c(Nine, Herz)]), set(&[c(Ace, Herz)])],
            &[],
            &[c(Ten, Herz)],
            None,
            0,
            0,
            0,
        );
        g.set_valid_moves([3, 3, 0, 0]);
        let mut r = rng();
        g.begin_turn(&mut r).unwrap();
        g.act(
            Action::Play {
                card: c(Seven, Herz),
                wish: Pik,
            },
            &mut r,
        )
        .unwrap();
        let s = g.begin_turn(&mut r).unwrap();
        assert_eq!(s.draw_two, DrawTwo::Failed);
        g.act(
            Action::Play {
                card: c(Ace, Herz),
                wish: Pik,
            },
            &mut r,
        )
        .unwrap();
        // Seat 0 played 4, seat 1 played 4: tie goes to the lower seat.
        assert_eq!(g.outcome(), Some(GameEnd::Exhausted(winner)), "{rule:?}");
    }
    // A plain draw from an exhausted talon: -1 and the game ends.
    let mut g = Game::from_parts(
        Config::default(),
        &[set(&[c(Nine, Pik)]), set(&[c(Ace, Pik)])],
        &[],
        &[c(Ten, Herz)],
        None,
        0,
        0,
        0,
    );
    let mut r = rng();
    g.begin_turn(&mut r).unwrap();
    assert_eq!(g.act(Action::Draw, &mut r).unwrap(), Reaction::Drew(None));
    assert_eq!(g.outcome(), Some(GameEnd::Exhausted(1)));
}

#[test]
fn offline_seats_and_effect_groups() {
    let cfg = Config {
        players: 3,
        exhaustion_winner: ExhaustionWinner::SecondSeat,
    };
    let hands = [
        set(&[c(Eight, Herz), c(Nine, Herz)]),
        set(&[c(Ace, Pik)]),
        set(&[c(Ace, Kreuz)]),
    ];
    let mut g = Game::from_parts(cfg, &hands, &[c(Ten, Pik)], &[c(Ten, Herz)], None, 0, 0, 0);
    let mut r = rng();
    g.begin_turn(&mut r).unwrap();
    assert_eq!(g.drop_seat(1), None);
    // The 8 hits seat 1, which is offline: the effect is lost, seat 2 moves.
    g.act(
        Action::Play {
            card: c(Eight, Herz),
            wish: Pik,
        },
        &mut r,
    )
    .unwrap();
    let s = g.begin_turn(&mut r).unwrap();
    assert_eq!((s.seat, s.skipped), (2, false));
    assert_eq!(g.drop_seat(2), Some(GameEnd::LastOnline(0)));
    // Same-name group: an 8 against seat 1 also skips seat 0 (its namesake).
    let mut g = Game::from_parts(
        Config::default(),
        &[set(&[c(Eight, Herz), c(Nine, Herz)]), set(&[c(Ace, Pik)])],
        &[c(Ten, Pik)],
        &[c(Ten, Herz)],
        None,
        0,
        0,
        0,
    );
    g.set_effect_groups([0, 0, 2, 3]);
    g.begin_turn(&mut r).unwrap();
    g.act(
        Action::Play {
            card: c(Eight, Herz),
            wish: Pik,
        },
        &mut r,
    )
    .unwrap();
    let seq: Vec<(usize, bool)> = (0..3)
        .map(|_| {
            let s = g.begin_turn(&mut r).unwrap();
            (s.seat, s.skipped)
        })
        .collect();
    assert_eq!(seq[..2], [(1, true), (0, true)]);
    assert_eq!(seq[2], (1, false));
}
