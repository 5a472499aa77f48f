//! One player interface for every game: an [`Agent`] is asked to [`Agent::choose`] from a
//! [`View`] under a [`TimeControl`] and answers a [`Decision`]: the action plus what its search
//! knows (score, depth, nodes, principal variation, time used), so the arena, `kibitz play`, the
//! bot clients and the viewer can all show and record the same numbers.
//!
//! A [`View`] is one seat's window on a position: it hands out only what that seat may see
//! ([`Game::observation`], the legal actions when the seat moves, and determinizations), so an
//! agent of a hidden-information game cannot peek by construction. For perfect-information
//! games the observation is the position itself.
//!
//! ```
//! use kibitz_search::agent::{Agent, RandomAgent, View};
//! use kibitz_search::game::Game;
//! use kibitz_search::time::TimeControl;
//! # use kibitz_search::game::{GameError, Turn, Utility};
//! # #[derive(Clone, Debug, PartialEq, Eq, Hash)]
//! # struct Nim { left: u8, mover: usize }
//! # impl Game for Nim {
//! #     type Action = u8; type Config = (); type Observation = Nim;
//! #     const NAME: &'static str = "nim"; const PERFECT_INFORMATION: bool = true;
//! #     fn new_game(_: &(), _: u64) -> Nim { Nim { left: 5, mover: 0 } }
//! #     fn seats(&self) -> usize { 2 }
//! #     fn turn(&self) -> Turn { if self.left == 0 { Turn::Terminal } else { Turn::Seat(self.mover) } }
//! #     fn legal_actions(&self) -> Vec<u8> { (1..=self.left.min(2)).collect() }
//! #     fn apply(&mut self, a: &u8) -> Result<(), GameError> {
//! #         if !self.legal_actions().contains(a) { return Err(GameError::illegal(a)); }
//! #         self.left -= a; if self.left > 0 { self.mover ^= 1; } Ok(())
//! #     }
//! #     fn returns(&self) -> Vec<f64> { vec![0.0, 0.0] }
//! #     fn utility(&self) -> Utility { Utility::ZeroSum }
//! #     fn return_bounds(&self) -> (f64, f64) { (-1.0, 1.0) }
//! #     fn action_to_string(&self, a: &u8) -> String { a.to_string() }
//! #     fn action_from_string(&self, s: &str) -> Result<u8, GameError> { s.parse().map_err(|_| GameError::decode(s, "")) }
//! #     fn observation(&self, _: usize) -> Nim { self.clone() }
//! #     fn determinize<R: rand::Rng + ?Sized>(&self, _: usize, _: &mut R) -> Nim { self.clone() }
//! # }
//! let mut game = Nim::new_game(&(), 0);
//! let mut agents = [RandomAgent::new(1), RandomAgent::new(2)];
//! while let Some(seat) = View::mover(&game) {
//!     let decision = agents[seat].choose(&View::new(&game, seat), &TimeControl::infinite());
//!     game.apply(&decision.action).unwrap();
//! }
//! assert!(game.is_terminal());
//! ```

use crate::game::{Game, Turn};
use crate::time::TimeControl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// What an agent chose and what its search knows about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision<A> {
    /// The action to play (one of the view's legal actions).
    pub action: A,
    /// The search's value of the position for the mover, in the engine's own unit (centi-pawn
    /// like for alpha-beta, a win rate for MCTS); `None` when the agent does not evaluate.
    pub score: Option<f64>,
    /// Depth of the last completed iteration (alpha-beta) or of the tree; `None` if none.
    pub depth: Option<u32>,
    /// Nodes, iterations or play-outs spent.
    pub nodes: u64,
    /// The expected line of play, starting with `action` (empty if unknown).
    pub pv: Vec<A>,
    /// Time the decision took, read from the [`TimeControl`] it was given.
    pub elapsed: Duration,
}

impl<A> Decision<A> {
    /// A decision that carries only its action (players without a search).
    pub fn action(action: A) -> Decision<A> {
        Decision {
            action,
            score: None,
            depth: None,
            nodes: 0,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }
}

/// One seat's window on a position: the observation, and the legal actions when it moves.
#[derive(Clone, Copy, Debug)]
pub struct View<'a, G: Game> {
    state: &'a G,
    seat: usize,
}

impl<'a, G: Game> View<'a, G> {
    /// `seat`'s view of `state` (the referee builds it; the agent never sees `state`).
    pub fn new(state: &'a G, seat: usize) -> View<'a, G> {
        View { state, seat }
    }

    /// The seat to move in `state`, if a seat moves (not at chance nodes or the end).
    pub fn mover(state: &G) -> Option<usize> {
        match state.turn() {
            Turn::Seat(s) => Some(s),
            _ => None,
        }
    }

    /// The seat this view belongs to.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        self.state.seats()
    }

    /// Who acts next (public in every game).
    pub fn turn(&self) -> Turn {
        self.state.turn()
    }

    /// What the seat sees.
    pub fn observation(&self) -> G::Observation {
        self.state.observation(self.seat)
    }

    /// The seat's legal actions when it is to move; empty otherwise.
    pub fn legal_actions(&self) -> Vec<G::Action> {
        if self.state.turn() == Turn::Seat(self.seat) {
            self.state.legal_actions()
        } else {
            Vec::new()
        }
    }

    /// A full position consistent with what the seat sees ([`Game::determinize`]).
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> G {
        self.state.determinize(self.seat, rng)
    }

    /// The record text of an action ([`Game::action_to_string`]).
    pub fn action_to_string(&self, action: &G::Action) -> String {
        self.state.action_to_string(action)
    }
}

/// A player of game `G`: the one interface the arena, `kibitz play`, the tournament and the
/// bot clients drive.
///
/// Contract: [`Agent::choose`] is called only when `view`'s seat is to move, returns one of
/// `view.legal_actions()`, and respects `clock` (no new work after the soft time, an answer by
/// the hard time). It never panics.
pub trait Agent<G: Game> {
    /// A name for standings and records.
    fn name(&self) -> String;

    /// A new game starts; `seed` makes any randomness of the agent reproducible.
    fn new_game(&mut self, _seat: usize, _seed: u64) {}

    /// `actor` played `action` (called for every action, the agent's own included, with the
    /// agent's view after it). Agents that track beliefs update them here.
    fn observe(&mut self, _view: &View<'_, G>, _actor: Turn, _action: &G::Action) {}

    /// The action for `view`'s seat, with what the search knows.
    fn choose(&mut self, view: &View<'_, G>, clock: &TimeControl) -> Decision<G::Action>;
}

/// Uniformly random legal actions: the baseline every game has.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random agent seeded with `seed`.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn new_game(&mut self, seat: usize, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(crate::seed::mix(seed, seat as u64));
    }

    /// A uniformly random legal action. The view must have one (the contract); if it has
    /// none this panics with a message naming the broken contract.
    fn choose(&mut self, view: &View<'_, G>, clock: &TimeControl) -> Decision<G::Action> {
        let legal = view.legal_actions();
        assert!(
            !legal.is_empty(),
            "Agent::choose called for seat {} that is not to move",
            view.seat()
        );
        let action = legal[self.rng.random_range(0..legal.len())].clone();
        Decision {
            elapsed: clock.elapsed(),
            nodes: 1,
            ..Decision::action(action)
        }
    }
}
