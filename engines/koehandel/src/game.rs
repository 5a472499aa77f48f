//! The market: the game state machine a referee (in-process runner or HTTP server) drives.
//!
//! Protocol: call [`Game::drain_notices`] and deliver every [`Notice`] in order, then ask
//! [`Game::ask`] for the next [`Ask`]; feed the reply to [`Game::answer`]; repeat until `ask`
//! returns `None` (the game is over; the final notices are the `end` messages). Notices and
//! questions come out in exactly the spec's message order (parts D and E), so a server that
//! sends them one by one reproduces the wire transcript.
//!
//! Auctions live in `auction.rs`, cow trades in `trade.rs`; this file holds the state, turns,
//! donkey payouts and the end of the game.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::event::{Answer, Ask, Event, Notice, Question};
use crate::types::{Animal, Cards, Herd, MoneyCard, Seat, DECK_SIZE, KINDS, PLAYERS};

/// A game ends after this many turns (`start` messages) at the latest (spec D8.2).
pub const MAX_TURNS: u32 = 1000;

/// Per-seat counters for tournament reports (spec G4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatStats {
    /// Questions answered with nothing usable (the default applied).
    pub defaults: u32,
    /// Times caught bluffing (0 or 1).
    pub bluffs: u32,
    /// True when barred from starting trades in the endgame.
    pub barred: bool,
}

/// State of one auction run (reruns after a bluff start a fresh run with the same card).
#[derive(Clone, Debug)]
pub(crate) struct Auction {
    pub animal: Animal,
    pub auctioneer: Seat,
    /// Still bidding in this run.
    pub active: [bool; PLAYERS],
    /// Caught bluffing in this auction: excluded from its reruns.
    pub excluded: [bool; PLAYERS],
    pub high_bidder: Option<Seat>,
    pub high_bid: Cards,
    /// The seat asked next (valid while bidding).
    pub next: Seat,
    /// All entries of this run.
    pub history: Vec<(Seat, u32)>,
    /// Per seat: history length after his own last reply (entries before it are not resent).
    pub seen: [usize; PLAYERS],
}

/// State of one cow trade.
#[derive(Clone, Debug)]
pub(crate) struct Trade {
    pub challenger: Seat,
    pub opponent: Seat,
    pub animal: Animal,
    pub count: u8,
    pub offer: Cards,
    /// True in the rerun after a tie.
    pub tie: bool,
}

/// What the market waits for.
#[derive(Clone, Debug)]
pub(crate) enum Phase {
    /// `start` to the active player.
    Turn,
    /// A bid request to `auction.next`.
    Bidding(Auction),
    /// The buy-back request to the auctioneer.
    BuyBack(Auction),
    /// The buyer chooses his payment.
    Payment {
        animal: Animal,
        buyer: Seat,
        seller: Seat,
        price: Cards,
    },
    /// The challenged player answers an offer.
    Challenged(Trade),
    /// The challenger offers again after a tie.
    Reoffer(Trade),
    /// Game over.
    Over,
}

/// The complete (referee's) state of a game.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) deck: Vec<Animal>,
    pub(crate) drawn: usize,
    pub(crate) herds: [Herd; PLAYERS],
    pub(crate) money: [Cards; PLAYERS],
    pub(crate) donkeys: u8,
    pub(crate) active: Seat,
    pub(crate) turns: u32,
    pub(crate) caught: [bool; PLAYERS],
    pub(crate) barred: [bool; PLAYERS],
    pub(crate) phase: Phase,
    pub(crate) notices: Vec<Notice>,
    pub(crate) quiet: bool,
    pub(crate) stats: [SeatStats; PLAYERS],
}

impl Game {
    /// A new game with a deck shuffled uniformly by `seed` (spec D1).
    pub fn new(seed: u64) -> Game {
        Game::with_deck(&Game::shuffled_deck(seed))
    }

    /// The deck order for `seed`, top card first.
    pub fn shuffled_deck(seed: u64) -> Vec<Animal> {
        let mut deck: Vec<Animal> = (0..DECK_SIZE).map(|i| Animal((i / 4) as u8)).collect();
        deck.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        deck
    }

    /// A new game with the given deck, top card first (any length; tests use short decks).
    pub fn with_deck(deck: &[Animal]) -> Game {
        let mut g = Game {
            deck: deck.to_vec(),
            drawn: 0,
            herds: [Herd::default(); PLAYERS],
            money: [Cards::START; PLAYERS],
            donkeys: 0,
            active: Seat(0),
            turns: 0,
            caught: [false; PLAYERS],
            barred: [false; PLAYERS],
            phase: Phase::Turn,
            notices: Vec::new(),
            quiet: false,
            stats: [SeatStats::default(); PLAYERS],
        };
        for s in Seat::ALL {
            g.tell(s, Event::Begin);
        }
        g.begin_turn(Seat(0));
        g
    }

    /// A mid-game position for simulations and tests: seat `active` is about to get `start`.
    /// `deck` is the rest of the deck, top first. The caller keeps the card totals sensible.
    pub fn from_position(
        deck: &[Animal],
        herds: [Herd; PLAYERS],
        money: [Cards; PLAYERS],
        donkeys: u8,
        active: Seat,
        caught: [bool; PLAYERS],
    ) -> Game {
        let mut g = Game {
            deck: deck.to_vec(),
            drawn: 0,
            herds,
            money,
            donkeys,
            active,
            turns: 0,
            caught,
            barred: [false; PLAYERS],
            phase: Phase::Turn,
            notices: Vec::new(),
            quiet: true,
            stats: [SeatStats::default(); PLAYERS],
        };
        g.begin_turn(active);
        g
    }

    /// Stops (or resumes) recording notices; simulations that nobody observes run faster.
    pub fn set_quiet(&mut self, quiet: bool) {
        self.quiet = quiet;
        if quiet {
            self.notices.clear();
        }
    }

    /// Takes the notices produced since the last call, in sending order.
    pub fn drain_notices(&mut self) -> std::vec::Drain<'_, Notice> {
        self.notices.drain(..)
    }

    /// The pending question, `None` once the game is over.
    pub fn ask(&self) -> Option<Ask> {
        let (seat, question) = match &self.phase {
            Phase::Over => return None,
            Phase::Turn => (self.active, Question::Start),
            Phase::Bidding(a) => (
                a.next,
                Question::Bid {
                    animal: a.animal,
                    auctioneer: a.auctioneer,
                    high_bidder: a.high_bidder,
                    high_bid: a.high_bid,
                    history: a.history[a.seen[a.next.idx()]..].to_vec(),
                },
            ),
            Phase::BuyBack(a) => (
                a.auctioneer,
                Question::BuyBack {
                    animal: a.animal,
                    high_bidder: a.high_bidder.unwrap_or(a.auctioneer),
                    high_bid: a.high_bid,
                    history: a.history.clone(),
                },
            ),
            Phase::Payment {
                animal,
                buyer,
                seller,
                price,
            } => (
                *buyer,
                Question::Pay {
                    animal: *animal,
                    to: *seller,
                    price: *price,
                },
            ),
            Phase::Challenged(t) => (
                t.opponent,
                Question::Challenged {
                    challenger: t.challenger,
                    animal: t.animal,
                    count: t.count,
                    offer_cards: t.offer.len(),
                    tie: t.tie,
                },
            ),
            Phase::Reoffer(t) => (
                t.challenger,
                Question::Reoffer {
                    opponent: t.opponent,
                    animal: t.animal,
                    count: t.count,
                },
            ),
        };
        Some(Ask { seat, question })
    }

    /// Applies the reply to the pending question (any reply is accepted: invalid ones get the
    /// spec's default) and runs the market until the next question or the end.
    pub fn answer(&mut self, answer: Answer) {
        let phase = std::mem::replace(&mut self.phase, Phase::Over);
        match phase {
            Phase::Over => {}
            Phase::Turn => self.on_start(answer),
            Phase::Bidding(a) => self.on_bid(a, answer),
            Phase::BuyBack(a) => self.on_buy_back(a, answer),
            Phase::Payment {
                animal,
                buyer,
                seller,
                price,
            } => self.on_payment(animal, buyer, seller, price, answer),
            Phase::Challenged(t) => self.on_challenged(t, answer),
            Phase::Reoffer(t) => self.on_reoffer(t, answer),
        }
    }

    /// True once the game is over.
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over)
    }

    /// A seat's animals.
    pub fn herd(&self, s: Seat) -> Herd {
        self.herds[s.idx()]
    }

    /// A seat's money.
    pub fn money(&self, s: Seat) -> Cards {
        self.money[s.idx()]
    }

    /// Animals left in the deck.
    pub fn deck_left(&self) -> usize {
        self.deck.len() - self.drawn
    }

    /// The rest of the deck, top card first.
    pub fn deck_rest(&self) -> &[Animal] {
        &self.deck[self.drawn..]
    }

    /// Donkeys revealed so far (0..=4).
    pub fn donkeys_revealed(&self) -> u8 {
        self.donkeys
    }

    /// The player whose turn it is.
    pub fn active(&self) -> Seat {
        self.active
    }

    /// Turns (`start` messages) so far.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// True when the seat was caught bluffing.
    pub fn caught(&self, s: Seat) -> bool {
        self.caught[s.idx()]
    }

    /// True when the seat was barred from starting trades.
    pub fn barred(&self, s: Seat) -> bool {
        self.barred[s.idx()]
    }

    /// Per-seat counters.
    pub fn stats(&self) -> [SeatStats; PLAYERS] {
        self.stats
    }

    /// Current scores of all seats (final once the game is over).
    pub fn scores(&self) -> [u32; PLAYERS] {
        std::array::from_fn(|i| self.herds[i].score())
    }

    /// All money in the players' hands (conserved but for donkey payouts).
    pub fn total_money(&self) -> Cards {
        self.money.iter().fold(Cards::EMPTY, |acc, c| acc.plus(c))
    }

    pub(crate) fn tell(&mut self, seat: Seat, event: Event) {
        if !self.quiet {
            self.notices.push(Notice { seat, event });
        }
    }

    pub(crate) fn count_default(&mut self, seat: Seat) {
        self.stats[seat.idx()].defaults += 1;
    }

    /// True when `s` may start a trade with the deck empty (spec D8.1).
    pub fn can_trade(&self, s: Seat) -> bool {
        (0..KINDS).any(|k| {
            let own = self.herds[s.idx()].0[k];
            (1..=3).contains(&own)
                && Seat::ALL
                    .iter()
                    .any(|&o| o != s && self.herds[o.idx()].0[k] > 0)
        })
    }

    fn all_quartets_complete(&self) -> bool {
        (0..KINDS).all(|k| self.herds.iter().any(|h| h.0[k] == 4))
    }

    /// Gives the turn to `seat` (or the next eligible seat in the endgame), or ends the game.
    pub(crate) fn begin_turn(&mut self, seat: Seat) {
        if self.turns >= MAX_TURNS || (self.deck_left() == 0 && self.all_quartets_complete()) {
            return self.finish();
        }
        let mut s = seat;
        if self.deck_left() == 0 {
            match (0..PLAYERS)
                .map(|i| seat.plus(i))
                .find(|&p| !self.barred[p.idx()] && self.can_trade(p))
            {
                Some(p) => s = p,
                None => return self.finish(),
            }
        }
        self.active = s;
        self.turns += 1;
        self.phase = Phase::Turn;
    }

    /// Passes the turn on after an auction or trade.
    pub(crate) fn end_turn(&mut self) {
        let next = self.active.next();
        self.begin_turn(next);
    }

    fn finish(&mut self) {
        self.phase = Phase::Over;
        let scores = self.scores();
        for s in Seat::ALL {
            self.tell(s, Event::End { scores });
        }
    }

    fn on_start(&mut self, answer: Answer) {
        let me = self.active;
        let error = match answer {
            Answer::Trade(start) => match self.validate_trade(me, &start) {
                Ok(trade) => return self.begin_trade(trade),
                Err(e) => Some(e),
            },
            Answer::Auction if self.deck_left() > 0 => return self.begin_auction(),
            Answer::Auction => None,
            _ => {
                self.count_default(me);
                None
            }
        };
        if let Some(e) = error {
            self.count_default(me);
            self.tell(me, Event::TradeError(e));
        }
        if self.deck_left() > 0 {
            self.begin_auction();
        } else {
            self.barred[me.idx()] = true;
            self.stats[me.idx()].barred = true;
            self.end_turn();
        }
    }

    /// Draws the top card; a donkey pays everybody first (spec D7); then bidding starts.
    fn begin_auction(&mut self) {
        let animal = self.deck[self.drawn];
        self.drawn += 1;
        let auctioneer = self.active;
        if animal == Animal::DONKEY {
            self.donkeys += 1;
            let card = MoneyCard::donkey_payout(self.donkeys);
            for i in 0..PLAYERS {
                let p = auctioneer.plus(i);
                self.money[p.idx()].push(card);
                self.tell(
                    p,
                    Event::ReceiveMoney {
                        cards: Cards::single(card),
                        from: None,
                    },
                );
            }
            for i in 0..PLAYERS {
                let p = auctioneer.plus(i);
                for j in 0..PLAYERS {
                    let q = auctioneer.plus(j);
                    if q != p {
                        self.tell(q, Event::DonkeyPaid { seat: p, card });
                    }
                }
            }
        }
        self.start_bidding(animal, auctioneer, [false; PLAYERS]);
    }
}
