//! Mau-Mau as a [`kibitz_search::game::Game`]: a thin wrapper over the server's state machine
//! ([`Game`]), seen from the players' side.
//!
//! - **Turns.** The wrapper runs [`Game::begin_turn`] itself (skips and draw-twos are the
//!   server's doing), so the position always waits for a seat's answer or is over. Like the
//!   arena, it ends the game at [`MAX_TURNS`] begun turns ([`Game::end_by_turn_cap`]).
//! - **Chance.** The deal comes from `new_game`'s seed; reshuffles draw from a generator seeded
//!   by a hidden seed and the turn number, so a position (with its seed) plays out the same
//!   every time. The seed is part of the hidden state: a determinization draws a new one.
//! - **Actions** are the legal plays ([`Game::legal_plays`]: a wishing Jack once per suit, any
//!   other card with the wish `Pik`, which the server ignores) and drawing. Written `draw`,
//!   `play:N` or, for a wishing Jack, `play:N:W` (card and suit by wire number).
//! - **Returns.** The winner +1, every other seat −1 / (seats − 1).
//! - **Observation.** A seat sees its own hand, every hand's size, the pile (every card played
//!   since the last reshuffle), the talon's size, the wish, pending 7s and 8s, whose turn it
//!   is, the legal-play counts and the turn number; not the other hands, the talon's order or
//!   the seed. A determinization deals the unseen cards at random into the other hands and the
//!   talon (uniform: the engine's card tracker and sampler do better, this is the baseline).

use crate::arena::MAX_TURNS;
use crate::cards::{Card, CardSet, Suit};
use crate::game::Game;
use crate::turn::{Action, Config, GameEnd, Phase, MAX_PLAYERS};
use kibitz_search::game::{Game as GameTrait, GameError, Turn, Utility};
use kibitz_search::seed::mix;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hash::{Hash, Hasher};

/// The legal actions of a mover holding the legal cards `plays` on `top`: each card once with
/// the wish `Pik` (which the server ignores), a Jack laid on a non-Jack once per wish, then
/// drawing. [`MauMau`]'s `legal_actions` and a bot client's seen view
/// ([`crate::agents::seen`]) both list them so.
pub fn legal_answers(plays: CardSet, top: Card) -> Vec<Action> {
    let mut out = Vec::new();
    for card in plays.iter() {
        if card.is_jack() && !top.is_jack() {
            out.extend(Suit::ALL.map(|wish| Action::Play { card, wish }));
        } else {
            out.push(Action::Play {
                card,
                wish: Suit::Pik,
            });
        }
    }
    out.push(Action::Draw);
    out
}

/// A Mau-Mau position seen through the [`kibitz_search::game::Game`] trait.
#[derive(Clone, Debug)]
pub struct MauMau {
    game: Game,
    /// Hidden: seeds the reshuffles (with the turn number).
    seed: u64,
    /// Turns begun (the wrapper's count; [`Game::turns`] restarts in a rebuilt state).
    turns: u32,
}

/// Everything the [`MauMau`] position is, as comparable values.
#[derive(PartialEq, Eq, Hash)]
struct Key {
    hands: Vec<u32>,
    talon: Vec<u8>,
    pile: Vec<u8>,
    wish: Option<u8>,
    pending: Vec<(bool, bool, bool)>,
    played: Vec<u16>,
    turn: usize,
    phase: (u8, usize),
    seed: u64,
    turns: u32,
}

fn phase_code(p: Phase) -> (u8, usize) {
    match p {
        Phase::BeginTurn => (0, 0),
        Phase::Answer(s) => (1, s),
        Phase::Over(GameEnd::Emptied(s)) => (2, s),
        Phase::Over(GameEnd::Exhausted(s)) => (3, s),
        Phase::Over(GameEnd::LastOnline(s)) => (4, s),
        Phase::Over(GameEnd::TurnCap(s)) => (5, s),
    }
}

/// What one seat of a [`MauMau`] game sees (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MauMauView {
    /// The seat that sees this.
    pub seat: usize,
    /// Its hand.
    pub hand: CardSet,
    /// Every seat's hand size.
    pub hand_sizes: Vec<usize>,
    /// The pile, top card last.
    pub pile: Vec<Card>,
    /// Cards left in the talon.
    pub talon_len: usize,
    /// The wish in force.
    pub wish: Option<Suit>,
    /// Per seat: pending 8, pending 7, online.
    pub pending: Vec<(bool, bool, bool)>,
    /// Per seat: cards legally played.
    pub played: Vec<u16>,
    /// Whose turn it is and where the game stands.
    pub phase: Phase,
    /// Turns begun.
    pub turns: u32,
}

impl MauMau {
    /// Wraps a state machine (any phase; a pending turn start is run at once). `seed` seeds
    /// the reshuffles, `turns` is the number of turns already begun.
    pub fn from_game(game: Game, seed: u64, turns: u32) -> MauMau {
        let mut m = MauMau { game, seed, turns };
        m.advance();
        m
    }

    /// The server's state machine.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn rng(&self, step: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(mix(self.seed, (self.turns as u64) << 1 | step))
    }

    /// Runs turn starts until a seat must answer or the game is over.
    fn advance(&mut self) {
        while self.game.phase() == Phase::BeginTurn {
            if self.turns >= MAX_TURNS {
                self.game.end_by_turn_cap();
                break;
            }
            let mut rng = self.rng(0);
            if self.game.begin_turn(&mut rng).is_err() {
                break;
            }
            self.turns += 1;
        }
    }

    fn key(&self) -> Key {
        let g = &self.game;
        let n = g.players();
        Key {
            hands: (0..n).map(|s| g.hand(s).0).collect(),
            talon: g.talon().iter().map(|c| c.index()).collect(),
            pile: g.pile().iter().map(|c| c.index()).collect(),
            wish: g.wish().map(Suit::index),
            pending: self.pending(),
            played: (0..n).map(|s| g.valid_moves(s)).collect(),
            turn: g.turn(),
            phase: phase_code(g.phase()),
            seed: self.seed,
            turns: self.turns,
        }
    }

    fn pending(&self) -> Vec<(bool, bool, bool)> {
        let g = &self.game;
        (0..g.players())
            .map(|s| (g.pending_skip(s), g.pending_draw_two(s), g.is_online(s)))
            .collect()
    }

    fn mover(&self) -> Option<usize> {
        match self.game.phase() {
            Phase::Answer(s) => Some(s),
            _ => None,
        }
    }
}

impl PartialEq for MauMau {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for MauMau {}

impl Hash for MauMau {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

impl GameTrait for MauMau {
    type Action = Action;
    type Config = Config;
    type Observation = MauMauView;
    type Event = crate::knowledge::Notice;
    const NAME: &'static str = "maumau";
    const PERFECT_INFORMATION: bool = false;

    fn new_game(config: &Config, seed: u64) -> Self {
        let game = Game::deal(*config, &mut ChaCha8Rng::seed_from_u64(seed));
        MauMau::from_game(game, mix(seed, 0x5EED), 0)
    }

    fn seats(&self) -> usize {
        self.game.players()
    }

    fn turn(&self) -> Turn {
        match self.game.phase() {
            Phase::Answer(s) => Turn::Seat(s),
            Phase::Over(_) => Turn::Terminal,
            // Never left here by `advance`; a failed turn start reads as over.
            Phase::BeginTurn => Turn::Terminal,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        let Some(seat) = self.mover() else {
            return Vec::new();
        };
        legal_answers(self.game.legal_plays(seat), self.game.top())
    }

    fn apply(&mut self, action: &Action) -> Result<(), GameError> {
        if self.mover().is_none() {
            return Err(GameError::Over);
        }
        if !self.legal_actions().contains(action) {
            return Err(GameError::illegal(action));
        }
        let mut rng = self.rng(1);
        self.game
            .act(*action, &mut rng)
            .map_err(|_| GameError::illegal(action))?;
        self.advance();
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        let n = self.game.players();
        match self.game.outcome() {
            None => vec![0.0; n],
            Some(end) => {
                let lose = -1.0 / (n - 1) as f64;
                (0..n)
                    .map(|s| if s == end.winner() { 1.0 } else { lose })
                    .collect()
            }
        }
    }

    fn utility(&self) -> Utility {
        Utility::ZeroSum
    }

    fn return_bounds(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }

    fn action_to_string(&self, action: &Action) -> String {
        match *action {
            Action::Draw => "draw".into(),
            Action::Play { card, wish } if card.is_jack() && !self.game.top().is_jack() => {
                format!("play:{}:{}", card.index(), wish.index())
            }
            Action::Play { card, .. } => format!("play:{}", card.index()),
        }
    }

    fn action_from_string(&self, text: &str) -> Result<Action, GameError> {
        if text == "draw" {
            return Ok(Action::Draw);
        }
        let bad = |why: &str| GameError::decode(text, why);
        let rest = text
            .strip_prefix("play:")
            .ok_or_else(|| bad("not draw or play:N[:W]"))?;
        let (card, wish) = match rest.split_once(':') {
            Some((c, w)) => (c, Some(w)),
            None => (rest, None),
        };
        let card = card
            .parse::<u8>()
            .ok()
            .and_then(Card::from_index)
            .ok_or_else(|| bad("card is not 0-31"))?;
        let wish = match wish {
            None => Suit::Pik,
            Some(w) => w
                .parse::<u8>()
                .ok()
                .and_then(Suit::from_index)
                .ok_or_else(|| bad("wish is not 0-3"))?,
        };
        Ok(Action::Play { card, wish })
    }

    fn observation(&self, seat: usize) -> MauMauView {
        let g = &self.game;
        let n = g.players();
        MauMauView {
            seat,
            hand: if seat < n {
                g.hand(seat)
            } else {
                CardSet::EMPTY
            },
            hand_sizes: (0..n).map(|s| g.hand_size(s)).collect(),
            pile: g.pile().to_vec(),
            talon_len: g.talon_len(),
            wish: g.wish(),
            pending: self.pending(),
            played: (0..n).map(|s| g.valid_moves(s)).collect(),
            phase: g.phase(),
            turns: self.turns,
        }
    }

    /// Deals the cards `seat` cannot see (the other hands and the talon) at random; keeps the
    /// rest. A finished game is returned as it is (nothing is hidden any more that matters).
    fn determinize<R: Rng + ?Sized>(&self, seat: usize, rng: &mut R) -> MauMau {
        let g = &self.game;
        let n = g.players();
        let (Some(mover), true) = (self.mover(), seat < n) else {
            return self.clone();
        };
        let seen = g
            .hand(seat)
            .union(CardSet::from_cards(g.pile().iter().copied()));
        let mut unseen: Vec<Card> = Card::all().filter(|&c| !seen.contains(c)).collect();
        unseen.shuffle(rng);
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        let mut next = unseen.into_iter();
        for (s, hand) in hands.iter_mut().enumerate().take(n) {
            *hand = if s == seat {
                g.hand(seat)
            } else {
                next.by_ref().take(g.hand_size(s)).collect()
            };
        }
        let talon: Vec<Card> = next.collect();
        let mask = |f: &dyn Fn(usize) -> bool| (0..n).fold(0u8, |m, s| m | (f(s) as u8) << s);
        let mut game = Game::from_parts(
            g.config(),
            &hands[..n],
            &talon,
            g.pile(),
            g.wish(),
            mask(&|s| g.pending_skip(s)),
            mask(&|s| g.pending_draw_two(s)),
            mover,
        );
        let mut played = [0; MAX_PLAYERS];
        for (s, p) in played.iter_mut().enumerate().take(n) {
            *p = g.valid_moves(s);
        }
        game.set_valid_moves(played);
        game.start_answer(mover);
        for s in (0..n).filter(|&s| !g.is_online(s)) {
            game.drop_seat(s);
        }
        MauMau {
            game,
            seed: rng.random(),
            turns: self.turns,
        }
    }
}
