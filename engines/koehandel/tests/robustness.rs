//! Players survive odd messages: random (often impossible) events and questions never make
//! them panic, and their answers stay well-formed.

use kibitz_koehandel::game_impl::KhView;
use kibitz_koehandel::{
    make_agent, Animal, Answer, Cards, Event, Knowledge, MoneyCard, Question, Seat, TradeError,
};
use kibitz_search::time::TimeControl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn cards(rng: &mut ChaCha8Rng) -> Cards {
    Cards(std::array::from_fn(|_| rng.random_range(0..6)))
}

fn seat(rng: &mut ChaCha8Rng) -> Seat {
    Seat(rng.random_range(0..4))
}

fn animal(rng: &mut ChaCha8Rng) -> Animal {
    Animal(rng.random_range(0..10))
}

fn event(rng: &mut ChaCha8Rng) -> Event {
    let n = rng.random_range(1..4);
    match rng.random_range(0..17) {
        0 => Event::Begin,
        1 => Event::ReceiveGoods {
            animal: animal(rng),
            count: rng.random_range(1..3),
            from: Some(seat(rng)),
        },
        2 => Event::ReceiveGoods {
            animal: animal(rng),
            count: 1,
            from: None,
        },
        3 => Event::CollectGoods {
            animal: animal(rng),
            count: rng.random_range(1..3),
            to: seat(rng),
        },
        4 => Event::ReceiveMoney {
            cards: cards(rng),
            from: Some(seat(rng)),
        },
        5 => Event::ReceiveMoney {
            cards: Cards::single(MoneyCard::Hundred),
            from: None,
        },
        6 => Event::CollectMoney {
            cards: cards(rng),
            to: seat(rng),
        },
        7 => Event::Bought {
            animal: animal(rng),
            buyer: seat(rng),
            cards: n,
            price: 10 * n,
        },
        8 => Event::Sold {
            seller: seat(rng),
            cards: n,
            price: 500 * n,
        },
        9 => Event::Bluffed {
            animal: animal(rng),
            bluffer: seat(rng),
            cards: cards(rng),
        },
        10 => Event::ServerPaid {
            animal: animal(rng),
            to: seat(rng),
            cards: cards(rng),
        },
        11 => Event::TradeWon {
            animal: animal(rng),
            count: 2,
            winner: seat(rng),
            cards: n,
        },
        12 => Event::TradeLost {
            animal: animal(rng),
            count: 2,
            loser: seat(rng),
            cards: n + 9,
        },
        13 => Event::OfferPaid {
            payer: seat(rng),
            cards: n + 20,
        },
        14 => Event::OfferReceived {
            payee: seat(rng),
            cards: n,
        },
        15 => Event::DonkeyPaid {
            seat: seat(rng),
            card: MoneyCard::FiveHundred,
        },
        _ => Event::TradeError(TradeError::InvalidBid),
    }
}

fn question(rng: &mut ChaCha8Rng) -> Question {
    let history: Vec<(Seat, u32)> = (0..rng.random_range(0..5))
        .map(|_| (seat(rng), 10 * rng.random_range(0..50)))
        .collect();
    match rng.random_range(0..6) {
        0 => Question::Start,
        1 => Question::Bid {
            animal: animal(rng),
            auctioneer: seat(rng),
            high_bidder: Some(seat(rng)),
            high_bid: cards(rng),
            history,
        },
        2 => Question::BuyBack {
            animal: animal(rng),
            high_bidder: seat(rng),
            high_bid: cards(rng),
            history,
        },
        3 => Question::Pay {
            animal: animal(rng),
            to: seat(rng),
            price: cards(rng),
        },
        4 => Question::Challenged {
            challenger: seat(rng),
            animal: animal(rng),
            count: rng.random_range(1..3),
            offer_cards: rng.random_range(0..30),
            tie: rng.random_bool(0.3),
        },
        _ => Question::Reoffer {
            opponent: seat(rng),
            animal: animal(rng),
            count: 1,
        },
    }
}

#[test]
fn players_survive_random_messages() {
    for name in ["pass", "random", "heuristic", "strong:worlds=2:particles=8"] {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for game in 0..20 {
            let mut p = make_agent(name, game).unwrap();
            let me = seat(&mut rng);
            p.new_game(me.idx(), game);
            for _ in 0..150 {
                if rng.random_bool(0.6) {
                    p.observe(&event(&mut rng));
                } else {
                    let q = question(&mut rng);
                    // The question as a bot client sees it: a view built from the books.
                    let view = KhView::from_knowledge(&Knowledge::new(me), Some(&q)).into_view();
                    let a = p.choose(&view, &TimeControl::infinite()).action.0;
                    if let (Question::Start, Answer::Money(_)) = (&q, a) {
                        panic!("{name} answered money to start");
                    }
                }
            }
        }
    }
}
