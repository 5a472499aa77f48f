//! A game position: board, turn counter and Zobrist hash; applying and validating moves.

use crate::bitboard::{Bitboard, LINES, TABLES};
use crate::board::{Board, Color, Field, Move};
use crate::error::{ParseError, RuleError};
use crate::zobrist::KEYS;
use std::fmt;

/// The last turn: after 60 moves (30 per colour) the round limit decides.
pub const MAX_TURN: u8 = 60;

/// A position: the board plus the turn counter (RED moves on even turns, BLUE on odd turns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    board: Board,
    turn: u8,
    hash: u64,
    /// Fish of both colours per line (see `Tables::line_id`): the move distances.
    lines: [u8; LINES],
    /// Per colour: (Σ x, Σ y) of its fish, for centre-of-mass terms.
    sums: [[u16; 2]; 2],
    /// Per colour: the number of fish (a popcount is a bit trick on baseline x86-64).
    counts: [u8; 2],
}

impl State {
    /// The start position (turn 0, RED to move) with the Kraken on the given squares.
    pub fn start(krakens: [(u8, u8); 2]) -> State {
        State::from_board(Board::start(krakens), 0).expect("start board is consistent")
    }

    /// A position from a board and a turn (0..=60); the side to move follows from the turn.
    pub fn from_board(board: Board, turn: u32) -> Result<State, ParseError> {
        if turn > MAX_TURN as u32 {
            return Err(ParseError::Turn(turn));
        }
        if !board.is_consistent() {
            return Err(ParseError::Inconsistent);
        }
        let mut s = State {
            board,
            turn: turn as u8,
            hash: 0,
            lines: [0; LINES],
            sums: [[0; 2]; 2],
            counts: [board.fish[0].count() as u8, board.fish[1].count() as u8],
        };
        s.hash = s.compute_hash();
        for c in 0..2 {
            for sq in board.fish[c].iter() {
                for id in TABLES.line_id[sq] {
                    s.lines[id as usize] += 1;
                }
                s.sums[c][0] += (sq % 10) as u16;
                s.sums[c][1] += (sq / 10) as u16;
            }
        }
        Ok(s)
    }

    /// A position from the data files' 100-character board string and a turn.
    pub fn from_letters(board: &str, turn: u32) -> Result<State, ParseError> {
        State::from_board(Board::from_letters(board)?, turn)
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Moves made so far (0..=60).
    #[inline]
    pub fn turn(&self) -> u32 {
        self.turn as u32
    }

    /// The round, turn / 2.
    #[inline]
    pub fn round(&self) -> u32 {
        self.turn as u32 / 2
    }

    /// The colour to move.
    #[inline]
    pub fn current(&self) -> Color {
        if self.turn & 1 == 0 {
            Color::Red
        } else {
            Color::Blue
        }
    }

    /// The Zobrist hash (board, Kraken, turn).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = KEYS.turn[self.turn as usize & 63];
        for c in 0..2 {
            for sq in self.board.fish[c].iter() {
                h ^= KEYS.fish[c][sq];
            }
        }
        for sq in self.board.kraken.iter() {
            h ^= KEYS.kraken[sq];
        }
        h
    }

    /// The move distance of the piece on `sq` along the line of `dir`: fish of both colours
    /// on the whole line, the moving fish included, Kraken not counted (rule M1). An empty
    /// square has a distance too.
    #[inline]
    pub fn distance(&self, sq: usize, dir: crate::board::Direction) -> u32 {
        self.lines[TABLES.line_id[sq & 127][dir.line_kind() & 3] as usize & 63] as u32
    }

    /// Fish of both colours on the line of kind `kind` (0 column, 1 row, 2 rising, 3 falling)
    /// through `sq`.
    #[inline]
    pub(crate) fn line_count(&self, sq: usize, kind: usize) -> u32 {
        self.lines[TABLES.line_id[sq & 127][kind & 3] as usize & 63] as u32
    }

    /// Fish of both colours on line `id` (see `Tables::line_id`; ids 58..63 hold 0).
    #[inline]
    pub(crate) fn line_count_by_id(&self, id: usize) -> u32 {
        self.lines[id & 63] as u32
    }

    /// Number of fish of `c`.
    #[inline]
    pub fn fish_count(&self, c: Color) -> u32 {
        self.counts[c as usize] as u32
    }

    /// (Σ x, Σ y) over the fish of `c` (with the fish count: the centre of mass).
    #[inline]
    pub fn coordinate_sums(&self, c: Color) -> (u32, u32) {
        let s = self.sums[c as usize];
        (s[0] as u32, s[1] as u32)
    }

    /// Checks `mv` for the side to move in the official server's order (rule M2) and returns
    /// the target square.
    pub fn check(&self, mv: Move) -> Result<usize, RuleError> {
        let sq = mv.square().ok_or(RuleError::OutOfRange)?;
        let me = self.current() as usize;
        if !self.board.fish[me].has(sq) {
            return Err(RuleError::NotOwnFish);
        }
        let dir = mv.direction;
        let d = self.distance(sq, dir);
        if d > TABLES.steps[dir as usize][sq] as u32 {
            return Err(RuleError::OffBoard);
        }
        let target = (sq as i32 + d as i32 * dir.offset()) as usize;
        let path = TABLES.ray[dir as usize][sq] ^ TABLES.ray[dir as usize][target] ^ (1 << target);
        if path & self.board.fish[1 - me].0 != 0 {
            return Err(RuleError::PathBlocked);
        }
        if self.board.fish[me].has(target) {
            return Err(RuleError::OwnFish);
        }
        if self.board.kraken.has(target) {
            return Err(RuleError::Kraken);
        }
        Ok(target)
    }

    /// Whether `mv` is legal for the side to move.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// The position after `mv`, or the rule it breaks. Does not look at whether the game is
    /// already over (the caller — server or search — decides that with [`State::result`]).
    pub fn apply(&self, mv: Move) -> Result<State, RuleError> {
        let target = self.check(mv)?;
        Ok(self.make(mv.square().unwrap_or(0), target))
    }

    /// Applies a move known to be legal, given as start and target square.
    #[inline]
    pub(crate) fn make(&self, from: usize, to: usize) -> State {
        let me = self.current() as usize;
        let mut s = *self;
        let to_bit = Bitboard::square(to);
        s.board.fish[me] ^= Bitboard::square(from) | to_bit;
        s.hash ^= KEYS.fish[me][from] ^ KEYS.fish[me][to];
        let (fx, fy, tx, ty) = (from % 10, from / 10, to % 10, to / 10);
        s.sums[me][0] = s.sums[me][0] + tx as u16 - fx as u16;
        s.sums[me][1] = s.sums[me][1] + ty as u16 - fy as u16;
        for id in TABLES.line_id[from & 127] {
            s.lines[id as usize & 63] -= 1;
        }
        if s.board.fish[1 - me].has(to) {
            s.board.fish[1 - me] ^= to_bit;
            s.hash ^= KEYS.fish[1 - me][to];
            s.sums[1 - me][0] -= tx as u16;
            s.sums[1 - me][1] -= ty as u16;
            s.counts[1 - me] -= 1;
        } else {
            for id in TABLES.line_id[to & 127] {
                s.lines[id as usize & 63] += 1;
            }
        }
        s.hash ^= KEYS.turn[s.turn as usize & 63] ^ KEYS.turn[(s.turn as usize + 1) & 63];
        s.turn = s.turn.saturating_add(1);
        s
    }

    /// The same board with the other side to move (a pass; not a legal move in the game, used
    /// by the evaluation and null-move pruning).
    pub fn pass(&self) -> State {
        let mut s = *self;
        s.hash ^= KEYS.turn[s.turn as usize & 63] ^ KEYS.turn[(s.turn as usize + 1) & 63];
        s.turn = s.turn.saturating_add(1);
        s
    }

    /// What (x, y) holds (both below 10).
    pub fn field(&self, x: usize, y: usize) -> Field {
        self.board.get(x, y)
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A finished game says how it ended, not whose move it would be.
        match self.outcome() {
            Some(end) => writeln!(
                f,
                "turn {} (round {}), over: {end}",
                self.turn,
                self.round()
            )?,
            None => writeln!(
                f,
                "turn {} (round {}), {} to move",
                self.turn,
                self.round(),
                self.current()
            )?,
        }
        write!(f, "{}", self.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Direction;

    fn m(x: i8, y: i8, d: Direction) -> Move {
        Move::new(x, y, d)
    }

    #[test]
    fn a_finished_game_says_how_it_ended_not_who_moves() {
        // Two red fish side by side, one blue fish: RED's swarm is united.
        let mut b = Board::empty();
        b.set(0, 0, crate::board::Field::Red);
        b.set(1, 0, crate::board::Field::Red);
        b.set(5, 5, crate::board::Field::Blue);
        let over = State::from_board(b, 2).unwrap();
        assert!(over.outcome().is_some());
        let text = over.to_string();
        let head = text.lines().next().unwrap();
        assert!(
            head.contains("over: ") && !head.contains("to move"),
            "{head}"
        );
    }

    #[test]
    fn every_rule_error_in_server_order() {
        let s = State::start([(3, 3), (6, 7)]);
        assert_eq!(s.apply(m(10, 1, Direction::Up)), Err(RuleError::OutOfRange));
        assert_eq!(s.apply(m(-1, 1, Direction::Up)), Err(RuleError::OutOfRange));
        assert_eq!(s.apply(m(1, 0, Direction::Up)), Err(RuleError::NotOwnFish));
        assert_eq!(s.apply(m(5, 5, Direction::Up)), Err(RuleError::NotOwnFish));
        // (0,1) LEFT: distance 2 leaves the board.
        assert_eq!(s.apply(m(0, 1, Direction::Left)), Err(RuleError::OffBoard));
        // (0,2) UP: column has 8 fish, target (0,10) is off the board too.
        assert_eq!(s.apply(m(0, 2, Direction::Up)), Err(RuleError::OffBoard));
        // (0,1) DOWN_RIGHT: distance 2 ((0,1),(1,0)) -> (2,-1) off board.
        assert_eq!(
            s.apply(m(0, 1, Direction::DownRight)),
            Err(RuleError::OffBoard)
        );
        // (0,3) RIGHT: row 3 has (0,3),(9,3) = 2 -> (2,3) empty: legal.
        assert!(s.apply(m(0, 3, Direction::Right)).is_ok());
        // (0,3) RIGHT onto the Kraken needs distance 3; build it: red on (0,3),(1,3),(9,3).
        let mut b = *s.board();
        b.set(1, 3, crate::board::Field::Red);
        let k = State::from_board(b, 0).unwrap();
        assert_eq!(k.apply(m(0, 3, Direction::Right)), Err(RuleError::Kraken));
        // (1,3) DOWN: column 1 = (1,0),(1,3),(1,9) = 3 -> (1,0), a blue fish: capture.
        let cap = k.apply(m(1, 3, Direction::Down)).unwrap();
        assert_eq!(cap.fish_count(Color::Blue), 15);
        // (1,3) UP: 3 -> (1,6), but the path (1,3),(1,4),(1,5) is clear and the target empty.
        assert!(k.is_legal(m(1, 3, Direction::Up)));
        // Own fish on the target: red (0,0),(2,0): (0,0) RIGHT distance 2 -> (2,0).
        let mut c = Board::empty();
        c.set(0, 0, crate::board::Field::Red);
        c.set(2, 0, crate::board::Field::Red);
        let own = State::from_board(c, 0).unwrap();
        assert_eq!(
            own.apply(m(0, 0, Direction::Right)),
            Err(RuleError::OwnFish)
        );
        // Blue on (1,0) between them: the path is blocked before the own-fish check.
        c.set(1, 0, crate::board::Field::Blue);
        let blocked = State::from_board(c, 0).unwrap();
        assert_eq!(
            blocked.apply(m(0, 0, Direction::Right)),
            Err(RuleError::PathBlocked)
        );
    }

    #[test]
    fn display_draws_the_board() {
        let s = State::start([(3, 3), (6, 7)]);
        let text = s.to_string();
        assert_eq!(text.matches('●').count(), 16 + 1); // + legend
        assert_eq!(text.matches('○').count(), 16 + 1);
        assert_eq!(text.matches('▒').count(), 2 + 1);
        assert!(text.starts_with("turn 0 (round 0), RED to move"));
    }
}
