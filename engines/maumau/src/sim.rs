//! The search's own game state: Mau-Mau on bit masks, for ISMCTS playouts.
//!
//! [`FastSim`] plays the same rules as [`crate::game::Game`] (spec §6, the seat-1 exhaustion
//! bug included) but keeps every card set as a `u32` and nothing on the heap, so a playout
//! allocates nothing and copying a state is a few dozen bytes. Differences that do not matter to
//! a search, all deliberate:
//! - The talon is a *set*: a draw takes a uniformly random card of it. In a determinization
//!   the talon order is uniformly random anyway, so this is the same distribution as shuffling
//!   once. A card left in the talon at a reshuffle stays "underneath" (drawn last), as on the
//!   server.
//! - Answers are always legal (the search never sends a bad line), every seat is online and in
//!   its own effect group, and there is no turn cap (the rollout cut-off plays that role).
//!
//! Legal plays come from a 32 × 5 table of masks (`top`, wish or none) ANDed with the hand: the
//! legal-move mask is updated incrementally by the two bytes `top` and `wish` that a play
//! changes.
//!
//! [`crate::determinize::Determinizer`] samples these states from the card tracker.

use crate::cards::{Card, CardSet, Suit, DECK_SIZE};
pub use crate::determinize::{Determinizer, EvidenceWeights};
use crate::game::{Action, ExhaustionWinner, Game, Phase, MAX_PLAYERS};
use rand::RngCore;

/// `wish` value for "no wish in force".
const NO_WISH: u8 = 4;
/// `winner` value while the game goes on.
const NO_WINNER: u8 = u8::MAX;
/// The four Jacks.
pub const JACKS: u32 = 0xF << 16;
/// The four 7s.
const SEVENS: u32 = 0xF;
/// The four 8s.
const EIGHTS: u32 = 0xF << 4;

/// Cards of suit `s`.
#[inline]
pub const fn suit_mask(s: u32) -> u32 {
    0x1111_1111 << s
}

const fn build_legal() -> [u32; DECK_SIZE * 5] {
    let mut t = [0u32; DECK_SIZE * 5];
    let mut top = 0;
    while top < DECK_SIZE {
        let mut w = 0;
        while w < 5 {
            t[top * 5 + w] = if w < 4 {
                suit_mask(w as u32) & !JACKS
            } else {
                suit_mask(top as u32 & 3) | 0xF << (top & !3) | JACKS
            };
            w += 1;
        }
        top += 1;
    }
    t
}

/// Legal cards by `top * 5 + wish` (wish 4 = none), spec §6 rules 6-7.
static LEGAL: [u32; DECK_SIZE * 5] = build_legal();

/// The cards that may go on `top` with `wish` (0-3, or 4 for none).
#[inline]
pub fn legal_mask(top: u8, wish: u8) -> u32 {
    LEGAL[top as usize * 5 + wish as usize]
}

/// The `k`-th set bit of `m` (0-based, `k` < popcount), by halving.
#[inline]
pub fn select_bit(mut m: u32, mut k: u32) -> u32 {
    let mut base = 0;
    for width in [16u32, 8, 4, 2, 1] {
        let low = m & ((1u32 << width) - 1);
        let n = low.count_ones();
        if k >= n {
            k -= n;
            m >>= width;
            base += width;
        } else {
            m = low;
        }
    }
    base
}

/// A uniformly random index below `n` (`n` ≥ 1) from one 32-bit draw (Lemire's multiply).
#[inline]
pub(crate) fn below<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
}

/// A small, fast generator for playouts (SplitMix64): statistical quality is ample for
/// sampling cards, and it is several times cheaper than ChaCha.
#[derive(Clone, Debug)]
pub struct SimRng(u64);

impl SimRng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SimRng {
        SimRng(seed)
    }
}

impl RngCore for SimRng {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
}

/// A determinized Mau-Mau state on bit masks, always at a decision (or over).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastSim {
    hands: [u32; MAX_PLAYERS],
    /// Talon in random order (a draw takes a uniform card).
    talon: u32,
    /// Talon cards left at a reshuffle: drawn once `talon` is empty.
    bottom: u32,
    /// Pile under the top card.
    pile: u32,
    played: [u16; MAX_PLAYERS],
    top: u8,
    wish: u8,
    skip: u8,
    draw_two: u8,
    players: u8,
    mover: u8,
    winner: u8,
    exhausted: bool,
    most_valid: bool,
}

impl FastSim {
    /// A state at `mover`'s decision (its turn has begun: pending effects on it applied).
    /// `hands[s]`, `talon` and `pile` (under `top`) must be disjoint.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        players: usize,
        hands: [u32; MAX_PLAYERS],
        talon: u32,
        pile: u32,
        top: Card,
        wish: Option<Suit>,
        skip: u8,
        draw_two: u8,
        played: [u16; MAX_PLAYERS],
        mover: usize,
        rule: ExhaustionWinner,
    ) -> FastSim {
        let players = players.clamp(2, MAX_PLAYERS);
        FastSim {
            hands,
            talon,
            bottom: 0,
            pile,
            played,
            top: top.index(),
            wish: wish.map_or(NO_WISH, |w| w.index()),
            skip,
            draw_two,
            players: players as u8,
            mover: mover.min(players - 1) as u8,
            winner: NO_WINNER,
            exhausted: false,
            most_valid: rule == ExhaustionWinner::MostValidMoves,
        }
    }

    /// Puts card `c` into `seat`'s hand (determinization).
    #[inline]
    pub(crate) fn deal_card(&mut self, seat: usize, c: u32) {
        self.hands[seat] |= 1 << (c & 31);
    }

    /// Sets the talon (determinization).
    #[inline]
    pub(crate) fn set_talon(&mut self, talon: u32) {
        self.talon = talon;
    }

    /// The whole position of `game` at its decision (`None` between decisions or after the
    /// end): the true deal, for research on the full state and for tests against the server's
    /// state machine. A bot never has this.
    pub fn from_game(game: &Game) -> Option<FastSim> {
        let Phase::Answer(seat) = game.phase() else {
            return None;
        };
        let mut hands = [0u32; MAX_PLAYERS];
        let (mut skip, mut two) = (0, 0);
        let mut played = [0u16; MAX_PLAYERS];
        for s in 0..game.players() {
            hands[s] = game.hand(s).0;
            skip |= (game.pending_skip(s) as u8) << s;
            two |= (game.pending_draw_two(s) as u8) << s;
            played[s] = game.valid_moves(s);
        }
        let talon: CardSet = game.talon().iter().copied().collect();
        let under = &game.pile()[..game.pile().len().saturating_sub(1)];
        let pile: CardSet = under.iter().copied().collect();
        Some(FastSim::new(
            game.players(),
            hands,
            talon.0,
            pile.0,
            game.top(),
            game.wish(),
            skip,
            two,
            played,
            seat,
            game.config().exhaustion_winner,
        ))
    }

    /// The seat to move.
    pub fn mover(&self) -> usize {
        self.mover as usize
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.players as usize
    }
    /// The seat after the mover's: the one its 7 or 8 hits, and the "next player" whose hand
    /// the playout policy looks at.
    #[inline]
    pub fn next_seat(&self) -> usize {
        (self.mover as usize + 1) % self.players as usize
    }
    /// The winner once the game is over.
    pub fn winner(&self) -> Option<usize> {
        (self.winner != NO_WINNER).then_some(self.winner as usize)
    }
    /// A seat's hand.
    pub fn hand(&self, seat: usize) -> CardSet {
        CardSet(self.hands[seat])
    }
    /// Talon (both layers).
    pub fn talon(&self) -> CardSet {
        CardSet(self.talon | self.bottom)
    }
    /// Pile under the top card.
    pub fn pile(&self) -> CardSet {
        CardSet(self.pile)
    }
    /// Top card.
    pub fn top(&self) -> Card {
        Card::from_bits(self.top as u32)
    }
    /// Wish in force.
    pub fn wish(&self) -> Option<Suit> {
        Suit::from_index(self.wish)
    }
    /// The cards that may be laid on the top card now (whoever holds them), as a mask.
    #[inline]
    pub fn fitting(&self) -> u32 {
        legal_mask(self.top, self.wish)
    }
    /// The mover's legal plays as a mask.
    #[inline]
    pub fn legal(&self) -> u32 {
        legal_mask(self.top, self.wish) & self.hands[self.mover as usize]
    }

    /// Whether a Jack played now would set a wish (top is not a Jack).
    #[inline]
    pub fn jack_wishes(&self) -> bool {
        self.top >> 2 != 4
    }

    /// Appends the actions the search considers: every legal card (a wishing Jack once per
    /// suit the rest of the hand holds, or all four if it holds none) and drawing.
    pub fn candidate_actions(&self, out: &mut Vec<Action>) {
        let hand = self.hands[self.mover as usize];
        let mut legal = self.legal();
        let wishes = self.jack_wishes();
        while legal != 0 {
            let c = legal.trailing_zeros();
            legal &= legal - 1;
            let card = Card::from_bits(c);
            if wishes && (c >> 2) == 4 {
                let rest = hand & !JACKS & !(1 << c);
                let mut any = false;
                for s in Suit::ALL {
                    if rest & suit_mask(s as u32) != 0 {
                        out.push(Action::Play { card, wish: s });
                        any = true;
                    }
                }
                if !any {
                    out.extend(Suit::ALL.map(|wish| Action::Play { card, wish }));
                }
            } else {
                out.push(Action::Play {
                    card,
                    wish: Suit::Pik,
                });
            }
        }
        out.push(Action::Draw);
    }

    /// Plays `card` (must be legal) with `wish` for a wishing Jack, and advances to the next
    /// decision.
    #[inline]
    pub fn play<R: RngCore + ?Sized>(&mut self, card: u32, wish: u8, rng: &mut R) {
        let m = self.mover as usize;
        self.hands[m] &= !(1 << card);
        self.pile |= 1 << self.top;
        let wishing = card >> 2 == 4 && self.jack_wishes();
        self.top = card as u8;
        self.wish = if wishing { wish & 3 } else { NO_WISH };
        self.played[m] += 1;
        let target = 1u8 << self.next_seat();
        if (1 << card) & SEVENS != 0 {
            self.draw_two |= target;
        } else if (1 << card) & EIGHTS != 0 {
            self.skip |= target;
        }
        self.end_turn(rng);
    }

    /// The mover draws one card, and the game advances to the next decision.
    #[inline]
    pub fn draw<R: RngCore + ?Sized>(&mut self, rng: &mut R) {
        let m = self.mover as usize;
        if self.take(1, rng) {
            self.hands[m] |= self.take_one(rng);
        } else {
            self.exhausted = true;
        }
        self.end_turn(rng);
    }

    /// Applies a game [`Action`] (a card not in hand or illegal is treated as a draw).
    pub fn apply_action<R: RngCore + ?Sized>(&mut self, action: Action, rng: &mut R) {
        match action {
            Action::Play { card, wish } if self.legal() >> card.index() & 1 != 0 => {
                self.play(card.index() as u32, wish.index(), rng)
            }
            _ => self.draw(rng),
        }
    }

    /// Makes sure `n` cards can be drawn, reshuffling the pile under the top card if needed
    /// (§6 rule 10). False if even that leaves fewer than `n`.
    #[inline]
    fn take(&mut self, n: u32, _rng: &mut (impl RngCore + ?Sized)) -> bool {
        if (self.talon | self.bottom).count_ones() >= n {
            return true;
        }
        self.bottom |= self.talon;
        self.talon = self.pile;
        self.pile = 0;
        (self.talon | self.bottom).count_ones() >= n
    }

    /// Removes one random card from the talon (upper layer first); the talon must not be empty.
    #[inline]
    fn take_one<R: RngCore + ?Sized>(&mut self, rng: &mut R) -> u32 {
        let layer = if self.talon != 0 {
            &mut self.talon
        } else {
            &mut self.bottom
        };
        let n = layer.count_ones();
        let bit = 1u32 << select_bit(*layer, below(rng, n.max(1)));
        *layer &= !bit;
        bit
    }

    fn exhaustion_winner(&self) -> u8 {
        if !self.most_valid {
            return self.players - 1;
        }
        let mut best = 0;
        for s in 1..self.players as usize {
            if self.played[s] > self.played[best] {
                best = s;
            }
        }
        best as u8
    }

    /// Ends the mover's turn and runs turn starts (skips, draw-twos) up to the next decision.
    #[inline]
    fn end_turn<R: RngCore + ?Sized>(&mut self, rng: &mut R) {
        let m = self.mover as usize;
        if self.exhausted {
            self.winner = self.exhaustion_winner();
            return;
        }
        if self.hands[m] == 0 {
            self.winner = m as u8;
            return;
        }
        let mut s = m;
        loop {
            s = (s + 1) % self.players as usize;
            let bit = 1u8 << s;
            if self.skip & bit != 0 {
                self.skip &= !bit;
                continue;
            }
            if self.draw_two & bit != 0 {
                self.draw_two &= !bit;
                if self.take(2, rng) {
                    let a = self.take_one(rng);
                    let b = self.take_one(rng);
                    self.hands[s] |= a | b;
                } else {
                    self.exhausted = true;
                }
            }
            break;
        }
        self.mover = s as u8;
    }

    /// Reward estimate for a cut-off playout: fewer cards than the smallest other hand is
    /// better (a logistic in the difference).
    pub fn estimate(&self, player: usize) -> f64 {
        let mine = self.hands[player].count_ones() as f64;
        let others = (0..self.players as usize)
            .filter(|&s| s != player)
            .map(|s| self.hands[s].count_ones())
            .min()
            .unwrap_or(0) as f64;
        1.0 / (1.0 + (0.4 * (mine - others)).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::legal_set;

    #[test]
    fn legal_table_matches_the_rules() {
        for top in Card::all() {
            for w in 0..5u8 {
                let wish = Suit::from_index(w);
                assert_eq!(legal_mask(top.index(), w), legal_set(top, wish).0);
            }
        }
    }

    #[test]
    fn select_bit_finds_every_bit() {
        for m in [1u32, 0x8000_0001, 0xF0F0_1234, u32::MAX] {
            let bits: Vec<u32> = CardSet(m).iter().map(|c| c.index() as u32).collect();
            for (k, &b) in bits.iter().enumerate() {
                assert_eq!(select_bit(m, k as u32), b, "{m:x} {k}");
            }
        }
    }

    #[test]
    fn draws_conserve_cards_and_reshuffle() {
        let mut rng = SimRng::new(3);
        // Talon of one card, pile of three: a draw-two reshuffles and takes the upper layer.
        let top = Card::from_bits(5);
        let mut sim = FastSim::new(
            2,
            [0b1, 0b10 << 8, 0, 0],
            1 << 20,
            (1 << 21) | (1 << 22) | (1 << 23),
            top,
            None,
            0,
            0b10,
            [0; MAX_PLAYERS],
            0,
            ExhaustionWinner::SecondSeat,
        );
        sim.draw(&mut rng);
        assert_eq!(sim.mover(), 1);
        // Seat 0 drew the last talon card; seat 1's draw-two reshuffled the pile.
        assert!(sim.hand(0).contains(Card::from_bits(20)));
        assert_eq!(sim.hand(1).len(), 3);
        let all = sim.hand(0).0 | sim.hand(1).0 | sim.talon().0 | sim.pile().0 | 1 << 5;
        assert_eq!(all.count_ones(), 7);
        assert_eq!(sim.pile(), CardSet::EMPTY);
    }
}
