//! Determinized simulation for the strong player: build complete games consistent with what
//! a player knows (hands drawn from his [`Belief`], the unseen deck shuffled), put them into
//! the decision's situation, and play them out with heuristic players who see everything.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::belief::Belief;
use crate::eval::{auction_value_of, gain};
use crate::event::Answer;
use crate::event::Question;
use crate::game::{Auction, Game, Phase, Trade};
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

/// Plays `g`, which is in an auction, to the end: until the next turn starts, `me` raises
/// by 10 while the raise is at most `cap` (and within his money) and everybody else plays
/// his heuristic; from there on as [`rollout_seats`]. This values "bid up to `cap`" with
/// the whole auction played out: who else bids how far, the price actually paid, the
/// auctioneer's buy-back.
pub fn rollout_capped(
    mut g: Game,
    params: &[HeuristicParams; PLAYERS],
    me: Seat,
    cap: u32,
) -> [u32; PLAYERS] {
    g.set_quiet(true);
    play_auction_capped(&mut g, params, me, cap);
    rollout_seats(g, params)
}

/// The auction part of [`rollout_capped`]: plays `g` until the next turn starts (or the game
/// ends), `me` raising up to `cap`, the others by their heuristics.
pub fn play_auction_capped(g: &mut Game, params: &[HeuristicParams; PLAYERS], me: Seat, cap: u32) {
    while let Some(ask) = g.ask() {
        let a = match &ask.question {
            Question::Start => break,
            Question::Bid { high_bid, .. } if ask.seat == me => {
                raise_up_to(high_bid.value(), cap.min(g.money(me).value()))
            }
            q => HeuristicPlayer::answer_for(&params[ask.seat.idx()], view(g, ask.seat), q),
        };
        g.answer(a);
    }
}

/// The default weight of the score margin in [`utility`] (the strong player's `margin`).
pub const MARGIN: f64 = 0.3;

/// The reply of a bidder who raises by 10 over `high` while the raise stays within `limit`
/// (his reservation price or his money, whichever is lower), and passes otherwise.
pub fn raise_up_to(high: u32, limit: u32) -> Answer {
    let next = high + 10;
    if next <= limit {
        Answer::bid(next)
    } else {
        Answer::Money(Cards::EMPTY)
    }
}

/// How good final `scores` are for `me`: the win share plus `margin` × (my score − the best
/// other score) / max(best score, 1000). The margin term breaks the ties between worlds that
/// are won (or lost) either way; too much of it trades wins for points.
pub fn utility(scores: &[u32; PLAYERS], me: Seat, margin: f64) -> f64 {
    let mine = scores[me.idx()];
    let best_other = (0..PLAYERS)
        .filter(|&i| i != me.idx())
        .map(|i| scores[i])
        .max()
        .unwrap_or(0);
    let best = mine.max(best_other);
    let ties = scores.iter().filter(|&&s| s == best).count() as f64;
    let win = if mine == best { 1.0 / ties } else { 0.0 };
    win + margin * (mine as f64 - best_other as f64) / (best.max(1000) as f64)
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

    /// The world in an auction run of `animal` (already drawn) by `auctioneer`, with `me`
    /// asked to bid over `high_bid` of `high_bidder`; seats in `out` have left the run.
    pub fn at_bid(
        &self,
        k: &Knowledge,
        animal: Animal,
        auctioneer: Seat,
        out: [bool; PLAYERS],
        high_bidder: Option<Seat>,
        high_bid: Cards,
    ) -> Game {
        let mut g = self.at_turn(k, auctioneer);
        g.active = auctioneer;
        let me = k.me;
        g.phase = Phase::Bidding(Auction {
            animal,
            auctioneer,
            active: std::array::from_fn(|i| {
                let s = Seat(i as u8);
                s == me || (s != auctioneer && !out[i])
            }),
            excluded: [false; PLAYERS],
            high_bidder,
            high_bid,
            next: me,
            history: Vec::new(),
            seen: [0; PLAYERS],
        });
        g
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

#[cfg(test)]
mod tests {
    use super::{auction_value_of, play_auction_capped, utility, MARGIN};
    use crate::event::{Answer, Question};
    use crate::game::Game;
    use crate::heuristic::HeuristicParams;
    use crate::types::Seat;

    #[test]
    fn a_capped_bidder_stops_at_his_cap_and_an_open_one_is_not_outbid() {
        let params = [HeuristicParams::default(); 4];
        let mut checked = 0;
        for seed in 0..20 {
            let mut g = Game::new(seed);
            g.set_quiet(true);
            g.answer(Answer::Auction);
            let Some(ask) = g.ask() else { continue };
            let Question::Bid { animal, .. } = ask.question else {
                continue;
            };
            let me = ask.seat;
            let (herd, money) = (g.herd(me).count(animal), g.money(me).value());
            // Cap 0: I never bid, so I neither get the animal nor pay.
            let mut a = g.clone();
            play_auction_capped(&mut a, &params, me, 0);
            assert_eq!(a.herd(me).count(animal), herd, "seed {seed}");
            assert!(a.money(me).value() >= money, "seed {seed}");
            // No cap: if my money tops every other bidder's limit, nobody outbids me, so I
            // buy it or the auctioneer buys it back from me, paying me.
            let herds = std::array::from_fn(|i| g.herd(Seat(i as u8)));
            let top = (1..4)
                .map(|i| me.plus(i))
                .map(|s| {
                    let v = auction_value_of(&params[0].eval, &herds, s, animal, params[0].denial);
                    (v * params[0].rate) as u32
                })
                .max()
                .unwrap_or(0);
            if top + 10 > money {
                continue;
            }
            let mut b = g.clone();
            play_auction_capped(&mut b, &params, me, u32::MAX / 2);
            let bought = b.herd(me).count(animal) == herd + 1;
            let paid_me = b.money(me).value() > money;
            assert!(
                bought ^ paid_me,
                "seed {seed}: bought {bought} paid {paid_me}"
            );
            checked += 1;
        }
        assert!(checked >= 5, "only {checked} decks checked");
    }

    #[test]
    fn utility_is_the_win_share_plus_the_weighted_margin() {
        let s = [3000, 2000, 1000, 500];
        // Winner by 1000 over a best score of 3000.
        assert!((utility(&s, Seat(0), 0.0) - 1.0).abs() < 1e-12);
        assert!((utility(&s, Seat(0), MARGIN) - 1.1).abs() < 1e-12);
        // A loser only has the (negative) margin; a shared first place halves the win.
        assert!((utility(&s, Seat(1), 0.6) + 0.2).abs() < 1e-12);
        let t = [2000, 2000, 0, 0];
        assert!((utility(&t, Seat(1), 0.3) - 0.5).abs() < 1e-12);
    }
}
