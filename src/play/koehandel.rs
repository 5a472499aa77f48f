//! `kibitz play koehandel`: the person at seat 0 against three of the bot's agents, with the
//! table told through the game's notices and every choice asked for on a line.

use super::{Args, Input};
use crate::arena::koehandel as kh;
use anyhow::Context;
use kibitz_bots_koehandel::record as kh_record;

/// `A rooster 10 · B goose 40 · …`: the animal letters the prompts use, once per game.
fn animal_legend() -> String {
    kibitz_koehandel::Animal::all()
        .map(|a| {
            let name = kh_record::ANIMAL_NAMES
                .get(a.idx())
                .copied()
                .unwrap_or("animal");
            format!("{} {name} {}", a.letter(), a.value())
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Animal cards still in the deck: the knowledge counts finished auctions, and the animal of
/// an auction under way is drawn already.
fn cards_in_deck(k: &kibitz_koehandel::Knowledge) -> u32 {
    k.deck_left().saturating_sub(u32::from(k.auction.is_some()))
}

/// `2 × cat (C), 1 × pig (H)`, or `nothing`.
fn herd_text(h: &kibitz_koehandel::Herd) -> String {
    let kinds: Vec<String> = kibitz_koehandel::Animal::all()
        .filter(|&a| h.count(a) > 0)
        .map(|a| format!("{} × {}", h.count(a), kh_record::animal_text(a)))
        .collect();
    if kinds.is_empty() {
        "nothing".into()
    } else {
        kinds.join(", ")
    }
}

/// The person as a Koehandel player: tracks the table through the notices and asks.
struct HumanKh<'a> {
    input: &'a mut Input,
    know: kibitz_koehandel::Knowledge,
    error: Option<anyhow::Error>,
    /// Whether the animal letters were explained yet (once per game).
    legend_shown: bool,
}

impl kibitz_search::agent::Agent<kibitz_koehandel::game_impl::Koehandel> for HumanKh<'_> {
    fn name(&self) -> String {
        "you".into()
    }
    fn new_game(&mut self, seat: usize, _seed: u64) {
        self.know = kibitz_koehandel::Knowledge::new(kibitz_koehandel::Seat(seat as u8 % 4));
        self.legend_shown = false;
    }
    fn observe(&mut self, event: &kibitz_koehandel::Event) {
        self.know.observe(event);
    }
    /// Asks the person for the answer to the pending question (no answer after an input
    /// error, which [`koehandel`] then reports).
    fn choose(
        &mut self,
        view: &kibitz_search::agent::View<'_, kibitz_koehandel::game_impl::Koehandel>,
        clock: &kibitz_search::time::TimeControl,
    ) -> kibitz_search::agent::Decision<kibitz_koehandel::game_impl::KhAction> {
        let answer = match kibitz_koehandel::agents::pending_question(view) {
            Some(q) => self.decide(&q),
            None => kibitz_koehandel::Answer::None,
        };
        kibitz_search::agent::Decision {
            elapsed: clock.elapsed(),
            ..kibitz_search::agent::Decision::action(kibitz_koehandel::game_impl::KhAction(answer))
        }
    }
}

impl HumanKh<'_> {
    fn decide(&mut self, q: &kibitz_koehandel::Question) -> kibitz_koehandel::Answer {
        use kibitz_koehandel::{Animal, Answer, Cards, Question, Seat, TradeStart};
        if self.error.is_some() {
            return Answer::None;
        }
        // The question carries the auction (its animal, the auctioneer): without it the books
        // cannot finish an auction the person sells, so the buyer's herd and the deck lagged.
        self.know.on_question(q);
        let k = &self.know;
        println!(
            "\ndeck left {}; your money {} — letters n=0 t=10 f=50 h=100 T=200 F=500",
            cards_in_deck(k),
            kh_record::money_text(&k.hand)
        );
        if !self.legend_shown {
            self.legend_shown = true;
            println!("animals (quartet value): {}", animal_legend());
        }
        for (s, h) in k.herds.iter().enumerate() {
            println!(
                "  seat {s}{}: herd {}",
                if s == k.me.0 as usize { " (you)" } else { "" },
                herd_text(h)
            );
        }
        let (prompt, help) = match q {
            Question::Start => (
                "your turn: a (auction) or t SEAT ANIMAL CARDS (trade), e.g. t 2 B tt",
                "a, or t followed by the seat, the animal letter A-J and your money letters",
            ),
            _ => (
                "answer with money letters (n t f h T F), empty = pass / accept",
                "letters n t f h T F only",
            ),
        };
        println!("{}", kh_record::question_text(q));
        loop {
            let l = match self.input.ask(&format!("{prompt}:")) {
                Ok(l) => l,
                Err(e) => {
                    self.error = Some(e);
                    return Answer::None;
                }
            };
            if matches!(q, Question::Start) {
                if l == "a" {
                    return Answer::Auction;
                }
                let parts: Vec<&str> = l.split_whitespace().collect();
                if let ["t", seat, animal, rest @ ..] = parts.as_slice() {
                    let opponent = seat.parse::<u8>().ok().filter(|s| *s < 4).map(Seat);
                    let animal = animal.chars().next().and_then(Animal::from_letter);
                    let offer = Cards::parse(rest.first().copied().unwrap_or("")).ok();
                    if opponent.is_some() && animal.is_some() && offer.is_some() {
                        return Answer::Trade(TradeStart {
                            opponent,
                            animal,
                            offer,
                        });
                    }
                }
                println!("cannot read {l:?}: {help}");
                continue;
            }
            match Cards::parse(&l) {
                Ok(c) => return Answer::Money(c),
                Err(e) => println!("cannot read {l:?}: {e}; {help}"),
            }
        }
    }
}

/// The human driver of koehandel (its line in the registry): the person at seat 0, the bot's
/// agents at seats 1-3 (seeded `seed + seat`), all driven through [`Agent`].
///
/// [`Agent`]: kibitz_search::agent::Agent
pub fn koehandel(args: &Args, input: &mut Input) -> anyhow::Result<()> {
    use kibitz_koehandel::game_impl::Koehandel;
    use kibitz_koehandel::{make_agent, Game, KhAgent, Seat};
    use kibitz_search::agent::{Agent, View};
    use kibitz_search::time::TimeControl;
    let spec = kh::engine_spec(&args.bot, None)?;
    let mut human = HumanKh {
        input,
        know: kibitz_koehandel::Knowledge::new(Seat(0)),
        error: None,
        legend_shown: false,
    };
    let seeds: Vec<u64> = (1..4u64).map(|s| args.seed.wrapping_add(s)).collect();
    let mut bots: Vec<KhAgent> = seeds
        .iter()
        .map(|&s| make_agent(&spec, s).context("bot spec"))
        .collect::<anyhow::Result<_>>()?;
    let mut game = Koehandel(Game::new(args.seed));
    human.new_game(0, args.seed);
    for (i, (b, &s)) in bots.iter_mut().zip(&seeds).enumerate() {
        b.new_game(i + 1, s);
    }
    loop {
        for n in game.0.drain_notices() {
            if n.seat.0 == 0 {
                human.observe(&n.event);
            } else {
                bots[n.seat.0 as usize - 1].observe(&n.event);
            }
        }
        let Some(seat) = View::mover(&game) else {
            break;
        };
        let (view, clock) = (View::new(&game, seat), TimeControl::infinite());
        let d = if seat == 0 {
            human.choose(&view, &clock)
        } else {
            bots[seat - 1].choose(&view, &clock)
        };
        if let Some(e) = human.error.take() {
            return Err(e);
        }
        game.0.answer(d.action.0);
    }
    let scores = game.0.scores();
    println!("\nfinal scores: you {}, bots {:?}", scores[0], &scores[1..]);
    Ok(())
}
