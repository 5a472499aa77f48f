//! The endgame player (kibitz issue 38): once every hand is small, perfect-information Monte
//! Carlo (PIMC, as Skat and Bridge engines do) instead of ISMCTS playouts.
//!
//! Each *world* is one determinization from the card tracker ([`Determinizer::sample`]) plus
//! a fixed stream of draws (a [`SimRng`] seed: the k-th card drawn on any line of play comes
//! from the same random numbers, so the world is a perfect-information game). In each world
//! every root action is valued by an exact alpha-beta minimax ([`solve`]) to a small depth,
//! the hand-size estimate of [`FastSim::estimate`] scoring the horizon; the action with the
//! best mean over the worlds is played. Two seats only: with more the game is not zero-sum
//! for the searching seat, and ISMCTS keeps those positions.

use crate::game::Action;
use crate::sim::{Determinizer, FastSim, SimRng};
use rand::RngCore;

/// Settings of the endgame search; `hand = 0` turns it off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndgameParams {
    /// Use PIMC when no hand (ours included) holds more than this many cards (0 = never).
    pub hand: u32,
    /// Worlds (determinizations) per decision.
    pub worlds: u32,
    /// Plies of the exact search in each world (the horizon takes the hand-size estimate).
    pub depth: u32,
}

impl EndgameParams {
    /// The endgame search off: ISMCTS decides every move.
    pub const OFF: EndgameParams = EndgameParams {
        hand: 0,
        worlds: 48,
        depth: 8,
    };

    /// Whether the endgame search takes the position of `world` (any determinization: hand
    /// sizes are known to everyone).
    pub fn applies(&self, world: &FastSim) -> bool {
        self.hand > 0
            && world.players() == 2
            && world.winner().is_none()
            && (0..2).all(|s| world.hand(s).len() as u32 <= self.hand)
    }
}

/// The value of `sim` for seat `root` (1 = `root` wins, 0 = loses; the hand-size estimate at
/// the horizon), by alpha-beta minimax over every candidate action, draws taken from `rng`
/// (cloned per line, so the world's draw stream is fixed). Two seats.
pub fn solve(sim: &FastSim, rng: &SimRng, root: usize, depth: u32, alpha: f64, beta: f64) -> f64 {
    if let Some(w) = sim.winner() {
        return if w == root { 1.0 } else { 0.0 };
    }
    if depth == 0 {
        return sim.estimate(root);
    }
    let mut actions = Vec::with_capacity(8);
    sim.candidate_actions(&mut actions);
    let maximise = sim.mover() == root;
    let (mut alpha, mut beta) = (alpha, beta);
    let mut best = if maximise { -1.0 } else { 2.0 };
    for a in actions {
        let mut child = *sim;
        let mut r = rng.clone();
        child.apply_action(a, &mut r);
        let v = solve(&child, &r, root, depth - 1, alpha, beta);
        if maximise {
            if v > best {
                best = v;
                alpha = alpha.max(v);
            }
        } else if v < best {
            best = v;
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// What a PIMC decision found: the action and its mean value per root action.
#[derive(Clone, Debug, PartialEq)]
pub struct PimcChoice {
    /// The chosen action (`None` when there is none to choose: game over).
    pub best: Option<Action>,
    /// Every root action with its mean value over the worlds (1 = sure win).
    pub values: Vec<(Action, f64)>,
    /// Worlds searched.
    pub worlds: u32,
}

/// PIMC over `params.worlds` worlds from `det`: every root action solved exactly in each
/// world to `params.depth` plies, mean values compared. The root actions are those of the
/// first world (the mover's own hand, top card and wish are the same in every world).
pub fn pimc(det: &Determinizer, params: &EndgameParams, rng: &mut SimRng) -> PimcChoice {
    let first = det.sample(rng);
    let root = first.mover();
    let mut actions = Vec::new();
    first.candidate_actions(&mut actions);
    let mut sums = vec![0.0; actions.len()];
    let worlds = params.worlds.max(1);
    for w in 0..worlds {
        let world = if w == 0 { first } else { det.sample(rng) };
        let draws = SimRng::new(rng.next_u64());
        for (i, &a) in actions.iter().enumerate() {
            let mut child = world;
            let mut r = draws.clone();
            child.apply_action(a, &mut r);
            sums[i] += solve(&child, &r, root, params.depth.saturating_sub(1), -1.0, 2.0);
        }
    }
    let values: Vec<(Action, f64)> = actions
        .iter()
        .zip(&sums)
        .map(|(&a, &s)| (a, s / worlds as f64))
        .collect();
    // Ties: the first action in candidate order (plays before drawing).
    let best = values
        .iter()
        .fold(None::<(Action, f64)>, |acc, &(a, v)| match acc {
            Some((_, b)) if b >= v => acc,
            _ => Some((a, v)),
        })
        .map(|(a, _)| a);
    PimcChoice {
        best,
        values,
        worlds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
    use crate::game::ExhaustionWinner;

    /// Plain minimax over every action to `depth` plies (no pruning): the definition.
    fn brute(sim: &FastSim, rng: &SimRng, root: usize, depth: u32) -> f64 {
        if let Some(w) = sim.winner() {
            return if w == root { 1.0 } else { 0.0 };
        }
        if depth == 0 {
            return sim.estimate(root);
        }
        let mut actions = Vec::new();
        sim.candidate_actions(&mut actions);
        let values = actions.into_iter().map(|a| {
            let mut child = *sim;
            let mut r = rng.clone();
            child.apply_action(a, &mut r);
            brute(&child, &r, root, depth - 1)
        });
        if sim.mover() == root {
            values.fold(f64::MIN, f64::max)
        } else {
            values.fold(f64::MAX, f64::min)
        }
    }

    /// A two-seat position with the given hands (card indices), top card, talon and pile.
    fn position(hands: [&[u8]; 2], top: u8, talon: &[u8], pile: &[u8], mover: usize) -> FastSim {
        let set = |cs: &[u8]| cs.iter().fold(0u32, |m, &c| m | 1 << c);
        FastSim::new(
            2,
            [set(hands[0]), set(hands[1]), 0, 0],
            set(talon),
            set(pile),
            Card::from_bits(top as u32),
            None,
            0,
            0,
            [0; 4],
            mover,
            ExhaustionWinner::SecondSeat,
        )
    }

    #[test]
    fn solver_equals_brute_force_on_small_positions() {
        use rand::{Rng, SeedableRng};
        let mut pick = rand_chacha::ChaCha8Rng::seed_from_u64(38);
        let mut decided = 0;
        for case in 0..300 {
            // Deal 32 cards: two small hands, a top card, a short talon, the rest on the pile.
            let mut deck: Vec<u8> = (0..32).collect();
            for i in (1..32).rev() {
                deck.swap(i, pick.random_range(0..=i));
            }
            let (a, b) = (1 + case % 3, 1 + (case / 3) % 3);
            let talon_len = 1 + case % 4;
            let h0 = &deck[..a];
            let h1 = &deck[a..a + b];
            let top = deck[a + b];
            let talon = &deck[a + b + 1..a + b + 1 + talon_len];
            let pile = &deck[a + b + 1 + talon_len..];
            let sim = position([h0, h1], top, talon, pile, case % 2);
            let rng = SimRng::new(case as u64);
            for depth in [1, 3, 5] {
                let root = case % 2;
                let v = solve(&sim, &rng, root, depth, -1.0, 2.0);
                let w = brute(&sim, &rng, root, depth);
                assert!(
                    (v - w).abs() < 1e-12,
                    "case {case} depth {depth}: {v} vs {w}"
                );
                decided += u32::from(v == 0.0 || v == 1.0);
            }
        }
        // Many of the small positions are decided within the horizon.
        assert!(decided > 100, "{decided}");
    }

    #[test]
    fn a_fitting_last_card_is_a_sure_win() {
        // Seat 0 holds one card that fits the top card (same suit): solved as a win.
        let top = Card::from_bits(0);
        let fitting = (1..32)
            .find(|&c| Card::from_bits(c).suit() == top.suit())
            .unwrap();
        let sim = position([&[fitting as u8], &[9, 10]], 0, &[20, 21], &[], 0);
        assert_eq!(solve(&sim, &SimRng::new(1), 0, 1, -1.0, 2.0), 1.0);
    }
}
