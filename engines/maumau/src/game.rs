//! The game state machine of the real contest server (spec `maumau.md` §4-§6), bugs included.
//!
//! One turn is two calls: [`Game::begin_turn`] (what the server broadcasts: skip, draw-two) and
//! [`Game::answer`] / [`Game::act`] (the mover's answer and its effect). Randomness (reshuffles)
//! comes from the caller's generator, so a seeded server replays exactly and a search can use
//! its own generator per determinization.
//!
//! A seat with both a pending skip and a pending draw-two (possible only with same-name groups)
//! loses the turn **and** draws the two cards during it, silently (§7 item 2, seen in all 21
//! such cases on the real server): the skipped broadcast shows the hand before the draw, and
//! the seat's next private message has `drawTwoCards:false`.
//!
//! Choices where the spec is silent (not observed on the real server):
//! - A draw-two that cannot be completed after reshuffling draws nothing. On a skipped turn
//!   the game then ends after it as on any failed draw (talon exhaustion, §6 rule 11).

use crate::cards::{Card, CardSet, Rank, Suit, DECK_SIZE};
pub use crate::turn::{
    Action, Config, DrawTwo, ExhaustionWinner, GameEnd, Phase, RawAnswer, Reaction, TurnStart,
    HAND_SIZE, MAX_PLAYERS,
};
use arrayvec::ArrayVec;
use rand::seq::SliceRandom;
use rand::Rng;

/// Errors of the state machine (calls out of order).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GameError {
    /// The call does not fit the current [`Phase`].
    #[error("wrong phase {0:?} for this call")]
    WrongPhase(Phase),
    /// A forced draw names a card that is not in the talon.
    #[error("forced card {0} is not in the talon")]
    NotInTalon(Card),
}

/// Complete game state as the server sees it.
#[derive(Clone, Debug)]
pub struct Game {
    cfg: Config,
    hands: [CardSet; MAX_PLAYERS],
    /// Drawn from the end.
    talon: ArrayVec<Card, DECK_SIZE>,
    /// Top card last.
    pile: ArrayVec<Card, DECK_SIZE>,
    wish: Option<Suit>,
    skip: u8,
    draw_two: u8,
    online: u8,
    groups: [u8; MAX_PLAYERS],
    turn: usize,
    phase: Phase,
    exhausted: bool,
    played: [u16; MAX_PLAYERS],
    turns: u32,
    forced: ArrayVec<Card, 4>,
}

impl Game {
    /// Shuffles the deck with `rng` and deals (§6 rules 1-2).
    pub fn deal<R: Rng + ?Sized>(cfg: Config, rng: &mut R) -> Game {
        let mut deck: Vec<Card> = Card::all().collect();
        deck.shuffle(rng);
        Game::from_deck(cfg, &deck)
    }

    /// Deals from a deck in order: `deck[0]` is turned up, seat 0 gets the next 7, seat 1 the
    /// next 7, …; the rest is the talon, drawn in deck order. `deck` must hold all 32 cards.
    pub fn from_deck(cfg: Config, deck: &[Card]) -> Game {
        let players = cfg.players.clamp(2, MAX_PLAYERS);
        let cfg = Config { players, ..cfg };
        let mut g = Game {
            cfg,
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            talon: ArrayVec::new(),
            pile: ArrayVec::new(),
            wish: None,
            skip: 0,
            draw_two: 0,
            online: ((1u16 << players) - 1) as u8,
            groups: [0, 1, 2, 3],
            turn: 0,
            phase: Phase::BeginTurn,
            exhausted: false,
            played: [0; MAX_PLAYERS],
            turns: 0,
            forced: ArrayVec::new(),
        };
        g.pile.push(deck[0]);
        for s in 0..players {
            g.hands[s] = deck[1 + s * HAND_SIZE..1 + (s + 1) * HAND_SIZE]
                .iter()
                .copied()
                .collect();
        }
        g.talon
            .extend(deck[1 + players * HAND_SIZE..].iter().rev().copied());
        g
    }

    /// Builds a mid-game state (for searches and tests). `talon` is in draw order (first
    /// drawn first), `pile` has its top card last. `turn` is the seat whose turn begins next.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        cfg: Config,
        hands: &[CardSet],
        talon: &[Card],
        pile: &[Card],
        wish: Option<Suit>,
        pending_skip: u8,
        pending_draw_two: u8,
        turn: usize,
    ) -> Game {
        let mut g = Game::from_deck(cfg, &Card::all().collect::<Vec<_>>());
        g.hands = [CardSet::EMPTY; MAX_PLAYERS];
        for (slot, h) in g.hands.iter_mut().zip(hands) {
            *slot = *h;
        }
        g.talon.clear();
        g.talon.extend(talon.iter().rev().take(DECK_SIZE).copied());
        g.pile.clear();
        g.pile.extend(pile.iter().take(DECK_SIZE).copied());
        if g.pile.is_empty() {
            g.pile.push(Card::default());
        }
        g.wish = wish;
        g.skip = pending_skip;
        g.draw_two = pending_draw_two;
        g.turn = turn.min(g.cfg.players - 1);
        g
    }

    /// Sets the per-seat count of legally played cards (for searches from a mid-game state).
    pub fn set_valid_moves(&mut self, played: [u16; MAX_PLAYERS]) {
        self.played = played;
    }

    /// Puts the game in the answer phase of `seat` (its turn has begun: for searches from a
    /// mid-game state).
    pub fn start_answer(&mut self, seat: usize) {
        let seat = seat.min(self.cfg.players - 1);
        self.turn = seat;
        self.phase = Phase::Answer(seat);
    }

    /// Puts seats into effect groups: a 7 or 8 hits the next seat **and every seat with the
    /// same group** (the real server looks the victim up by name, so same-named bots are all
    /// hit, §7.2). Default: every seat its own group.
    pub fn set_effect_groups(&mut self, groups: [u8; MAX_PLAYERS]) {
        self.groups = groups;
    }

    /// Configuration.
    pub fn config(&self) -> Config {
        self.cfg
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.cfg.players
    }
    /// Current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The final result, once over.
    pub fn outcome(&self) -> Option<GameEnd> {
        match self.phase {
            Phase::Over(e) => Some(e),
            _ => None,
        }
    }
    /// The seat whose turn is being played or begins next.
    pub fn turn(&self) -> usize {
        self.turn
    }
    /// Top card of the pile.
    pub fn top(&self) -> Card {
        *self.pile.last().expect("pile never empty")
    }
    /// Wish in force.
    pub fn wish(&self) -> Option<Suit> {
        self.wish
    }
    /// A seat's hand.
    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands[seat]
    }
    /// A seat's hand size.
    pub fn hand_size(&self, seat: usize) -> usize {
        self.hands[seat].len()
    }
    /// Pile, top card last.
    pub fn pile(&self) -> &[Card] {
        &self.pile
    }
    /// Talon in draw order, next card **last**.
    pub fn talon(&self) -> &[Card] {
        &self.talon
    }
    /// Talon size.
    pub fn talon_len(&self) -> usize {
        self.talon.len()
    }
    /// Cards each seat has legally played.
    pub fn valid_moves(&self, seat: usize) -> u16 {
        self.played[seat]
    }
    /// Turns begun so far (broadcasts sent).
    pub fn turns(&self) -> u32 {
        self.turns
    }
    /// Whether `seat` is online.
    pub fn is_online(&self, seat: usize) -> bool {
        self.online >> seat & 1 != 0
    }
    /// Whether `seat` has a pending skip (8).
    pub fn pending_skip(&self, seat: usize) -> bool {
        self.skip >> seat & 1 != 0
    }
    /// Whether `seat` has a pending draw-two (7).
    pub fn pending_draw_two(&self, seat: usize) -> bool {
        self.draw_two >> seat & 1 != 0
    }

    /// Whether `card` may be played on the current top card and wish (§6 rules 6-7).
    pub fn is_legal(&self, card: Card) -> bool {
        is_legal(card, self.top(), self.wish)
    }

    /// The cards of `seat`'s hand that may be played now.
    pub fn legal_plays(&self, seat: usize) -> CardSet {
        legal_set(self.top(), self.wish).inter(self.hands[seat])
    }

    /// Makes the next draws take exactly these cards (in order), wherever they are in the
    /// talon after any reshuffle: for replaying recorded games.
    pub fn force_next_draws(&mut self, cards: &[Card]) {
        self.forced.clear();
        for &c in cards.iter().rev().take(4) {
            self.forced.push(c);
        }
    }

    /// Starts the turn of the seat whose turn it is: applies a pending 8 or 7 (§6 rule 5).
    pub fn begin_turn<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<TurnStart, GameError> {
        if self.phase != Phase::BeginTurn {
            return Err(GameError::WrongPhase(self.phase));
        }
        let seat = self.turn;
        self.turns += 1;
        let mut start = TurnStart {
            seat,
            top: self.top(),
            cards_left: self.hands[seat].len(),
            skipped: false,
            draw_two: DrawTwo::None,
            wish: self.wish,
        };
        let bit = 1u8 << seat;
        if self.draw_two & bit != 0 {
            // Also on a skipped turn: then silently (§7 item 2).
            self.draw_two &= !bit;
            start.draw_two = self.draw_two_for(seat, rng);
        }
        if self.skip & bit != 0 {
            self.skip &= !bit;
            start.skipped = true;
            if self.exhausted {
                self.phase = Phase::Over(GameEnd::Exhausted(self.exhaustion_winner()));
            } else {
                self.turn = self.next_online(seat);
            }
            return Ok(start);
        }
        self.phase = Phase::Answer(seat);
        Ok(start)
    }

    /// Draws the two cards of a pending 7 into `seat`'s hand (§6 rules 5 and 10-11).
    fn draw_two_for<R: Rng + ?Sized>(&mut self, seat: usize, rng: &mut R) -> DrawTwo {
        match self.draw::<2, R>(rng) {
            Some([a, b]) => {
                self.hands[seat].insert(a);
                self.hands[seat].insert(b);
                DrawTwo::Drawn([a, b])
            }
            None => {
                self.exhausted = true;
                DrawTwo::Failed
            }
        }
    }

    /// Applies the mover's decision.
    pub fn act<R: Rng + ?Sized>(
        &mut self,
        action: Action,
        rng: &mut R,
    ) -> Result<Reaction, GameError> {
        self.answer(action.into(), rng)
    }

    /// Applies the mover's answer exactly as the real server reads it, then ends the turn
    /// (exhaustion is checked before the empty hand, §6 rule 11).
    pub fn answer<R: Rng + ?Sized>(
        &mut self,
        raw: RawAnswer,
        rng: &mut R,
    ) -> Result<Reaction, GameError> {
        let Phase::Answer(seat) = self.phase else {
            return Err(GameError::WrongPhase(self.phase));
        };
        let reaction = match raw {
            RawAnswer::Draw => Reaction::Drew(self.draw_one(seat, rng)),
            RawAnswer::Invalid | RawAnswer::Play { selected: None, .. } => {
                Reaction::Penalty(self.draw_one(seat, rng))
            }
            RawAnswer::Play {
                selected: Some(sel),
                wished,
            } => {
                let card = Card::from_wire(sel).unwrap_or(Card::new(Rank::Seven, Suit::Karo));
                if !self.hands[seat].contains(card) || !self.is_legal(card) {
                    Reaction::Penalty(self.draw_one(seat, rng))
                } else {
                    let wishing = card.is_jack() && !self.top().is_jack();
                    self.hands[seat].remove(card);
                    self.pile.push(card);
                    self.played[seat] += 1;
                    self.wish = None;
                    let target = (seat + 1) % self.cfg.players;
                    let group = self.group_mask(target);
                    if card.is_seven() {
                        self.draw_two |= group;
                    } else if card.is_eight() {
                        self.skip |= group;
                    }
                    match (wishing, wished) {
                        (false, _) => Reaction::Played { card, wish: None },
                        (true, Some(w)) => {
                            let w = u8::try_from(w)
                                .ok()
                                .and_then(Suit::from_index)
                                .unwrap_or(Suit::Pik);
                            self.wish = Some(w);
                            Reaction::Played {
                                card,
                                wish: Some(w),
                            }
                        }
                        (true, None) => Reaction::PlayedWithPenalty {
                            card,
                            penalty: self.draw_one(seat, rng),
                        },
                    }
                }
            }
        };
        self.end_turn(seat);
        Ok(reaction)
    }

    /// Marks `seat` offline (failed writes, dropped bot). Ends the game if one seat is left.
    pub fn drop_seat(&mut self, seat: usize) -> Option<GameEnd> {
        self.online &= !(1 << seat);
        if let Phase::Over(e) = self.phase {
            return Some(e);
        }
        if self.online.count_ones() <= 1 {
            let last = self.online.trailing_zeros() as usize;
            let end = GameEnd::LastOnline(last.min(self.cfg.players - 1));
            self.phase = Phase::Over(end);
            return Some(end);
        }
        if self.turn == seat {
            self.turn = self.next_online(seat);
            self.phase = Phase::BeginTurn;
        }
        None
    }

    /// Ends the game at the turn cap; the winner as on talon exhaustion.
    pub fn end_by_turn_cap(&mut self) -> GameEnd {
        if let Phase::Over(e) = self.phase {
            return e;
        }
        let end = GameEnd::TurnCap(self.exhaustion_winner());
        self.phase = Phase::Over(end);
        end
    }

    /// The seat the exhaustion rule would declare the winner now.
    pub fn exhaustion_winner(&self) -> usize {
        let online = (0..self.cfg.players).filter(|&s| self.is_online(s));
        match self.cfg.exhaustion_winner {
            ExhaustionWinner::SecondSeat => online.max().unwrap_or(0),
            ExhaustionWinner::MostValidMoves => {
                online.rev().max_by_key(|&s| self.played[s]).unwrap_or(0)
            }
        }
    }

    fn end_turn(&mut self, seat: usize) {
        if self.exhausted {
            self.phase = Phase::Over(GameEnd::Exhausted(self.exhaustion_winner()));
        } else if self.hands[seat].is_empty() {
            self.phase = Phase::Over(GameEnd::Emptied(seat));
        } else {
            self.turn = self.next_online(seat);
            self.phase = Phase::BeginTurn;
        }
    }

    fn group_mask(&self, target: usize) -> u8 {
        let g = self.groups[target];
        (0..self.cfg.players)
            .filter(|&s| self.groups[s] == g)
            .fold(0, |m, s| m | 1 << s)
    }

    fn next_online(&self, seat: usize) -> usize {
        let n = self.cfg.players;
        (1..=n)
            .map(|d| (seat + d) % n)
            .find(|&s| self.is_online(s))
            .unwrap_or(seat)
    }

    fn draw_one<R: Rng + ?Sized>(&mut self, seat: usize, rng: &mut R) -> Option<Card> {
        let c = self.draw::<1, R>(rng).map(|[c]| c);
        match c {
            Some(c) => self.hands[seat].insert(c),
            None => self.exhausted = true,
        }
        c
    }

    /// Draws `N` cards, reshuffling the pile under the top card into the talon when the
    /// talon has too few (§6 rule 10). `None` (and nothing drawn) when still too few.
    fn draw<const N: usize, R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<[Card; N]> {
        if self.talon.len() < N {
            // The real server tries three times; after the first, the pile holds only the top.
            self.reshuffle(rng);
            if self.talon.len() < N {
                return None;
            }
        }
        let mut out = [Card::default(); N];
        for slot in out.iter_mut() {
            if let Some(f) = self.forced.pop() {
                if let Some(i) = self.talon.iter().position(|&c| c == f) {
                    let last = self.talon.len() - 1;
                    self.talon.swap(i, last);
                }
            }
            *slot = self.talon.pop().expect("talon checked");
        }
        Some(out)
    }

    fn reshuffle<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        let top = self.pile.pop().expect("pile never empty");
        let start = self.talon.len();
        self.talon.extend(self.pile.drain(..));
        self.talon[start..].shuffle(rng);
        self.pile.push(top);
    }
}

/// Whether `card` may go on `top` with `wish` in force (§6 rules 6-7).
pub fn is_legal(card: Card, top: Card, wish: Option<Suit>) -> bool {
    legal_set(top, wish).contains(card)
}

/// All cards that may go on `top` with `wish` in force.
pub fn legal_set(top: Card, wish: Option<Suit>) -> CardSet {
    match wish {
        Some(w) => CardSet::suit(w).minus(CardSet::JACKS),
        None => CardSet::suit(top.suit())
            .union(CardSet::rank(top.rank()))
            .union(CardSet::JACKS),
    }
}

impl std::fmt::Display for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "┌ top {}", self.top())?;
        if let Some(w) = self.wish {
            write!(f, "  wish {}", w.symbol())?;
        }
        writeln!(f, "  talon {}  pile {}", self.talon.len(), self.pile.len())?;
        for s in 0..self.cfg.players {
            let mark = if self.turn == s { '▶' } else { ' ' };
            let mut flags = String::new();
            if self.pending_skip(s) {
                flags.push_str(" (skip)");
            }
            if self.pending_draw_two(s) {
                flags.push_str(" (+2)");
            }
            writeln!(f, "│{mark} seat {s}: {}{flags}", self.hands[s])?;
        }
        write!(f, "└ {}", self.phase)
    }
}

#[cfg(test)]
mod tests;
