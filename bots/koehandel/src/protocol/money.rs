//! Money on the wire: card letters (`n t f h T F`), verbatim bid strings and the hidden `Q` forms.

use super::ProtocolError;
use std::fmt;

/// Longest card-letter string we accept from a player (a bid of 64 `F` is 32,000, far above the
/// 3,760 that exists). Longer strings are unusable, which the market treats as "no answer".
pub const MAX_LETTERS: usize = 64;

/// One money card. The discriminant is the index into [`Cards`] counts (ascending value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Card {
    /// `n`, worth 0.
    N0,
    /// `t`, worth 10.
    T10,
    /// `f`, worth 50.
    F50,
    /// `h`, worth 100.
    H100,
    /// `T`, worth 200.
    T200,
    /// `F`, worth 500.
    F500,
}

impl Card {
    /// All cards, ascending by value.
    pub const ALL: [Card; 6] = [
        Card::N0,
        Card::T10,
        Card::F50,
        Card::H100,
        Card::T200,
        Card::F500,
    ];

    /// The card's value.
    pub fn value(self) -> u32 {
        [0, 10, 50, 100, 200, 500][self as usize]
    }

    /// The card's (case-sensitive) letter.
    pub fn letter(self) -> char {
        ['n', 't', 'f', 'h', 'T', 'F'][self as usize]
    }

    /// Parses a card letter; `None` for anything else (also `Q`).
    pub fn from_letter(c: char) -> Option<Card> {
        Card::ALL.into_iter().find(|k| k.letter() == c)
    }
}

/// A multiset of money cards (a hand, an offer, a payment). Written in descending value (`FThftn`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cards {
    /// How many of each card, indexed by `Card as usize`.
    pub counts: [u16; 6],
}

impl Cards {
    /// No cards.
    pub const EMPTY: Cards = Cards { counts: [0; 6] };

    /// The start hand `nnttttf`.
    pub fn start_hand() -> Cards {
        Cards {
            counts: [2, 4, 1, 0, 0, 0],
        }
    }

    /// Sum of the card values.
    pub fn value(&self) -> u32 {
        Card::ALL
            .iter()
            .map(|&c| c.value() * u32::from(self.counts[c as usize]))
            .sum()
    }

    /// Number of cards.
    pub fn len(&self) -> u32 {
        self.counts.iter().map(|&n| u32::from(n)).sum()
    }

    /// True when there are no cards.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many of `card`.
    pub fn count(&self, card: Card) -> u16 {
        self.counts[card as usize]
    }

    /// Adds one card.
    pub fn push(&mut self, card: Card) {
        self.counts[card as usize] = self.counts[card as usize].saturating_add(1);
    }

    /// True when every card of `other` is in `self` (multiset inclusion).
    pub fn contains(&self, other: &Cards) -> bool {
        self.counts.iter().zip(other.counts).all(|(&a, b)| a >= b)
    }

    /// Adds all cards of `other`.
    pub fn add(&mut self, other: &Cards) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a = a.saturating_add(b);
        }
    }

    /// Removes the cards of `other`; `false` (and no change) when they are not all present.
    pub fn remove(&mut self, other: &Cards) -> bool {
        if !self.contains(other) {
            return false;
        }
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a -= b;
        }
        true
    }

    /// Parses card letters in any order; the empty string is no cards.
    pub fn parse(s: &str) -> Result<Cards, ProtocolError> {
        if s.chars().count() > MAX_LETTERS {
            return Err(ProtocolError::TooLong(s.len()));
        }
        let mut cards = Cards::EMPTY;
        for c in s.chars() {
            cards.push(Card::from_letter(c).ok_or(ProtocolError::BadLetter(c))?);
        }
        Ok(cards)
    }

    /// The cards in descending value, as a verbatim letter string.
    pub fn letters(&self) -> Letters {
        Letters(self.to_string())
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &c in Card::ALL.iter().rev() {
            for _ in 0..self.counts[c as usize] {
                write!(f, "{}", c.letter())?;
            }
        }
        Ok(())
    }
}

/// A string of card letters kept verbatim: bids are echoed exactly as the bidder wrote them
/// (`ntttt` stays `ntttt`), and need not be payable with real cards (`FFFFF`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Letters(String);

impl Letters {
    /// Checks that `s` holds only card letters (at most [`MAX_LETTERS`]).
    pub fn parse(s: &str) -> Result<Letters, ProtocolError> {
        Cards::parse(s)?;
        Ok(Letters(s.to_string()))
    }

    /// The string as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The cards named (a multiset).
    pub fn cards(&self) -> Cards {
        Cards::parse(&self.0).unwrap_or_default()
    }

    /// Sum of the letters' values.
    pub fn value(&self) -> u32 {
        self.cards().value()
    }

    /// True for the empty string.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The cheapest-to-write bid of exactly `value` (a multiple of 10 is exact; else rounded up
    /// to the next 10), using the largest letters first, e.g. 70 → `ftt`.
    pub fn for_value(value: u32) -> Letters {
        let mut rest = value.div_ceil(10) * 10;
        let mut s = String::new();
        for &c in Card::ALL.iter().rev() {
            if c.value() == 0 {
                continue;
            }
            while rest >= c.value() && s.len() < MAX_LETTERS {
                s.push(c.letter());
                rest -= c.value();
            }
        }
        Letters(s)
    }
}

impl fmt::Display for Letters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The `money` field of a server message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Money {
    /// Real card letters, verbatim, optionally with a leading `-` (paid / handed over).
    Real {
        /// Leading `-`.
        neg: bool,
        /// The letters.
        letters: Letters,
    },
    /// The hidden form: `count` cards of unknown value, optionally a price (auctions);
    /// `0` / `-0` = no cards.
    Hidden {
        /// Leading `-`.
        neg: bool,
        /// Number of `Q`s.
        count: u32,
        /// The auction price after the `Q`s; `None` in trades and for `0` / `-0`.
        price: Option<u32>,
    },
}

impl Money {
    /// Real cards, written in descending order.
    pub fn cards(cards: &Cards) -> Money {
        Money::Real {
            neg: false,
            letters: cards.letters(),
        }
    }

    /// Parses a money field. Leading `-` sets `neg`; `Q`s and/or digits make the hidden form
    /// (`0` and `-0` = no cards, no price), anything else must be card letters.
    pub fn parse(s: &str) -> Result<Money, ProtocolError> {
        let (neg, body) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let q = body.chars().take_while(|&c| c == 'Q').count();
        let digits = &body[q..];
        if q > 0 || (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())) {
            if q > MAX_LETTERS || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ProtocolError::BadMoney(s.to_string()));
            }
            let price = if digits.is_empty() || (q == 0 && digits == "0") {
                None
            } else {
                Some(
                    digits
                        .parse()
                        .map_err(|_| ProtocolError::BadMoney(s.to_string()))?,
                )
            };
            return Ok(Money::Hidden {
                neg,
                count: q as u32,
                price,
            });
        }
        Ok(Money::Real {
            neg,
            letters: Letters::parse(body)?,
        })
    }

    /// Number of cards (known for both forms).
    pub fn card_count(&self) -> u32 {
        match self {
            Money::Real { letters, .. } => letters.cards().len(),
            Money::Hidden { count, .. } => *count,
        }
    }

    /// True when the field has a leading `-`.
    pub fn is_neg(&self) -> bool {
        match self {
            Money::Real { neg, .. } | Money::Hidden { neg, .. } => *neg,
        }
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let neg = if self.is_neg() { "-" } else { "" };
        match self {
            // An empty field stays empty (`money=`): writing `0` would turn it into the hidden
            // "offer of no cards" form on the way back.
            Money::Real { letters, .. } => write!(f, "{neg}{letters}"),
            Money::Hidden {
                count: 0, price, ..
            } => write!(f, "{neg}{}", price.unwrap_or(0)),
            Money::Hidden { count, price, .. } => {
                f.write_str(neg)?;
                for _ in 0..*count {
                    f.write_str("Q")?;
                }
                match price {
                    Some(p) => write!(f, "{p}"),
                    None => Ok(()),
                }
            }
        }
    }
}
