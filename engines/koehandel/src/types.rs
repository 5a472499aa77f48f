//! Domain types: seats, animals (goods `A`–`J`), money cards (`n t f h T F`) and hands.
//!
//! Everything is a small `Copy` value so game states clone cheaply for simulation. The letters
//! are exactly the spec's (part A), so the wire codec maps them one to one.

use std::fmt;

use crate::RulesError;

/// Number of players at the table.
pub const PLAYERS: usize = 4;
/// Number of animal kinds.
pub const KINDS: usize = 10;
/// Number of money card kinds.
pub const MONEY_KINDS: usize = 6;
/// Animal cards in the deck (4 of each kind).
pub const DECK_SIZE: usize = 40;

/// An absolute seat 0..4; seat `k + 1` sits to the left of seat `k` and plays after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Seat(pub u8);

impl Seat {
    /// All four seats in turn order.
    pub const ALL: [Seat; 4] = [Seat(0), Seat(1), Seat(2), Seat(3)];

    /// Index 0..4 for arrays.
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }

    /// The seat `steps` places clockwise (to the left) of this one.
    #[inline]
    pub fn plus(self, steps: usize) -> Seat {
        Seat(((self.0 as usize + steps) % PLAYERS) as u8)
    }

    /// The next seat clockwise.
    #[inline]
    pub fn next(self) -> Seat {
        self.plus(1)
    }

    /// How this seat appears to `viewer`: `S`, `W`, `N` or `E` (spec C1).
    pub fn letter_for(self, viewer: Seat) -> char {
        b"SWNE"[(self.idx() + PLAYERS - viewer.idx()) % PLAYERS] as char
    }

    /// The absolute seat that `viewer` calls `letter` (`S`, `W`, `N`, `E`).
    pub fn from_letter(letter: char, viewer: Seat) -> Option<Seat> {
        let rel = "SWNE".find(letter)?;
        Some(viewer.plus(rel))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0)
    }
}

/// An animal kind `A` (rooster, 10) … `J` (horse, 1000); `G` is the money donkey.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Animal(pub u8);

/// Quartet values of the kinds `A`..`J`.
pub const ANIMAL_VALUES: [u32; KINDS] = [10, 40, 90, 160, 250, 350, 500, 650, 800, 1000];

impl Animal {
    /// The money donkey `G`: revealing one for auction pays every player (spec B5, D7).
    pub const DONKEY: Animal = Animal(6);

    /// All kinds `A`..`J`.
    pub fn all() -> impl Iterator<Item = Animal> {
        (0..KINDS as u8).map(Animal)
    }

    /// Index 0..10 for arrays.
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }

    /// The value of a complete quartet of this kind.
    #[inline]
    pub fn value(self) -> u32 {
        ANIMAL_VALUES[self.idx()]
    }

    /// The spec's letter `A`..`J`.
    pub fn letter(self) -> char {
        (b'A' + self.0) as char
    }

    /// Parses a letter `A`..`J`.
    pub fn from_letter(c: char) -> Option<Animal> {
        match c {
            'A'..='J' => Some(Animal(c as u8 - b'A')),
            _ => None,
        }
    }
}

impl fmt::Display for Animal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A money card kind; the discriminant is the index into [`Cards`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoneyCard {
    /// `n`, worth 0 (useful only to pad offers).
    Zero = 0,
    /// `t`, worth 10.
    Ten = 1,
    /// `f`, worth 50.
    Fifty = 2,
    /// `h`, worth 100.
    Hundred = 3,
    /// `T`, worth 200.
    TwoHundred = 4,
    /// `F`, worth 500.
    FiveHundred = 5,
}

/// Values of the money card kinds in index order.
pub const MONEY_VALUES: [u32; MONEY_KINDS] = [0, 10, 50, 100, 200, 500];
/// Letters of the money card kinds in index order.
pub const MONEY_LETTERS: [char; MONEY_KINDS] = ['n', 't', 'f', 'h', 'T', 'F'];

impl MoneyCard {
    /// All kinds in ascending value.
    pub const ALL: [MoneyCard; 6] = [
        MoneyCard::Zero,
        MoneyCard::Ten,
        MoneyCard::Fifty,
        MoneyCard::Hundred,
        MoneyCard::TwoHundred,
        MoneyCard::FiveHundred,
    ];

    /// Face value.
    #[inline]
    pub fn value(self) -> u32 {
        MONEY_VALUES[self as usize]
    }

    /// The spec's letter (case-sensitive).
    pub fn letter(self) -> char {
        MONEY_LETTERS[self as usize]
    }

    /// Parses one of `n t f h T F`.
    pub fn from_letter(c: char) -> Option<MoneyCard> {
        MONEY_LETTERS
            .iter()
            .position(|&l| l == c)
            .map(|i| MoneyCard::ALL[i])
    }

    /// The card paid to every player when the `n`-th donkey (1..=4) is revealed.
    pub fn donkey_payout(n: u8) -> MoneyCard {
        match n {
            1 => MoneyCard::Fifty,
            2 => MoneyCard::Hundred,
            3 => MoneyCard::TwoHundred,
            _ => MoneyCard::FiveHundred,
        }
    }
}

/// A multiset of money cards: a hand, an offer, a payment or a bid string.
///
/// Displayed in the server's canonical order, descending value (`FThftn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cards(pub [u8; MONEY_KINDS]);

impl Cards {
    /// No cards.
    pub const EMPTY: Cards = Cards([0; MONEY_KINDS]);
    /// Every player's start hand `nnttttf` (value 90).
    pub const START: Cards = Cards([2, 4, 1, 0, 0, 0]);

    /// One card.
    pub fn single(card: MoneyCard) -> Cards {
        let mut c = Cards::EMPTY;
        c.0[card as usize] = 1;
        c
    }

    /// How many cards of a kind.
    #[inline]
    pub fn count(&self, card: MoneyCard) -> u8 {
        self.0[card as usize]
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }

    /// True when there are no cards.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    /// Sum of the face values.
    #[inline]
    pub fn value(&self) -> u32 {
        self.0
            .iter()
            .zip(MONEY_VALUES)
            .map(|(&c, v)| c as u32 * v)
            .sum()
    }

    /// True when `other` is a sub-multiset of `self`.
    #[inline]
    pub fn contains(&self, other: &Cards) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    /// Adds all of `other` (saturating at 255 per kind; real games never get close).
    #[inline]
    pub fn add(&mut self, other: &Cards) {
        for k in 0..MONEY_KINDS {
            self.0[k] = self.0[k].saturating_add(other.0[k]);
        }
    }

    /// Removes `other`; `None` (and `self` unchanged) when it is not contained.
    #[inline]
    pub fn remove(&mut self, other: &Cards) -> Option<()> {
        if !self.contains(other) {
            return None;
        }
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a -= *b;
        }
        Some(())
    }

    /// `self + other`.
    pub fn plus(&self, other: &Cards) -> Cards {
        let mut c = *self;
        c.add(other);
        c
    }

    /// Adds one card.
    #[inline]
    pub fn push(&mut self, card: MoneyCard) {
        self.0[card as usize] = self.0[card as usize].saturating_add(1);
    }

    /// The cards one by one in descending value.
    pub fn iter_desc(&self) -> impl Iterator<Item = MoneyCard> + '_ {
        MoneyCard::ALL
            .iter()
            .rev()
            .flat_map(move |&m| std::iter::repeat_n(m, self.0[m as usize] as usize))
    }

    /// A bid string for `value` (a multiple of 10), fewest letters first: `FFTht`.
    pub fn bid_for(value: u32) -> Cards {
        let mut rest = value;
        let mut c = Cards::EMPTY;
        for m in MoneyCard::ALL.iter().rev() {
            if m.value() == 0 {
                continue;
            }
            let k = (rest / m.value()).min(255);
            c.0[*m as usize] = k as u8;
            rest -= k * m.value();
        }
        c
    }

    /// Parses a CARDS/BID string of the letters `n t f h T F` (empty = no cards).
    pub fn parse(s: &str) -> Result<Cards, RulesError> {
        let mut c = Cards::EMPTY;
        for ch in s.chars() {
            let m = MoneyCard::from_letter(ch).ok_or(RulesError::BadMoneyLetter(ch))?;
            let slot = &mut c.0[m as usize];
            *slot = slot.checked_add(1).ok_or(RulesError::TooManyCards)?;
        }
        Ok(c)
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in self.iter_desc() {
            write!(f, "{}", m.letter())?;
        }
        Ok(())
    }
}

/// The animals one player owns: a count per kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Herd(pub [u8; KINDS]);

impl Herd {
    /// How many of a kind.
    #[inline]
    pub fn count(&self, a: Animal) -> u8 {
        self.0[a.idx()]
    }

    /// Adds `n` animals of a kind (saturating: odd input never panics).
    #[inline]
    pub fn add(&mut self, a: Animal, n: u8) {
        self.0[a.idx()] = self.0[a.idx()].saturating_add(n);
    }

    /// Removes `n` animals of a kind (saturating at zero; callers check ownership).
    #[inline]
    pub fn remove(&mut self, a: Animal, n: u8) {
        self.0[a.idx()] = self.0[a.idx()].saturating_sub(n);
    }

    /// Number of animals.
    pub fn len(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }

    /// True when the herd is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    /// Score (spec B8): complete quartets × sum of their values.
    pub fn score(&self) -> u32 {
        let (n, sum) = Animal::all()
            .filter(|&a| self.count(a) == 4)
            .fold((0, 0), |(n, s), a| (n + 1, s + a.value()));
        n * sum
    }
}

impl fmt::Display for Herd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for a in Animal::all() {
            for _ in 0..self.count(a) {
                write!(f, "{}", a.letter())?;
            }
        }
        Ok(())
    }
}
