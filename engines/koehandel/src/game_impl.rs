//! Koehandel (Kuhhandel, 4 seats) as a [`kibitz_search::game::Game`]: a thin wrapper over the
//! market ([`Game::ask`] / [`Game::answer`]).
//!
//! - **Turns.** The seat of the pending [`Question`] moves; the game is over when `ask` is
//!   `None`. No chance nodes: the deck order is fixed by `new_game`'s seed and hidden.
//! - **Actions** are [`Answer`]s. The market takes *every* answer (a wrong one gets the spec's
//!   default), so [`kibitz_search::game::Game::apply`] refuses only after the end. The money
//!   answers are too many to list, so `legal_actions` is a menu (see [`KhAction`]):
//!   start: an auction (while the deck lasts) and every valid trade (opponent, kind) with the
//!   offers *nothing, one card of a kind, all my money*; bid: pass, or raise by 10, 20 or 50 up
//!   to what I hold; buy-back: buy or decline; payment: every minimal set of my cards that
//!   covers the price (at most [`PAYMENT_MENU`]), else all my money; challenged: accept or
//!   counter with the offers above; re-offer: the offers above.
//! - **Returns** are the final scores (spec B8): general sum, from 0 to [`MAX_SCORE`].
//! - **Observation.** A seat sees its own money, every seat's card count and the total money,
//!   every herd, the donkeys revealed, the cards left in the deck, the turn, who was caught
//!   bluffing or barred, and the pending question (in full if it is addressed to that seat).
//! - **Determinization** shuffles the unseen deck and deals the money of the other seats anew
//!   from their pooled cards, keeping each seat's card count. Limitation: during a cow trade
//!   the two traders keep their hands (the hidden offer must stay payable), and the running
//!   auction's or trade's state is kept as it is; the engine's [`crate::belief`] samples money
//!   from what was seen, this wrapper is the uniform baseline.

use crate::event::{Answer, Ask, Question, TradeStart};
use crate::game::{Game, Phase};
use crate::knowledge::Knowledge;
use crate::types::{Animal, Cards, Herd, MoneyCard, Seat, ANIMAL_VALUES, KINDS, PLAYERS};
use kibitz_search::agent::{Seen, View};
use kibitz_search::game::{Game as GameTrait, GameError, Turn, Utility};
use rand::seq::SliceRandom;
use rand::Rng;
use std::hash::{Hash, Hasher};

/// The highest score: one seat holds all ten quartets (10 × their value sum).
pub const MAX_SCORE: u32 = {
    let mut sum = 0;
    let mut i = 0;
    while i < KINDS {
        sum += ANIMAL_VALUES[i];
        i += 1;
    }
    KINDS as u32 * sum
};

/// Most payments a `Pay` question's menu lists.
pub const PAYMENT_MENU: usize = 24;

/// A Koehandel action: an [`Answer`] (which has no `Hash`), written as text for records:
/// `none`, `auction`, `invalid`, `money:CARDS` and `trade:SEAT:KIND:CARDS`, where `CARDS` are
/// the spec's letters `n t f h T F` (`-` for none), `SEAT` 0-3 and `KIND` a letter `A`-`J`;
/// a missing trade field is `?`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KhAction(pub Answer);

impl Hash for KhAction {
    fn hash<H: Hasher>(&self, h: &mut H) {
        encode(&self.0).hash(h);
    }
}

fn cards_text(c: &Cards) -> String {
    if c.is_empty() {
        "-".into()
    } else {
        c.to_string()
    }
}

fn encode(a: &Answer) -> String {
    match a {
        Answer::None => "none".into(),
        Answer::Auction => "auction".into(),
        Answer::InvalidMoney => "invalid".into(),
        Answer::Money(c) => format!("money:{}", cards_text(c)),
        Answer::Trade(t) => format!(
            "trade:{}:{}:{}",
            t.opponent.map_or("?".into(), |s| s.0.to_string()),
            t.animal.map_or('?', |a| a.letter()),
            t.offer.as_ref().map_or("?".into(), cards_text)
        ),
    }
}

fn decode(text: &str) -> Result<Answer, GameError> {
    let bad = |why: &str| GameError::decode(text, why);
    let cards = |s: &str| -> Result<Cards, GameError> {
        if s == "-" {
            Ok(Cards::EMPTY)
        } else if s.is_empty() {
            Err(bad("empty money (write -)"))
        } else {
            Cards::parse(s).map_err(|e| bad(&e.to_string()))
        }
    };
    match text {
        "none" => return Ok(Answer::None),
        "auction" => return Ok(Answer::Auction),
        "invalid" => return Ok(Answer::InvalidMoney),
        _ => {}
    }
    if let Some(c) = text.strip_prefix("money:") {
        return Ok(Answer::Money(cards(c)?));
    }
    let rest = text
        .strip_prefix("trade:")
        .ok_or_else(|| bad("not none, auction, invalid, money:… or trade:…"))?;
    let parts: Vec<&str> = rest.split(':').collect();
    let [seat, kind, offer] = parts[..] else {
        return Err(bad("trade needs SEAT:KIND:CARDS"));
    };
    let opponent = match seat {
        "?" => None,
        s => Some(Seat(
            s.parse::<u8>()
                .ok()
                .filter(|&v| (v as usize) < PLAYERS)
                .ok_or_else(|| bad("seat is not 0-3"))?,
        )),
    };
    let mut kind_chars = kind.chars();
    let animal = match (kind_chars.next(), kind_chars.next()) {
        (Some('?'), None) => None,
        (Some(c), None) => Some(Animal::from_letter(c).ok_or_else(|| bad("kind is not A-J"))?),
        _ => return Err(bad("kind is one letter")),
    };
    let offer = match offer {
        "?" => None,
        o => Some(cards(o)?),
    };
    Ok(Answer::Trade(TradeStart {
        opponent,
        animal,
        offer,
    }))
}

/// A Koehandel market seen through the [`kibitz_search::game::Game`] trait.
#[derive(Clone, Debug)]
pub struct Koehandel(pub Game);

/// What one seat of a [`Koehandel`] game sees (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KhView {
    /// The seat that sees this.
    pub seat: Seat,
    /// Its money.
    pub hand: Cards,
    /// Every seat's number of money cards.
    pub counts: [u32; PLAYERS],
    /// All money in the players' hands.
    pub total: Cards,
    /// Every herd.
    pub herds: [Herd; PLAYERS],
    /// Donkeys revealed.
    pub donkeys: u8,
    /// Cards left in the deck.
    pub deck_left: usize,
    /// Whose turn it is, and the turn number.
    pub active: (Seat, u32),
    /// Caught bluffing, barred from trading.
    pub flags: [(bool, bool); PLAYERS],
    /// The seat asked next, with the question when it is `seat`.
    pub ask: Option<(Seat, Option<Question>)>,
}

impl Koehandel {
    fn key(&self) -> impl Hash + Eq + '_ {
        let g = &self.0;
        (
            &g.deck[g.drawn.min(g.deck.len())..],
            g.herds,
            g.money,
            g.donkeys,
            g.active,
            g.turns,
            g.caught,
            g.barred,
            // The phase types derive no Hash; their Debug text is complete and stable.
            format!("{:?}", g.phase),
        )
    }

    fn offers(hand: &Cards) -> Vec<Cards> {
        let mut out = vec![Cards::EMPTY];
        for m in MoneyCard::ALL {
            if hand.count(m) > 0 {
                out.push(Cards::single(m));
            }
        }
        out.push(*hand);
        let mut seen = Vec::new();
        out.retain(|c| {
            let new = !seen.contains(c);
            seen.push(*c);
            new
        });
        out
    }

    fn payments(hand: &Cards, amount: u32) -> Vec<Cards> {
        // Every sub-multiset that covers `amount` and stops covering without any one card.
        let mut out = Vec::new();
        let mut pick = Cards::EMPTY;
        fn walk(hand: &Cards, amount: u32, k: usize, pick: &mut Cards, out: &mut Vec<Cards>) {
            if out.len() >= PAYMENT_MENU {
                return;
            }
            if k == MoneyCard::ALL.len() {
                let v = pick.value();
                let minimal = MoneyCard::ALL
                    .iter()
                    .all(|&m| pick.count(m) == 0 || v - m.value() < amount);
                if v >= amount && minimal {
                    out.push(*pick);
                }
                return;
            }
            let m = MoneyCard::ALL[k];
            for n in 0..=hand.count(m) {
                pick.0[m as usize] = n;
                walk(hand, amount, k + 1, pick, out);
            }
            pick.0[m as usize] = 0;
        }
        walk(hand, amount, 0, &mut pick, &mut out);
        if out.is_empty() {
            out.push(*hand);
        }
        out
    }
}

/// The menu of answers to the question pending in `view` when it is addressed to the view's
/// seat (empty otherwise): what [`kibitz_search::game::Game::legal_actions`] lists (see the
/// module docs). It needs only what the seat sees (its money, the herds, the deck, the
/// question), so a bot client's view ([`KhView::from_knowledge`]) gives the same menu as the
/// referee's.
pub fn menu(view: &KhView) -> Vec<KhAction> {
    let seat = view.seat;
    let Some((asked, Some(question))) = &view.ask else {
        return Vec::new();
    };
    if *asked != seat {
        return Vec::new();
    }
    let hand = view.hand;
    let money = |c: Cards| KhAction(Answer::Money(c));
    let offers = || Koehandel::offers(&hand).into_iter().map(money);
    match question {
        Question::Start => {
            let mut out = Vec::new();
            if view.deck_left > 0 {
                out.push(KhAction(Answer::Auction));
            }
            for o in Seat::ALL.into_iter().filter(|&o| o != seat) {
                for a in Animal::all() {
                    if view.herds[seat.idx()].count(a) == 0 || view.herds[o.idx()].count(a) == 0 {
                        continue;
                    }
                    for offer in Koehandel::offers(&hand) {
                        out.push(KhAction(Answer::Trade(TradeStart {
                            opponent: Some(o),
                            animal: Some(a),
                            offer: Some(offer),
                        })));
                    }
                }
            }
            if out.is_empty() {
                // Not reached: the market gives the turn only to a seat that can act.
                out.push(KhAction(Answer::Auction));
            }
            out
        }
        Question::Bid { high_bid, .. } => {
            let high = high_bid.value();
            let mut out = vec![money(Cards::EMPTY)];
            for step in [10, 20, 50] {
                if high + step <= hand.value() {
                    out.push(KhAction(Answer::bid(high + step)));
                }
            }
            out
        }
        Question::BuyBack { high_bid, .. } => {
            let mut out = vec![money(Cards::EMPTY)];
            if !high_bid.is_empty() {
                out.push(money(*high_bid));
            }
            out
        }
        Question::Pay { price, .. } => Koehandel::payments(&hand, price.value())
            .into_iter()
            .map(money)
            .collect(),
        Question::Challenged { .. } | Question::Reoffer { .. } => offers().collect(),
    }
}

impl KhView {
    /// What a seat that hears only the market's messages knows, as a view: the books of
    /// `k` (fed every notice, question and own answer) and the pending `question` to `k.me`.
    /// Hand, card counts, money in play, herds, donkeys, the deck and the bluffers are exact;
    /// whose turn it is, the turn number and the bars from trading are not told to a seat,
    /// so `active` is `(k.me, 0)` and every `barred` flag is `false`.
    pub fn from_knowledge(k: &Knowledge, question: Option<&Question>) -> KhView {
        KhView {
            seat: k.me,
            hand: k.hand,
            counts: k.counts,
            total: k.total,
            herds: k.herds,
            donkeys: k.donkeys,
            // An auction under way has drawn its animal already.
            deck_left: k.deck_left().saturating_sub(u32::from(k.auction.is_some())) as usize,
            active: (k.me, 0),
            flags: std::array::from_fn(|i| (k.caught[i], false)),
            ask: question.map(|q| (k.me, Some(q.clone()))),
        }
    }

    /// The [`View`] of a bot client that only hears the market: this observation and its
    /// [`menu`], with `seat` to move when a question to it is pending.
    pub fn into_view(self) -> View<'static, Koehandel> {
        let seat = self.seat.idx();
        let turn = match &self.ask {
            Some((s, _)) => Turn::Seat(s.idx()),
            None => Turn::Terminal,
        };
        let legal = menu(&self);
        View::seen(
            seat,
            Seen {
                seats: PLAYERS,
                turn,
                observation: self,
                legal,
            },
        )
    }
}

impl PartialEq for Koehandel {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Koehandel {}

impl Hash for Koehandel {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

impl GameTrait for Koehandel {
    type Action = KhAction;
    type Config = ();
    type Observation = KhView;
    type Event = crate::event::Event;
    const NAME: &'static str = "koehandel";
    const PERFECT_INFORMATION: bool = false;

    /// The deck shuffled by `seed` ([`Game::new`]), notices off.
    fn new_game(_: &(), seed: u64) -> Self {
        let mut g = Game::new(seed);
        g.set_quiet(true);
        Koehandel(g)
    }

    fn seats(&self) -> usize {
        PLAYERS
    }

    fn turn(&self) -> Turn {
        match self.0.ask() {
            Some(Ask { seat, .. }) => Turn::Seat(seat.idx()),
            None => Turn::Terminal,
        }
    }

    fn legal_actions(&self) -> Vec<KhAction> {
        match self.0.ask() {
            Some(Ask { seat, .. }) => menu(&self.observation(seat.idx())),
            None => Vec::new(),
        }
    }

    fn apply(&mut self, action: &KhAction) -> Result<(), GameError> {
        if self.0.is_over() {
            return Err(GameError::Over);
        }
        self.0.answer(action.0);
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        if !self.0.is_over() {
            return vec![0.0; PLAYERS];
        }
        self.0.scores().iter().map(|&s| s as f64).collect()
    }

    fn utility(&self) -> Utility {
        Utility::GeneralSum
    }

    fn return_bounds(&self) -> (f64, f64) {
        (0.0, MAX_SCORE as f64)
    }

    fn action_to_string(&self, action: &KhAction) -> String {
        encode(&action.0)
    }

    fn action_from_string(&self, text: &str) -> Result<KhAction, GameError> {
        decode(text).map(KhAction)
    }

    fn observation(&self, seat: usize) -> KhView {
        let g = &self.0;
        let me = Seat((seat % PLAYERS) as u8);
        let all = |f: &dyn Fn(Seat) -> u32| std::array::from_fn(|i| f(Seat(i as u8)));
        KhView {
            seat: me,
            hand: g.money(me),
            counts: all(&|s| g.money(s).len()),
            total: g.total_money(),
            herds: std::array::from_fn(|i| g.herd(Seat(i as u8))),
            donkeys: g.donkeys_revealed(),
            deck_left: g.deck_left(),
            active: (g.active(), g.turns()),
            flags: std::array::from_fn(|i| (g.caught(Seat(i as u8)), g.barred(Seat(i as u8)))),
            ask: g
                .ask()
                .map(|a| (a.seat, (a.seat == me).then_some(a.question))),
        }
    }

    fn determinize<R: Rng + ?Sized>(&self, seat: usize, rng: &mut R) -> Koehandel {
        let mut d = self.clone();
        let g = &mut d.0;
        let me = seat % PLAYERS;
        let start = g.drawn.min(g.deck.len());
        g.deck[start..].shuffle(rng);
        // The traders of a running cow trade keep their hands (see the module docs).
        let trading = match &g.phase {
            Phase::Challenged(t) | Phase::Reoffer(t) => [t.challenger.idx(), t.opponent.idx()],
            _ => [me, me],
        };
        let others: Vec<usize> = (0..PLAYERS)
            .filter(|&s| s != me && !trading.contains(&s))
            .collect();
        let mut pool: Vec<MoneyCard> = others
            .iter()
            .flat_map(|&s| g.money[s].iter_desc().collect::<Vec<_>>())
            .collect();
        pool.shuffle(rng);
        let mut next = pool.into_iter();
        for &s in &others {
            let n = g.money[s].len() as usize;
            let mut hand = Cards::EMPTY;
            for m in next.by_ref().take(n) {
                hand.push(m);
            }
            g.money[s] = hand;
        }
        d
    }
}
