//! The forward hand filter against the truth in arena games.

use kibitz_maumau::agents::{HeuristicParams, MauMauAgent};
use kibitz_maumau::arena::play_game_with;
use kibitz_maumau::cards::Suit;
use kibitz_maumau::determinize::Determinizer;
use kibitz_maumau::filter::{filter_hands, MAX_EVENTS};
use kibitz_maumau::mcts::IsmctsParams;
use kibitz_maumau::model::ModelWeights;
use kibitz_maumau::sim::SimRng;
use kibitz_maumau::Config;

mod common;
use common::{at, seat, Boxed, Dawdle};

fn filter_on() -> ModelWeights {
    ModelWeights {
        filter: true,
        particles: 64,
        ..IsmctsParams::default().model
    }
}

/// A seated agent of the field: greedy, random or heuristic by seat and kind.
fn field(cfg: Config, s: usize, kind: usize, seed: u64) -> Boxed {
    let mut a = at(
        cfg,
        match (s + kind) % 3 {
            0 => MauMauAgent::greedy(),
            1 => MauMauAgent::random(),
            _ => MauMauAgent::heuristic(HeuristicParams::default()),
        },
    );
    a.new_game(s, seed);
    a
}

/// Every particle keeps every card we see out of the opponent's hand, holds every card the
/// tracker knows it holds, and has exactly the true hand size, at every decision; and the
/// trace explains almost every particle without the final patch.
#[test]
fn particles_stay_consistent_with_the_truth_in_two_seat_games() {
    let w = filter_on();
    let mut rng = SimRng::new(7);
    let (mut checked, mut patched, mut total) = (0, 0, 0);
    for seed in 0..40u64 {
        let mut players: Vec<Boxed> = (0..2)
            .map(|s| field(Config::default(), s, seed as usize, seed))
            .collect();
        play_game_with(
            Config::default(),
            seed,
            &mut players,
            None,
            &mut |game, know| {
                let me = know.me();
                let opp = 1 - me;
                let out = filter_hands(know, &w, &mut rng).expect("two seats");
                let seen = know.hand().union(know.pile()).0 | 1 << game.top().index();
                let truth = game.hand(opp).0;
                // What is certain about the opponent is also true (the tracker's own test).
                assert_eq!(know.known(opp).0 & !truth, 0);
                for &(h, _) in &out.hands {
                    assert_eq!(h & seen, 0, "seed {seed}: a card we see in a particle");
                    assert_eq!(h & know.known(opp).0, know.known(opp).0 & !seen);
                    assert_eq!(h.count_ones() as usize, game.hand_size(opp), "seed {seed}");
                    assert_eq!(
                        h & !(truth | game.talon().iter().fold(0, |m, c| m | 1 << c.index())),
                        0
                    );
                }
                let sum: f64 = out.hands.iter().map(|h| h.1).sum();
                assert!((sum - 1.0).abs() < 1e-9);
                checked += 1;
                patched += out.patched;
                total += out.hands.len();
            },
        );
    }
    assert!(checked > 200, "{checked}");
    assert!(patched * 50 < total, "patched {patched} of {total}");
}

/// Weighed by the model on exact hands, the filter's hands hold more of a greedy opponent's
/// true cards than hands drawn by the tracker's evidence alone.
#[test]
fn the_filter_finds_more_true_cards_than_the_evidence() {
    let p = IsmctsParams::default();
    let on = filter_on();
    let mut rng = SimRng::new(5);
    let (mut ev, mut fi, mut k) = (0.0, 0.0, 0);
    for seed in 0..60u64 {
        let mut players = seat(vec![
            (
                Box::new(MauMauAgent::heuristic(HeuristicParams::default())),
                0,
            ),
            (Box::new(MauMauAgent::greedy()), 0),
        ]);
        play_game_with(
            Config::default(),
            seed,
            &mut players,
            None,
            &mut |game, know| {
                let truth = game.hand(1).0 & !know.known(1).0;
                if know.me() != 0 || truth == 0 {
                    return;
                }
                let off = Determinizer::new(know, &p.evidence, &ModelWeights::OFF, &mut rng);
                let out = filter_hands(know, &on, &mut rng).expect("two seats");
                let n = truth.count_ones() as f64;
                for _ in 0..8 {
                    ev += (off.sample(&mut rng).hand(1).0 & truth).count_ones() as f64 / n;
                }
                fi += 8.0
                    * out
                        .hands
                        .iter()
                        .map(|&(h, w)| w * (h & truth).count_ones() as f64 / n)
                        .sum::<f64>();
                k += 8;
            },
        );
    }
    let (ev, fi) = (ev / k as f64, fi / k as f64);
    assert!(k > 1000, "{k}");
    assert!(fi > ev + 0.03, "filter {fi:.3} vs evidence {ev:.3}");
}

/// A long two-seat game passes the filter's length cap: the filter follows the opponent up to
/// [`MAX_EVENTS`] actions (all but a few decisions) and then declines, and the determinizer
/// still deals hands of the right size from the backward model.
#[test]
fn long_traces_fall_back_to_the_backward_model() {
    let w = filter_on();
    let evidence = IsmctsParams::default().evidence;
    let mut rng = SimRng::new(5);
    let (mut followed, mut declined, mut lost) = (0, 0, 0);
    for seed in 0..40u64 {
        let mut players = seat(vec![
            (Box::new(Dawdle::new(seed as u32, 1, Suit::Pik)), 0),
            (Box::new(Dawdle::new(0, 2, Suit::Kreuz)), 0),
        ]);
        play_game_with(
            Config::default(),
            seed,
            &mut players,
            None,
            &mut |game, know| {
                let opp = 1 - know.me();
                let events = know.seat_moves(opp).count();
                let out = filter_hands(know, &w, &mut rng);
                if events > MAX_EVENTS {
                    assert!(out.is_none(), "seed {seed}: {events} events followed");
                    declined += 1;
                    let sim = Determinizer::new(know, &evidence, &w, &mut rng).sample(&mut rng);
                    assert_eq!(sim.hand(opp).len(), game.hand_size(opp));
                } else {
                    followed += out.is_some() as usize;
                    lost += out.is_none() as usize;
                }
            },
        );
    }
    // Seeds 0..40: 2,419 decisions followed, 149 declined, 39 where no particle explained the
    // trace (the determinizer falls back then too).
    assert!(
        followed > 1000 && declined > 50 && lost * 20 < followed,
        "{followed} / {declined} / {lost}"
    );
}

/// Three seats: the filter declines and the determinizer falls back to today's sampler with
/// hands of the right size and no card we see.
#[test]
fn three_seats_fall_back_to_the_sampler() {
    let mut p = IsmctsParams::default();
    p.model.filter = true;
    let mut rng = SimRng::new(3);
    let cfg = Config {
        players: 3,
        ..Config::default()
    };
    let mut checked = 0;
    for seed in 0..10u64 {
        let mut players: Vec<Boxed> = (0..3).map(|s| field(cfg, s, seed as usize, seed)).collect();
        play_game_with(cfg, seed, &mut players, None, &mut |game, know| {
            assert!(filter_hands(know, &p.model, &mut rng).is_none());
            let det = Determinizer::new(know, &p.evidence, &p.model, &mut rng);
            let sim = det.sample(&mut rng);
            let seen = know.hand().union(know.pile()).0;
            for s in (0..3).filter(|&s| s != know.me()) {
                assert_eq!(sim.hand(s).len(), game.hand_size(s));
                assert_eq!(sim.hand(s).0 & seen & !(1 << game.top().index()), 0);
            }
            checked += 1;
        });
    }
    assert!(checked > 50);
}

/// The share of the opponent's true hidden cards in sampled hands (opponent holding <= 4
/// cards, our seat played by the heuristic), per parameter set. A measurement, not a check:
/// `PROBE="om_particles=0;;om_filter=1" PROBE_OPP=greedy cargo test -p kibitz-maumau
/// --release --features research --test filter -- --nocapture` (sets separated by `;`, each a comma list
/// of `NAME=V` as for `--param`).
#[cfg(feature = "research")]
#[test]
fn probe_true_card_share() {
    use kibitz_search::params::Tunable;
    let sets = std::env::var("PROBE").unwrap_or_else(|_| "om_particles=0;;om_filter=1".into());
    let opps = std::env::var("PROBE_OPP").unwrap_or_else(|_| "greedy,heuristic,random".into());
    let variants: Vec<(String, IsmctsParams)> = sets
        .split(';')
        .map(|set| {
            let mut p = IsmctsParams::default();
            for kv in set.split(',').filter(|kv| !kv.is_empty()) {
                p.apply(kv).expect("parameter");
            }
            (set.to_string(), p)
        })
        .collect();
    for opp_kind in opps.split(',') {
        let mut sums = vec![(0.0f64, 0u64); variants.len()];
        // Calibration: per tenth of predicted probability, (sum predicted, sum true, count).
        let mut calib = vec![[(0.0f64, 0.0f64, 0u64); 10]; variants.len()];
        // Time spent preparing the determinizer (filter included), per variant.
        let mut spent = vec![std::time::Duration::ZERO; variants.len()];
        let mut rng = SimRng::new(11);
        for seed in 0..300u64 {
            let opp: Boxed = match opp_kind {
                "greedy" => Box::new(MauMauAgent::greedy()),
                "heuristic" => Box::new(MauMauAgent::heuristic(HeuristicParams::default())),
                _ => Box::new(MauMauAgent::random()),
            };
            let mut players = seat(vec![
                (
                    Box::new(MauMauAgent::heuristic(HeuristicParams::default())),
                    0,
                ),
                (opp, seed),
            ]);
            play_game_with(
                Config::default(),
                seed,
                &mut players,
                None,
                &mut |game, know| {
                    if know.me() != 0 || game.hand_size(1) > 4 {
                        return;
                    }
                    let truth = game.hand(1).0 & !know.known(1).0;
                    if truth == 0 {
                        return;
                    }
                    for (i, (_, p)) in variants.iter().enumerate() {
                        let t0 = std::time::Instant::now();
                        let det = Determinizer::new(know, &p.evidence, &p.model, &mut rng);
                        spent[i] += t0.elapsed();
                        let mut counts = [0u32; 32];
                        for _ in 0..32 {
                            let h = det.sample(&mut rng).hand(1).0 & !know.known(1).0;
                            sums[i].0 +=
                                (h & truth).count_ones() as f64 / truth.count_ones() as f64;
                            sums[i].1 += 1;
                            for c in kibitz_maumau::CardSet(h) {
                                counts[c.index() as usize] += 1;
                            }
                        }
                        for c in know.pool().minus(know.known(1)) {
                            let q = counts[c.index() as usize] as f64 / 32.0;
                            let b = &mut calib[i][((q * 10.0) as usize).min(9)];
                            b.0 += q;
                            b.1 += (truth >> c.index() & 1) as f64;
                            b.2 += 1;
                        }
                    }
                },
            );
        }
        for (i, ((name, _), (s, k))) in variants.iter().zip(&sums).enumerate() {
            let us = spent[i].as_secs_f64() * 1e6 / (*k as f64 / 32.0);
            println!(
                "opponent {opp_kind} [{name}]: share {:.3} ({k} samples), {us:.0} us per setup",
                s / *k as f64
            );
            let rows: Vec<String> = calib[i]
                .iter()
                .filter(|b| b.2 > 0)
                .map(|b| format!("{:.2}->{:.2} ({})", b.0 / b.2 as f64, b.1 / b.2 as f64, b.2))
                .collect();
            println!("  calibration (predicted->true): {}", rows.join(", "));
        }
    }
}

/// The determinizer's set-up time per decision (the particle filter included) with the
/// default settings: mean and worst case in two-seat games of two random players, greedy
/// against a player that always draws, and two players that always draw. A measurement, not a
/// check: `cargo test -p kibitz-maumau --release --features research --test filter -- --nocapture setup`.
#[cfg(feature = "research")]
#[test]
fn setup_times() {
    let p = IsmctsParams::default();
    for kind in 0..3 {
        let (mut max, mut sum, mut n, mut maxlen) = (0u128, 0u128, 0u128, 0usize);
        for seed in 0..100u64 {
            let mut players = seat(match kind {
                0 => vec![
                    (Box::new(MauMauAgent::random()) as Boxed, seed),
                    (Box::new(MauMauAgent::random()), seed + 99),
                ],
                1 => vec![
                    (Box::new(MauMauAgent::greedy()) as Boxed, 0),
                    (Box::new(Dawdle::hoard()), 0),
                ],
                _ => vec![
                    (Box::new(Dawdle::hoard()) as Boxed, 0),
                    (Box::new(Dawdle::hoard()), 0),
                ],
            });
            let mut rng = SimRng::new(seed);
            play_game_with(
                Config::default(),
                seed,
                &mut players,
                None,
                &mut |_, know| {
                    let t = std::time::Instant::now();
                    let _ = Determinizer::new(know, &p.evidence, &p.model, &mut rng);
                    let us = t.elapsed().as_micros();
                    sum += us;
                    n += 1;
                    if us > max {
                        max = us;
                        maxlen = know.seat_moves(1 - know.me()).count();
                    }
                },
            );
        }
        println!(
            "kind {kind}: {n} setups, mean {} us, max {} us at {} opponent moves",
            sum / n,
            max,
            maxlen
        );
    }
}
