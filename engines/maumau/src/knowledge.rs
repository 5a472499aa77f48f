//! Card tracking for one seat: everything a bot can know from the messages it receives.
//!
//! Feed every message of the wire, in order, as a [`Notice`] (the bots crate's codec maps JSON
//! to notices; the in-process arena produces the very same notices from a [`Game`](crate::game::Game)). The tracker
//! follows the public rules itself: a new top card in a broadcast means the previous mover
//! played it, an unchanged top card means it drew; pending 7s and 8s follow from the cards;
//! hand sizes come from the broadcasts; the talon size is `32 − hands − pile`, so it knows the
//! moment of every reshuffle, and at that moment (talon empty) each unknown card must be in the
//! opponent's hand (two players).
//!
//! Beliefs: `known[s]` are cards certainly in seat `s`'s hand; `pool` are cards whose place is
//! unknown (an opponent's unknown cards or the talon); `weight[s][c]` is a likelihood factor
//! lowered when seat `s` drew while `c` would have been legal (most bots play when they can),
//! raised for the suit `s` wished with a Jack (bots wish what they hold).
//! [`Knowledge::sample`] draws a full [`Game`](crate::game::Game) consistent with all of this.

use crate::cards::{Card, CardSet, Suit, DECK_SIZE};
use crate::filter::TraceEvent;
use crate::game::{legal_set, Config, DrawTwo, MAX_PLAYERS};

#[path = "knowledge_sample.rs"]
mod sample;

#[path = "knowledge_events.rs"]
mod events;
pub use events::{Notice, PublicEvent, SeatMove};

/// Likelihood factor for holding a card that would have been legal when the seat drew.
pub const DRAW_EVIDENCE: f32 = 0.2;

/// Likelihood factor for holding a card of the suit a seat just wished (bots wish what they hold).
pub const WISH_EVIDENCE: f32 = 3.0;

/// What a seat's public actions said about one card of the pool, as counts (a determinizer
/// turns them into likelihood factors with its own, tunable, per-count weights).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// Times the seat drew while the card would have been legal.
    pub draws: u8,
    /// Cards the seat has drawn since the last time it drew while this card would have been
    /// legal ([`Evidence::NEVER`] if it never did): the card was not in its hand then, and
    /// can only have come in with one of these draws.
    pub since_void: u8,
    /// Times the seat wished the card's suit with a Jack (non-Jack cards only).
    pub wishes: u8,
    /// Times the seat spent a Jack while the card (not a Jack) would have been legal.
    pub jacks: u8,
}

impl Evidence {
    /// `since_void` of a card without draw evidence.
    pub const NEVER: u8 = u8::MAX;
}

impl Default for Evidence {
    fn default() -> Self {
        Evidence {
            draws: 0,
            since_void: Evidence::NEVER,
            wishes: 0,
            jacks: 0,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    seat: usize,
    top: Card,
    skipped: bool,
    wish: Option<Suit>,
}

/// What one seat knows about the game (its observation and card tracker).
#[derive(Clone, Debug)]
pub struct Knowledge {
    cfg: Config,
    me: usize,
    hand: CardSet,
    top: Option<Card>,
    wish: Option<Suit>,
    sizes: [usize; MAX_PLAYERS],
    pile: CardSet,
    known: [CardSet; MAX_PLAYERS],
    pool: CardSet,
    weight: [[f32; DECK_SIZE]; MAX_PLAYERS],
    evidence: [[Evidence; DECK_SIZE]; MAX_PLAYERS],
    skip: u8,
    draw_two: u8,
    played: [u16; MAX_PLAYERS],
    pending: Option<Pending>,
    drew_this_turn: bool,
    /// Seat that just laid a Jack onto a non-Jack (its wish shows in our next private message).
    wishing_jack: Option<usize>,
    history: Vec<PublicEvent>,
    /// All opponents' actions in order, with what we saw then: the opponent model reads one
    /// seat's actions from it, the hand filter all of it.
    trace: Vec<TraceEvent>,
    /// Cards not dealt to opponents: the first top card and our first hand.
    deal_visible: CardSet,
    winner: Option<usize>,
    reshuffles: u32,
}

impl Knowledge {
    /// A fresh tracker for seat `me` at a table configured by `cfg`.
    pub fn new(cfg: Config, me: usize) -> Knowledge {
        let players = cfg.players.clamp(2, MAX_PLAYERS);
        let cfg = Config { players, ..cfg };
        let me = me.min(players - 1);
        let mut sizes = [0; MAX_PLAYERS];
        sizes[..cfg.players].fill(crate::game::HAND_SIZE);
        Knowledge {
            cfg,
            me,
            hand: CardSet::EMPTY,
            top: None,
            wish: None,
            sizes,
            pile: CardSet::EMPTY,
            known: [CardSet::EMPTY; MAX_PLAYERS],
            pool: CardSet::FULL,
            weight: [[1.0; DECK_SIZE]; MAX_PLAYERS],
            evidence: [[Evidence::default(); DECK_SIZE]; MAX_PLAYERS],
            skip: 0,
            draw_two: 0,
            played: [0; MAX_PLAYERS],
            pending: None,
            drew_this_turn: false,
            wishing_jack: None,
            history: Vec::new(),
            trace: Vec::new(),
            deal_visible: CardSet::EMPTY,
            winner: None,
            reshuffles: 0,
        }
    }

    /// Our seat.
    pub fn me(&self) -> usize {
        self.me
    }
    /// Table configuration.
    pub fn config(&self) -> Config {
        self.cfg
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.cfg.players
    }
    /// Our hand.
    pub fn hand(&self) -> CardSet {
        self.hand
    }
    /// Top card (once the first broadcast arrived).
    pub fn top(&self) -> Option<Card> {
        self.top
    }
    /// Wish in force, as the last private message told us.
    pub fn wish(&self) -> Option<Suit> {
        self.wish
    }
    /// A seat's hand size as tracked.
    pub fn hand_size(&self, seat: usize) -> usize {
        self.sizes[seat]
    }
    /// Cards on the pile (top included).
    pub fn pile(&self) -> CardSet {
        self.pile
    }
    /// Talon size (derived: 32 − hands − pile).
    pub fn talon_len(&self) -> usize {
        let held: usize = self.sizes[..self.cfg.players].iter().sum();
        DECK_SIZE.saturating_sub(held + self.pile.len())
    }
    /// Cards known to be in `seat`'s hand.
    pub fn known(&self, seat: usize) -> CardSet {
        if seat == self.me {
            self.hand
        } else {
            self.known[seat]
        }
    }
    /// Cards of unknown place (an opponent's hidden cards or the talon).
    pub fn pool(&self) -> CardSet {
        self.pool
    }
    /// Likelihood factor that `seat` holds `card` (1 = no evidence).
    pub fn weight(&self, seat: usize, card: Card) -> f32 {
        self.weight[seat][card.index() as usize]
    }
    /// What `seat`'s draws, wishes and Jacks said about `card` (counts since the card last
    /// came back from the pile).
    pub fn evidence(&self, seat: usize, card: Card) -> Evidence {
        self.evidence[seat][card.index() as usize]
    }
    /// An opponent's actions so far, oldest first, for the opponent model (empty for us).
    pub fn seat_moves(
        &self,
        seat: usize,
    ) -> impl DoubleEndedIterator<Item = SeatMove> + Clone + '_ {
        self.trace
            .iter()
            .filter(move |t| usize::from(t.seat) == seat)
            .map(|t| t.mv)
    }
    /// Every opponent action in order, with the cards we saw at the time ([`crate::filter`]).
    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }
    /// Cards that cannot have been dealt to an opponent (first top card, our first hand).
    pub fn deal_visible(&self) -> CardSet {
        self.deal_visible
    }
    /// Cards each seat has legally played.
    pub fn valid_moves(&self, seat: usize) -> u16 {
        self.played[seat]
    }
    /// Whether a 7 is pending against `seat`.
    pub fn pending_draw_two(&self, seat: usize) -> bool {
        self.draw_two >> seat & 1 != 0
    }
    /// Whether an 8 is pending against `seat`.
    pub fn pending_skip(&self, seat: usize) -> bool {
        self.skip >> seat & 1 != 0
    }
    /// Public events so far.
    pub fn history(&self) -> &[PublicEvent] {
        &self.history
    }
    /// Number of reshuffles seen.
    pub fn reshuffles(&self) -> u32 {
        self.reshuffles
    }
    /// The winner, once `won` arrived.
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }
    /// The cards of our hand we may play now.
    pub fn legal_plays(&self) -> CardSet {
        match self.top {
            Some(t) => legal_set(t, self.wish).inter(self.hand),
            None => CardSet::EMPTY,
        }
    }
    /// The next seat after `seat`.
    pub fn next_seat(&self, seat: usize) -> usize {
        (seat + 1) % self.cfg.players
    }

    /// Takes in one received message.
    pub fn observe(&mut self, notice: &Notice) {
        match *notice {
            Notice::Broadcast {
                seat,
                top,
                cards_left,
                skipped,
            } => self.on_broadcast(seat, top, cards_left.min(DECK_SIZE), skipped),
            Notice::Private {
                top,
                wish,
                cards_left,
                draw_two,
                hand,
            } => {
                if let Some(h) = hand {
                    if self.hand.is_empty() {
                        self.deal_visible = self.deal_visible.union(h);
                    }
                    self.hand = h;
                    self.pool = self.pool.minus(h);
                }
                if let DrawTwo::Drawn([a, b]) = draw_two {
                    for c in [a, b] {
                        self.take_known(self.me, c);
                    }
                }
                self.top = Some(top);
                self.wish = wish;
                if let (Some(m), Some(w)) = (self.wishing_jack, wish) {
                    if m != self.me {
                        let suit = self.pool.inter(CardSet::suit(w)).minus(CardSet::JACKS);
                        for c in suit {
                            let w = &mut self.weight[m][c.index() as usize];
                            *w = (*w * WISH_EVIDENCE).min(1e3);
                            let e = &mut self.evidence[m][c.index() as usize];
                            e.wishes = e.wishes.saturating_add(1);
                        }
                        self.log_move(m, SeatMove::Wished { suit: w });
                    }
                }
                if let (Some(m), None) = (self.wishing_jack.take(), wish) {
                    // A Jack onto a non-Jack that set no wish was sent without an integer
                    // wishedColor: the server added a penalty card.
                    if m != self.me {
                        self.ensure_talon(1);
                        if self.talon_len() > 0 {
                            self.sizes[m] += 1;
                            self.age_evidence(m, 1);
                            self.history.push(PublicEvent::Drew { seat: m, n: 1 });
                            self.log_move(m, SeatMove::Took { n: 1 });
                        }
                    }
                }
                if let Some(p) = self.pending.as_mut() {
                    p.wish = wish;
                }
                self.sizes[self.me] = cards_left.min(DECK_SIZE);
            }
            Notice::DrawReply { card, .. } => {
                self.drew_this_turn = true;
                if let Some(c) = card {
                    self.ensure_talon(1);
                    self.take_known(self.me, c);
                    self.sizes[self.me] += 1;
                }
                self.history.push(PublicEvent::Drew {
                    seat: self.me,
                    n: card.is_some() as usize,
                });
            }
            Notice::Won { seat } => {
                self.resolve(None);
                self.winner = Some(seat);
            }
        }
        self.deduce();
    }

    /// Records an opponent's action for the model and, with what we see now, for the filter.
    fn log_move(&mut self, seat: usize, mv: SeatMove) {
        let visible = self.hand.union(self.pile).0;
        self.trace.push(TraceEvent {
            seat: seat as u8,
            mv,
            visible,
        });
    }

    /// Tells the tracker that `cards` are in an opponent's hand, as if we had seen them: the
    /// research "peek" of the arena (`peek=Q`), which measures what card inference would be
    /// worth. A bot on the wire never learns this. Ignored for our own seat, a seat out of
    /// range, or more cards than the seat holds.
    pub fn reveal(&mut self, seat: usize, cards: CardSet) {
        if seat == self.me || seat >= self.cfg.players {
            return;
        }
        let known = self.known[seat].union(cards);
        if known.len() > self.sizes[seat] {
            return;
        }
        for s in (0..self.cfg.players).filter(|&s| s != self.me && s != seat) {
            self.known[s] = self.known[s].minus(cards);
        }
        self.pool = self.pool.minus(cards);
        self.known[seat] = known;
    }

    /// A card we learned is in our hand (drawn): out of the pool.
    fn take_known(&mut self, seat: usize, c: Card) {
        self.pool.remove(c);
        if seat == self.me {
            self.hand.insert(c);
        } else {
            self.known[seat].insert(c);
        }
    }

    fn on_broadcast(&mut self, seat: usize, top: Card, cards_left: usize, skipped: bool) {
        if self.top.is_none() {
            // First broadcast: the face-up card.
            self.pile.insert(top);
            self.pool.remove(top);
            self.top = Some(top);
            self.deal_visible.insert(top);
        }
        self.wishing_jack = None;
        self.resolve(Some(top));
        if seat < self.cfg.players {
            if seat != self.me && cards_left != self.sizes[seat] {
                // Re-sync (e.g. an unseen penalty for a Jack without a wish).
                self.sizes[seat] = cards_left;
            }
            let bit = 1u8 << seat;
            if skipped {
                self.skip &= !bit;
                self.history.push(PublicEvent::Skipped { seat });
            } else if self.draw_two & bit != 0 {
                self.draw_two &= !bit;
                if self.talon_len() < 2 {
                    self.reshuffle();
                }
                if self.talon_len() >= 2 {
                    self.sizes[seat] += 2;
                    self.age_evidence(seat, 2);
                    if seat != self.me {
                        self.log_move(seat, SeatMove::Took { n: 2 });
                    }
                    self.history.push(PublicEvent::Drew { seat, n: 2 });
                }
            }
        }
        self.pending = Some(Pending {
            seat,
            top,
            skipped,
            wish: self.wish,
        });
        self.drew_this_turn = false;
    }

    /// Settles the previous turn once the next broadcast (or `won`) shows its result.
    fn resolve(&mut self, new_top: Option<Card>) {
        let Some(p) = self.pending.take() else {
            return;
        };
        if p.skipped || p.seat >= self.cfg.players {
            return;
        }
        let m = p.seat;
        // The wish after our own Jack is not tracked: then the legal set is unknown.
        let fitted = (!p.top.is_jack() || p.wish.is_some()).then(|| legal_set(p.top, p.wish));
        match new_top {
            Some(t) if t != p.top => {
                if t.is_jack() && m != self.me {
                    // Spending a Jack hints that nothing else fitted.
                    let others = legal_set(p.top, p.wish)
                        .inter(self.pool)
                        .minus(CardSet::JACKS);
                    for c in others {
                        let e = &mut self.evidence[m][c.index() as usize];
                        e.jacks = e.jacks.saturating_add(1);
                    }
                }
                self.apply_play(m, t);
                if m != self.me {
                    self.log_move(
                        m,
                        SeatMove::Played {
                            card: t,
                            legal: fitted,
                        },
                    );
                }
                if t.is_jack() && !p.top.is_jack() {
                    self.wishing_jack = Some(m);
                }
            }
            Some(_) if m != self.me => {
                // The mover drew one card (voluntarily or as a penalty).
                self.ensure_talon(1);
                if self.talon_len() > 0 {
                    let legal = legal_set(p.top, p.wish).inter(self.pool);
                    for c in legal {
                        let w = &mut self.weight[m][c.index() as usize];
                        *w = (*w * DRAW_EVIDENCE).max(1e-3);
                        let e = &mut self.evidence[m][c.index() as usize];
                        e.draws = e.draws.saturating_add(1);
                        e.since_void = 0;
                    }
                    self.sizes[m] += 1;
                    self.age_evidence(m, 1);
                    self.history.push(PublicEvent::Drew { seat: m, n: 1 });
                    self.log_move(m, SeatMove::Drew { legal: fitted });
                }
            }
            _ => {}
        }
    }

    fn apply_play(&mut self, m: usize, card: Card) {
        if m == self.me {
            self.hand.remove(card);
        } else {
            self.known[m].remove(card);
        }
        self.pool.remove(card);
        self.pile.insert(card);
        self.sizes[m] = self.sizes[m].saturating_sub(1);
        self.played[m] += 1;
        self.top = Some(card);
        // A wishing Jack's wish reaches us only in our next private message.
        self.wish = None;
        let target = self.next_seat(m);
        if card.is_seven() {
            self.draw_two |= 1 << target;
        } else if card.is_eight() {
            self.skip |= 1 << target;
        }
        self.history.push(PublicEvent::Played { seat: m, card });
    }

    /// `seat` drew `n` cards: void evidence gets older.
    fn age_evidence(&mut self, seat: usize, n: u8) {
        for e in self.evidence[seat].iter_mut() {
            if e.since_void != Evidence::NEVER {
                e.since_void = e.since_void.saturating_add(n).min(Evidence::NEVER - 1);
            }
        }
    }

    /// Reshuffles if fewer than `n` cards are in the talon.
    fn ensure_talon(&mut self, n: usize) {
        if self.talon_len() < n {
            self.reshuffle();
        }
    }

    fn reshuffle(&mut self) {
        self.deduce();
        let Some(top) = self.top else { return };
        let back = self.pile.minus(CardSet::single(top));
        if back.is_empty() {
            return;
        }
        for c in back {
            for w in self.weight.iter_mut() {
                w[c.index() as usize] = 1.0;
            }
            for e in self.evidence.iter_mut() {
                e[c.index() as usize] = Evidence::default();
            }
        }
        self.pool = self.pool.union(back);
        self.pile = CardSet::single(top);
        self.reshuffles += 1;
        self.history.push(PublicEvent::Reshuffled);
    }

    /// Pins down cards when counting leaves no freedom.
    fn deduce(&mut self) {
        let opps: Vec<usize> = (0..self.cfg.players).filter(|&s| s != self.me).collect();
        let unknown: usize = opps
            .iter()
            .map(|&s| self.sizes[s].saturating_sub(self.known[s].len()))
            .sum();
        if self.talon_len() == 0 && opps.len() == 1 && unknown == self.pool.len() {
            // Talon empty: every unplaced card is in the only opponent's hand.
            self.known[opps[0]] = self.known[opps[0]].union(self.pool);
            self.pool = CardSet::EMPTY;
        }
    }
}
