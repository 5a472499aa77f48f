//! Money conservation and knowledge invariants over many random games: a chaos driver
//! (random, often invalid answers, bluffs) and real players. After every step each seat's
//! [`Knowledge`], built only from its own messages, must agree with the referee's state.

use kibitz_koehandel::auction::server_payment;
use kibitz_koehandel::game::Game;
use kibitz_koehandel::game_impl::Koehandel;
use kibitz_koehandel::types::{Animal, Cards, MoneyCard, Seat, MONEY_KINDS};
use kibitz_koehandel::{make_agent, Answer, Ask, KhAgent, Knowledge, Question, TradeStart};
use kibitz_search::agent::View;
use kibitz_search::time::TimeControl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn expected_total(donkeys: u8) -> Cards {
    let mut t = Cards::EMPTY;
    for _ in 0..4 {
        t.add(&Cards::START);
    }
    for n in 1..=donkeys {
        for _ in 0..4 {
            t.push(MoneyCard::donkey_payout(n));
        }
    }
    t
}

fn random_cards(rng: &mut ChaCha8Rng, hand: &Cards, owned: bool) -> Cards {
    let mut c = Cards::EMPTY;
    for k in 0..MONEY_KINDS {
        let max = if owned { hand.0[k] } else { hand.0[k] + 2 };
        c.0[k] = rng.random_range(0..=max);
    }
    c
}

fn chaos(g: &Game, ask: &Ask, rng: &mut ChaCha8Rng) -> Answer {
    let hand = g.money(ask.seat);
    let r: f64 = rng.random();
    if r < 0.08 {
        return Answer::None;
    }
    if r < 0.12 {
        return Answer::InvalidMoney;
    }
    match &ask.question {
        Question::Start => {
            if rng.random_bool(0.5) {
                Answer::Auction
            } else {
                Answer::Trade(TradeStart {
                    opponent: Some(Seat(rng.random_range(0..4))),
                    animal: Some(Animal(rng.random_range(0..10))),
                    offer: Some({
                        let owned = rng.random_bool(0.9);
                        random_cards(rng, &hand, owned)
                    }),
                })
            }
        }
        Question::Bid { high_bid, .. } => {
            if rng.random_bool(0.4) {
                Answer::Money(Cards::EMPTY)
            } else {
                Answer::bid(high_bid.value() + 10 * rng.random_range(0..12))
            }
        }
        Question::BuyBack { high_bid, .. } => Answer::buy_back(rng.random_bool(0.4), high_bid),
        Question::Pay { price, .. } => {
            if rng.random_bool(0.5) {
                let mut c = server_payment(&hand, price.value());
                if hand.count(MoneyCard::Zero) > 0 && rng.random_bool(0.3) {
                    c.push(MoneyCard::Zero);
                }
                Answer::Money(c)
            } else {
                Answer::Money({
                    let owned = rng.random_bool(0.5);
                    random_cards(rng, &hand, owned)
                })
            }
        }
        Question::Challenged { .. } | Question::Reoffer { .. } => {
            if rng.random_bool(0.3) {
                Answer::Money(Cards::EMPTY)
            } else {
                Answer::Money({
                    let owned = rng.random_bool(0.85);
                    random_cards(rng, &hand, owned)
                })
            }
        }
    }
}

fn check(g: &Game, ks: &[Knowledge; 4], at_turn: bool) {
    assert_eq!(
        g.total_money(),
        expected_total(g.donkeys_revealed()),
        "money conserved"
    );
    let animals: u32 = Seat::ALL.iter().map(|&s| g.herd(s).len()).sum();
    for k in ks {
        assert_eq!(k.hand, g.money(k.me), "own hand exact");
        assert_eq!(k.total, g.total_money(), "money in play");
        if at_turn {
            assert_eq!(animals as usize + g.deck_left(), 40);
            for a in Animal::all() {
                assert!(
                    Seat::ALL
                        .iter()
                        .map(|&s| g.herd(s).count(a) as u32)
                        .sum::<u32>()
                        <= 4
                );
            }
            assert_eq!(k.deck_left() as usize, g.deck_left(), "deck count");
            for s in Seat::ALL {
                assert_eq!(k.herds[s.idx()], g.herd(s), "herd of {s} seen by {}", k.me);
                assert_eq!(k.counts[s.idx()], g.money(s).len(), "card count of {s}");
                assert_eq!(k.caught[s.idx()], g.caught(s));
            }
            let opp: u32 = k.opponents().iter().map(|s| k.counts[s.idx()]).sum();
            assert_eq!(opp, k.opponents_money().len());
        }
    }
}

/// `agent`'s answer at `seat` of the referee's `g` (a view of a copy of it).
fn choose(agent: &mut KhAgent, g: &Game, seat: usize) -> Answer {
    let kg = Koehandel(g.clone());
    agent
        .choose(&View::new(&kg, seat), &TimeControl::infinite())
        .action
        .0
}

/// Plays one game; `players` (with their seeds) answer when given, else the chaos driver does.
fn run(seed: u64, mut players: Option<(Vec<KhAgent>, Vec<u64>)>) -> Game {
    let mut g = Game::new(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut ks: [Knowledge; 4] = std::array::from_fn(|i| Knowledge::new(Seat(i as u8)));
    if let Some((ps, seeds)) = players.as_mut() {
        for (i, p) in ps.iter_mut().enumerate() {
            p.new_game(i, seeds[i]);
        }
    }
    loop {
        let notices: Vec<_> = g.drain_notices().collect();
        for n in notices {
            ks[n.seat.idx()].observe(&n.event);
            if let kibitz_koehandel::Event::Bluffed { bluffer, cards, .. } = n.event {
                assert_eq!(cards, g.money(bluffer), "a bluff shows the whole hand");
            }
            if let Some((ps, _)) = players.as_mut() {
                ps[n.seat.idx()].observe(&n.event);
            }
        }
        let ask = g.ask();
        check(
            &g,
            &ks,
            matches!(
                ask,
                None | Some(Ask {
                    question: Question::Start,
                    ..
                })
            ),
        );
        let Some(ask) = ask else { break };
        let k = &mut ks[ask.seat.idx()];
        k.on_question(&ask.question);
        let a = match players.as_mut() {
            Some((ps, _)) => choose(&mut ps[ask.seat.idx()], &g, ask.seat.idx()),
            None => chaos(&g, &ask, &mut rng),
        };
        k.on_answer(&ask.question, &a);
        g.answer(a);
    }
    for k in &ks {
        assert_eq!(k.final_scores, Some(g.scores()));
    }
    g
}

#[test]
fn chaos_games_conserve_money_and_knowledge_stays_exact() {
    let mut bluffs = 0;
    let mut bars = 0;
    for seed in 0..300 {
        let g = run(seed, None);
        assert!(g.is_over());
        bluffs += g.stats().iter().map(|s| s.bluffs).sum::<u32>();
        bars += g.stats().iter().filter(|s| s.barred).count();
        for s in g.stats() {
            assert!(s.bluffs <= 1, "nobody is caught twice");
        }
    }
    assert!(bluffs > 50, "the chaos driver exercises bluffs ({bluffs})");
    assert!(bars > 50, "and bars ({bars})");
}

#[test]
fn player_games_conserve_money_and_knowledge_stays_exact() {
    let names = ["heuristic", "random", "heuristic", "pass"];
    for seed in 0..100u64 {
        let seeds: Vec<u64> = (0..4).map(|i| seed * 4 + i).collect();
        let players: Vec<KhAgent> = (0..4)
            .map(|i| make_agent(names[(i + seed as usize) % 4], seeds[i]).unwrap())
            .collect();
        let g = run(seed, Some((players, seeds)));
        assert!(g.is_over());
        assert_eq!(
            g.total_money().value(),
            3760,
            "all four donkeys were revealed"
        );
        assert_eq!(g.total_money().len(), 44);
    }
}

/// Every particle of every seat's belief agrees with the books (card counts, the exact pool of
/// opponents' money, a caught bluffer's hand), and the belief's mean estimate of each
/// opponent's money beats the naive equal split.
#[test]
fn beliefs_stay_consistent_with_the_books_and_beat_the_equal_split() {
    use kibitz_koehandel::belief::Belief;
    let names = ["heuristic", "random", "heuristic", "random"];
    let (mut err_belief, mut err_naive) = (0.0, 0.0);
    for seed in 0..40u64 {
        let mut g = Game::new(seed);
        let mut ks: [Knowledge; 4] = std::array::from_fn(|i| Knowledge::new(Seat(i as u8)));
        let mut bs: [Belief; 4] =
            std::array::from_fn(|i| Belief::new(Seat(i as u8), 24, seed + i as u64));
        let mut players: Vec<KhAgent> = (0..4)
            .map(|i| make_agent(names[i], seed * 4 + i as u64).unwrap())
            .collect();
        for (i, p) in players.iter_mut().enumerate() {
            p.new_game(i, seed * 4 + i as u64);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        loop {
            let notices: Vec<_> = g.drain_notices().collect();
            for n in &notices {
                let s = n.seat.idx();
                ks[s].observe(&n.event);
                bs[s].sync(&mut ks[s]);
                players[s].observe(&n.event);
                if let kibitz_koehandel::Event::Bluffed { bluffer, cards, .. } = n.event {
                    for p in bs[s].particles() {
                        assert_eq!(p[bluffer.idx()], cards, "a shown hand is imposed");
                    }
                }
            }
            let ask = g.ask();
            if matches!(
                ask,
                None | Some(Ask {
                    question: Question::Start,
                    ..
                })
            ) {
                for (k, b) in ks.iter().zip(&bs) {
                    for p in b.particles() {
                        let mut pool = Cards::EMPTY;
                        for o in k.opponents() {
                            assert_eq!(p[o.idx()].len(), k.counts[o.idx()], "card counts");
                            pool.add(&p[o.idx()]);
                        }
                        assert_eq!(pool, k.opponents_money(), "the opponents' pool is exact");
                        assert_eq!(p[k.me.idx()], k.hand);
                    }
                    let naive = k.opponents_money().value() as f64 / 3.0;
                    for o in k.opponents() {
                        let truth = g.money(o).value() as f64;
                        err_belief += (b.mean_value(o) - truth).abs();
                        err_naive += (naive - truth).abs();
                    }
                }
            }
            let Some(ask) = ask else { break };
            let s = ask.seat.idx();
            ks[s].on_question(&ask.question);
            bs[s].sync(&mut ks[s]);
            // A few chaos answers mixed in, for bluffs and odd payments.
            let a = if rng.random_bool(0.1) {
                chaos(&g, &ask, &mut rng)
            } else {
                choose(&mut players[s], &g, s)
            };
            ks[s].on_answer(&ask.question, &a);
            bs[s].sync(&mut ks[s]);
            g.answer(a);
        }
    }
    eprintln!("mean abs error: belief {err_belief:.0}, equal split {err_naive:.0}");
    assert!(
        err_belief < 0.8 * err_naive,
        "belief error {err_belief:.0} vs naive {err_naive:.0}"
    );
}
