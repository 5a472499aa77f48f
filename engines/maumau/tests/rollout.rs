//! The playout policy ([`GreedyRollout`]) against its features: the card it plays and its
//! decision to draw are the best `weights · features`, and Gumbel noise samples the softmax.

use kibitz_maumau::game::ExhaustionWinner;
use kibitz_maumau::rollout::{draw_features, features, GreedyRollout, FEATURES};
use kibitz_maumau::sim::{FastSim, SimRng};
use kibitz_maumau::{Card, Suit};
use rand::Rng;

/// The card with bit index `n` (< 32).
fn card(n: u32) -> Card {
    Card::from_index(n as u8).expect("a card index")
}

/// A random two- to four-seat position with the mover to play: hands of 1-7 cards dealt
/// from a shuffled deck, a top card, and a wish on about a third of Jack tops.
fn position(rng: &mut SimRng) -> FastSim {
    let players = rng.random_range(2..5);
    let mut deck: Vec<u32> = (0..32).collect();
    for i in (1..deck.len()).rev() {
        deck.swap(i, rng.random_range(0..=i));
    }
    let top = deck.pop().expect("a card");
    let mut hands = [0u32; 4];
    for h in hands.iter_mut().take(players) {
        for _ in 0..rng.random_range(1..8) {
            *h |= 1 << deck.pop().expect("a card");
        }
    }
    let wish = (top >> 2 == 4 && rng.random_ratio(1, 3)).then(|| Suit::ALL[rng.random_range(0..4)]);
    FastSim::new(
        players,
        hands,
        0,
        0,
        card(top),
        wish,
        0,
        0,
        [0; 4],
        rng.random_range(0..players),
        ExhaustionWinner::default(),
    )
}

/// The card `policy` plays from `sim` (none for a draw).
fn played(policy: &GreedyRollout, sim: &FastSim, rng: &mut SimRng) -> Option<u32> {
    let mut next = *sim;
    policy.play_one(&mut next, rng);
    let gone = sim.hand(sim.mover()).0 & !next.hand(sim.mover()).0;
    (gone != 0).then(|| gone.trailing_zeros())
}

/// The score the policy plays by is exactly its weights times the public features, for
/// any weights: so weights fitted on [`features`] mean in the playout what they meant in
/// the fit. Checked through the choice: without noise and randomness, the card played is
/// the one with the best `weights · features` (ties aside).
#[test]
fn the_choice_maximises_weights_times_features() {
    let mut rng = SimRng::new(7);
    let mut checked = 0;
    for _ in 0..4000 {
        let sim = position(&mut rng);
        if sim.legal() == 0 {
            continue;
        }
        let mut w = [0i32; FEATURES];
        for x in w.iter_mut() {
            *x = rng.random_range(-200..200);
        }
        // Scores within 5 of the best are skipped: the 0-3 points of noise and the
        // rounding of the 7's eighths (under a point) could swap them.
        let policy = GreedyRollout {
            epsilon: 0.0,
            suit_weight: 8 * w[0],
            special_bonus: 8 * w[1],
            seven_bonus: 8 * w[2],
            jack_cost: -8 * w[3],
            eight_follow: 8 * w[4],
            void_bonus: 8 * w[5],
            seven_short: 8 * w[6],
            follow_bonus: 8 * w[7],
            opp_fit: -8 * w[8],
            gumbel: false,
            draw_bias: 0,
            draw_jack: 0,
            draw_void: 0,
            draw_opp_fit: 0,
        };
        let weights = policy.weights();
        let value = |c: u32| -> f64 {
            let f = features(&policy, &sim, card(c));
            f.iter().zip(weights).map(|(f, w)| f * w as f64).sum()
        };
        let mut scores: Vec<(f64, u32)> = Vec::new();
        let mut m = sim.legal();
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            scores.push((value(c), c));
        }
        scores.sort_by(|a, b| b.0.total_cmp(&a.0));
        if scores.len() > 1 && scores[0].0 - scores[1].0 < 5.0 {
            continue;
        }
        assert_eq!(
            played(&policy, &sim, &mut rng),
            Some(scores[0].1),
            "{sim:?}"
        );
        checked += 1;
    }
    assert!(checked > 1500, "{checked} positions checked");
}

/// Drawing is scored by its weights times [`draw_features`]: with the cards scoring
/// nothing and the draw weights far beyond the noise, the policy draws exactly when
/// `weights · draw_features` is positive.
#[test]
fn drawing_follows_weights_times_draw_features() {
    let mut rng = SimRng::new(5);
    let (mut drew, mut laid) = (0, 0);
    for _ in 0..4000 {
        let sim = position(&mut rng);
        if sim.legal() == 0 {
            continue;
        }
        let sign = |rng: &mut SimRng| if rng.random_bool(0.5) { 300 } else { -300 };
        let policy = GreedyRollout {
            epsilon: 0.0,
            special_bonus: 0,
            jack_cost: 0,
            suit_weight: 0,
            gumbel: true,
            draw_bias: if rng.random_bool(0.5) { 150 } else { -150 },
            draw_jack: sign(&mut rng),
            draw_void: sign(&mut rng),
            draw_opp_fit: sign(&mut rng),
            ..GreedyRollout::default()
        };
        let value: f64 = draw_features(&sim)
            .iter()
            .zip(policy.weights())
            .map(|(f, w)| f * w as f64)
            .sum();
        if value.abs() < 100.0 {
            continue;
        }
        let draws = played(&policy, &sim, &mut rng).is_none();
        assert_eq!(draws, value > 0.0, "value {value}, {sim:?}");
        if draws {
            drew += 1;
        } else {
            laid += 1;
        }
    }
    assert!(drew > 500 && laid > 500, "{drew} draws, {laid} plays");
}

/// With Gumbel noise the choice is the softmax of the scores in tenths of a nat, drawing
/// included: a card 10 points above another and above drawing is played e times as often
/// as either (up to the 256-slice table).
#[test]
fn gumbel_noise_samples_the_softmax() {
    // Mover holds the 7 and the 9 of one suit (a 7 on nothing else scores 10 more); the
    // top card is of that suit; the next player holds nothing that matters.
    let (seven, nine) = (0u32, 8u32);
    let policy = GreedyRollout {
        epsilon: 0.0,
        special_bonus: 10,
        suit_weight: 0,
        jack_cost: 0,
        gumbel: true,
        ..GreedyRollout::default()
    };
    let sim = FastSim::new(
        2,
        [1 << seven | 1 << nine, 1 << 31, 0, 0],
        0,
        0,
        card(12),
        None,
        0,
        0,
        [0; 4],
        0,
        ExhaustionWinner::default(),
    );
    let mut rng = SimRng::new(11);
    let n = 40_000;
    let mut counts = [0usize; 3];
    for _ in 0..n {
        counts[match played(&policy, &sim, &mut rng) {
            Some(c) if c == seven => 0,
            Some(_) => 1,
            None => 2,
        }] += 1;
    }
    let e = 1.0f64.exp();
    for (count, want) in counts.iter().zip([e, 1.0, 1.0].map(|x| x / (e + 2.0))) {
        let share = *count as f64 / n as f64;
        assert!(
            (share - want).abs() < 0.02,
            "{counts:?}: {share:.3} against {want:.3}"
        );
    }
}
