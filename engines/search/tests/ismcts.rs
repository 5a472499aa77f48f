//! ISMCTS on toy games: the likelier hidden state wins, small Nim is solved with merged
//! statistics, early stop, progressive bias and the policy opponent behave, a stopped clock runs
//! nothing.

use kibitz_search::ismcts::{merge_root_stats, Ismcts, IsmctsConfig, IsmctsGame, UniformRollout};
use kibitz_search::time::TimeControl;
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Hidden-coin guessing: the chooser picks 0/1; a hidden coin (biased 70 % towards 1)
/// decides the reward. ISMCTS must prefer 1 without seeing the coin.
#[derive(Clone)]
struct Guess {
    coin: u8,
    choice: Option<u8>,
}

impl IsmctsGame for Guess {
    type Action = u8;
    fn player_to_move(&self) -> usize {
        0
    }
    fn is_terminal(&self) -> bool {
        self.choice.is_some()
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.extend([0, 1]);
    }
    fn apply<R: Rng + ?Sized>(&mut self, a: u8, _: &mut R) {
        self.choice = Some(a);
    }
    fn reward(&self, _: usize) -> f64 {
        (self.choice == Some(self.coin)) as u8 as f64
    }
}

/// Nim with 1-2 stones per move, two players; the player taking the last stone wins.
/// Perfect information (the determinizer returns the state itself).
#[derive(Clone)]
struct Nim {
    stones: u8,
    to_move: usize,
}

impl IsmctsGame for Nim {
    type Action = u8;
    fn player_to_move(&self) -> usize {
        self.to_move
    }
    fn is_terminal(&self) -> bool {
        self.stones == 0
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.extend((1..=2).filter(|&k| k <= self.stones));
    }
    fn apply<R: Rng + ?Sized>(&mut self, a: u8, _: &mut R) {
        self.stones -= a;
        self.to_move ^= 1;
    }
    fn reward(&self, p: usize) -> f64 {
        // The player who just moved took the last stone.
        (self.stones == 0 && p != self.to_move) as u8 as f64
    }
}

#[test]
fn prefers_the_likelier_hidden_state() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let cfg = IsmctsConfig {
        max_iterations: 2000,
        ..Default::default()
    };
    let mut s = Ismcts::<Guess>::new(cfg);
    let r = s.search(
        |rng: &mut ChaCha8Rng| Guess {
            coin: rng.random_bool(0.7) as u8,
            choice: None,
        },
        &mut UniformRollout,
        &TimeControl::infinite(),
        &mut rng,
    );
    assert_eq!(r.iterations, 2000);
    assert_eq!(r.best, Some(1));
    let one = r.children.iter().find(|c| c.action == 1).unwrap();
    assert!((one.mean_reward - 0.7).abs() < 0.08, "{one:?}");
    assert!(one.availability >= 1999, "{one:?}");
}

#[test]
fn solves_small_nim_and_merges() {
    // 4 stones: taking 1 leaves 3 (a lost position for the opponent).
    let mut runs = Vec::new();
    for seed in 0..2 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = Ismcts::<Nim>::new(IsmctsConfig {
            max_iterations: 3000,
            ..Default::default()
        });
        let r = s.search(
            |_: &mut ChaCha8Rng| Nim {
                stones: 4,
                to_move: 0,
            },
            &mut UniformRollout,
            &TimeControl::infinite(),
            &mut rng,
        );
        assert_eq!(r.best, Some(1));
        runs.push(r);
    }
    let m = merge_root_stats(&runs);
    assert_eq!(m.iterations, 6000);
    assert_eq!(m.best, Some(1));
    assert_eq!(m.children.iter().map(|c| c.visits).sum::<u32>(), 6000);
}

#[test]
fn early_stop_keeps_the_choice_and_saves_iterations() {
    let run = |early_stop: bool| {
        let mut s = Ismcts::<Nim>::new(IsmctsConfig {
            max_iterations: 4000,
            early_stop,
            ..Default::default()
        });
        s.search(
            |_: &mut ChaCha8Rng| Nim {
                stones: 4,
                to_move: 0,
            },
            &mut UniformRollout,
            &TimeControl::infinite(),
            &mut ChaCha8Rng::seed_from_u64(3),
        )
    };
    let (full, early) = (run(false), run(true));
    assert_eq!(full.iterations, 4000);
    assert!(early.iterations < 4000, "{}", early.iterations);
    assert_eq!(early.best, full.best);
    let c = &early.children;
    assert!(c[0].visits as u64 - c[1].visits as u64 > 4000 - early.iterations);
}

/// Nim where the bias points at the losing move: progressive bias shows in the first
/// visits and fades, so the search still finds the winning move.
#[derive(Clone)]
struct BiasedNim(Nim);

impl IsmctsGame for BiasedNim {
    type Action = u8;
    fn player_to_move(&self) -> usize {
        self.0.player_to_move()
    }
    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        self.0.legal_actions(out)
    }
    fn apply<R: Rng + ?Sized>(&mut self, a: u8, r: &mut R) {
        self.0.apply(a, r)
    }
    fn reward(&self, p: usize) -> f64 {
        self.0.reward(p)
    }
    fn action_bias(&self, a: u8) -> f64 {
        if a == 2 {
            1.0
        } else {
            0.0
        }
    }
}

#[test]
fn progressive_bias_steers_early_and_fades() {
    let run = |iters: u64| {
        let mut s = Ismcts::<BiasedNim>::new(IsmctsConfig {
            max_iterations: iters,
            progressive_bias: 5.0,
            ..Default::default()
        });
        s.search(
            |_: &mut ChaCha8Rng| {
                BiasedNim(Nim {
                    stones: 4,
                    to_move: 0,
                })
            },
            &mut UniformRollout,
            &TimeControl::infinite(),
            &mut ChaCha8Rng::seed_from_u64(5),
        )
    };
    assert_eq!(run(12).best, Some(2));
    assert_eq!(run(5000).best, Some(1));
}

#[test]
fn stopped_clock_runs_nothing() {
    let tc = TimeControl::infinite();
    tc.stop();
    let mut s = Ismcts::<Nim>::new(IsmctsConfig::default());
    let r = s.search(
        |_: &mut ChaCha8Rng| Nim {
            stones: 5,
            to_move: 0,
        },
        &mut UniformRollout,
        &tc,
        &mut ChaCha8Rng::seed_from_u64(1),
    );
    assert_eq!((r.iterations, r.best), (0, None));
}

/// A rollout policy that always takes one stone: a weak opponent model.
struct TakeOne;

impl kibitz_search::ismcts::RolloutPolicy<Nim> for TakeOne {
    fn choose<R: Rng + ?Sized>(&mut self, _: &Nim, actions: &[u8], _: &mut R) -> u8 {
        if actions.contains(&1) {
            1
        } else {
            actions[0]
        }
    }
}

#[test]
fn opponent_policy_plays_the_opponent_by_the_rollout_policy() {
    // 4 stones: taking 2 loses to a perfect opponent (it takes the other 2), but wins against
    // one that always takes 1 stone. Plain ISMCTS sees the first, the policy opponent the second.
    let run = |opponent_policy: f64| {
        let mut s = Ismcts::<Nim>::new(IsmctsConfig {
            max_iterations: 3000,
            opponent_policy,
            ..Default::default()
        });
        let r = s.search(
            |_: &mut ChaCha8Rng| Nim {
                stones: 4,
                to_move: 0,
            },
            &mut TakeOne,
            &TimeControl::infinite(),
            &mut ChaCha8Rng::seed_from_u64(9),
        );
        let two = r.children.iter().find(|c| c.action == 2).unwrap();
        two.mean_reward
    };
    let (plain, modelled) = (run(0.0), run(1.0));
    assert!(plain < 0.3, "plain ISMCTS: taking 2 scored {plain}");
    assert!(
        modelled > 0.9,
        "policy opponent: taking 2 scored {modelled}"
    );
    let half = run(0.5);
    assert!(
        half > plain && half < modelled,
        "{plain} < {half} < {modelled}"
    );
}
