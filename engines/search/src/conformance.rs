//! Generic conformance test of a [`Game`] implementation, run on every game (OpenSpiel's
//! `basic_tests`): random play that checks the contract of [`crate::game`] at every position.
//!
//! An engine's `tests/conformance.rs` is one line:
//!
//! ```text
//! kibitz_search::conformance::random_play::<MyGame>(1, 50).unwrap();
//! ```
//!
//! What is checked, at every position of every game:
//! 1. turn and legal actions agree (terminal ⇔ no actions), seats in range, no duplicates;
//! 2. chance nodes list outcomes with probabilities > 0 summing to 1, equal to the legal actions;
//! 3. every legal action encodes to a non-empty string without whitespace and decodes to itself;
//! 4. a clone is equal and hashes equal; an action legal one ply ago but not now is refused
//!    without changing the position (or applied, for games that accept any answer);
//! 5. for every seat, a determinization has the same observation and turn, and the mover's
//!    determinization the same legal actions; for perfect-information games it is the position;
//!    a few random plies played on from it apply without error;
//! 6. returns are all zero before the end; at the end one per seat, within the bounds, summing
//!    as the utility says;
//! 7. the recorded action strings, decoded and replayed from a fresh `new_game`, reach an equal
//!    position with an equal hash and equal returns; `new_game` is deterministic.
//!
//! Failures are returned as a [`Violation`] naming the game, seed, ply and the rule broken.

use crate::game::{Game, Turn, Utility};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Longest game [`random_play`] accepts before calling it endless.
pub const MAX_PLIES: usize = 200_000;

/// Tolerance of probability and return sums.
const EPS: f64 = 1e-9;

/// A broken rule of the [`Game`] contract, with where it happened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game} (game seed {seed}, ply {ply}): {rule}")]
pub struct Violation {
    /// [`Game::NAME`].
    pub game: &'static str,
    /// The `new_game` seed of the failing game.
    pub seed: u64,
    /// Actions applied before the failing check.
    pub ply: usize,
    /// What went wrong.
    pub rule: String,
}

/// What [`random_play`] went through (to show that it did work).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games played to the end.
    pub games: usize,
    /// Actions applied in all games.
    pub plies: usize,
    /// Longest game in plies.
    pub longest: usize,
    /// Chance outcomes among the plies.
    pub chance_plies: usize,
    /// Determinizations checked.
    pub determinizations: usize,
}

/// Plays `games` random games of `G` under its default config and checks the contract at every
/// position (see the module docs). Game `i` uses `new_game` seed `seed + i`.
pub fn random_play<G: Game>(seed: u64, games: usize) -> Result<Stats, Violation> {
    random_play_with::<G>(&G::Config::default(), seed, games)
}

/// [`random_play`] under a given config.
pub fn random_play_with<G: Game>(
    config: &G::Config,
    seed: u64,
    games: usize,
) -> Result<Stats, Violation> {
    let mut stats = Stats::default();
    for i in 0..games {
        let game_seed = seed.wrapping_add(i as u64);
        play_one::<G>(config, game_seed, &mut stats)?;
        stats.games += 1;
    }
    Ok(stats)
}

fn hash_of<T: Hash>(t: &T) -> u64 {
    let mut h = DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

fn play_one<G: Game>(config: &G::Config, seed: u64, stats: &mut Stats) -> Result<(), Violation> {
    let mut ply = 0;
    let fail = |ply: usize, rule: String| Violation {
        game: G::NAME,
        seed,
        ply,
        rule,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(crate::seed::mix(seed, 0xC0F0_4E5A));
    let mut state = G::new_game(config, seed);
    let again = G::new_game(config, seed);
    if state != again || hash_of(&state) != hash_of(&again) {
        return Err(fail(0, "new_game with the same seed differs".into()));
    }
    let mut record: Vec<String> = Vec::new();
    let mut previous: Vec<G::Action> = Vec::new();
    loop {
        check_position(&state, &previous, &mut rng, stats).map_err(|r| fail(ply, r))?;
        let turn = state.turn();
        if turn == Turn::Terminal {
            break;
        }
        if ply >= MAX_PLIES {
            return Err(fail(ply, format!("no end after {MAX_PLIES} plies")));
        }
        let action = match turn {
            Turn::Chance => {
                stats.chance_plies += 1;
                sample_chance(&state.chance_outcomes(), &mut rng)
            }
            _ => {
                let legal = state.legal_actions();
                legal[rng.random_range(0..legal.len())].clone()
            }
        };
        record.push(state.action_to_string(&action));
        previous = state.legal_actions();
        if let Err(e) = state.apply(&action) {
            return Err(fail(ply, format!("legal action {action:?} refused: {e}")));
        }
        ply += 1;
    }
    stats.plies += ply;
    stats.longest = stats.longest.max(ply);
    // 7. Replay the record from a fresh start.
    let mut replay = G::new_game(config, seed);
    for (i, text) in record.iter().enumerate() {
        let action = replay
            .action_from_string(text)
            .map_err(|e| fail(i, format!("replay cannot read {text:?}: {e}")))?;
        replay
            .apply(&action)
            .map_err(|e| fail(i, format!("replay refuses {text:?}: {e}")))?;
    }
    if replay != state || hash_of(&replay) != hash_of(&state) {
        return Err(fail(
            ply,
            "the replayed record ends in another position".into(),
        ));
    }
    if replay.returns() != state.returns() {
        return Err(fail(
            ply,
            "the replayed record ends with other returns".into(),
        ));
    }
    Ok(())
}

fn sample_chance<A: Clone>(outcomes: &[(A, f64)], rng: &mut ChaCha8Rng) -> A {
    let mut x: f64 = rng.random();
    for (a, p) in outcomes {
        if x < *p {
            return a.clone();
        }
        x -= p;
    }
    outcomes[outcomes.len() - 1].0.clone()
}

/// Random plies played on from every determinization (it must be a game that goes on).
const DETERMINIZED_PLIES: usize = 3;

/// Plays up to `plies` random actions from `state`; an error if a legal one is refused.
fn play_on<G: Game>(mut state: G, plies: usize, rng: &mut ChaCha8Rng) -> Result<(), String> {
    for _ in 0..plies {
        let action = match state.turn() {
            Turn::Terminal => return Ok(()),
            Turn::Chance => match state.chance_outcomes() {
                o if o.is_empty() => return Err("a chance node without outcomes".into()),
                o => sample_chance(&o, rng),
            },
            Turn::Seat(_) => match state.legal_actions() {
                l if l.is_empty() => return Err("a seat to move without actions".into()),
                l => l[rng.random_range(0..l.len())].clone(),
            },
        };
        state
            .apply(&action)
            .map_err(|e| format!("legal {action:?} refused: {e}"))?;
    }
    Ok(())
}

/// Checks 1–6 at one position; `previous` are the legal actions one ply earlier.
fn check_position<G: Game>(
    state: &G,
    previous: &[G::Action],
    rng: &mut ChaCha8Rng,
    stats: &mut Stats,
) -> Result<(), String> {
    let seats = state.seats();
    if seats == 0 {
        return Err("no seats".into());
    }
    let turn = state.turn();
    let legal = state.legal_actions();
    // 1. Turn and legal actions.
    match turn {
        Turn::Terminal if !legal.is_empty() => {
            return Err(format!("terminal with {} legal actions", legal.len()))
        }
        Turn::Seat(_) | Turn::Chance if legal.is_empty() => {
            return Err(format!("{turn:?} but no legal action"))
        }
        Turn::Seat(s) if s >= seats => return Err(format!("seat {s} of {seats} to move")),
        _ => {}
    }
    if state.is_terminal() != (turn == Turn::Terminal) {
        return Err("is_terminal disagrees with turn".into());
    }
    let set: HashSet<&G::Action> = legal.iter().collect();
    if set.len() != legal.len() {
        return Err("duplicate legal actions".into());
    }
    // 2. Chance outcomes.
    let outcomes = state.chance_outcomes();
    if turn == Turn::Chance {
        let sum: f64 = outcomes.iter().map(|(_, p)| p).sum();
        if outcomes.iter().any(|(_, p)| p.is_nan() || *p <= 0.0) || (sum - 1.0).abs() > EPS {
            return Err(format!(
                "chance probabilities sum to {sum} or are not positive"
            ));
        }
        let actions: HashSet<&G::Action> = outcomes.iter().map(|(a, _)| a).collect();
        if actions != set {
            return Err("chance outcomes differ from the legal actions".into());
        }
    } else if !outcomes.is_empty() {
        return Err(format!("{turn:?} has chance outcomes"));
    }
    // 3. Action strings.
    for a in &legal {
        let text = state.action_to_string(a);
        if text.is_empty() || text.chars().any(char::is_whitespace) {
            return Err(format!("action {a:?} encodes to {text:?}"));
        }
        match state.action_from_string(&text) {
            Ok(b) if &b == a => {}
            Ok(b) => return Err(format!("{text:?} of {a:?} decodes to {b:?}")),
            Err(e) => return Err(format!("{text:?} of {a:?} does not decode: {e}")),
        }
    }
    // 4. Clones, and refusal of an action that is no longer legal.
    let copy = state.clone();
    if &copy != state || hash_of(&copy) != hash_of(state) {
        return Err("a clone differs or hashes differently".into());
    }
    if turn == Turn::Terminal {
        if let Some(a) = previous.first() {
            let mut c = state.clone();
            if c.apply(a).is_ok() {
                return Err(format!("{a:?} applied after the end"));
            }
            if &c != state {
                return Err("a refused action changed the position".into());
            }
        }
    } else if let Some(a) = previous.iter().find(|a| !set.contains(a)) {
        let mut c = state.clone();
        if c.apply(a).is_err() && &c != state {
            return Err(format!("refusing {a:?} changed the position"));
        }
    }
    // 5. Observations and determinizations.
    for seat in 0..seats {
        let view = state.observation(seat);
        let d = state.determinize(seat, rng);
        stats.determinizations += 1;
        if d.observation(seat) != view {
            return Err(format!(
                "seat {seat}'s determinization has another observation"
            ));
        }
        if d.turn() != turn {
            return Err(format!(
                "seat {seat}'s determinization has turn {:?}",
                d.turn()
            ));
        }
        if turn == Turn::Seat(seat) && d.legal_actions() != legal {
            return Err(format!(
                "mover {seat}'s determinization has other legal actions"
            ));
        }
        if G::PERFECT_INFORMATION && &d != state {
            return Err(format!(
                "perfect information, yet seat {seat}'s determinization differs"
            ));
        }
        play_on(d, DETERMINIZED_PLIES, rng)
            .map_err(|e| format!("seat {seat}'s determinization does not play on: {e}"))?;
    }
    // 6. Returns.
    let returns = state.returns();
    if returns.len() != seats {
        return Err(format!("{} returns for {seats} seats", returns.len()));
    }
    if turn != Turn::Terminal {
        if returns.iter().any(|&r| r != 0.0) {
            return Err(format!("returns {returns:?} before the end"));
        }
        return Ok(());
    }
    let (lo, hi) = state.return_bounds();
    if returns.iter().any(|&r| !(lo - EPS..=hi + EPS).contains(&r)) {
        return Err(format!("returns {returns:?} outside [{lo}, {hi}]"));
    }
    let sum: f64 = returns.iter().sum();
    let expected = match state.utility() {
        Utility::ZeroSum => Some(0.0),
        Utility::ConstantSum(c) => Some(c),
        Utility::GeneralSum => None,
    };
    if let Some(e) = expected {
        if (sum - e).abs() > EPS {
            return Err(format!("returns {returns:?} sum to {sum}, not {e}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameError;

    /// Take 1 or 2 from a pile; the last taker wins. `bug` breaks one rule on purpose.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Nim {
        left: u8,
        mover: usize,
        bug: Bug,
    }

    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    enum Bug {
        #[default]
        None,
        /// Both seats win.
        Returns,
        /// "2" decodes to 1.
        Decode,
        /// A terminal position still offers an action.
        ActionsAtEnd,
        /// The determinization shows seat 1 another pile.
        Determinize,
    }

    impl Game for Nim {
        type Action = u8;
        type Config = Bug;
        type Observation = u8;
        type Event = crate::agent::Played<u8>;
        const NAME: &'static str = "nim";
        const PERFECT_INFORMATION: bool = false;
        fn new_game(bug: &Bug, seed: u64) -> Nim {
            Nim {
                left: 3 + (seed % 7) as u8,
                mover: 0,
                bug: *bug,
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
            if self.left == 0 && self.bug == Bug::ActionsAtEnd {
                return vec![1];
            }
            (1..=self.left.min(2)).collect()
        }
        fn apply(&mut self, a: &u8) -> Result<(), GameError> {
            if self.left == 0 {
                return Err(GameError::Over);
            }
            if !(1..=self.left.min(2)).contains(a) {
                return Err(GameError::illegal(a));
            }
            self.left -= a;
            if self.left > 0 {
                self.mover ^= 1;
            }
            Ok(())
        }
        fn returns(&self) -> Vec<f64> {
            if self.left > 0 {
                return vec![0.0; 2];
            }
            let mut r = vec![-1.0; 2];
            r[self.mover] = 1.0;
            if self.bug == Bug::Returns {
                r = vec![1.0; 2];
            }
            r
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
            match s.parse() {
                Ok(2) if self.bug == Bug::Decode => Ok(1),
                Ok(v) => Ok(v),
                Err(_) => Err(GameError::decode(s, "not a number")),
            }
        }
        fn observation(&self, _: usize) -> u8 {
            self.left
        }
        fn determinize<R: Rng + ?Sized>(&self, seat: usize, _: &mut R) -> Nim {
            let mut d = self.clone();
            if seat == 1 && self.bug == Bug::Determinize && d.left > 3 {
                d.left -= 1;
            }
            d
        }
    }

    #[test]
    fn a_correct_game_passes() {
        let stats = random_play::<Nim>(3, 30).unwrap();
        assert_eq!(stats.games, 30);
        assert!(stats.plies >= 30 * 2 && stats.determinizations > stats.plies);
    }

    #[test]
    fn each_broken_rule_is_caught() {
        for (bug, words) in [
            (Bug::Returns, "sum to"),
            (Bug::Decode, "decodes to"),
            (Bug::ActionsAtEnd, "terminal with"),
            (Bug::Determinize, "another observation"),
        ] {
            let err = random_play_with::<Nim>(&bug, 0, 10).unwrap_err();
            assert!(err.rule.contains(words), "{bug:?}: {err}");
            assert_eq!(err.game, "nim");
        }
    }
}
