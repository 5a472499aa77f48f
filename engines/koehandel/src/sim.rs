//! Determinized simulation for the strong player: build complete games consistent with what
//! a player knows (hands drawn from his [`Belief`], the unseen deck shuffled), put them into
//! the decision's situation, and play them out with heuristic players who see everything.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::belief::Belief;
use crate::eval::{auction_value_of, gain};
use crate::event::Question;
use crate::game::{Game, Phase, Trade};
use crate::heuristic::{HeuristicParams, HeuristicPlayer};
use crate::knowledge::Knowledge;
use crate::types::{Animal, Cards, Herd, Seat, DECK_SIZE, PLAYERS};

/// A perfect-information view of `g` for `seat` (simulated players see everything).
pub fn view(g: &Game, seat: Seat) -> Knowledge {
    let mut k = Knowledge::new(seat);
    k.hand = g.money(seat);
    k.herds = std::array::from_fn(|i| g.herd(Seat(i as u8)));
    k.counts = std::array::from_fn(|i| g.money(Seat(i as u8)).len());
    k.total = g.total_money();
    k.auctions = (DECK_SIZE - g.deck_left()) as u32;
    k.donkeys = g.donkeys_revealed();
    k.caught = std::array::from_fn(|i| g.caught(Seat(i as u8)));
    k
}

/// Plays `g` to the end with heuristic players on every seat; returns the final scores.
pub fn rollout(mut g: Game, params: &HeuristicParams) -> [u32; PLAYERS] {
    g.set_quiet(true);
    while let Some(ask) = g.ask() {
        let k = view(&g, ask.seat);
        let a = HeuristicPlayer::answer_for(params, k, &ask.question);
        g.answer(a);
    }
    g.scores()
}

/// Plays `g` to the end with a heuristic player per seat, each with his own parameters.
///
/// Plays exactly as [`rollout`] with those players would, but faster: a bid request is
/// answered from the animal's value to the bidder, from each seat's gain computed once per
/// auction (herds do not change during an auction, and bids come in steps of 10, so an
/// auction asks each bidder many times), instead of rebuilding his view and valuing the
/// herds each time.
pub fn rollout_seats(mut g: Game, params: &[HeuristicParams; PLAYERS]) -> [u32; PLAYERS] {
    g.set_quiet(true);
    // (cards left in the deck, animal) of the cached auction, and each seat's gain from it.
    let mut key: Option<(usize, Animal)> = None;
    let mut gains = [None::<f64>; PLAYERS];
    let same_eval = params.iter().all(|p| p.eval == params[0].eval);
    while let Some(ask) = g.ask() {
        if let Question::Bid {
            animal, high_bid, ..
        } = &ask.question
        {
            let s = ask.seat.idx();
            if key != Some((g.deck_left(), *animal)) {
                key = Some((g.deck_left(), *animal));
                gains = [None; PLAYERS];
            }
            let p = &params[s];
            let v = if same_eval {
                // auction_value = own gain + denial × the best other gain.
                let herds: [Herd; PLAYERS] = std::array::from_fn(|i| g.herd(Seat(i as u8)));
                let mut gain_of = |i: usize| match gains[i] {
                    Some(x) => x,
                    None => {
                        let x = gain(&params[0].eval, &herds, Seat(i as u8), *animal, 1, None);
                        gains[i] = Some(x);
                        x
                    }
                };
                let own = gain_of(s);
                let best_other = (0..PLAYERS)
                    .filter(|&i| i != s)
                    .map(&mut gain_of)
                    .fold(0.0, f64::max);
                own + p.denial * best_other
            } else {
                let herds = std::array::from_fn(|i| g.herd(Seat(i as u8)));
                auction_value_of(&p.eval, &herds, ask.seat, *animal, p.denial)
            };
            let a = HeuristicPlayer::bid_from_value(p, v, &g.money(ask.seat), high_bid);
            g.answer(a);
            continue;
        }
        let k = view(&g, ask.seat);
        let a = HeuristicPlayer::answer_for(&params[ask.seat.idx()], k, &ask.question);
        g.answer(a);
    }
    g.scores()
}

/// How good final `scores` are for `me`: the win share plus a small margin term.
pub fn utility(scores: &[u32; PLAYERS], me: Seat) -> f64 {
    let mine = scores[me.idx()];
    let best_other = (0..PLAYERS)
        .filter(|&i| i != me.idx())
        .map(|i| scores[i])
        .max()
        .unwrap_or(0);
    let best = mine.max(best_other);
    let ties = scores.iter().filter(|&&s| s == best).count() as f64;
    let win = if mine == best { 1.0 / ties } else { 0.0 };
    win + 0.3 * (mine as f64 - best_other as f64) / (best.max(1000) as f64)
}

/// One determinized world: every hand and the order of the unseen deck.
#[derive(Clone, Debug)]
pub struct World {
    /// Money per seat (mine exact).
    pub money: [Cards; PLAYERS],
    /// The rest of the deck, top first.
    pub deck: Vec<Animal>,
}

/// Samples a world consistent with `k` and `belief`; `drawn` is the animal on sale (already
/// taken from the deck) during an auction.
pub fn sample_world(
    k: &Knowledge,
    belief: &mut Belief,
    rng: &mut ChaCha8Rng,
    drawn: Option<Animal>,
) -> World {
    world_from(k, belief.sample(), rng, drawn)
}

/// A world with the given money (my own hand is taken from `k`) and a shuffled unseen deck.
pub fn world_from(
    k: &Knowledge,
    mut money: [Cards; PLAYERS],
    rng: &mut ChaCha8Rng,
    drawn: Option<Animal>,
) -> World {
    money[k.me.idx()] = k.hand;
    let mut deck = Vec::with_capacity(DECK_SIZE);
    for a in Animal::all() {
        let mut n = k.in_deck(a);
        if drawn == Some(a) {
            n = n.saturating_sub(1);
        }
        for _ in 0..n {
            deck.push(a);
        }
    }
    deck.shuffle(rng);
    let left = (k.deck_left() as usize).saturating_sub(usize::from(drawn.is_some()));
    deck.truncate(left);
    World { money, deck }
}

impl World {
    /// The world at the start of `active`'s turn (with `k`'s herds).
    pub fn at_turn(&self, k: &Knowledge, active: Seat) -> Game {
        Game::from_position(&self.deck, k.herds, self.money, k.donkeys, active, k.caught)
    }

    /// The world just after an auction of `animal` (already drawn) sold by `seller` to
    /// `buyer` for `price` (`seller == buyer`: free); `next` gets the turn.
    pub fn after_sale(
        &self,
        k: &Knowledge,
        animal: Animal,
        buyer: Seat,
        seller: Seat,
        price: u32,
        next: Seat,
    ) -> Game {
        let mut herds = k.herds;
        herds[buyer.idx()].add(animal, 1);
        let mut money = self.money;
        if buyer != seller {
            let c = crate::auction::server_payment(&money[buyer.idx()], price);
            money[buyer.idx()].remove(&c);
            money[seller.idx()].add(&c);
        }
        Game::from_position(&self.deck, herds, money, k.donkeys, next, k.caught)
    }

    /// The world where `challenger` has offered `offer` to `me` for `animal` (`count` at
    /// stake) and waits for my answer.
    pub fn at_challenge(
        &self,
        k: &Knowledge,
        challenger: Seat,
        animal: Animal,
        count: u8,
        offer: Cards,
        tie: bool,
    ) -> Game {
        let mut g = self.at_turn(k, challenger);
        g.phase = Phase::Challenged(Trade {
            challenger,
            opponent: k.me,
            animal,
            count,
            offer,
            tie,
        });
        g
    }
}
