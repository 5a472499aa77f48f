//! The search's bit-mask state ([`FastSim`]) against the server's state machine ([`Game`]):
//! the same action from the same position gives the same public outcome, and determinizations
//! sampled from the tracker are consistent with the truth.

use kibitz_maumau::agents::MauMauAgent;
use kibitz_maumau::arena::play_game_with;
use kibitz_maumau::game::{Action, Config, ExhaustionWinner, Game, Phase};
use kibitz_maumau::game_impl::MauMau;
use kibitz_maumau::mcts::IsmctsParams;
use kibitz_maumau::model::ModelWeights;
use kibitz_maumau::sim::{Determinizer, EvidenceWeights, FastSim, SimRng};
use kibitz_maumau::{Card, CardSet};
use kibitz_search::agent::Agent;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn to_sim(g: &Game) -> FastSim {
    FastSim::from_game(g).expect("at a decision")
}

/// Runs turn starts up to the next decision; true if a draw-two failed (the game then ends
/// after this turn whatever happens, which a `FastSim` built from the position cannot know).
fn advance(g: &mut Game, rng: &mut ChaCha8Rng) -> bool {
    let mut failed = false;
    while g.phase() == Phase::BeginTurn {
        failed |= g.begin_turn(rng).expect("begin").draw_two == kibitz_maumau::DrawTwo::Failed;
    }
    failed
}

#[test]
fn fast_sim_follows_the_server_rules() {
    let mut checked = 0;
    for (players, rule) in [
        (2, ExhaustionWinner::SecondSeat),
        (3, ExhaustionWinner::MostValidMoves),
        (4, ExhaustionWinner::SecondSeat),
    ] {
        let cfg = Config {
            players,
            exhaustion_winner: rule,
        };
        for seed in 0..150u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut srng = SimRng::new(seed);
            let mut g = Game::deal(cfg, &mut rng);
            advance(&mut g, &mut rng);
            let mut acts = Vec::new();
            while g.outcome().is_none() && g.turns() < 400 {
                let sim = to_sim(&g);
                let Phase::Answer(seat) = g.phase() else {
                    unreachable!()
                };
                acts.clear();
                sim.candidate_actions(&mut acts);
                // The candidates are the server's legal plays (each once, a Jack once per
                // wish) and drawing.
                let played: CardSet = acts
                    .iter()
                    .filter_map(|a| match a {
                        Action::Play { card, .. } => Some(*card),
                        Action::Draw => None,
                    })
                    .collect();
                assert_eq!(played, g.legal_plays(seat), "seed {seed} {sim:?}");
                assert_eq!(acts.last(), Some(&Action::Draw));
                // Hoard often, so that reshuffles and exhaustion happen.
                let a = if rng.random_bool(0.4) {
                    Action::Draw
                } else {
                    acts[rng.random_range(0..acts.len())]
                };
                let mut s2 = sim;
                s2.apply_action(a, &mut srng);
                g.act(a, &mut rng).expect("answer");
                let failed = advance(&mut g, &mut rng);
                checked += 1;
                match g.outcome() {
                    Some(end) => {
                        assert_eq!(
                            s2.winner(),
                            Some(end.winner()),
                            "seed {seed} {a:?} {sim:?} {s2:?}"
                        );
                        break;
                    }
                    None => assert_eq!(s2.winner(), None, "seed {seed} {a:?} {sim:?} {s2:?}\n{g}"),
                }
                assert_eq!(s2.mover(), g.turn(), "seed {seed}");
                assert_eq!((s2.top(), s2.wish()), (g.top(), g.wish()));
                for s in 0..players {
                    assert_eq!(s2.hand(s).len(), g.hand_size(s), "seed {seed} seat {s}");
                    if let Action::Play { .. } = a {
                        if s != g.turn() {
                            assert_eq!(s2.hand(s), g.hand(s));
                        }
                    }
                }
                assert_eq!(s2.talon().len(), g.talon_len(), "seed {seed}");
                if failed {
                    break;
                }
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn determinizations_keep_what_the_tracker_knows() {
    let ev = EvidenceWeights {
        per_draw: 0.5,
        void: 0.05,
        decay: 0.7,
        wish: 3.0,
        jack: 0.3,
    };
    let on = IsmctsParams::default().model;
    assert!(on.is_on(), "the default player uses the opponent model");
    for (players, model) in [
        (2, ModelWeights::OFF),
        (3, ModelWeights::OFF),
        (2, on),
        (3, on),
    ] {
        let cfg = Config {
            players,
            ..Config::default()
        };
        for seed in 0..60u64 {
            let mut players_v: Vec<Box<dyn Agent<MauMau> + Send>> = (0..players)
                .map(|s| {
                    Box::new(
                        MauMauAgent::random()
                            .at_table(cfg)
                            .seated(s, seed * 7 + s as u64),
                    ) as Box<dyn Agent<MauMau> + Send>
                })
                .collect();
            let mut rng = SimRng::new(seed);
            play_game_with(cfg, seed, &mut players_v, None, &mut |game, know| {
                let det = Determinizer::new(know, &ev, &model, &mut rng);
                for _ in 0..3 {
                    let d = det.sample(&mut rng);
                    let me = know.me();
                    assert_eq!(d.mover(), me);
                    assert_eq!(d.hand(me), game.hand(me));
                    assert_eq!(d.talon().len(), game.talon_len(), "seed {seed}");
                    let mut all = d.talon().0 | d.pile().0 | CardSet::single(d.top()).0;
                    for s in 0..game.players() {
                        assert_eq!(d.hand(s).len(), game.hand_size(s));
                        assert!(know.known(s).minus(d.hand(s)).is_empty());
                        all |= d.hand(s).0;
                    }
                    assert_eq!(all, u32::MAX, "seed {seed}");
                    assert_eq!(d.top(), game.top());
                    let _ = Card::from_index(0);
                }
            });
        }
    }
}
