//! The Piranhas agents: the one spec parser builds every kind, the search agent reports what
//! it knows in its `Decision`, random agents replay the games of the players they replaced,
//! and the referee's loop tells every agent each move once.

use kibitz_piranhas::agents::{agent, AgentKind, AgentSpec, SearchAgent};
use kibitz_piranhas::arena::play_game;
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_piranhas::{EngineConfig, EvalParams, Move, State};
use kibitz_search::agent::{Agent, Decision, Played, View};
use kibitz_search::game::Turn;
use kibitz_search::time::TimeControl;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

fn start() -> State {
    State::start([(2, 3), (6, 6)])
}

fn choose(a: &mut dyn Agent<Piranhas>, state: State) -> Decision<Move> {
    let game = Piranhas(state);
    a.choose(
        &View::new(&game, state.current() as usize),
        &TimeControl::infinite(),
    )
}

#[test]
fn specs_parse_and_reject_garbage() {
    let s: AgentSpec = "search:time=100,depth=6,param.rim=9,eval=v1"
        .parse()
        .unwrap();
    assert_eq!(s.kind, AgentKind::Search);
    assert_eq!(s.time, Some(Duration::from_millis(100)));
    assert_eq!(s.config.search.max_depth, 6);
    // eval=v1 comes after param.rim, so it resets the weights.
    assert_eq!(s.config.eval, EvalParams::V1);
    let s: AgentSpec = "search:depth=3".parse().unwrap();
    assert_eq!(s.time, None);
    assert!("search:param.nope=1".parse::<AgentSpec>().is_err());
    let s: AgentSpec = "search:nodes=9,param.lmr=0,param.fish=12".parse().unwrap();
    assert!(!s.config.search.lmr);
    assert_eq!(s.config.eval.fish, 12);
    let s: AgentSpec = "search:depth=2,eval=v2".parse().unwrap();
    assert_eq!(s.config.eval, EvalParams::TUNED);
    assert!("search:time=x".parse::<AgentSpec>().is_err());
    assert!("chess".parse::<AgentSpec>().is_err());
    assert!("greedy".parse::<AgentSpec>().is_ok());
    let e = agent("random:colour=red").err().unwrap();
    assert_eq!(
        e.to_string(),
        "bad option \"colour=red\" for player \"random:colour=red\""
    );
}

#[test]
fn the_one_parser_builds_every_kind() {
    for (spec, name) in [
        ("random", "random"),
        ("random:seed=4", "random"),
        ("greedy:eval=v1", "greedy"),
        ("search:depth=1,hash=1", "search"),
        ("ab:depth=1,hash=1", "search"),
    ] {
        let mut a = agent(spec).unwrap();
        assert_eq!(a.name(), name, "{spec}");
        a.new_game(0, 1);
        let d = choose(a.as_mut(), start());
        assert!(start().is_legal(d.action), "{spec}");
    }
}

#[test]
fn search_agents_tell_what_they_thought_and_others_do_not() {
    let mut s = agent("search:depth=3").unwrap();
    let d = choose(s.as_mut(), start());
    assert_eq!(d.depth, Some(3));
    assert!(d.nodes > 0 && d.score.is_some());
    assert_eq!(d.pv.first(), Some(&d.action));
    for spec in ["random", "greedy"] {
        let d = choose(agent(spec).unwrap().as_mut(), start());
        assert_eq!((d.score, d.pv.len()), (None, 0), "{spec}");
    }
    let d = choose(agent("greedy").unwrap().as_mut(), start());
    assert_eq!(d.depth, Some(1));
    assert_eq!(d.nodes, start().legal_moves().len() as u64);
}

#[test]
fn time_is_the_move_budget_under_the_clock_rule() {
    let ms = Duration::from_millis;
    let s: AgentSpec = "search:time=1200".parse().unwrap();
    let tc = s.time_control();
    assert_eq!((tc.soft(), tc.hard()), (Some(ms(600)), Some(ms(1200))));
    let s: AgentSpec = "search:time=1200,hard=1500".parse().unwrap();
    assert_eq!(s.time_control().hard(), Some(ms(1500)));
    let s: AgentSpec = "search".parse().unwrap();
    let tc = s.time_control();
    assert_eq!((tc.soft(), tc.hard()), (Some(ms(1000)), Some(ms(2000))));
    let s: AgentSpec = "search:depth=4".parse().unwrap();
    assert_eq!(s.time_control().hard(), None);
}

#[test]
fn the_callers_stop_flag_stops_an_agent_with_its_own_budget() {
    // An own budget of 100 s, but the caller has already stopped the clock: the search
    // must give up at once (depth 1 at most) rather than think for its budget.
    let mut a = SearchAgent::with_budget(
        EngineConfig::default(),
        Some(Duration::from_secs(100)),
        None,
    );
    let clock = TimeControl::infinite();
    clock.stop();
    let game = Piranhas(start());
    let d = a.choose(&View::new(&game, 0), &clock);
    assert!(start().is_legal(d.action));
    assert!(d.depth.unwrap_or(0) <= 1, "searched to depth {:?}", d.depth);
}

#[test]
fn random_agents_replay_the_old_random_players_games() {
    // The random player before the agents: ChaCha8 seeded with the game's seed, one
    // `choose` over the legal moves per move.
    for seed in [1u64, 2, 77] {
        let mut old = ChaCha8Rng::seed_from_u64(seed);
        let mut new = agent("random").unwrap();
        new.new_game(1, seed);
        let mut state = start();
        while state.outcome().is_none() {
            let want = *state.legal_moves().choose(&mut old).unwrap();
            assert_eq!(choose(new.as_mut(), state).action, want, "seed {seed}");
            state = state.apply(want).unwrap();
        }
    }
    // A fixed seed wins over the game's.
    let mut a = agent("random:seed=5").unwrap();
    let mut b = agent("random").unwrap();
    a.new_game(0, 9);
    b.new_game(0, 5);
    assert_eq!(
        choose(a.as_mut(), start()).action,
        choose(b.as_mut(), start()).action
    );
}

/// Records what it is told and plays the first legal move.
#[derive(Default)]
struct Listener {
    seat: Option<(usize, u64)>,
    told: Vec<Played<Move>>,
}

impl Agent<Piranhas> for Listener {
    fn name(&self) -> String {
        "listener".into()
    }
    fn new_game(&mut self, seat: usize, seed: u64) {
        self.seat = Some((seat, seed));
    }
    fn observe(&mut self, event: &Played<Move>) {
        self.told.push(event.clone());
    }
    fn choose(&mut self, view: &View<'_, Piranhas>, _: &TimeControl) -> Decision<Move> {
        assert_eq!(view.turn(), Turn::Seat(self.seat.unwrap().0));
        Decision::action(view.legal_actions()[0])
    }
}

#[test]
fn the_referee_seats_seeds_and_tells_every_move_once() {
    let (mut red, mut blue) = (Listener::default(), Listener::default());
    let rec = play_game([&mut red, &mut blue], [11, 12], [(2, 3), (6, 6)]);
    assert!(rec.result.is_some() && rec.violation.is_none());
    assert_eq!((red.seat, blue.seat), (Some((0, 11)), Some((1, 12))));
    let expect: Vec<Played<Move>> = rec
        .moves
        .iter()
        .enumerate()
        .map(|(i, &m)| Played {
            actor: Turn::Seat(i % 2),
            action: m,
        })
        .collect();
    assert_eq!(red.told, expect);
    assert_eq!(blue.told, expect);
    assert_eq!(rec.decisions.len(), rec.moves.len());
}

/// Plays an illegal move (a move of the other colour's fish).
struct Cheat;

impl Agent<Piranhas> for Cheat {
    fn name(&self) -> String {
        "cheat".into()
    }
    fn choose(&mut self, view: &View<'_, Piranhas>, _: &TimeControl) -> Decision<Move> {
        let mut s = view.observation().0;
        s = s.apply(s.legal_moves()[0]).unwrap();
        Decision::action(s.legal_moves()[0])
    }
}

#[test]
fn an_illegal_choice_loses_and_is_named() {
    let mut other = agent("random").unwrap();
    let rec = play_game([&mut Cheat, other.as_mut()], [1, 2], [(2, 3), (6, 6)]);
    assert_eq!(rec.winner, Some(kibitz_piranhas::Color::Blue));
    assert!(rec.moves.is_empty());
    let (c, _) = rec.violation.expect("a violation");
    assert_eq!(c, kibitz_piranhas::Color::Red);
}

#[test]
fn eval_v5_is_selectable_by_name_and_its_weights_are_tunables() {
    let s: AgentSpec = "search:nodes=100,eval=v5".parse().unwrap();
    assert_eq!(s.config.eval, EvalParams::V5);
    assert_ne!(s.config.eval, EvalParams::V4);
    // The default stays v4; v5 differs from it only in the round-limit weights.
    assert_eq!(EvalParams::default(), EvalParams::V4);
    let v4_again = EvalParams {
        proj: 0,
        outcome: 0,
        exposed: 0,
        ..EvalParams::V5
    };
    assert_eq!(v4_again, EvalParams::V4);
    // The new weights are listed with the other tunables (`kibitz piranhas params`) and
    // settable in a spec after the preset.
    let names: Vec<&str> = kibitz_piranhas::param_specs()
        .iter()
        .map(|p| p.name)
        .collect();
    for name in ["proj", "outcome", "exposed"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let s: AgentSpec = "search:nodes=100,eval=v5,param.outcome=7".parse().unwrap();
    assert_eq!(s.config.eval.outcome, 7);
    assert_eq!(s.config.eval.proj, EvalParams::V5.proj);
    // A game between v5 and v4 runs to its end by the rules.
    let (mut a, mut b) = (
        agent("search:nodes=300,eval=v5").unwrap(),
        agent("search:nodes=300,eval=v4").unwrap(),
    );
    let r = play_game([a.as_mut(), b.as_mut()], [1, 2], [(3, 3), (6, 7)]);
    assert!(r.violation.is_none() && r.result.is_some(), "{r:?}");
}
