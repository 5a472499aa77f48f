//! The agents as the callers drive them: a bot client's seen view against the referee's, the
//! notices each agent is told, and what a search reports in its decision.

use kibitz_maumau::agents::{parse_agent, seen, AgentOptions, HeuristicParams, MauMauAgent};
use kibitz_maumau::arena::{play_game, play_game_with};
use kibitz_maumau::game::Config;
use kibitz_maumau::game_impl::MauMau;
use kibitz_maumau::knowledge::{Knowledge, Notice};
use kibitz_maumau::{Action, CardSet};
use kibitz_search::agent::{Agent, Decision, View};
use kibitz_search::time::TimeControl;
use std::sync::{Arc, Mutex};

mod common;
use common::{seat, Boxed};

/// At every decision of whole games, the view a bot client builds from its tracker alone
/// ([`seen`]) offers exactly the referee's legal actions and the same hand, hand sizes,
/// talon, wish, played counts and pile (as a set, top card last).
#[test]
fn a_seen_view_offers_the_referees_legal_actions() {
    let mut decisions = 0;
    for seed in 0..60 {
        let mut agents = seat(vec![
            (Box::new(MauMauAgent::random()), seed),
            (Box::new(MauMauAgent::greedy()), seed),
        ]);
        play_game_with(
            Config::default(),
            seed,
            &mut agents,
            None,
            &mut |game, know| {
                decisions += 1;
                let state = MauMau::from_game(game.clone(), 0, game.turns());
                let me = know.me();
                let referee = View::new(&state, me);
                let client = View::seen(me, seen(know, game.turns()));
                assert_eq!(
                    client.legal_actions(),
                    referee.legal_actions(),
                    "seed {seed}"
                );
                let (r, c) = (referee.observation(), client.observation());
                assert_eq!(
                    (
                        r.seat,
                        r.hand,
                        &r.hand_sizes,
                        r.talon_len,
                        r.wish,
                        &r.played,
                        r.turns
                    ),
                    (
                        c.seat,
                        c.hand,
                        &c.hand_sizes,
                        c.talon_len,
                        c.wish,
                        &c.played,
                        c.turns
                    ),
                    "seed {seed}"
                );
                let set = |p: &[kibitz_maumau::Card]| p.iter().copied().collect::<CardSet>();
                assert_eq!(set(&r.pile), set(&c.pile), "seed {seed}");
                assert_eq!(r.pile.last(), c.pile.last(), "seed {seed}");
                assert_eq!(client.turn(), referee.turn());
            },
        );
    }
    assert!(decisions > 1000, "{decisions}");
}

/// Records what it is told and checks, at each decision, that its own tracker (fed only by
/// `observe`) agrees with the referee's view: a notice told twice or not at all would put
/// hand sizes or the hand off.
struct Recorder {
    inner: MauMauAgent,
    know: Knowledge,
    told: Arc<Mutex<Vec<Notice>>>,
    asked: usize,
}

impl Agent<MauMau> for Recorder {
    fn name(&self) -> String {
        "recorder".into()
    }
    fn new_game(&mut self, seat: usize, seed: u64) {
        self.know = Knowledge::new(Config::default(), seat);
        self.inner.new_game(seat, seed);
    }
    fn observe(&mut self, notice: &Notice) {
        self.told.lock().unwrap().push(*notice);
        self.know.observe(notice);
        self.inner.observe(notice);
    }
    fn choose(&mut self, view: &View<'_, MauMau>, clock: &TimeControl) -> Decision<Action> {
        self.asked += 1;
        let o = view.observation();
        assert_eq!(self.know.hand(), o.hand);
        let sizes: Vec<usize> = (0..2).map(|s| self.know.hand_size(s)).collect();
        assert_eq!(sizes, o.hand_sizes);
        let d = self.inner.choose(view, clock);
        assert!(view.legal_actions().contains(&d.action), "{:?}", d.action);
        d
    }
}

#[test]
fn every_agent_is_told_each_notice_once_and_answers_a_legal_action() {
    for seed in 0..30 {
        let told = [(); 2].map(|_| Arc::new(Mutex::new(Vec::new())));
        let recorder = |inner: MauMauAgent, told: &Arc<Mutex<Vec<Notice>>>| -> Boxed {
            Box::new(Recorder {
                inner,
                know: Knowledge::new(Config::default(), 0),
                told: told.clone(),
                asked: 0,
            })
        };
        let mut agents = seat(vec![
            (
                recorder(MauMauAgent::heuristic(HeuristicParams::default()), &told[0]),
                seed,
            ),
            (recorder(MauMauAgent::random(), &told[1]), seed),
        ]);
        let rec = play_game(Config::default(), seed, &mut agents, None);
        let [a, b] = told.map(|t| t.lock().unwrap().clone());
        let broadcasts = |t: &[Notice]| -> Vec<Notice> {
            t.iter()
                .filter(|n| matches!(n, Notice::Broadcast { .. }))
                .copied()
                .collect()
        };
        // Both seats hear every broadcast, in the same order, and the one result last.
        assert_eq!(broadcasts(&a), broadcasts(&b), "seed {seed}");
        assert_eq!(broadcasts(&a).len() as u32, rec.turns, "seed {seed}");
        for t in [&a, &b] {
            let won = Notice::Won {
                seat: rec.end.winner(),
            };
            assert_eq!(t.last(), Some(&won));
            assert_eq!(
                t.iter().filter(|n| matches!(n, Notice::Won { .. })).count(),
                1
            );
            // The hand comes once, in the seat's first private message.
            let hands = t
                .iter()
                .filter(|n| matches!(n, Notice::Private { hand: Some(_), .. }));
            assert_eq!(hands.count(), 1, "seed {seed}");
        }
    }
}

/// An ISMCTS decision carries the search: iterations as nodes, the chosen action's win rate
/// as score and its root visits in `stats`; simple players report no search.
#[test]
fn an_ismcts_decision_reports_iterations_win_rate_and_visits() {
    let opts = AgentOptions {
        iterations: Some(200),
        ..AgentOptions::default()
    };
    let thought = Arc::new(Mutex::new(Vec::new()));
    struct Spy(MauMauAgent, Arc<Mutex<Vec<Decision<Action>>>>);
    impl Agent<MauMau> for Spy {
        fn name(&self) -> String {
            self.0.name()
        }
        fn new_game(&mut self, seat: usize, seed: u64) {
            self.0.new_game(seat, seed);
        }
        fn observe(&mut self, n: &Notice) {
            self.0.observe(n);
        }
        fn choose(&mut self, v: &View<'_, MauMau>, c: &TimeControl) -> Decision<Action> {
            let d = self.0.choose(v, c);
            self.1.lock().unwrap().push(d.clone());
            d
        }
    }
    let mut agents = seat(vec![
        (
            Box::new(Spy(parse_agent("ismcts", &opts).unwrap(), thought.clone())) as Boxed,
            3,
        ),
        (Box::new(Spy(MauMauAgent::greedy(), Arc::default())), 3),
    ]);
    play_game(Config::default(), 3, &mut agents, None);
    let ds = thought.lock().unwrap();
    let searched: Vec<_> = ds.iter().filter(|d| d.nodes > 0).collect();
    assert!(!searched.is_empty());
    for d in searched {
        assert!(d.nodes <= 200, "{}", d.nodes);
        assert!(
            d.score.is_some_and(|s| (0.0..=1.0).contains(&s)),
            "{:?}",
            d.score
        );
        let visits = d.stats.iter().find(|(k, _)| *k == "visits").map(|x| x.1);
        assert!(
            visits.is_some_and(|v| v >= 1.0 && v <= d.nodes as f64),
            "{visits:?}"
        );
    }
}

/// The same spec and seed play the same game; another seed of the random agent another.
#[test]
fn same_seeds_same_games() {
    let play = |seed_a: u64| {
        let mut agents = seat(vec![
            (Box::new(MauMauAgent::random()), seed_a),
            (Box::new(MauMauAgent::first()), 0),
        ]);
        play_game(Config::default(), 5, &mut agents, None)
    };
    assert_eq!(play(1), play(1));
    assert!((2..12).any(|s| play(s) != play(1)));
}
