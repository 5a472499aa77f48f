//! The spec's worked examples (part E) and the original's two examples (D12), on the wire:
//! scripted HTTP players answer as in the tables; the market's requests must match row by row.

mod common;

use common::{scripted, strip, Act};
use kibitz_bots_koehandel::server::{Entrant, GameRecord, Market, MarketConfig};
use kibitz_koehandel::{Animal, Cards, Game, Herd, Seat};
use std::sync::Arc;
use std::time::Duration;

/// (seat, request after `market=..&id=..&`, reply: `None` = no answer (HTTP 500)).
type Row = (usize, &'static str, Option<&'static str>);

fn a(c: char) -> Animal {
    Animal::from_letter(c).unwrap()
}

fn cfg() -> MarketConfig {
    MarketConfig {
        deadline: Duration::from_secs(2),
        ..MarketConfig::default()
    }
}

/// Plays `game` with scripted seats answering `rows` in order (then empty bodies) and checks
/// that the first `rows.len()` requests are exactly the rows.
async fn check(game: Game, rows: &'static [Row]) -> GameRecord {
    let script = Arc::new(move |_seat: usize, k: usize, _q: &str| match rows.get(k) {
        Some((_, _, Some(r))) => Act::Body(r.to_string()),
        Some((_, _, None)) => Act::Status(500),
        None => Act::Body(String::new()),
    });
    let (urls, rec) = scripted(script).await;
    let market = Market::new(cfg());
    let record = market
        .play_from(urls.into_iter().map(Entrant::Url).collect(), game)
        .await
        .unwrap();
    let got = rec.requests.lock().unwrap().clone();
    assert!(got.len() >= rows.len(), "only {} requests", got.len());
    for (i, ((seat, want, _), (gseat, q))) in rows.iter().zip(&got).enumerate() {
        let (id, rest) = strip(q);
        assert_eq!((*seat, *want), (*gseat, rest.as_str()), "row {}", i + 1);
        assert_eq!(id, record.ids[*seat], "row {} id", i + 1);
        assert!(q.starts_with(&format!("market={}&", record.market)));
    }
    assert!(record.scores.is_some());
    record
}

const BEGIN: [Row; 4] = [
    (0, "type=information&message=begin", Some("")),
    (1, "type=information&message=begin", Some("")),
    (2, "type=information&message=begin", Some("")),
    (3, "type=information&message=begin", Some("")),
];

static E_AUCTION: [Row; 18] = [
    BEGIN[0],
    BEGIN[1],
    BEGIN[2],
    BEGIN[3],
    (0, "type=start", Some("?type=auction")),
    (
        1,
        "type=auction&opponent=E&auctioneer=E&goods=D",
        Some("?money=tt"),
    ),
    (
        2,
        "type=auction&opponent=E&auctioneer=N&goods=D&money=tt&message=E20",
        Some("?money=f"),
    ),
    (
        3,
        "type=auction&opponent=E&auctioneer=W&goods=D&money=f&message=N20E50",
        None,
    ),
    (
        1,
        "type=auction&opponent=W&auctioneer=E&goods=D&money=f&message=W50N0",
        Some("?money=ftt"),
    ),
    (
        2,
        "type=auction&opponent=E&auctioneer=N&goods=D&money=ftt&message=W0E70",
        Some("?money=tttttt"),
    ),
    (
        0,
        "type=auction&opponent=W&auctioneer=S&goods=D&money=ftt&message=W20N50E0W70N60",
        Some(""),
    ),
    (1, "type=receive&goods=D", Some("")),
    (1, "type=collect&opponent=E&money=ftt", Some("?money=ftt")),
    (0, "type=receive&opponent=W&money=ftt", Some("")),
    (
        2,
        "type=information&opponent=E&goods=D&money=-QQQ70",
        Some(""),
    ),
    (
        3,
        "type=information&opponent=N&goods=D&money=-QQQ70",
        Some(""),
    ),
    (2, "type=information&opponent=N&money=QQQ70", Some("")),
    (3, "type=information&opponent=W&money=QQQ70", Some("")),
];

#[tokio::test]
async fn worked_example_auction() {
    let r = check(Game::with_deck(&[a('D')]), &E_AUCTION).await;
    assert_eq!(r.herds[1], "D");
    assert_eq!(r.money[1], "ttnn");
    assert_eq!(r.money[0], "ffttttttnn");
}

/// P1 holds one D and `nnttf`, P2 one D and `nnttttff`, P2 to move, deck empty.
fn trade_position() -> Game {
    let mut herds = [Herd::default(); 4];
    herds[1].add(a('D'), 1);
    herds[2].add(a('D'), 1);
    let money = [
        Cards::START,
        Cards::parse("nnttf").unwrap(),
        Cards::parse("nnttttff").unwrap(),
        Cards::START,
    ];
    Game::from_position(&[], herds, money, 4, Seat(2), [false; 4])
}

static E_TRADE: [Row; 16] = [
    (
        2,
        "type=start",
        Some("?type=trade&opponent=E&goods=D&money=nttt"),
    ),
    (
        1,
        "type=trade&opponent=W&goods=D&money=QQQQ",
        Some("?money=ftt"),
    ),
    (2, "type=collect&opponent=E&goods=D", Some("")),
    (1, "type=receive&opponent=W&goods=D", Some("")),
    (1, "type=collect&opponent=W&money=ftt", Some("")),
    (2, "type=receive&opponent=E&money=ftt", Some("")),
    (2, "type=collect&opponent=E&money=tttn", Some("")),
    (1, "type=receive&opponent=W&money=tttn", Some("")),
    (
        3,
        "type=information&opponent=N&goods=D&money=-QQQ",
        Some(""),
    ),
    (
        0,
        "type=information&opponent=W&goods=D&money=-QQQ",
        Some(""),
    ),
    (
        3,
        "type=information&opponent=E&goods=-D&money=QQQ",
        Some(""),
    ),
    (
        0,
        "type=information&opponent=N&goods=-D&money=QQQ",
        Some(""),
    ),
    (3, "type=information&opponent=E&money=-QQQQ", Some("")),
    (0, "type=information&opponent=N&money=-QQQQ", Some("")),
    (3, "type=information&opponent=N&money=QQQQ", Some("")),
    (0, "type=information&opponent=W&money=QQQQ", Some("")),
];

#[tokio::test]
async fn worked_example_trade() {
    let r = check(trade_position(), &E_TRADE).await;
    assert_eq!(r.herds[1], "DD");
    assert_eq!(r.money[1], "tttnnn");
    assert_eq!(r.money[2], "ffftttn");
}

/// The spec's tie variant counters `ttt`, which P1 (`nnttf`) does not own; `f` against `f`
/// makes the same tie with cards both hold.
static E_TIE: [Row; 4] = [
    (
        2,
        "type=start",
        Some("?type=trade&opponent=E&goods=D&money=f"),
    ),
    (1, "type=trade&opponent=W&goods=D&money=Q", Some("?money=f")),
    (
        2,
        "type=trade&opponent=E&goods=D&message=equal_bid",
        Some("?money=ff"),
    ),
    (
        1,
        "type=trade&opponent=W&goods=D&money=QQ&message=equal_bid",
        Some(""),
    ),
];

#[tokio::test]
async fn worked_example_tie_asks_both_again() {
    let r = check(trade_position(), &E_TIE).await;
    // P1 accepted the re-offer `ff`: P2 wins the D and only his offer moves.
    assert_eq!(r.herds[2], "DD");
    assert_eq!(r.money[1], "fffttnn");
    assert_eq!(r.money[2], "ttttnn");
}

static ORIGINAL_1: [Row; 14] = [
    (0, "type=start", Some("?type=auction")),
    (
        1,
        "type=auction&opponent=E&auctioneer=E&goods=F",
        Some("?money=t"),
    ),
    (
        2,
        "type=auction&opponent=E&auctioneer=N&goods=F&money=t&message=E10",
        Some(""),
    ),
    (
        3,
        "type=auction&opponent=N&auctioneer=W&goods=F&money=t&message=N10E0",
        Some("?money=tttt"),
    ),
    (
        1,
        "type=auction&opponent=N&auctioneer=E&goods=F&money=tttt&message=W0N40",
        Some("?money=ntttt"),
    ),
    (
        0,
        "type=auction&opponent=E&auctioneer=S&goods=F&money=tttt&message=W10N0E40W40",
        Some("?money=tttt"),
    ),
    (0, "type=receive&goods=F", Some("")),
    (0, "type=collect&opponent=E&money=tttt", Some("?money=tttt")),
    (3, "type=receive&opponent=W&money=tttt", Some("")),
    (
        1,
        "type=information&opponent=E&goods=F&money=-QQQQ40",
        Some(""),
    ),
    (
        2,
        "type=information&opponent=N&goods=F&money=-QQQQ40",
        Some(""),
    ),
    (1, "type=information&opponent=N&money=QQQQ40", Some("")),
    (2, "type=information&opponent=W&money=QQQQ40", Some("")),
    (0, "type=end&message=S350W0N0E0", Some("")),
];

#[tokio::test]
async fn original_example_auction_with_buy_back() {
    // Seat 0 already owns three F, so the bought F completes a quartet and the end message
    // (the deck holds only this F) carries a score.
    let mut herds = [Herd::default(); 4];
    herds[0].add(a('F'), 3);
    let g = Game::from_position(&[a('F')], herds, [Cards::START; 4], 0, Seat(0), [false; 4]);
    let r = check(g, &ORIGINAL_1).await;
    assert_eq!(r.scores, Some([350, 0, 0, 0]));
    assert_eq!(r.money[0], "fnn");
    assert_eq!(r.money[3], "fttttttttnn");
}

static ORIGINAL_2: [Row; 9] = [
    (
        2,
        "type=start",
        Some("?type=trade&goods=H&opponent=W&money=nntt"),
    ),
    (
        3,
        "type=trade&opponent=E&goods=H&money=QQQQ",
        Some("?money=ttff"),
    ),
    (3, "type=information&message=invalid_bid", Some("")),
    (3, "type=collect&opponent=E&goods=H", Some("")),
    (2, "type=receive&opponent=W&goods=H", Some("")),
    // The original writes the offer as sent (`nntt`); C4: the server writes cards descending.
    (2, "type=collect&opponent=W&money=ttnn", Some("")),
    (3, "type=receive&opponent=E&money=ttnn", Some("")),
    (
        0,
        "type=information&opponent=N&goods=H&money=-QQQQ",
        Some(""),
    ),
    (
        1,
        "type=information&opponent=W&goods=H&money=-QQQQ",
        Some(""),
    ),
];

#[tokio::test]
async fn original_example_invalid_counter_offer_counts_as_accept() {
    let mut herds = [Herd::default(); 4];
    herds[2].add(a('H'), 1);
    herds[3].add(a('H'), 1);
    let g = Game::from_position(&[], herds, [Cards::START; 4], 4, Seat(2), [false; 4]);
    let r = check(g, &ORIGINAL_2).await;
    assert_eq!(r.herds[2], "HH");
    assert_eq!(r.money[3], "fttttttnnnn");
    assert_eq!(r.money[2], "ftt");
}
