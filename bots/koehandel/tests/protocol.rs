//! Codec round trips for every message type, and the spec's literal wire strings.

use kibitz_bots_koehandel::protocol::*;

fn k(c: char) -> Kind {
    Kind::from_letter(c).unwrap()
}

fn env(msg: ServerMsg) -> Envelope {
    Envelope {
        market: 7,
        id: 22,
        msg,
    }
}

fn hidden(neg: bool, count: u32, price: Option<u32>) -> Money {
    Money::Hidden { neg, count, price }
}

fn real(neg: bool, s: &str) -> Money {
    Money::Real {
        neg,
        letters: Letters::parse(s).unwrap(),
    }
}

/// (message, its exact wire form after `market=7&id=22&`).
fn samples() -> Vec<(ServerMsg, &'static str)> {
    use ServerMsg::*;
    let info = |opponent, goods, money, note| {
        Information(Info {
            opponent,
            goods,
            money,
            note,
        })
    };
    vec![
        (Start, "type=start"),
        (
            Auction(AuctionMsg {
                high_bidder: Rel::E,
                auctioneer: Rel::E,
                goods: k('D'),
                high_bid: None,
                history: vec![],
            }),
            "type=auction&opponent=E&auctioneer=E&goods=D",
        ),
        (
            Auction(AuctionMsg {
                high_bidder: Rel::W,
                auctioneer: Rel::S,
                goods: k('D'),
                high_bid: Some(Letters::parse("ftt").unwrap()),
                history: vec![
                    (Rel::W, 20),
                    (Rel::N, 50),
                    (Rel::E, 0),
                    (Rel::W, 70),
                    (Rel::N, 60),
                ],
            }),
            "type=auction&opponent=W&auctioneer=S&goods=D&money=ftt&message=W20N50E0W70N60",
        ),
        (
            Trade(TradeMsg {
                opponent: Rel::W,
                goods: Goods::one(k('D')),
                offer: Some(hidden(false, 4, None)),
                equal_bid: false,
            }),
            "type=trade&opponent=W&goods=D&money=QQQQ",
        ),
        (
            Trade(TradeMsg {
                opponent: Rel::N,
                goods: Goods {
                    kind: k('H'),
                    count: 2,
                },
                offer: Some(hidden(false, 0, None)),
                equal_bid: true,
            }),
            "type=trade&opponent=N&goods=HH&money=0&message=equal_bid",
        ),
        (
            Trade(TradeMsg {
                opponent: Rel::E,
                goods: Goods::one(k('D')),
                offer: None,
                equal_bid: true,
            }),
            "type=trade&opponent=E&goods=D&message=equal_bid",
        ),
        (
            Collect {
                to: Rel::E,
                what: Transfer::Goods(Goods::one(k('D'))),
            },
            "type=collect&opponent=E&goods=D",
        ),
        (
            Collect {
                to: Rel::E,
                what: Transfer::Money(Letters::parse("ntttt").unwrap()),
            },
            "type=collect&opponent=E&money=ntttt",
        ),
        (
            Receive {
                from: Some(Rel::W),
                what: Transfer::Goods(Goods {
                    kind: k('J'),
                    count: 2,
                }),
            },
            "type=receive&opponent=W&goods=JJ",
        ),
        (
            Receive {
                from: None,
                what: Transfer::Goods(Goods::one(k('G'))),
            },
            "type=receive&goods=G",
        ),
        (
            Receive {
                from: None,
                what: Transfer::Money(Letters::parse("f").unwrap()),
            },
            "type=receive&money=f",
        ),
        (
            Receive {
                from: Some(Rel::N),
                what: Transfer::Money(Letters::parse("FThftn").unwrap()),
            },
            "type=receive&opponent=N&money=FThftn",
        ),
        (
            info(None, None, None, Some(Note::Begin)),
            "type=information&message=begin",
        ),
        (
            info(
                Some(Rel::E),
                Some((false, Goods::one(k('D')))),
                Some(hidden(true, 3, Some(70))),
                None,
            ),
            "type=information&opponent=E&goods=D&money=-QQQ70",
        ),
        (
            info(Some(Rel::N), None, Some(hidden(false, 3, Some(70))), None),
            "type=information&opponent=N&money=QQQ70",
        ),
        (
            info(
                Some(Rel::W),
                Some((false, Goods::one(k('A')))),
                Some(hidden(true, 0, None)),
                None,
            ),
            "type=information&opponent=W&goods=A&money=-0",
        ),
        (
            info(
                Some(Rel::E),
                Some((
                    true,
                    Goods {
                        kind: k('D'),
                        count: 2,
                    },
                )),
                Some(hidden(false, 3, None)),
                None,
            ),
            "type=information&opponent=E&goods=-DD&money=QQQ",
        ),
        (
            info(
                Some(Rel::N),
                Some((false, Goods::one(k('C')))),
                Some(real(false, "nnttttf")),
                Some(Note::Bluffed),
            ),
            "type=information&opponent=N&goods=C&money=nnttttf&message=bluffed",
        ),
        (
            info(
                None,
                Some((false, Goods::one(k('C')))),
                None,
                Some(Note::SecondBluffNotAllowed),
            ),
            "type=information&goods=C&message=second_bluff_not_allowed",
        ),
        (
            info(None, None, None, Some(Note::NoOpponementSpecified)),
            "type=information&message=no_opponement_specified",
        ),
        (
            info(None, None, None, Some(Note::OpponentGoodsDoNotMatch)),
            "type=information&message=opponent_goods_do_not_match",
        ),
        (
            info(None, None, None, Some(Note::GoodsNotOwnedByPlayer)),
            "type=information&message=goods_not_owned_by_player",
        ),
        (
            info(None, None, None, Some(Note::InvalidBid)),
            "type=information&message=invalid_bid",
        ),
        (
            info(
                Some(Rel::E),
                Some((false, Goods::one(k('D')))),
                Some(real(true, "ft")),
                Some(Note::ServerPaid),
            ),
            "type=information&opponent=E&goods=D&money=-ft&message=server_paid",
        ),
        (
            info(Some(Rel::W), None, Some(real(false, "T")), None),
            "type=information&opponent=W&money=T",
        ),
        (
            End {
                scores: vec![(Rel::S, 420), (Rel::W, 750), (Rel::N, 2020), (Rel::E, 500)],
            },
            "type=end&message=S420W750N2020E500",
        ),
    ]
}

#[test]
fn every_message_type_round_trips_through_its_exact_wire_form() {
    for (msg, wire) in samples() {
        let e = env(msg);
        let q = e.to_query();
        assert_eq!(q, format!("market=7&id=22&{wire}"));
        assert_eq!(Envelope::parse(&q).unwrap(), e, "{q}");
        assert_eq!(
            Envelope::parse(&format!("?{q}")).unwrap(),
            e,
            "leading ? {q}"
        );
    }
}

#[test]
fn parsing_is_tolerant_of_order_duplicates_unknown_keys_and_percent_encoding() {
    let e = Envelope::parse("type=trade&goods=%44&id=3&market=9&opponent=W&money=QQ&type=end&x=1")
        .unwrap();
    assert_eq!(
        e,
        Envelope {
            market: 9,
            id: 3,
            msg: ServerMsg::Trade(TradeMsg {
                opponent: Rel::W,
                goods: Goods::one(k('D')),
                offer: Some(hidden(false, 2, None)),
                equal_bid: false
            })
        }
    );
    // The original's typo `E=500` in end scores.
    let e = Envelope::parse("market=1&id=1&type=end&message=W750N2020E=500").unwrap();
    assert_eq!(
        e.msg,
        ServerMsg::End {
            scores: vec![(Rel::W, 750), (Rel::N, 2020), (Rel::E, 500)]
        }
    );
}

#[test]
fn garbage_requests_are_errors_not_panics() {
    for q in [
        "",
        "market=1",
        "market=x&id=1&type=start",
        "market=1&id=1&type=dance",
        "market=1&id=1&type=auction&opponent=Q&auctioneer=S&goods=D",
        "market=1&id=1&type=auction&opponent=W&auctioneer=S&goods=DX",
        "market=1&id=1&type=auction&opponent=W&auctioneer=S&goods=D&money=xyz",
        "market=1&id=1&type=end&message=S12X3",
        "market=1&id=1&type=information&money=-QQ99999999999",
        "market=1&id=1&type=collect&opponent=W",
        "%FF%FE=%00&&&==",
    ] {
        assert!(Envelope::parse(q).is_err(), "{q:?} should not parse");
    }
}

#[test]
fn replies_round_trip() {
    let offer = Cards::parse("nttt").unwrap();
    let cases = [
        (Reply::auction(), "?type=auction"),
        (
            Reply::trade(Rel::E, Goods::one(k('D')), &offer),
            "?type=trade&opponent=E&goods=D&money=tttn",
        ),
        (
            Reply::trade(
                Rel::W,
                Goods {
                    kind: k('H'),
                    count: 2,
                },
                &Cards::EMPTY,
            ),
            "?type=trade&opponent=W&goods=HH",
        ),
        (
            Reply::bid(&Letters::parse("ntttt").unwrap()),
            "?money=ntttt",
        ),
        (Reply::cards(&Cards::parse("ftt").unwrap()), "?money=ftt"),
        (Reply::empty(), "?"),
    ];
    for (reply, body) in cases {
        assert_eq!(reply.to_string(), body);
        assert_eq!(Reply::parse(body), reply);
    }
    let t = Reply::parse(" type=trade&opponent=E&goods=D&money=nttt&money=F&junk \n");
    assert!(t.wants_trade());
    assert_eq!(t.opponent_rel(), Some(Rel::E));
    assert_eq!(t.goods_parsed(), Some(Goods::one(k('D'))));
    assert_eq!(t.money_cards(), Some(offer));
    assert_eq!(Reply::parse("?money").money_cards(), Some(Cards::EMPTY));
    assert_eq!(Reply::parse("?money=ttQ").money_cards(), None);
    assert_eq!(Reply::parse("?money=ttQ").money_bid(), None);
    assert_eq!(Reply::parse("\u{0}\u{1}garbage==&&").money_bid(), None);
}

#[test]
fn money_values_and_forms() {
    let c = Cards::parse("tnFfhT").unwrap();
    assert_eq!(c.to_string(), "FThftn");
    assert_eq!(c.value(), 860);
    assert_eq!(c.len(), 6);
    assert_eq!(Letters::parse("FFFFF").unwrap().value(), 2500);
    assert_eq!(Letters::for_value(70).as_str(), "ftt");
    assert_eq!(Letters::for_value(760).as_str(), "FTft");
    assert!(Cards::parse(&"F".repeat(MAX_LETTERS + 1)).is_err());
    assert_eq!(Money::parse("QQ60").unwrap(), hidden(false, 2, Some(60)));
    assert_eq!(Money::parse("-0").unwrap(), hidden(true, 0, None));
    assert_eq!(Money::parse("0").unwrap(), hidden(false, 0, None));
    assert_eq!(Money::parse("-ftt").unwrap(), real(true, "ftt"));
    assert!(Money::parse("Q1Q").is_err());
}

#[test]
fn seat_rotation_matches_the_spec_table() {
    // Rows: seat k; columns: seen by seat r.
    let table = ["SENW", "WSEN", "NWSE", "ENWS"];
    for (k, row) in table.iter().enumerate() {
        for (r, c) in row.chars().enumerate() {
            let rel = Rel::of(k, r);
            assert_eq!(rel.letter(), c, "seat {k} seen by {r}");
            assert_eq!(rel.seat(r), k);
        }
    }
}

/// Fuzz finding F2's fix (an empty `money=` is written back empty) left the market's own
/// output alone: an empty card set it sends is still `0` (a bluffer without cards), and both
/// forms are written back as they were read.
#[test]
fn an_empty_card_set_is_still_sent_as_zero_and_both_forms_round_trip() {
    use kibitz_koehandel::types::{Animal, Cards, Seat};
    let e = kibitz_koehandel::event::Event::Bluffed {
        animal: Animal(0),
        bluffer: Seat(1),
        cards: Cards::EMPTY,
    };
    let q = Envelope {
        market: 1,
        id: 1,
        msg: event_msg(Seat(0), &e),
    }
    .to_query();
    assert!(q.ends_with("&money=0&message=bluffed"), "{q}");
    for form in ["money=0", "money="] {
        let q = format!("market=1&id=1&type=information&opponent=W&goods=A&{form}&message=bluffed");
        let env = Envelope::parse(&q).unwrap();
        assert_eq!(env.to_query(), q, "{form} written back as read");
    }
}
