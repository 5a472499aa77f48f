//! The generic [`Game`] conformance test (kibitz_search::conformance), then Koehandel's own.

use kibitz_koehandel::game_impl::{KhAction, Koehandel};
use kibitz_koehandel::{Answer, Cards, Seat};
use kibitz_search::conformance::random_play;
use kibitz_search::game::{Game, Turn};
use rand::SeedableRng;

#[test]
fn random_play_keeps_the_game_contract() {
    let stats = random_play::<Koehandel>(1, 12).unwrap();
    assert!(stats.games == 12 && stats.plies > 12 * 40);
}

#[test]
fn seat_0_starts_and_any_answer_is_taken() {
    let mut g = Koehandel::new_game(&(), 5);
    assert_eq!(g.turn(), Turn::Seat(0));
    assert!(g.legal_actions().contains(&KhAction(Answer::Auction)));
    // A nonsense answer gets the spec's default (an auction), it is not an error.
    g.apply(&KhAction(Answer::InvalidMoney)).unwrap();
    assert_ne!(g, Koehandel::new_game(&(), 5));
    for text in [
        "money:-",
        "money:FTt",
        "trade:2:C:hn",
        "trade:?:?:?",
        "none",
    ] {
        let a = g.action_from_string(text).unwrap();
        assert_eq!(g.action_to_string(&a), text);
    }
    for bad in [
        "money:",
        "money:x",
        "trade:4:A:-",
        "trade:1:K:-",
        "trade:1:A",
        "bid",
    ] {
        assert!(g.action_from_string(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_determinization_keeps_counts_and_own_money() {
    let mut g = Koehandel::new_game(&(), 8);
    // Play some auctions so that hands differ.
    for _ in 0..60 {
        let a = g.legal_actions()[0];
        g.apply(&a).unwrap();
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
    let d = g.determinize(0, &mut rng);
    assert_eq!(d.0.money(Seat(0)), g.0.money(Seat(0)));
    for s in Seat::ALL {
        assert_eq!(d.0.money(s).len(), g.0.money(s).len());
    }
    let total = |k: &Koehandel| {
        Seat::ALL
            .iter()
            .fold(Cards::EMPTY, |t, &s| t.plus(&k.0.money(s)))
    };
    assert_eq!(total(&d), total(&g));
}
