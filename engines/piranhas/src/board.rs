//! Colours, directions, moves and the board (two fish bitboards plus the Kraken).
//!
//! Coordinates are the official ones: `x` = column 0..9 left to right, `y` = row 0..9 bottom to
//! top, `UP` = y + 1.

use crate::bitboard::{Bitboard, BOARD_MASK};
use crate::error::ParseError;
use std::fmt;
use std::str::FromStr;

/// A player colour. RED always starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player (fish on the left and right edges at the start).
    Red = 0,
    /// The second player (fish on the bottom and top edges at the start).
    Blue = 1,
}

impl Color {
    /// Both colours, RED first (the order of the result's score elements).
    pub const BOTH: [Color; 2] = [Color::Red, Color::Blue];

    /// The other colour.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }

    /// The protocol's uppercase name (`RED` / `BLUE`).
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "RED",
            Color::Blue => "BLUE",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = ParseError;
    /// Accepts `RED`/`BLUE` in any case (the welcome message uses lowercase).
    fn from_str(s: &str) -> Result<Self, ParseError> {
        match s.to_ascii_uppercase().as_str() {
            "RED" => Ok(Color::Red),
            "BLUE" => Ok(Color::Blue),
            _ => Err(ParseError::Color(s.to_string())),
        }
    }
}

/// One of the eight move directions, named as in the protocol.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// (0, +1)
    #[default]
    Up = 0,
    /// (+1, +1)
    UpRight = 1,
    /// (+1, 0)
    Right = 2,
    /// (+1, −1)
    DownRight = 3,
    /// (0, −1)
    Down = 4,
    /// (−1, −1)
    DownLeft = 5,
    /// (−1, 0)
    Left = 6,
    /// (−1, +1)
    UpLeft = 7,
}

impl Direction {
    /// All directions, in index order.
    pub const ALL: [Direction; 8] = [
        Direction::Up,
        Direction::UpRight,
        Direction::Right,
        Direction::DownRight,
        Direction::Down,
        Direction::DownLeft,
        Direction::Left,
        Direction::UpLeft,
    ];

    /// The step (dx, dy).
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::Up => (0, 1),
            Direction::UpRight => (1, 1),
            Direction::Right => (1, 0),
            Direction::DownRight => (1, -1),
            Direction::Down => (0, -1),
            Direction::DownLeft => (-1, -1),
            Direction::Left => (-1, 0),
            Direction::UpLeft => (-1, 1),
        }
    }

    /// The step as a square-index offset (dx + 10·dy).
    #[inline]
    pub const fn offset(self) -> i32 {
        let (dx, dy) = self.delta();
        dx + 10 * dy
    }

    /// Which line the distance is counted on: 0 column, 1 row, 2 rising (x−y), 3 falling (x+y).
    pub const fn line_kind(self) -> usize {
        match self {
            Direction::Up | Direction::Down => 0,
            Direction::Right | Direction::Left => 1,
            Direction::UpRight | Direction::DownLeft => 2,
            Direction::UpLeft | Direction::DownRight => 3,
        }
    }

    /// The protocol name, e.g. `UP_RIGHT`.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::Up => "UP",
            Direction::UpRight => "UP_RIGHT",
            Direction::Right => "RIGHT",
            Direction::DownRight => "DOWN_RIGHT",
            Direction::Down => "DOWN",
            Direction::DownLeft => "DOWN_LEFT",
            Direction::Left => "LEFT",
            Direction::UpLeft => "UP_LEFT",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Direction {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Direction::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| ParseError::Direction(s.to_string()))
    }
}

/// A move: the fish on (x, y) swims in `direction`.
///
/// Coordinates are signed so that a server can represent (and reject with the official error
/// text) a move from outside the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Column of the fish, 0..9 on the board.
    pub x: i8,
    /// Row of the fish, 0..9 on the board.
    pub y: i8,
    /// Where it swims.
    pub direction: Direction,
}

impl Move {
    /// The move of the fish on (x, y) in `direction`.
    pub const fn new(x: i8, y: i8, direction: Direction) -> Move {
        Move { x, y, direction }
    }

    /// The start square index, if on the board.
    #[inline]
    pub fn square(self) -> Option<usize> {
        if (0..10).contains(&self.x) && (0..10).contains(&self.y) {
            Some(self.x as usize + 10 * self.y as usize)
        } else {
            None
        }
    }

    pub(crate) fn from_square(sq: usize, direction: Direction) -> Move {
        Move {
            x: (sq % 10) as i8,
            y: (sq / 10) as i8,
            direction,
        }
    }
}

impl fmt::Display for Move {
    /// The data files' notation `x,y,DIRECTION`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.x, self.y, self.direction)
    }
}

impl FromStr for Move {
    type Err = ParseError;
    /// Parses `x,y,DIRECTION` (the data files' notation).
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let bad = || ParseError::Move(s.to_string());
        let mut it = s.trim().split(',');
        let x = it
            .next()
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(bad)?;
        let y = it
            .next()
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(bad)?;
        let d = it.next().ok_or_else(bad)?.trim().parse()?;
        if it.next().is_some() {
            return Err(bad());
        }
        Ok(Move::new(x, y, d))
    }
}

/// What a square holds (the protocol's field states).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// A red fish.
    Red,
    /// A blue fish.
    Blue,
    /// A Kraken.
    Obstructed,
    /// Nothing.
    Empty,
}

impl Field {
    /// The protocol name (`RED`, `BLUE`, `OBSTRUCTED`, `EMPTY`).
    pub const fn name(self) -> &'static str {
        match self {
            Field::Red => "RED",
            Field::Blue => "BLUE",
            Field::Obstructed => "OBSTRUCTED",
            Field::Empty => "EMPTY",
        }
    }

    /// The data files' one-letter code (`R`, `B`, `O`, `-`).
    pub const fn letter(self) -> char {
        match self {
            Field::Red => 'R',
            Field::Blue => 'B',
            Field::Obstructed => 'O',
            Field::Empty => '-',
        }
    }
}

impl FromStr for Field {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        match s {
            "RED" => Ok(Field::Red),
            "BLUE" => Ok(Field::Blue),
            "OBSTRUCTED" => Ok(Field::Obstructed),
            "EMPTY" => Ok(Field::Empty),
            _ => Err(ParseError::Field(s.to_string())),
        }
    }
}

/// The squares: one bitboard per colour plus the Kraken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Fish of each colour, indexed by `Color as usize`.
    pub fish: [Bitboard; 2],
    /// The Kraken (obstructed squares).
    pub kraken: Bitboard,
}

impl Board {
    /// A board with no fish and no Kraken.
    pub const fn empty() -> Board {
        Board {
            fish: [Bitboard::EMPTY; 2],
            kraken: Bitboard::EMPTY,
        }
    }

    /// The start position with the Kraken on the two given squares.
    pub fn start(krakens: [(u8, u8); 2]) -> Board {
        let mut b = Board::empty();
        for i in 1..9 {
            b.set(0, i, Field::Red);
            b.set(9, i, Field::Red);
            b.set(i, 0, Field::Blue);
            b.set(i, 9, Field::Blue);
        }
        for (x, y) in krakens {
            b.set(x as usize, y as usize, Field::Obstructed);
        }
        b
    }

    /// Parses the data files' 100-character board string (index x + 10·y).
    pub fn from_letters(s: &str) -> Result<Board, ParseError> {
        let chars: Vec<char> = s.trim().chars().collect();
        if chars.len() != 100 {
            return Err(ParseError::BoardLength(chars.len()));
        }
        let mut b = Board::empty();
        for (i, c) in chars.into_iter().enumerate() {
            let f = match c {
                'R' => Field::Red,
                'B' => Field::Blue,
                'O' => Field::Obstructed,
                '-' => Field::Empty,
                _ => return Err(ParseError::BoardChar(c)),
            };
            b.set(i % 10, i / 10, f);
        }
        Ok(b)
    }

    /// The data files' 100-character board string.
    pub fn to_letters(&self) -> String {
        (0..100)
            .map(|i| self.get(i % 10, i / 10).letter())
            .collect()
    }

    /// What (x, y) holds; both must be below 10.
    pub fn get(&self, x: usize, y: usize) -> Field {
        let sq = x + 10 * y;
        if self.fish[0].has(sq) {
            Field::Red
        } else if self.fish[1].has(sq) {
            Field::Blue
        } else if self.kraken.has(sq) {
            Field::Obstructed
        } else {
            Field::Empty
        }
    }

    /// Puts `f` on (x, y), replacing what was there; both must be below 10.
    pub fn set(&mut self, x: usize, y: usize, f: Field) {
        let bit = Bitboard::at(x, y);
        self.fish[0] &= !bit;
        self.fish[1] &= !bit;
        self.kraken &= !bit;
        match f {
            Field::Red => self.fish[0] |= bit,
            Field::Blue => self.fish[1] |= bit,
            Field::Obstructed => self.kraken |= bit,
            Field::Empty => {}
        }
    }

    /// All fish of both colours.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.fish[0] | self.fish[1]
    }

    /// The fish of `c`.
    #[inline]
    pub fn fish_of(&self, c: Color) -> Bitboard {
        self.fish[c as usize]
    }

    /// The Kraken squares as (x, y), lowest index first.
    pub fn krakens(&self) -> Vec<(u8, u8)> {
        self.kraken
            .iter()
            .map(|sq| ((sq % 10) as u8, (sq / 10) as u8))
            .collect()
    }

    /// Whether the bitboards are disjoint and inside the 100 squares.
    pub fn is_consistent(&self) -> bool {
        let all = self.fish[0].0 | self.fish[1].0 | self.kraken.0;
        all & !BOARD_MASK == 0
            && self.fish[0].0 & self.fish[1].0 == 0
            && (self.fish[0].0 | self.fish[1].0) & self.kraken.0 == 0
    }
}

impl fmt::Display for Board {
    /// A Unicode diagram, row 9 at the top: `●` red, `○` blue, `▒` Kraken, `·` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "   ┌─────────────────────┐")?;
        for y in (0..10).rev() {
            write!(f, " {y} │")?;
            for x in 0..10 {
                let c = match self.get(x, y) {
                    Field::Red => '●',
                    Field::Blue => '○',
                    Field::Obstructed => '▒',
                    Field::Empty => '·',
                };
                write!(f, " {c}")?;
            }
            writeln!(f, " │")?;
        }
        writeln!(f, "   └─────────────────────┘")?;
        write!(f, "     0 1 2 3 4 5 6 7 8 9   ● RED  ○ BLUE  ▒ Kraken")
    }
}
