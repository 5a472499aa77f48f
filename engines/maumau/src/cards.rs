//! Cards, suits, ranks and card sets, with the wire's numeric encoding.
//!
//! A card is `rank × 4 + suit` (0-31), exactly as the contest server sends it: suit = card mod 4
//! (0 Pik, 1 Karo, 2 Herz, 3 Kreuz), rank = card div 4 (0 = 7 … 7 = Ace). A [`CardSet`] is a
//! 32-bit mask with bit `i` standing for card `i`:
//!
//! ```text
//! bit  31 30 29 28 | 27 26 25 24 | … | 3  2  1  0
//!      A♣ A♥ A♦ A♠ | K♣ K♥ K♦ K♠ | … | 7♣ 7♥ 7♦ 7♠
//! ```

use std::fmt;

/// Number of cards in the deck.
pub const DECK_SIZE: usize = 32;

/// A suit ("Farbe"); the discriminant is the wire number used for cards and wishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Suit {
    /// Pik (spades), 0.
    Pik = 0,
    /// Karo (diamonds), 1.
    Karo = 1,
    /// Herz (hearts), 2.
    Herz = 2,
    /// Kreuz (clubs), 3.
    Kreuz = 3,
}

impl Suit {
    /// All suits in wire order.
    pub const ALL: [Suit; 4] = [Suit::Pik, Suit::Karo, Suit::Herz, Suit::Kreuz];

    /// The suit with wire number `n` (0-3).
    pub fn from_index(n: u8) -> Option<Suit> {
        Self::ALL.get(n as usize).copied()
    }

    /// Wire number 0-3.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// Unicode symbol.
    pub fn symbol(self) -> char {
        ['♠', '♦', '♥', '♣'][self as usize]
    }
}

/// A rank; the discriminant is the wire's rank index (card div 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    /// 7: the next player draws two.
    Seven = 0,
    /// 8: the next player is skipped.
    Eight = 1,
    /// 9.
    Nine = 2,
    /// 10.
    Ten = 3,
    /// Bube (Jack): wild, sets a wish.
    Jack = 4,
    /// Dame (Queen).
    Queen = 5,
    /// König (King).
    King = 6,
    /// Ass (Ace).
    Ace = 7,
}

impl Rank {
    /// All ranks in wire order.
    pub const ALL: [Rank; 8] = [
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// Short label ("7", "8", "9", "10", "J", "Q", "K", "A").
    pub fn label(self) -> &'static str {
        ["7", "8", "9", "10", "J", "Q", "K", "A"][self as usize]
    }
}

/// One card, encoded as on the wire (`rank × 4 + suit`, 0-31).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Card(u8);

impl Card {
    /// The card of `rank` and `suit`.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(rank as u8 * 4 + suit as u8)
    }

    /// The card with wire number `n`, if `n` is 0-31.
    pub fn from_index(n: u8) -> Option<Card> {
        (n < 32).then_some(Card(n))
    }

    /// The card with wire number `n`, if `n` is 0-31 (convenience for JSON integers).
    pub fn from_wire(n: i64) -> Option<Card> {
        u8::try_from(n).ok().and_then(Card::from_index)
    }

    /// The card with wire number `n mod 32` (for bit-mask code that knows `n` < 32).
    pub(crate) const fn from_bits(n: u32) -> Card {
        Card((n & 31) as u8)
    }

    /// Wire number 0-31.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card's suit.
    pub fn suit(self) -> Suit {
        Suit::ALL[(self.0 & 3) as usize]
    }

    /// The card's rank.
    pub fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 2) as usize]
    }

    /// True for the four Jacks (wild cards).
    pub const fn is_jack(self) -> bool {
        self.0 >> 2 == Rank::Jack as u8
    }

    /// True for the four 7s (draw two).
    pub const fn is_seven(self) -> bool {
        self.0 >> 2 == 0
    }

    /// True for the four 8s (skip).
    pub const fn is_eight(self) -> bool {
        self.0 >> 2 == 1
    }

    /// All 32 cards in wire order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..32).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().label(), self.suit().symbol())
    }
}

/// A set of cards as a 32-bit mask (bit `i` = card `i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CardSet(pub u32);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 32 cards.
    pub const FULL: CardSet = CardSet(u32::MAX);
    /// The four Jacks.
    pub const JACKS: CardSet = CardSet(0xF << 16);
    /// The four 7s.
    pub const SEVENS: CardSet = CardSet(0xF);
    /// The four 8s.
    pub const EIGHTS: CardSet = CardSet(0xF << 4);

    /// All eight cards of `suit`.
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(0x1111_1111 << suit as u32)
    }

    /// All four cards of `rank`.
    pub const fn rank(rank: Rank) -> CardSet {
        CardSet(0xF << (rank as u32 * 4))
    }

    /// The set holding exactly `card`.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.0)
    }

    /// The set of the given cards.
    pub fn from_cards(cards: impl IntoIterator<Item = Card>) -> CardSet {
        cards.into_iter().fold(CardSet::EMPTY, |s, c| s.with(c))
    }

    /// Number of cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True if empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Membership.
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.0 & 1 != 0
    }

    /// Adds a card.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes a card; returns whether it was present.
    pub fn remove(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 &= !(1 << card.0);
        had
    }

    /// This set plus `card`.
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | 1 << card.0)
    }

    /// Union.
    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }

    /// Intersection.
    pub const fn inter(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }

    /// Difference (`self` without `o`).
    pub const fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }

    /// Complement within the deck.
    pub const fn complement(self) -> CardSet {
        CardSet(!self.0)
    }

    /// Lowest card, if any.
    pub fn first(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(self.0.trailing_zeros() as u8))
    }

    /// The `n`-th card in wire order (0-based), if there are more than `n`.
    pub fn nth(self, n: usize) -> Option<Card> {
        let mut m = self.0;
        for _ in 0..n {
            if m == 0 {
                return None;
            }
            m &= m - 1;
        }
        (m != 0).then(|| Card(m.trailing_zeros() as u8))
    }

    /// Number of cards of `suit`.
    pub const fn count_suit(self, suit: Suit) -> usize {
        self.inter(CardSet::suit(suit)).len()
    }

    /// Iterates in wire order.
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardIter;
    fn into_iter(self) -> CardIter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<T: IntoIterator<Item = Card>>(iter: T) -> Self {
        CardSet::from_cards(iter)
    }
}

/// Iterator over a [`CardSet`] in wire order.
#[derive(Clone, Debug)]
pub struct CardIter(u32);

impl Iterator for CardIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(c))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardIter {}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[")?;
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                write!(f, " ")?;
            }
            write!(f, "{c}")?;
        }
        write!(f, "]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_matches_the_spec() {
        assert_eq!(Card::new(Rank::Jack, Suit::Pik).index(), 16);
        assert_eq!(Card::new(Rank::Queen, Suit::Kreuz).index(), 23);
        let c = Card::from_index(29).unwrap();
        assert_eq!((c.rank(), c.suit()), (Rank::Ace, Suit::Karo));
        assert!(Card::from_index(32).is_none());
        assert!(Card::from_wire(-1).is_none());
        for c in Card::all() {
            assert_eq!(Card::new(c.rank(), c.suit()), c);
            assert_eq!(c.is_jack(), c.rank() == Rank::Jack);
            assert_eq!(c.is_seven(), c.rank() == Rank::Seven);
            assert_eq!(c.is_eight(), c.rank() == Rank::Eight);
            assert!(CardSet::suit(c.suit()).contains(c));
            assert!(CardSet::rank(c.rank()).contains(c));
        }
        assert_eq!(CardSet::JACKS, CardSet::rank(Rank::Jack));
        assert_eq!(CardSet::suit(Suit::Herz).len(), 8);
    }

    #[test]
    fn set_operations() {
        let s: CardSet = [3u8, 17, 31].iter().map(|&i| Card(i)).collect();
        assert_eq!(s.len(), 3);
        assert_eq!(s.nth(1), Some(Card(17)));
        assert_eq!(s.nth(3), None);
        assert_eq!(
            s.iter().map(|c| c.index()).collect::<Vec<_>>(),
            vec![3, 17, 31]
        );
        assert_eq!(s.to_string(), "[7♣ J♦ A♣]");
        let mut t = s;
        assert!(t.remove(Card(17)));
        assert!(!t.remove(Card(17)));
        assert_eq!(t.union(CardSet::single(Card(17))), s);
        assert_eq!(s.minus(t), CardSet::single(Card(17)));
    }
}
