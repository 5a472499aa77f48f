//! The codec over real game traffic: every notice and question of many chaotic games goes
//! engine → wire string → bot decoder (as seat 0) → player → reply string → market answer.
//! The decoded message must re-encode to the same wire message, answers must rotate back to the
//! right absolute seats, and every message kind must occur.

use kibitz_bots_koehandel::protocol::{
    answer_reply, event_msg, question_msg, reply_answer, BotDecoder, Envelope, Incoming, Reply,
};
use kibitz_koehandel::{
    Animal, Answer, Cards, Game, Knowledge, MoneyCard, Question, Seat, TradeStart,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::mem::discriminant;

/// A player that answers anything: bluffs, invalid trades, cards it does not own, ties.
struct Chaos {
    rng: ChaCha8Rng,
    k: Knowledge,
}

impl Chaos {
    fn subset(&mut self) -> Cards {
        let mut c = Cards::EMPTY;
        for i in 0..6 {
            c.0[i] = self.rng.random_range(0..=self.k.hand.0[i]);
        }
        c
    }

    fn not_owned(&mut self) -> Cards {
        let mut c = self.k.hand;
        c.push(MoneyCard::ALL[self.rng.random_range(1..6)]);
        c
    }

    fn decide(&mut self, q: &Question) -> Answer {
        self.k.on_question(q);
        let x: f64 = self.rng.random();
        let a = match q {
            Question::Start if x < 0.05 => Answer::None,
            Question::Start if x < 0.5 => {
                let opponent = match self.rng.random_range(0..10) {
                    0 => None,
                    1 => Some(Seat(0)),
                    r => Some(Seat(1 + r % 3)),
                };
                let owned: Vec<Animal> = Animal::all()
                    .filter(|&a| self.k.herds[0].count(a) > 0)
                    .collect();
                let animal = if !owned.is_empty() && self.rng.random_bool(0.8) {
                    Some(owned[self.rng.random_range(0..owned.len())])
                } else {
                    Some(Animal(self.rng.random_range(0..10)))
                };
                let offer = if self.rng.random_bool(0.1) {
                    self.not_owned()
                } else {
                    self.subset()
                };
                Answer::Trade(TradeStart {
                    opponent,
                    animal,
                    offer: Some(offer),
                })
            }
            Question::Start => Answer::Auction,
            Question::Bid { high_bid, .. } => {
                let high = high_bid.value();
                if x < 0.45 {
                    Answer::Money(Cards::EMPTY)
                } else if x < 0.8 {
                    Answer::bid(high + 10 * self.rng.random_range(1..8))
                } else if x < 0.95 {
                    Answer::bid(high + 10 * self.rng.random_range(20..100))
                } else {
                    Answer::None
                }
            }
            Question::BuyBack { high_bid, .. } => Answer::buy_back(x < 0.4, high_bid),
            Question::Pay { price, .. } => {
                if x < 0.4 {
                    Answer::None
                } else if x < 0.8 {
                    Answer::Money(self.k.hand)
                } else if x < 0.9 {
                    Answer::Money(self.not_owned())
                } else {
                    Answer::bid(price.value())
                }
            }
            Question::Challenged { offer_cards, .. } => {
                if x < 0.3 {
                    Answer::Money(Cards::EMPTY)
                } else if x < 0.55 && *offer_cards <= 1 && self.k.hand.count(MoneyCard::Zero) > 0 {
                    Answer::Money(Cards::single(MoneyCard::Zero))
                } else if x < 0.9 {
                    Answer::Money(self.subset())
                } else {
                    Answer::Money(self.not_owned())
                }
            }
            Question::Reoffer { .. } if x < 0.3 => Answer::Money(Cards::EMPTY),
            Question::Reoffer { .. } => Answer::Money(self.subset()),
        };
        self.k.on_answer(q, &a);
        a
    }
}

fn wire(
    seat: Seat,
    msg: kibitz_bots_koehandel::protocol::ServerMsg,
) -> kibitz_bots_koehandel::protocol::ServerMsg {
    let env = Envelope {
        market: 3,
        id: 10 + seat.0 as u64,
        msg,
    };
    let back = Envelope::parse(&env.to_query()).expect("our own message parses");
    assert_eq!(back, env);
    back.msg
}

#[test]
fn chaotic_games_round_trip_through_the_bot_decoder() {
    let mut kinds = BTreeSet::new();
    let mut questions = BTreeSet::new();
    for seed in 0..40u64 {
        let mut game = Game::new(seed);
        let mut players: Vec<Chaos> = (0..4)
            .map(|i| Chaos {
                rng: ChaCha8Rng::seed_from_u64(seed * 4 + i),
                k: Knowledge::new(Seat(0)),
            })
            .collect();
        let mut decoders = vec![BotDecoder::default(); 4];
        loop {
            let notices: Vec<_> = game.drain_notices().collect();
            for n in notices {
                let i = n.seat.idx();
                let msg = wire(n.seat, event_msg(n.seat, &n.event));
                let Incoming::Event(e) = decoders[i].decode(&msg) else {
                    panic!("{:?} decoded as no event", n.event);
                };
                assert_eq!(event_msg(Seat(0), &e), msg, "{:?}", n.event);
                assert_eq!(
                    discriminant(&e),
                    discriminant(&n.event),
                    "{:?} vs {e:?}",
                    n.event
                );
                kinds.insert(format!("{:?}", discriminant(&e)));
                players[i].k.observe(&e);
                players[i].k.facts.clear();
            }
            let Some(ask) = game.ask() else { break };
            let i = ask.seat.idx();
            let msg = wire(ask.seat, question_msg(ask.seat, &ask.question, None));
            let Incoming::Question(q) = decoders[i].decode(&msg) else {
                panic!("{:?} decoded as no question", ask.question);
            };
            assert_eq!(question_msg(Seat(0), &q, None), msg);
            assert_eq!(discriminant(&q), discriminant(&ask.question));
            questions.insert(format!("{:?}", discriminant(&q)));
            let rel_answer = players[i].decide(&q);
            let body = answer_reply(&rel_answer).to_string();
            let answer = reply_answer(ask.seat, &ask.question, Some(&Reply::parse(&body)));
            match (rel_answer, answer) {
                (Answer::Trade(r), Answer::Trade(a)) => {
                    assert_eq!(a.opponent, r.opponent.map(|o| ask.seat.plus(o.idx())));
                    assert_eq!((a.animal, a.offer), (r.animal, r.offer));
                }
                (Answer::Money(r), Answer::Money(a)) => assert_eq!(r, a),
                (Answer::None, Answer::Money(c)) => assert!(c.is_empty()),
                (r, a) => assert_eq!(r, a),
            }
            game.answer(answer);
        }
        let total = Seat::ALL
            .iter()
            .fold(Cards::EMPTY, |acc, &s| acc.plus(&game.money(s)));
        assert_eq!(total.value(), 3760);
    }
    assert_eq!(kinds.len(), 17, "event kinds seen: {kinds:?}");
    assert_eq!(questions.len(), 6, "question kinds seen: {questions:?}");
}
