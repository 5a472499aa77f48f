//! Rule edge cases of spec part D, checked message by message where the order matters.

mod common;

use common::run_script;
use kibitz_koehandel::auction::server_payment;
use kibitz_koehandel::{Animal, Answer, Cards, Game, Herd, Seat, TradeStart};

const A: Animal = Animal(0);
const D: Animal = Animal(3);
const J: Animal = Animal(9);

fn c(s: &str) -> Cards {
    Cards::parse(s).unwrap()
}

fn game_with_top(animal: Animal) -> Game {
    let mut deck = Game::shuffled_deck(7);
    let pos = deck.iter().position(|&a| a == animal).unwrap();
    deck.swap(0, pos);
    let mut g = Game::with_deck(&deck);
    g.drain_notices().for_each(drop);
    g
}

#[test]
fn score_is_quartets_times_sum() {
    let mut h = Herd::default();
    for k in 0..3 {
        h.add(Animal(k), 4);
    }
    h.add(J, 3);
    assert_eq!(h.score(), 3 * 140);
    let mut f = Herd::default();
    f.add(Animal(5), 4);
    assert_eq!(f.score(), 350);
    assert!(h.score() > f.score());
}

#[test]
fn no_bid_gives_the_card_free_without_buy_back_request() {
    let mut g = game_with_top(D);
    let got = run_script(&mut g, &["?type=auction", "", "?money=", "?money=x"]);
    assert_eq!(
        got,
        vec![
            "P0 type=start -> ?type=auction",
            "P1 type=auction&opponent=E&auctioneer=E&goods=D -> ",
            "P2 type=auction&opponent=N&auctioneer=N&goods=D&message=E0 -> ?money=",
            "P3 type=auction&opponent=W&auctioneer=W&goods=D&message=N0E0 -> ?money=x",
            "P0 type=receive&goods=D",
            "P1 type=information&opponent=E&goods=D&money=-0",
            "P2 type=information&opponent=N&goods=D&money=-0",
            "P3 type=information&opponent=W&goods=D&money=-0",
            "P1 type=start",
        ]
    );
    assert_eq!(g.herd(Seat(0)).count(D), 1);
    assert_eq!(g.money(Seat(0)), Cards::START);
}

#[test]
fn buy_back_pays_the_high_bidder() {
    let mut g = game_with_top(D);
    let got = run_script(
        &mut g,
        &["?type=auction", "?money=tt", "", "", "?money=tt", ""],
    );
    assert_eq!(
        got[4..],
        [
            "P0 type=auction&opponent=W&auctioneer=S&goods=D&money=tt&message=W20N0E0 -> ?money=tt",
            "P0 type=receive&goods=D",
            "P0 type=collect&opponent=W&money=tt -> ",
            "P0 type=information&opponent=W&goods=D&money=-tt&message=server_paid",
            "P1 type=receive&opponent=E&money=tt",
            "P2 type=information&opponent=N&goods=D&money=-QQ20",
            "P3 type=information&opponent=W&goods=D&money=-QQ20",
            "P2 type=information&opponent=E&money=QQ20",
            "P3 type=information&opponent=N&money=QQ20",
            "P1 type=start",
        ]
    );
    assert_eq!(g.money(Seat(1)), c("nnttttttf"));
}

#[test]
fn buy_back_without_money_falls_to_the_high_bidder() {
    // P0 (20 in hand) answers 500 to buy back a bid of 50: he cannot pay, so P1 buys.
    let herds = [Herd::default(); 4];
    let money = [c("tt"), Cards::START, Cards::START, Cards::START];
    let mut g2 = Game::from_position(&[D], herds, money, 0, Seat(0), [false; 4]);
    g2.set_quiet(false);
    let got = run_script(
        &mut g2,
        &["?type=auction", "?money=f", "", "", "?money=F", "?money=f"],
    );
    assert_eq!(
        got[4],
        "P0 type=auction&opponent=W&auctioneer=S&goods=D&money=f&message=W50N0E0 -> ?money=F"
    );
    assert_eq!(got[5], "P1 type=receive&goods=D");
    assert_eq!(g2.herd(Seat(1)).count(D), 1);
    assert_eq!(g2.money(Seat(0)), c("ttf"));
}

#[test]
fn bluff_is_shown_to_everybody_and_the_auction_reruns_without_him() {
    let mut g = game_with_top(D);
    let got = run_script(
        &mut g,
        &[
            "?type=auction",
            "?money=h",
            "",
            "",
            "",
            "?money=tt",
            "?money=ttt",
            "?money=ttt",
            "",
        ],
    );
    let want = [
        "P0 type=start -> ?type=auction",
        "P1 type=auction&opponent=E&auctioneer=E&goods=D -> ?money=h",
        "P2 type=auction&opponent=E&auctioneer=N&goods=D&money=h&message=E100 -> ",
        "P3 type=auction&opponent=N&auctioneer=W&goods=D&money=h&message=N100E0 -> ",
        "P0 type=auction&opponent=W&auctioneer=S&goods=D&money=h&message=W100N0E0 -> ",
        "P0 type=information&opponent=W&goods=D&money=fttttnn&message=bluffed",
        "P1 type=information&opponent=S&goods=D&money=fttttnn&message=bluffed",
        "P2 type=information&opponent=E&goods=D&money=fttttnn&message=bluffed",
        "P3 type=information&opponent=N&goods=D&money=fttttnn&message=bluffed",
        "P2 type=auction&opponent=N&auctioneer=N&goods=D -> ?money=tt",
        "P3 type=auction&opponent=E&auctioneer=W&goods=D&money=tt&message=E20 -> ?money=ttt",
        "P2 type=auction&opponent=W&auctioneer=N&goods=D&money=ttt&message=W30 -> ?money=ttt",
        "P0 type=auction&opponent=E&auctioneer=S&goods=D&money=ttt&message=N20E30N30 -> ",
        "P3 type=receive&goods=D",
        "P3 type=collect&opponent=W&money=ttt",
    ];
    assert_eq!(got, want);
    assert!(g.caught(Seat(1)));
    assert_eq!(g.stats()[1].bluffs, 1);
}

#[test]
fn a_caught_bluffer_cannot_bid_beyond_his_money() {
    let mut g = game_with_top(D);
    // P1 bluffs and is caught; P3 buys for 20.
    run_script(
        &mut g,
        &[
            "?type=auction",
            "?money=h",
            "",
            "",
            "",
            "",
            "?money=tt",
            "",
            "?money=tt",
        ],
    );
    assert!(g.caught(Seat(1)));
    assert_eq!(g.herd(Seat(3)).count(D), 1);
    // P1 auctions unopposed, then P2 auctions and P1 bids 500 (he holds 90).
    let got = run_script(
        &mut g,
        &[
            "?type=auction",
            "",
            "",
            "",
            "?type=auction",
            "",
            "",
            "?money=F",
        ],
    );
    let p1 = got
        .iter()
        .position(|l| l.starts_with("P1 type=auction"))
        .unwrap();
    assert!(got[p1].ends_with("-> ?money=F"), "{got:?}");
    assert!(
        got[p1 + 1].starts_with("P1 type=information&goods="),
        "{got:?}"
    );
    assert!(got[p1 + 1].ends_with("&message=second_bluff_not_allowed"));
    // The void bid is a pass: nobody bid, P2 gets the card for free.
    assert!(got[p1 + 2].starts_with("P2 type=receive&goods="), "{got:?}");
    assert_eq!(g.stats()[1].bluffs, 1, "never caught twice");
}

#[test]
fn donkey_pays_everybody_in_order_before_bidding() {
    let mut g = game_with_top(Animal::DONKEY);
    g.answer(Answer::Auction);
    let notices: Vec<_> = g.drain_notices().collect();
    assert_eq!(notices.len(), 4 + 12);
    for (i, n) in notices[..4].iter().enumerate() {
        assert_eq!(n.seat, Seat(i as u8));
        assert_eq!(
            n.event,
            kibitz_koehandel::Event::ReceiveMoney {
                cards: c("f"),
                from: None
            }
        );
    }
    // For P = P0: P1, P2, P3 are told; for P = P1: P0, P2, P3 (clockwise from the auctioneer).
    let order: Vec<u8> = notices[4..].iter().map(|n| n.seat.0).collect();
    assert_eq!(order, vec![1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2]);
    assert_eq!(g.total_money().value(), 560);
    assert_eq!(g.donkeys_revealed(), 1);
}

#[test]
fn server_payment_minimises_overpayment_then_cards_and_never_uses_n() {
    assert_eq!(server_payment(&c("nnttttf"), 20), c("tt"));
    assert_eq!(server_payment(&c("nnttttf"), 50), c("f"));
    assert_eq!(server_payment(&c("nnttttf"), 60), c("ft"));
    assert_eq!(server_payment(&c("fh"), 60), c("h"));
    assert_eq!(server_payment(&c("Thh"), 200), c("T"));
    assert_eq!(server_payment(&c("nnttttf"), 0), Cards::EMPTY);
    // Equal overpayment and count: the lower top card wins ({h,h,h} over {T,f,f} at 300
    // is impossible to separate by count, so use 3 cards each).
    assert_eq!(server_payment(&c("Tffhhh"), 300).len(), 2);
    assert_eq!(server_payment(&c("Tffhhh"), 300), c("Th"));
    assert_eq!(server_payment(&c("Tffhhh").plus(&c("")), 250), c("Tf"));
}

fn endgame(herds: [Herd; 4], money: [Cards; 4], active: Seat) -> Game {
    let mut g = Game::from_position(&[], herds, money, 4, active, [false; 4]);
    g.set_quiet(false);
    g
}

/// Every kind but `A` complete in P3's hand; `a` gives the `A` cards of P0..P2.
fn herds_with_a(a: [u8; 3]) -> [Herd; 4] {
    let mut h = [Herd::default(); 4];
    for k in 1..10 {
        h[3].add(Animal(k), 4);
    }
    for (i, n) in a.iter().enumerate() {
        h[i].add(A, *n);
    }
    h[3].add(A, 4 - a.iter().sum::<u8>());
    h
}

#[test]
fn trade_start_errors_in_spec_order_then_auction() {
    let money = [Cards::START; 4];
    let mut herds = [Herd::default(); 4];
    herds[0].add(A, 1);
    herds[1].add(A, 1);
    let cases: [(&str, &str); 4] = [
        ("?type=trade&goods=A", "no_opponement_specified"),
        ("?type=trade&opponent=S&goods=A", "no_opponement_specified"),
        (
            "?type=trade&opponent=W&goods=B",
            "goods_not_owned_by_player",
        ),
        (
            "?type=trade&opponent=N&goods=A",
            "opponent_goods_do_not_match",
        ),
    ];
    for (reply, msg) in cases {
        let mut g = Game::from_position(&[D, D], herds, money, 0, Seat(0), [false; 4]);
        g.set_quiet(false);
        let got = run_script(&mut g, &[reply]);
        assert_eq!(
            got[1],
            format!("P0 type=information&message={msg}"),
            "{reply}"
        );
        assert!(
            got[2].starts_with("P1 type=auction"),
            "then an auction: {got:?}"
        );
    }
    let mut g = Game::from_position(&[D, D], herds, money, 0, Seat(0), [false; 4]);
    g.set_quiet(false);
    let got = run_script(&mut g, &["?type=trade&opponent=W&goods=A&money=FF"]);
    assert_eq!(got[1], "P0 type=information&message=invalid_bid");
}

#[test]
fn invalid_start_with_empty_deck_bars_the_player() {
    let mut g = endgame(herds_with_a([1, 1, 1]), [Cards::START; 4], Seat(0));
    let got = run_script(&mut g, &["?type=auction", "(none)"]);
    assert_eq!(got[0], "P0 type=start -> ?type=auction");
    assert_eq!(got[1], "P1 type=start -> (none)");
    assert!(g.barred(Seat(0)) && g.barred(Seat(1)));
    // P2 can trade; P3 holds A (one) too and can; barred seats are skipped from now on.
    assert_eq!(g.ask().unwrap().seat, Seat(2));
    g.answer(Answer::None);
    assert_eq!(g.ask().unwrap().seat, Seat(3));
    g.answer(Answer::Auction);
    assert!(g.is_over(), "nobody may start a trade any more");
    assert!(g.stats()[0].barred);
}

#[test]
fn two_animals_at_stake_when_both_hold_exactly_two() {
    let mut g = endgame(herds_with_a([2, 2, 0]), [Cards::START; 4], Seat(0));
    let got = run_script(
        &mut g,
        &["?type=trade&opponent=W&goods=A&money=t", "?money=f"],
    );
    assert_eq!(
        got[1],
        "P1 type=trade&opponent=E&goods=AA&money=Q -> ?money=f"
    );
    assert_eq!(got[2], "P0 type=collect&opponent=W&goods=AA");
    assert_eq!(g.herd(Seat(1)).count(A), 4);
    assert_eq!(g.money(Seat(0)).value(), 90 - 10 + 50);
}

#[test]
fn invalid_counter_offer_is_reported_and_accepts() {
    let mut g = endgame(herds_with_a([1, 2, 0]), [Cards::START; 4], Seat(0));
    let got = run_script(
        &mut g,
        &["?type=trade&opponent=W&goods=AA&money=nn", "?money=FF"],
    );
    assert_eq!(
        got[1],
        "P1 type=trade&opponent=E&goods=A&money=QQ -> ?money=FF"
    );
    assert_eq!(got[2], "P1 type=information&message=invalid_bid");
    assert_eq!(got[3], "P1 type=collect&opponent=E&goods=A");
    assert_eq!(g.herd(Seat(0)).count(A), 2);
    assert_eq!(g.money(Seat(1)), c("nnnnttttf"));
}

#[test]
fn second_tie_gives_the_challenger_the_animals_for_free() {
    let mut g = endgame(herds_with_a([1, 1, 0]), [Cards::START; 4], Seat(0));
    let got = run_script(
        &mut g,
        &[
            "?type=trade&opponent=N&goods=A&money=t",
            "?money=t",
            "?money=f",
            "?money=f",
        ],
    );
    // P0 named N = P2, who has no A.
    assert_eq!(
        got[1],
        "P0 type=information&message=opponent_goods_do_not_match"
    );
    assert!(g.barred(Seat(0)));
    let mut g = endgame(herds_with_a([1, 1, 0]), [Cards::START; 4], Seat(0));
    let got = run_script(
        &mut g,
        &[
            "?type=trade&opponent=W&goods=A&money=t",
            "?money=t",
            "?money=f",
            "?money=f",
        ],
    );
    assert_eq!(
        got[3],
        "P1 type=trade&opponent=E&goods=A&money=Q&message=equal_bid -> ?money=f"
    );
    assert_eq!(got[4], "P1 type=collect&opponent=E&goods=A");
    assert_eq!(got[5], "P0 type=receive&opponent=W&goods=A");
    assert_eq!(got[6], "P2 type=information&opponent=N&goods=A&money=-0");
    assert_eq!(g.money(Seat(0)), Cards::START);
    assert_eq!(g.money(Seat(1)), Cards::START);
    assert_eq!(g.herd(Seat(0)).count(A), 2);
}

#[test]
fn game_ends_after_1000_turns() {
    let mut h = [Herd::default(); 4];
    for k in 1..10 {
        h[1].add(Animal(k), 4);
    }
    for s in [0, 1, 2, 3] {
        if s != 1 {
            h[s].add(A, 1);
        }
    }
    h[1].add(A, 1);
    let mut g = endgame(h, [Cards::START; 4], Seat(0));
    g.set_quiet(true);
    // Everybody challenges the player holding the most A's with an empty offer; challenged
    // players accept. The A's keep circulating.
    while let Some(ask) = g.ask() {
        let me = ask.seat;
        let a = match ask.question {
            kibitz_koehandel::Question::Start => {
                let target = (1..4)
                    .map(|i| me.plus(i))
                    .max_by_key(|s| (g.herd(*s).count(A), 4 - s.0))
                    .unwrap();
                Answer::Trade(TradeStart {
                    opponent: Some(target),
                    animal: Some(A),
                    offer: Some(Cards::EMPTY),
                })
            }
            _ => Answer::None,
        };
        g.answer(a);
    }
    assert_eq!(g.turns(), 1000);
    assert_eq!(g.money(Seat(0)), Cards::START);
}

/// The fast payment search against a brute force over every sub-multiset (spec D5 order).
#[test]
fn server_payment_matches_brute_force() {
    use rand::{Rng, SeedableRng};
    fn brute(hand: &Cards, amount: u32) -> Cards {
        let mut best: Option<(u32, u32, Vec<u32>, Cards)> = None;
        let h = hand.0;
        for a in 0..=h[1] {
            for b in 0..=h[2] {
                for c3 in 0..=h[3] {
                    for d in 0..=h[4] {
                        for e in 0..=h[5] {
                            let x = Cards([0, a, b, c3, d, e]);
                            if x.value() < amount {
                                continue;
                            }
                            let desc: Vec<u32> = x.iter_desc().map(|m| m.value()).collect();
                            let key = (x.value() - amount, x.len(), desc, x);
                            if best
                                .as_ref()
                                .is_none_or(|b| (key.0, key.1, &key.2) < (b.0, b.1, &b.2))
                            {
                                best = Some(key);
                            }
                        }
                    }
                }
            }
        }
        best.map(|b| b.3)
            .unwrap_or(Cards([0, h[1], h[2], h[3], h[4], h[5]]))
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for _ in 0..3000 {
        let hand = Cards(std::array::from_fn(|k| {
            rng.random_range(0..=[3, 9, 5, 3, 3, 2][k])
        }));
        let amount = 10 * rng.random_range(0..=hand.value() / 10 + 3);
        assert_eq!(
            server_payment(&hand, amount),
            brute(&hand, amount),
            "{hand} {amount}"
        );
    }
}
