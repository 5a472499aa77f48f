//! The worked examples of spec part E, message by message, plus the D12 tie variant.

mod common;

use common::run_script;
use kibitz_koehandel::{Animal, Cards, Game, Herd, Seat};

const D: Animal = Animal(3);

fn lines(s: &str) -> Vec<String> {
    s.lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn auction_game() -> Game {
    let mut deck = Game::shuffled_deck(1);
    let pos = deck.iter().position(|&a| a == D).unwrap();
    deck.swap(0, pos);
    let mut g = Game::with_deck(&deck);
    let begins: Vec<_> = g.drain_notices().collect();
    assert_eq!(begins.len(), 4, "every seat gets information begin");
    g
}

#[test]
fn worked_example_auction() {
    let mut g = auction_game();
    let got = run_script(
        &mut g,
        &[
            "?type=auction",
            "?money=tt",
            "?money=f",
            "(none)",
            "?money=ftt",
            "?money=tttttt",
            "",
            "?money=ftt",
        ],
    );
    let want = lines(
        "P0 type=start -> ?type=auction
         P1 type=auction&opponent=E&auctioneer=E&goods=D -> ?money=tt
         P2 type=auction&opponent=E&auctioneer=N&goods=D&money=tt&message=E20 -> ?money=f
         P3 type=auction&opponent=E&auctioneer=W&goods=D&money=f&message=N20E50 -> (none)
         P1 type=auction&opponent=W&auctioneer=E&goods=D&money=f&message=W50N0 -> ?money=ftt
         P2 type=auction&opponent=E&auctioneer=N&goods=D&money=ftt&message=W0E70 -> ?money=tttttt
         P0 type=auction&opponent=W&auctioneer=S&goods=D&money=ftt&message=W20N50E0W70N60 -> 
         P1 type=receive&goods=D
         P1 type=collect&opponent=E&money=ftt -> ?money=ftt
         P0 type=receive&opponent=W&money=ftt
         P2 type=information&opponent=E&goods=D&money=-QQQ70
         P3 type=information&opponent=N&goods=D&money=-QQQ70
         P2 type=information&opponent=N&money=QQQ70
         P3 type=information&opponent=W&money=QQQ70
         P1 type=start",
    );
    let got: Vec<String> = got.iter().map(|s| s.trim().to_string()).collect();
    assert_eq!(got, want);
    assert_eq!(g.herd(Seat(1)).count(D), 1);
    assert_eq!(g.money(Seat(0)), Cards::parse("nnttttttff").unwrap());
    assert_eq!(g.money(Seat(0)).value(), 160);
    assert_eq!(g.money(Seat(1)), Cards::parse("nntt").unwrap());
    assert_eq!(g.deck_left(), 39);
}

fn trade_game() -> Game {
    let mut herds = [Herd::default(); 4];
    herds[1].add(D, 1);
    herds[2].add(D, 1);
    let money = [
        Cards::START,
        Cards::parse("nnttf").unwrap(),
        Cards::parse("nnttttff").unwrap(),
        Cards::START,
    ];
    let mut g = Game::from_position(&[Animal(0)], herds, money, 0, Seat(2), [false; 4]);
    g.set_quiet(false);
    g
}

#[test]
fn worked_example_trade() {
    let mut g = trade_game();
    let got = run_script(
        &mut g,
        &["?type=trade&opponent=E&goods=D&money=nttt", "?money=ftt"],
    );
    let want = lines(
        "P2 type=start -> ?type=trade&opponent=E&goods=D&money=nttt
         P1 type=trade&opponent=W&goods=D&money=QQQQ -> ?money=ftt
         P2 type=collect&opponent=E&goods=D
         P1 type=receive&opponent=W&goods=D
         P1 type=collect&opponent=W&money=ftt
         P2 type=receive&opponent=E&money=ftt
         P2 type=collect&opponent=E&money=tttn
         P1 type=receive&opponent=W&money=tttn
         P3 type=information&opponent=N&goods=D&money=-QQQ
         P0 type=information&opponent=W&goods=D&money=-QQQ
         P3 type=information&opponent=E&goods=-D&money=QQQ
         P0 type=information&opponent=N&goods=-D&money=QQQ
         P3 type=information&opponent=E&money=-QQQQ
         P0 type=information&opponent=N&money=-QQQQ
         P3 type=information&opponent=N&money=QQQQ
         P0 type=information&opponent=W&money=QQQQ
         P3 type=start",
    );
    assert_eq!(got, want);
    assert_eq!(g.herd(Seat(1)).count(D), 2);
    assert_eq!(g.herd(Seat(2)).count(D), 0);
    assert_eq!(g.money(Seat(1)), Cards::parse("nnnttt").unwrap());
    assert_eq!(g.money(Seat(1)).value(), 30);
    assert_eq!(g.money(Seat(2)), Cards::parse("ntttfff").unwrap());
    assert_eq!(g.money(Seat(2)).value(), 180);
}

/// The spec's variant ("had P1 countered `ttt`") is impossible with P1's hand `nnttf` (two
/// `t`, and no 30 at all), so the tie is made at 20: P2 offers `ntt`, P1 counters `tt`.
#[test]
fn worked_example_trade_tie_variant() {
    let mut g = trade_game();
    let got = run_script(
        &mut g,
        &[
            "?type=trade&opponent=E&goods=D&money=ntt",
            "?money=tt",
            "?money=f",
            "?money=tt",
            "?money=t",
        ],
    );
    let want = lines(
        "P2 type=start -> ?type=trade&opponent=E&goods=D&money=ntt
         P1 type=trade&opponent=W&goods=D&money=QQQ -> ?money=tt
         P2 type=trade&opponent=E&goods=D&message=equal_bid -> ?money=f
         P1 type=trade&opponent=W&goods=D&money=Q&message=equal_bid -> ?money=tt
         P1 type=collect&opponent=W&goods=D
         P2 type=receive&opponent=E&goods=D
         P2 type=collect&opponent=E&money=f
         P1 type=receive&opponent=W&money=f
         P1 type=collect&opponent=W&money=tt
         P2 type=receive&opponent=E&money=tt
         P3 type=information&opponent=E&goods=D&money=-Q
         P0 type=information&opponent=N&goods=D&money=-Q
         P3 type=information&opponent=N&goods=-D&money=Q
         P0 type=information&opponent=W&goods=-D&money=Q
         P3 type=information&opponent=N&money=-QQ
         P0 type=information&opponent=W&money=-QQ
         P3 type=information&opponent=E&money=QQ
         P0 type=information&opponent=N&money=QQ
         P3 type=start -> ?money=t",
    );
    // The last reply is garbage for `start`: the default (auction) applies.
    assert_eq!(&got[..want.len()], &want[..]);
    assert_eq!(g.herd(Seat(2)).count(D), 2);
    assert_eq!(g.money(Seat(1)), Cards::parse("nnff").unwrap());
    assert_eq!(g.money(Seat(2)), Cards::parse("nnttttttf").unwrap());
}
