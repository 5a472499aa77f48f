//! Tests of `agents`.

use super::*;
use kibitz_search::agent::Seen;
use kibitz_search::game::{Game, Turn};

fn build(spec: &str) -> Box<dyn Agent<ConnectFour> + Send> {
    AgentSpec::parse(spec)
        .unwrap()
        .build(&C4Config::default())
        .unwrap()
}

fn position(moves: &[usize]) -> ConnectFour {
    let mut g = ConnectFour::new_game(&C4Config::default(), 0);
    for m in moves {
        g.apply(m).unwrap();
    }
    g
}

fn tell(agent: &mut dyn Agent<ConnectFour>, moves: &[usize]) {
    for (i, &m) in moves.iter().enumerate() {
        agent.observe(&Played {
            actor: Turn::Seat(i % 2),
            action: m,
        });
    }
}

#[test]
fn the_parser_returns_every_kind_and_names_what_is_wrong() {
    for (spec, name) in [
        ("random", "random"),
        ("weak", "weak"),
        ("engine", "engine"),
        ("kibitz:time=50,hash=4", "engine"),
        ("search:depth=3,nodes=100", "search"),
    ] {
        assert_eq!(build(spec).name(), name, "{spec}");
    }
    let AgentSpec::Engine(e) = AgentSpec::parse("search:nodes=10").unwrap() else {
        panic!("not an engine");
    };
    assert_eq!((e.untimed, e.depth, e.nodes), (true, Some(42), Some(10)));
    let AgentSpec::Engine(e) =
        AgentSpec::parse("engine:depth=4,open=2,fresh=1,param.threat=30").unwrap()
    else {
        panic!("not an engine");
    };
    assert_eq!((e.depth, e.open, e.fresh), (Some(4), 2, true));
    assert_eq!(e.params.get_param("threat"), Some(30.0));
    for bad in [
        "nobody",
        "random:x=1",
        "weak:depth=2",
        "engine:time=soon",
        "search:time=5",
        "search:param.threat=1",
        "engine:param.nope=1",
    ] {
        let err = AgentSpec::parse(bad).unwrap_err().to_string();
        assert!(err.contains(bad), "{bad}: {err}");
    }
    assert_eq!(
        AgentSpec::opponent("self", 8).unwrap(),
        AgentSpec::Engine(EngineSpec {
            open: 2,
            ..EngineSpec::engine(8)
        })
    );
    assert!(AgentSpec::opponent("nobody", 8).is_err());
}

#[test]
fn threads_reach_the_engine_and_bad_counts_are_refused() {
    let threads = |spec: &str| match AgentSpec::parse(spec) {
        Ok(AgentSpec::Engine(e)) => Ok(e.threads),
        Ok(other) => panic!("{spec}: not an engine: {other:?}"),
        Err(err) => Err(err.to_string()),
    };
    assert_eq!(threads("engine"), Ok(1));
    assert_eq!(threads("engine:threads=2,hash=4"), Ok(2));
    assert_eq!(threads("search:threads=3,nodes=100"), Ok(3));
    for bad in [
        "engine:threads=0",
        "engine:threads=65",
        "engine:threads=two",
    ] {
        let err = threads(bad).unwrap_err();
        assert!(err.contains(bad), "{bad}: {err}");
    }
    let AgentSpec::Engine(e) = AgentSpec::parse("engine:threads=2,hash=4").unwrap() else {
        panic!("not an engine");
    };
    let agent = EngineAgent::new(&e, &C4Config::default()).unwrap();
    assert_eq!(agent.engine.threads(), 2);
}

#[test]
fn engine_time_is_its_own_budget_or_the_callers_clock() {
    let ms = Duration::from_millis;
    let config = C4Config::default();
    let agent = |spec: &str| {
        let AgentSpec::Engine(e) = AgentSpec::parse(spec).unwrap().with_default_time(200) else {
            panic!("not an engine");
        };
        EngineAgent::new(&e, &config).unwrap()
    };
    let given = TimeControl::new(ms(7), ms(9));
    // The one clock rule: soft half of the budget, hard all of it.
    let tc = agent("engine").clock(&given);
    assert_eq!((tc.soft(), tc.hard()), (Some(ms(100)), Some(ms(200))));
    // A node budget: only a guard against a runaway move.
    let tc = agent("engine:nodes=5").clock(&given);
    assert_eq!((tc.soft(), tc.hard()), (Some(ms(60_000)), Some(ms(75_000))));
    assert_eq!(agent("search").clock(&given).soft(), None);
    // No time of its own (the bot's engine): the caller's clock, its stop flag shared.
    let AgentSpec::Engine(e) = AgentSpec::parse("engine").unwrap() else {
        panic!("not an engine");
    };
    let tc = EngineAgent::new(&e, &config).unwrap().clock(&given);
    assert_eq!((tc.soft(), tc.hard()), (Some(ms(7)), Some(ms(9))));
    given.stop();
    assert!(tc.stopped());
}

#[test]
fn a_seen_view_gives_the_agent_what_the_referees_view_gives() {
    let moves = [3, 3, 2, 4, 1];
    let state = position(&moves);
    let seat = moves.len() % 2;
    let seen = View::seen(
        seat,
        Seen {
            seats: 2,
            turn: state.turn(),
            observation: state,
            legal: state.legal_actions(),
        },
    );
    let referee = View::new(&state, seat);
    assert_eq!(seen.legal_actions(), referee.legal_actions());
    let tc = TimeControl::infinite();
    let mut a = build("search:depth=4,nodes=3000");
    let mut b = build("search:depth=4,nodes=3000");
    for x in [&mut a, &mut b] {
        x.new_game(seat, 1);
        tell(&mut **x, &moves);
    }
    let (da, db) = (a.choose(&referee, &tc), b.choose(&seen, &tc));
    assert_eq!(
        (da.action, da.score, da.depth),
        (db.action, db.score, db.depth)
    );
    assert_eq!((da.nodes, &da.pv), (db.nodes, &db.pv));
    assert!(referee.legal_actions().contains(&da.action));
}

#[test]
fn the_engine_uses_the_moves_it_was_told_or_rebuilds_them() {
    let moves = [3, 2, 3, 4, 0, 6];
    let state = position(&moves);
    let spec = EngineSpec::engine(1);
    let mut told = EngineAgent::new(&spec, &C4Config::default()).unwrap();
    told.new_game(0, 0);
    tell(&mut told, &moves);
    assert_eq!(told.history_to(&state.0), moves, "told once each, in order");
    // A new game forgets them; an agent told nothing finds an order of the stones.
    told.new_game(0, 0);
    let rebuilt = told.history_to(&state.0);
    assert_eq!(rebuilt.len(), moves.len());
    assert_eq!(position(&rebuilt), state);
}

#[test]
fn decisions_carry_source_exactness_and_the_searchs_line() {
    let tc = TimeControl::infinite();
    // Book position (empty board): the book's move, no line.
    let mut e = build("search:depth=4");
    e.new_game(0, 0);
    let d = e.choose(&View::new(&position(&[]), 0), &tc);
    assert_eq!(source(&d), Some("book"));
    assert!(d.pv.is_empty() && d.depth.is_some());
    // Far from the end without the book: the heuristic search and its line.
    let mut e = build("search:depth=4,book=0");
    e.new_game(0, 0);
    let d = e.choose(&View::new(&position(&[]), 0), &tc);
    assert_eq!(source(&d), Some("search"));
    assert_eq!(d.pv.first(), Some(&d.action));
    assert!(!exact(&d));
    // Near the end the solver: exact.
    // A Middle-Medium test-set line (the bench's first).
    let moves: Vec<usize> = "274552224131661"
        .bytes()
        .map(|b| usize::from(b - b'1'))
        .collect();
    let mut e = build("search:depth=4,book=0,solve=42");
    e.new_game(0, 0);
    tell(&mut *e, &moves);
    let seat = moves.len() % 2;
    let d = e.choose(&View::new(&position(&moves), seat), &tc);
    assert_eq!(source(&d), Some("solver"));
    assert!(exact(&d) && d.score.is_some());
    // Random and weak know nothing.
    let mut r = build("random");
    let d = r.choose(&View::new(&position(&[]), 0), &tc);
    assert_eq!((source(&d), d.depth), (None, None));
}

#[test]
fn opening_plies_are_random_and_seeded_by_the_game() {
    let tc = TimeControl::infinite();
    let first_two = |seed: u64| {
        let mut e = build("engine:open=2,nodes=100,hash=1");
        e.new_game(0, seed);
        let d = e.choose(&View::new(&position(&[]), 0), &tc);
        assert_eq!(d.depth, None, "a random ply");
        d.action
    };
    assert_eq!(first_two(5), first_two(5));
    assert!(
        (0..20)
            .map(first_two)
            .collect::<std::collections::HashSet<_>>()
            .len()
            > 1
    );
    let mut weak = build("weak");
    weak.new_game(1, 3);
    // Second to move must block column 1 (0-based 0).
    let d = weak.choose(&View::new(&position(&[0, 1, 0, 1, 0]), 1), &tc);
    assert_eq!(d.action, 0);
}
