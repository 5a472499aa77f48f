//! Self-play between the baseline players with the card tracker checked against the true game
//! at every decision, and a sampled determinization checked for consistency.

use kibitz_maumau::agents::{make_agent, AgentOptions, HeuristicParams, MauMauAgent};
use kibitz_maumau::arena::{play_game, play_game_with, GameRecord};
use kibitz_maumau::determinize::Determinizer;
use kibitz_maumau::game::{Config, ExhaustionWinner, Phase};
use kibitz_maumau::knowledge::SeatMove;
use kibitz_maumau::mcts::IsmctsParams;
use kibitz_maumau::CardSet;
use kibitz_search::agent::Agent;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

mod common;
use common::{at, seat, Boxed, Dawdle};

fn check_games(cfg: Config, games: u64, mk: impl Fn(u64) -> Vec<Boxed>) -> u64 {
    let mut decisions = 0;
    for seed in 0..games {
        let mut players = mk(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        play_game_with(cfg, seed, &mut players, None, &mut |game, know| {
            decisions += 1;
            if let Err(e) = know.check_against(game) {
                panic!("seed {seed}: tracker wrong: {e}\n{game}");
            }
            // The opponent model's log adds up: 7 dealt + taken − played = the hand now, and
            // every play it records fitted what it says was legal.
            for o in (0..game.players()).filter(|&o| o != know.me()) {
                let (mut played, mut taken) = (0usize, 0usize);
                for m in know.seat_moves(o) {
                    match m {
                        SeatMove::Played { card, legal } => {
                            played += 1;
                            assert!(legal.is_none_or(|l| l.contains(card)), "seed {seed}");
                        }
                        SeatMove::Drew { .. } => taken += 1,
                        SeatMove::Took { n } => taken += n as usize,
                        SeatMove::Wished { suit } => assert!(suit.index() < 4),
                    }
                }
                assert_eq!(played, know.valid_moves(o) as usize, "seed {seed} seat {o}");
                assert_eq!(
                    7 + taken - played,
                    game.hand_size(o),
                    "seed {seed} seat {o}"
                );
            }
            // A determinization keeps what we know and the card counts.
            let d = know.sample(&mut rng);
            assert_eq!(d.phase(), Phase::Answer(know.me()));
            assert_eq!(d.hand(know.me()), game.hand(know.me()));
            assert_eq!(d.talon_len(), game.talon_len(), "seed {seed}");
            let mut all = CardSet::EMPTY;
            for s in 0..game.players() {
                assert_eq!(d.hand_size(s), game.hand_size(s));
                all = all.union(d.hand(s));
            }
            all = all.union(d.pile().iter().copied().collect());
            all = all.union(d.talon().iter().copied().collect());
            assert_eq!(all, CardSet::FULL);
            // With every hand revealed (the arena's `peek`), both samplers deal the true
            // hands and leave the true talon.
            let mut seen = know.clone();
            for s in 0..game.players() {
                seen.reveal(s, game.hand(s));
            }
            let d = seen.sample(&mut rng);
            // The default model with a quarter of its particles: the same code (the forward
            // filter in two-seat games), a quarter of the replays.
            let mut p = IsmctsParams::default();
            p.model.particles = 64;
            let f = Determinizer::new(&seen, &p.evidence, &p.model, &mut rng).sample(&mut rng);
            for s in 0..game.players() {
                assert_eq!(d.hand(s), game.hand(s), "seed {seed} seat {s}");
                assert_eq!(f.hand(s), game.hand(s), "seed {seed} seat {s}");
            }
            let talon: CardSet = game.talon().iter().copied().collect();
            assert_eq!(f.talon(), talon, "seed {seed}");
            // Part of a hand revealed (`peek` below 1): those cards are in every sample.
            let mut part = know.clone();
            let even = CardSet(0x5555_5555);
            for s in 0..game.players() {
                part.reveal(s, game.hand(s).inter(even));
            }
            let f = Determinizer::new(&part, &p.evidence, &p.model, &mut rng).sample(&mut rng);
            for s in (0..game.players()).filter(|&s| s != know.me()) {
                let shown = game.hand(s).inter(even);
                assert_eq!(f.hand(s).inter(shown), shown, "seed {seed} seat {s}");
            }
        });
    }
    decisions
}

#[test]
fn tracker_is_exact_in_random_two_player_games() {
    let n = check_games(Config::default(), 300, |s| {
        seat(vec![
            (Box::new(MauMauAgent::random()), s),
            (Box::new(MauMauAgent::random()), s + 1000),
        ])
    });
    assert!(n > 1000);
}

#[test]
fn tracker_is_exact_and_first_fit_never_holds_back() {
    // The first-fit bot plays a card whenever one fits: it never draws with a legal card.
    let mut draws_while_legal = 0;
    let n = check_games(Config::default(), 100, |s| {
        seat(vec![
            (Box::new(MauMauAgent::first()), 0),
            (Box::new(MauMauAgent::random()), s),
        ])
    });
    let mut first = MauMauAgent::first();
    for seed in 0..100 {
        let mut players = seat(vec![
            (Box::new(MauMauAgent::first()), 0),
            (Box::new(MauMauAgent::first()), 0),
        ]);
        play_game_with(
            Config::default(),
            seed,
            &mut players,
            None,
            &mut |_, know| {
                let tc = kibitz_search::time::TimeControl::infinite();
                let legal = know.legal_plays();
                match first.decide(know, &tc).action {
                    kibitz_maumau::Action::Draw => draws_while_legal += !legal.is_empty() as u32,
                    kibitz_maumau::Action::Play { card, .. } => assert!(legal.contains(card)),
                }
            },
        );
    }
    assert!(n > 500);
    assert_eq!(draws_while_legal, 0);
}

#[test]
fn tracker_is_exact_with_hoarding_and_reshuffles() {
    // Greedy against a player that draws whenever it may: long games, reshuffles, exhaustion.
    check_games(Config::default(), 100, |_| {
        seat(vec![
            (Box::new(MauMauAgent::greedy()), 0),
            (Box::new(Dawdle::hoard()), 0),
        ])
    });
    check_games(Config::default(), 20, |_| {
        seat(vec![
            (Box::new(Dawdle::hoard()), 0),
            (Box::new(Dawdle::hoard()), 0),
        ])
    });
}

#[test]
fn tracker_is_exact_with_more_players() {
    for players in 3..=4 {
        let cfg = Config {
            players,
            exhaustion_winner: ExhaustionWinner::MostValidMoves,
        };
        check_games(cfg, 50, |s| {
            seat(
                (0..players as u64)
                    .map(|i| (at(cfg, MauMauAgent::random()), s * 7 + i))
                    .collect(),
            )
        });
    }
}

/// Plays every deal of `deals` once per seat of A at a table of `cfg.players` seats (A against
/// copies of B, the seats rotated over the same deck), one game after another; returns every
/// game with A's seat. Matches proper are the `kibitz` arena's; this is what the engine's own
/// tests need of one.
fn rotated_games(
    cfg: Config,
    deals: std::ops::Range<u64>,
    make_a: impl Fn() -> MauMauAgent,
    make_b: impl Fn() -> MauMauAgent,
) -> Vec<(usize, GameRecord)> {
    let n = cfg.players;
    let mut out = Vec::new();
    for deal in deals {
        for a_seat in 0..n {
            let pseed = deal * 16 + a_seat as u64;
            let mut players = seat(
                (0..n)
                    .map(|s| {
                        if s == a_seat {
                            (at(cfg, make_a()), pseed)
                        } else {
                            (at(cfg, make_b()), pseed ^ (0x5555 + s as u64))
                        }
                    })
                    .collect(),
            );
            out.push((a_seat, play_game(cfg, deal, &mut players, None)));
        }
    }
    out
}

#[test]
fn heuristics_beat_random() {
    let games = rotated_games(
        Config::default(),
        1..151,
        || MauMauAgent::heuristic(HeuristicParams::default()),
        MauMauAgent::random,
    );
    assert_eq!(games.len(), 300);
    let a_wins = games.iter().filter(|(a, r)| r.end.winner() == *a).count();
    assert!(a_wins > 170, "{a_wins}");
    assert!(games.iter().all(|(_, r)| r.penalties == [0; 4]));
}

/// Garbage from the network (impossible cards, sizes, seats, orders) must never panic the
/// tracker, its sampler or a searching player, and a chosen play must come from our hand.
#[test]
fn tracker_and_players_survive_garbage_notices() {
    use kibitz_maumau::knowledge::{Knowledge, Notice};
    use kibitz_maumau::{Action, Card, DrawTwo, Suit};
    use rand::Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let card = |r: &mut ChaCha8Rng| Card::from_index(r.random_range(0..32)).unwrap();
    for round in 0..300 {
        let mut k = Knowledge::new(Config::default(), round % 3);
        for _ in 0..rng.random_range(1..40) {
            let n = match rng.random_range(0..4) {
                0 => Notice::Broadcast {
                    seat: rng.random_range(0..6),
                    top: card(&mut rng),
                    cards_left: rng.random_range(0..usize::MAX),
                    skipped: rng.random(),
                },
                1 => Notice::Private {
                    top: card(&mut rng),
                    wish: Suit::from_index(rng.random_range(0..6)),
                    cards_left: rng.random_range(0..40),
                    draw_two: match rng.random_range(0..3) {
                        0 => DrawTwo::None,
                        1 => DrawTwo::Failed,
                        _ => DrawTwo::Drawn([card(&mut rng), card(&mut rng)]),
                    },
                    hand: rng.random_bool(0.3).then(|| CardSet(rng.random::<u32>())),
                },
                2 => Notice::DrawReply {
                    card: rng.random_bool(0.8).then(|| card(&mut rng)),
                    penalty: rng.random(),
                },
                _ => Notice::Won {
                    seat: rng.random_range(0..9),
                },
            };
            k.observe(&n);
        }
        let g = k.sample(&mut rng);
        assert!(g.pile().len() + g.talon_len() <= 32);
        let opts = AgentOptions {
            iterations: Some(50),
            ..AgentOptions::default()
        };
        let players = [
            kibitz_maumau::agents::parse_agent("ismcts", &opts)
                .unwrap()
                .seated(0, round as u64),
            MauMauAgent::heuristic(HeuristicParams::default()),
            MauMauAgent::greedy(),
            MauMauAgent::first(),
        ];
        for mut pl in players {
            let tc = kibitz_search::time::TimeControl::infinite();
            if let Action::Play { card, .. } = pl.decide(&k, &tc).action {
                assert!(k.hand().contains(card), "{}", pl.name());
            }
        }
    }
}

#[test]
fn player_specs_parse() {
    let capped = AgentOptions {
        iterations: Some(10),
        ..AgentOptions::default()
    };
    for ok in [
        "random",
        "first",
        "greedy",
        "heuristic:seven=3,jack_cost=10",
        "ismcts:c=0.5,eps=0.2,rollout=100",
        "ismcts:iters=100,param.pb=0.5,param.ev_draw=0.1,param.early_stop=0",
        "ismcts-legacy:iters=50",
    ] {
        assert!(make_agent(ok, &capped).is_ok(), "{ok}");
    }
    for bad in [
        "alphazero",
        "ismcts:c",
        "ismcts:z=1",
        "ismcts:param.zzz=1",
        "ismcts:param.c=inf",
        "heuristic:seven=x",
        "random:x=1",
        "first:x=1",
    ] {
        assert!(make_agent(bad, &AgentOptions::default()).is_err(), "{bad}");
    }
}

/// At a reshuffle the talon is empty, so the opponent's hand is every card not seen
/// elsewhere: the tracker must pin it down (up to the cards drawn since).
#[test]
fn reshuffle_reveals_the_opponents_hand() {
    let (mut checked, mut pinned) = (0, 0);
    for seed in 0..40 {
        let mut players = seat(vec![
            (Box::new(MauMauAgent::greedy()), 0),
            (Box::new(Dawdle::hoard()), 0),
        ]);
        let mut seen = 0;
        play_game_with(
            Config::default(),
            seed,
            &mut players,
            None,
            &mut |game, know| {
                if know.me() == 0 && know.reshuffles() > seen {
                    seen = know.reshuffles();
                    let known = know.known(1);
                    assert_eq!(known.minus(game.hand(1)), CardSet::EMPTY);
                    // Exact after an empty-talon reshuffle except for what the opponent drew
                    // since; a draw-two reshuffle with one card left open leaves some doubt.
                    if known.len() + 2 >= game.hand_size(1) {
                        pinned += 1;
                    }
                    checked += 1;
                }
            },
        );
    }
    assert!(checked >= 10, "only {checked} reshuffles seen");
    assert!(pinned * 10 >= checked * 9, "pinned {pinned} of {checked}");
}

/// Root-parallel ISMCTS (two searches merged) plays complete legal games.
#[test]
fn root_parallel_ismcts_plays_legal_games() {
    let games = rotated_games(
        Config::default(),
        11..13,
        || {
            let opts = AgentOptions {
                iterations: Some(300),
                threads: 2,
                ..AgentOptions::default()
            };
            kibitz_maumau::agents::parse_agent("ismcts", &opts).unwrap()
        },
        MauMauAgent::random,
    );
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|(_, r)| r.penalties == [0; 4]));
}

/// `threads=` in the spec: refused outside 1–64; root-parallel searches also run when the
/// caller sits in a one-thread rayon pool (as the arena at `--concurrency 1`).
#[test]
fn threads_from_the_spec_play_in_a_one_thread_pool() {
    use kibitz_maumau::agents::parse_agent;
    let opts = AgentOptions::default();
    for bad in [
        "ismcts:threads=0",
        "ismcts:threads=1.5",
        "ismcts:threads=65",
    ] {
        assert!(parse_agent(bad, &opts).is_err(), "{bad}");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let games = pool.install(|| {
        rotated_games(
            Config::default(),
            11..12,
            || parse_agent("ismcts:threads=2,iters=300", &opts).unwrap(),
            MauMauAgent::random,
        )
    });
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|(_, r)| r.penalties == [0; 4]));
}

#[test]
fn table_rotates_seats_over_each_deal() {
    let cfg = Config {
        players: 3,
        ..Config::default()
    };
    let games = rotated_games(
        cfg,
        9..49,
        || MauMauAgent::heuristic(HeuristicParams::default()),
        MauMauAgent::random,
    );
    assert_eq!(games.len(), 120);
    assert!(games.iter().all(|(a, r)| r.penalties[*a] == 0));
    // The heuristic wins clearly more than its fair third against random players.
    let a_wins = games.iter().filter(|(a, r)| r.end.winner() == *a).count();
    assert!(a_wins > 50, "{a_wins}");
}
