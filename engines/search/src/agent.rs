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
//! #     type Action = u8; type Config = (); type Observation = Nim; type Event = kibitz_search::agent::Played<u8>;
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
    /// Further numbers the search reports, by name (visits of the chosen action, candidate
    /// answers compared, sampled worlds), for records and logs.
    pub stats: Vec<(&'static str, f64)>,
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
            stats: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }
}

/// Who did what: the [`Game::Event`] of a perfect-information game, where every seat sees
/// every action.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Played<A> {
    /// The seat that acted, or [`Turn::Chance`] for a chance outcome.
    pub actor: Turn,
    /// What it played.
    pub action: A,
}

/// What a seat knows when no referee's state is at hand (a bot client that only hears the
/// server): whose turn it is, the observation and the legal actions. [`View::seen`] wraps it.
#[derive(Clone, Debug)]
pub struct Seen<G: Game> {
    /// Number of seats.
    pub seats: usize,
    /// Who acts next.
    pub turn: Turn,
    /// What the seat sees.
    pub observation: G::Observation,
    /// The seat's legal actions when it is to move (empty otherwise).
    pub legal: Vec<G::Action>,
}

#[derive(Clone, Debug)]
enum Source<'a, G: Game> {
    State(&'a G),
    Seen(Box<Seen<G>>),
}

/// One seat's window on a position: the observation, and the legal actions when it moves.
///
/// A referee (the arena, `kibitz play`) builds it from the full position with [`View::new`];
/// a bot client, which knows only what the server told it, builds it with [`View::seen`].
/// Either way an agent sees exactly its seat's observation.
#[derive(Clone, Debug)]
pub struct View<'a, G: Game> {
    source: Source<'a, G>,
    seat: usize,
}

impl<'a, G: Game> View<'a, G> {
    /// `seat`'s view of `state` (the referee builds it; the agent never sees `state`).
    pub fn new(state: &'a G, seat: usize) -> View<'a, G> {
        View {
            source: Source::State(state),
            seat,
        }
    }

    /// `seat`'s view built from what the seat was told ([`Seen`]), for clients without the
    /// referee's state. Such a view cannot [`View::determinize`]; agents of hidden-information
    /// games sample from their own beliefs (fed by [`Agent::observe`]).
    pub fn seen(seat: usize, seen: Seen<G>) -> View<'static, G> {
        View {
            source: Source::Seen(Box::new(seen)),
            seat,
        }
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
        match &self.source {
            Source::State(s) => s.seats(),
            Source::Seen(s) => s.seats,
        }
    }

    /// Who acts next (public in every game).
    pub fn turn(&self) -> Turn {
        match &self.source {
            Source::State(s) => s.turn(),
            Source::Seen(s) => s.turn,
        }
    }

    /// What the seat sees.
    pub fn observation(&self) -> G::Observation {
        match &self.source {
            Source::State(s) => s.observation(self.seat),
            Source::Seen(s) => s.observation.clone(),
        }
    }

    /// The seat's legal actions when it is to move; empty otherwise.
    pub fn legal_actions(&self) -> Vec<G::Action> {
        if self.turn() != Turn::Seat(self.seat) {
            return Vec::new();
        }
        match &self.source {
            Source::State(s) => s.legal_actions(),
            Source::Seen(s) => s.legal.clone(),
        }
    }

    /// A full position consistent with what the seat sees ([`Game::determinize`]); `None` for
    /// a view built from [`Seen`], which has no referee's state to sample from.
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<G> {
        match &self.source {
            Source::State(s) => Some(s.determinize(self.seat, rng)),
            Source::Seen(_) => None,
        }
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

    /// A new game starts with this agent at `seat`; `seed` makes any randomness of the agent
    /// reproducible.
    fn new_game(&mut self, _seat: usize, _seed: u64) {}

    /// What the seat is told as the game moves on ([`Game::Event`]), in the order the referee
    /// or the server tells it, the agent's own actions included. Agents that track beliefs
    /// update them here; the default ignores it.
    fn observe(&mut self, _event: &G::Event) {}

    /// The action for `view`'s seat, with what the search knows.
    fn choose(&mut self, view: &View<'_, G>, clock: &TimeControl) -> Decision<G::Action>;

    /// Thinks on the opponent's time (pondering): `view` is the position after this agent's
    /// own move, another seat to move. Only warms what the next [`Agent::choose`] reuses (a
    /// search's tables); it decides nothing and changes nothing the agent was told. Returns
    /// once `clock` is stopped or spent, promptly after [`TimeControl::stop`] (a client stops
    /// it when the next request arrives). The default does nothing.
    fn ponder(&mut self, _view: &View<'_, G>, _clock: &TimeControl) {}
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameError, Utility};

    /// Take 1 or 2; a hidden coin nobody plays with makes the observation smaller than the
    /// state, so a view cannot be mistaken for the state.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Pile {
        left: u8,
        mover: usize,
        coin: bool,
    }

    impl Game for Pile {
        type Action = u8;
        type Config = ();
        type Observation = u8;
        type Event = Played<u8>;
        const NAME: &'static str = "pile";
        const PERFECT_INFORMATION: bool = false;
        fn new_game(_: &(), seed: u64) -> Pile {
            Pile {
                left: 4,
                mover: 0,
                coin: seed % 2 == 1,
            }
        }
        fn seats(&self) -> usize {
            2
        }
        fn turn(&self) -> Turn {
            if self.left == 0 {
                Turn::Terminal
            } else {
                Turn::Seat(self.mover)
            }
        }
        fn legal_actions(&self) -> Vec<u8> {
            (1..=self.left.min(2)).collect()
        }
        fn apply(&mut self, a: &u8) -> Result<(), GameError> {
            if !self.legal_actions().contains(a) {
                return Err(GameError::illegal(a));
            }
            self.left -= a;
            self.mover ^= 1;
            Ok(())
        }
        fn returns(&self) -> Vec<f64> {
            vec![0.0, 0.0]
        }
        fn utility(&self) -> Utility {
            Utility::ZeroSum
        }
        fn return_bounds(&self) -> (f64, f64) {
            (-1.0, 1.0)
        }
        fn action_to_string(&self, a: &u8) -> String {
            a.to_string()
        }
        fn action_from_string(&self, s: &str) -> Result<u8, GameError> {
            s.parse().map_err(|_| GameError::decode(s, "not a number"))
        }
        fn observation(&self, _: usize) -> u8 {
            self.left
        }
        fn determinize<R: Rng + ?Sized>(&self, _: usize, rng: &mut R) -> Pile {
            Pile {
                coin: rng.random(),
                ..self.clone()
            }
        }
    }

    #[test]
    fn a_seen_view_answers_like_the_referees_view_but_cannot_determinize() {
        let state = Pile::new_game(&(), 1);
        let seen = Seen::<Pile> {
            seats: 2,
            turn: state.turn(),
            observation: state.observation(0),
            legal: state.legal_actions(),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        for seat in 0..2 {
            let referee = View::new(&state, seat);
            let client = View::seen(seat, seen.clone());
            assert_eq!(referee.turn(), client.turn());
            assert_eq!(referee.seats(), client.seats());
            assert_eq!(referee.observation(), client.observation());
            assert_eq!(referee.legal_actions(), client.legal_actions());
            assert!(referee.determinize(&mut rng).is_some());
            assert!(client.determinize(&mut rng).is_none());
        }
        // Only the mover has legal actions.
        assert_eq!(View::new(&state, 1).legal_actions(), Vec::<u8>::new());
        assert_eq!(View::new(&state, 0).legal_actions(), vec![1, 2]);
    }

    /// Counts the events it is told.
    struct Counter(std::rc::Rc<std::cell::Cell<usize>>);

    impl Agent<Pile> for Counter {
        fn name(&self) -> String {
            "counter".into()
        }
        fn observe(&mut self, _: &Played<u8>) {
            self.0.set(self.0.get() + 1);
        }
        fn choose(&mut self, view: &View<'_, Pile>, _: &TimeControl) -> Decision<u8> {
            Decision::action(view.legal_actions()[0])
        }
    }

    #[test]
    fn agents_are_told_every_event_and_play_through_a_trait_object() {
        let mut state = Pile::new_game(&(), 0);
        let told = std::rc::Rc::new(std::cell::Cell::new(0));
        let mut agents: Vec<Box<dyn Agent<Pile>>> = vec![
            Box::new(Counter(told.clone())),
            Box::new(RandomAgent::new(7)),
        ];
        let mut plies = 0;
        while let Some(seat) = View::mover(&state) {
            let d = agents[seat].choose(&View::new(&state, seat), &TimeControl::infinite());
            state.apply(&d.action).unwrap();
            for a in agents.iter_mut() {
                a.observe(&Played {
                    actor: Turn::Seat(seat),
                    action: d.action,
                });
            }
            plies += 1;
        }
        assert!(state.is_terminal());
        assert_eq!(agents[0].name(), "counter");
        assert!(plies >= 2);
        assert_eq!(told.get(), plies, "one event per ply, own moves included");
    }
}
