//! Fitting the opponent model ([`kibitz_maumau::model`]) to recorded decisions: the issue's
//! "learn the prior from games". Each decision of the opponent is kept with the hand it held,
//! and the model's weights are set to those that make the recorded choices likeliest.
//!
//! The fit itself is a measurement (feature `research`):
//! `FIT_OPP=heuristic,greedy FIT_GAMES=400 cargo test -p kibitz-maumau --release --features research --test
//! model_fit -- --nocapture` prints, per opponent, the fitted weights as `--param`
//! keys and the mean log-likelihood per choice before and after.

use kibitz_maumau::agents::{parse_agent, AgentOptions};
use kibitz_maumau::arena::{play_game_by, Knowing};
use kibitz_maumau::knowledge::{Knowledge, SeatMove};
use kibitz_maumau::mcts::IsmctsParams;
use kibitz_maumau::model::{step_log_likelihood, ModelWeights};
use kibitz_maumau::turn::Action;
use kibitz_maumau::{CardSet, Config};
use kibitz_search::params::{ParamSpec, Tunable};

/// One recorded choice: what the seat did, as the tracker logs it, and the hand it held then
/// (for a wish: after the Jack left, as [`step_log_likelihood`] expects).
#[derive(Clone, Copy, Debug)]
struct Choice {
    mv: SeatMove,
    hand: CardSet,
}

/// The choices behind `action`, taken by the seat that `know` describes.
fn choices(know: &Knowledge, action: Action) -> Vec<Choice> {
    let hand = know.hand();
    // The cards that fitted: exactly the legal plays, whichever way the hand is masked.
    let legal = Some(know.legal_plays());
    match action {
        Action::Draw => vec![Choice {
            mv: SeatMove::Drew { legal },
            hand,
        }],
        Action::Play { card, wish } => {
            let mut v = vec![Choice {
                mv: SeatMove::Played { card, legal },
                hand,
            }];
            let rest = hand.minus(CardSet::single(card));
            let wishing = card.is_jack() && !know.top().is_some_and(|t| t.is_jack());
            if wishing && !rest.is_empty() {
                v.push(Choice {
                    mv: SeatMove::Wished { suit: wish },
                    hand: rest,
                });
            }
            v
        }
    }
}

/// Every choice of seat 1 (player `opp`) in `games` two-player games against the heuristic.
fn record(opp: &str, games: u64) -> Vec<Choice> {
    let mut out = Vec::new();
    for seed in 0..games {
        let opts = AgentOptions::default();
        let mut players = [
            parse_agent("heuristic", &opts)
                .expect("player")
                .seated(0, seed),
            parse_agent(opp, &opts)
                .expect("player")
                .seated(1, seed ^ 0x5eed),
        ];
        // Each agent answers from the loop's tracker of its seat (the notices are the same).
        play_game_by(
            Config::default(),
            seed,
            None,
            &mut Knowing::new(Config::default(), &mut |_, seat, know, _, tc| {
                let a = players[seat].decide(know, tc).action;
                if seat == 1 {
                    out.extend(choices(know, a));
                }
                Some(a)
            }),
        );
    }
    out
}

/// Mean log-likelihood per choice under `w`, scoring every kind of choice (a zero weight
/// means "says nothing", which for a play is the uniform chance).
fn mean_ll(data: &[Choice], w: &ModelWeights) -> f64 {
    let on = ModelWeights {
        play: w.play.max(1e-9),
        wish: w.wish.max(1e-9),
        void: w.void.min(1.0 - 1e-9),
        ..*w
    };
    data.iter()
        .map(|c| step_log_likelihood(&c.mv, c.hand, &on).0)
        .sum::<f64>()
        / data.len().max(1) as f64
}

/// The fitted weights, by their names in the parameter registry (which also gives each one's
/// range and first step). `om_void` is not among them: with the hand known, a draw says
/// nothing about it unless the seat drew while a card fitted.
const FITTED: [&str; 5] = ["om_play", "om_wish", "om_p78", "om_pjack", "om_noise"];

/// Maximises [`mean_ll`] by a pattern search: each weight in turn moves up or down by its
/// step while that helps; steps halve when no weight moves.
fn fit(data: &[Choice], start: IsmctsParams) -> IsmctsParams {
    let all = IsmctsParams::specs();
    let specs: Vec<ParamSpec> = FITTED
        .iter()
        .map(|n| {
            *all.iter()
                .find(|s| s.name == *n)
                .expect("a registered parameter")
        })
        .collect();
    let mut steps: Vec<f64> = specs.iter().map(|s| s.step).collect();
    let mut p = start;
    let mut best = mean_ll(data, &p.model);
    for _round in 0..60 {
        let mut moved = false;
        for (s, step) in specs.iter().zip(&steps) {
            for dir in [1.0, -1.0] {
                loop {
                    let mut t = p;
                    let v = t.get_param(s.name).expect("registered");
                    t.set_param(s.name, (v + dir * step).clamp(s.min, s.max))
                        .expect("registered");
                    let ll = mean_ll(data, &t.model);
                    if ll > best + 1e-9 {
                        (p, best) = (t, ll);
                        moved = true;
                    } else {
                        break;
                    }
                }
            }
        }
        if !moved {
            steps.iter_mut().for_each(|s| *s /= 2.0);
            if steps[0] < 1e-3 {
                break;
            }
        }
    }
    p
}

/// The recorded choices are the heuristic's own: it never draws while a card fits, it plays
/// from a longer suit more often than not, and a wish names a suit it holds most of more
/// often than chance. So a model fitted to them must beat the uniform one, and the fit must
/// not lose to its starting point.
#[test]
fn fitting_the_heuristic_beats_uniform_and_the_start() {
    let data = record("heuristic", 60);
    assert!(data.len() > 500, "{} choices", data.len());
    for c in &data {
        if let SeatMove::Drew { legal: Some(l) } = c.mv {
            assert!(
                c.hand.inter(l).is_empty(),
                "the heuristic drew while a card fitted"
            );
        }
    }
    let start = IsmctsParams::default();
    let uniform = ModelWeights {
        noise: 1.0 - 1e-9,
        void: 1.0 - 1e-9,
        ..start.model
    };
    let fitted = fit(&data, start).model;
    let (u, s, f) = (
        mean_ll(&data, &uniform),
        mean_ll(&data, &start.model),
        mean_ll(&data, &fitted),
    );
    assert!(
        f >= s && s > u,
        "uniform {u:.4}, start {s:.4}, fitted {f:.4}"
    );
}

#[cfg(feature = "research")]
#[test]
fn fit_opponent_model() {
    let opps = std::env::var("FIT_OPP").unwrap_or_else(|_| "heuristic,greedy,first".into());
    let games: u64 = std::env::var("FIT_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(400);
    let start = IsmctsParams::default();
    for opp in opps.split(',') {
        let data = record(opp, games);
        let fitted = fit(&data, start);
        let keys: Vec<String> = FITTED
            .iter()
            .map(|n| format!("{n}={:.3}", fitted.get_param(n).expect("registered")))
            .collect();
        println!(
            "{opp}: {} choices, mean log-likelihood {:.4} (default) -> {:.4} (fitted): {}",
            data.len(),
            mean_ll(&data, &start.model),
            mean_ll(&data, &fitted.model),
            keys.join(",")
        );
    }
}
