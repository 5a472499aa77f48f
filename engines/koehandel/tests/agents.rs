//! The agents: a bot client's seen view offers what the referee's view offers, every agent
//! is told each of its seat's notices exactly once, `new_game` reseeds, and the strong
//! agent's decisions carry its search numbers and obey the clock it is given.

use kibitz_koehandel::game_impl::{KhAction, KhView, Koehandel};
use kibitz_koehandel::runner::play_game;
use kibitz_koehandel::{make_agent, Event, Game, KhAgent, Knowledge, Seat};
use kibitz_search::agent::{Agent, Decision, View};
use kibitz_search::game::Game as _;
use kibitz_search::time::TimeControl;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Seeds of the four seats of game `seed`.
fn seeds(seed: u64) -> Vec<u64> {
    (0..4).map(|i| seed * 4 + i).collect()
}

fn agents(specs: [&str; 4], seed: u64) -> Vec<KhAgent> {
    specs
        .iter()
        .zip(seeds(seed))
        .map(|(s, x)| make_agent(s, x).unwrap())
        .collect()
}

#[test]
fn a_seen_view_gives_the_same_menu_and_books_as_the_referees_view() {
    let mut questions = 0;
    for seed in 0..12u64 {
        let specs = ["heuristic", "random", "heuristic", "random"];
        // Twins of the same agents choose from the client's views.
        let (mut players, mut twins) = (agents(specs, seed), agents(specs, seed));
        for (i, (p, t)) in players.iter_mut().zip(&mut twins).enumerate() {
            p.new_game(i, seeds(seed)[i]);
            t.new_game(i, seeds(seed)[i]);
        }
        // What each seat's bot client would keep: the books from its messages only.
        let mut books: [Knowledge; 4] = std::array::from_fn(|i| Knowledge::new(Seat(i as u8)));
        let mut g = Koehandel(Game::new(seed));
        loop {
            for n in g.0.drain_notices() {
                books[n.seat.idx()].observe(&n.event);
                players[n.seat.idx()].observe(&n.event);
                twins[n.seat.idx()].observe(&n.event);
            }
            let Some(seat) = View::mover(&g) else { break };
            let q = g.0.ask().unwrap().question;
            books[seat].on_question(&q);
            let referee = View::new(&g, seat);
            let client = KhView::from_knowledge(&books[seat], Some(&q)).into_view();
            assert_eq!(client.seat(), seat);
            assert_eq!(client.turn(), referee.turn());
            assert_eq!(client.legal_actions(), referee.legal_actions(), "{q:?}");
            let (c, r) = (client.observation(), referee.observation());
            assert_eq!(
                (c.hand, c.counts, c.total, c.herds, c.donkeys),
                (r.hand, r.counts, r.total, r.herds, r.donkeys)
            );
            assert_eq!((c.deck_left, &c.ask), (r.deck_left, &r.ask), "{q:?}");
            let caught = |v: &KhView| v.flags.map(|f| f.0);
            assert_eq!(caught(&c), caught(&r));
            let d = players[seat].choose(&referee, &TimeControl::infinite());
            let twin = twins[seat].choose(&client, &TimeControl::infinite());
            assert_eq!(twin.action, d.action, "the same answer from either view");
            books[seat].on_answer(&q, &d.action.0);
            books[seat].facts.clear();
            g.0.answer(d.action.0);
            questions += 1;
        }
        assert!(g.is_terminal());
    }
    assert!(questions > 1000, "{questions} questions compared");
}

/// Records every notice it is told, then plays as the inner agent.
struct Recorder {
    inner: KhAgent,
    told: Arc<Mutex<Vec<Event>>>,
}

impl Agent<Koehandel> for Recorder {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn new_game(&mut self, seat: usize, seed: u64) {
        self.inner.new_game(seat, seed)
    }
    fn observe(&mut self, e: &Event) {
        self.told.lock().unwrap().push(e.clone());
        self.inner.observe(e)
    }
    fn choose(&mut self, view: &View<'_, Koehandel>, clock: &TimeControl) -> Decision<KhAction> {
        self.inner.choose(view, clock)
    }
}

#[test]
fn each_agent_is_told_each_notice_of_its_seat_once_in_order() {
    let specs = ["heuristic", "heuristic:rate=0.5", "heuristic", "pass"];
    for seed in 0..4u64 {
        let logs: Vec<Arc<Mutex<Vec<Event>>>> = (0..4).map(|_| Arc::default()).collect();
        let mut players: Vec<KhAgent> = agents(specs, seed)
            .into_iter()
            .zip(&logs)
            .map(|(inner, told)| {
                Box::new(Recorder {
                    inner,
                    told: told.clone(),
                }) as KhAgent
            })
            .collect();
        let r = play_game(Game::new(seed), &mut players, &seeds(seed));
        // The same game driven by hand: the notices the market addresses to each seat.
        let mut expected: Vec<Vec<Event>> = vec![Vec::new(); 4];
        let mut plain = agents(specs, seed);
        for (i, p) in plain.iter_mut().enumerate() {
            p.new_game(i, seeds(seed)[i]);
        }
        let mut g = Koehandel(Game::new(seed));
        loop {
            for n in g.0.drain_notices() {
                expected[n.seat.idx()].push(n.event.clone());
                plain[n.seat.idx()].observe(&n.event);
            }
            let Some(seat) = View::mover(&g) else { break };
            let d = plain[seat].choose(&View::new(&g, seat), &TimeControl::infinite());
            g.0.answer(d.action.0);
        }
        assert_eq!(r.scores, g.0.scores(), "the same game");
        for s in 0..4 {
            let told = logs[s].lock().unwrap();
            assert_eq!(*told, expected[s], "seat {s}");
            assert!(matches!(told.first(), Some(Event::Begin)));
            assert_eq!(told.iter().filter(|e| **e == Event::Begin).count(), 1);
        }
    }
}

#[test]
fn new_game_reseeds_so_a_reused_agent_replays_its_game() {
    for spec in ["random", "strong:worlds=2:particles=8"] {
        let mut table = agents([spec, "random", "heuristic", "random"], 3);
        let first = play_game(Game::new(3), &mut table, &seeds(3));
        // Another game in between moves every agent's stream on ...
        let _ = play_game(Game::new(4), &mut table, &seeds(4));
        // ... and the same seeds bring it back.
        let again = play_game(Game::new(3), &mut table, &seeds(3));
        assert_eq!(first, again, "{spec}");
        // A different seed for seat 0 is a different player (its stream changed).
        let mut other = seeds(3);
        other[0] += 1000;
        other[1] += 1000;
        let moved = play_game(Game::new(3), &mut table, &other);
        assert_ne!(first, moved, "{spec}: the seed is used");
    }
}

/// Plays game `seed` with a small strong agent at seat 0 and returns its decisions.
fn strong_decisions(seed: u64, clock: &dyn Fn() -> TimeControl) -> Vec<Decision<KhAction>> {
    let mut strong = make_agent("strong:worlds=4:particles=8", seed).unwrap();
    let mut rest = agents(["pass", "heuristic", "heuristic", "heuristic"], seed);
    strong.new_game(0, seed);
    for (i, p) in rest.iter_mut().enumerate().skip(1) {
        p.new_game(i, seeds(seed)[i]);
    }
    let mut g = Koehandel(Game::new(seed));
    let mut out = Vec::new();
    loop {
        for n in g.0.drain_notices() {
            match n.seat.idx() {
                0 => strong.observe(&n.event),
                s => rest[s].observe(&n.event),
            }
        }
        let Some(seat) = View::mover(&g) else { break };
        let view = View::new(&g, seat);
        let d = if seat == 0 {
            let d = strong.choose(&view, &clock());
            out.push(d.clone());
            d
        } else {
            rest[seat].choose(&view, &TimeControl::infinite())
        };
        g.0.answer(d.action.0);
    }
    out
}

fn stat(d: &Decision<KhAction>, name: &str) -> Option<f64> {
    d.stats.iter().find(|s| s.0 == name).map(|s| s.1)
}

#[test]
fn strong_decisions_carry_the_search_numbers() {
    let ds = strong_decisions(2, &TimeControl::infinite);
    let searched: Vec<_> = ds.iter().filter(|d| !d.stats.is_empty()).collect();
    assert!(searched.len() >= 5, "{} searched decisions", searched.len());
    for d in &searched {
        assert_eq!(stat(d, "worlds"), Some(4.0), "every world played: {d:?}");
        assert!(stat(d, "candidates").unwrap() >= 2.0);
        assert!(d.score.is_some());
        assert!(d.nodes >= 8, "worlds × candidates play-outs: {}", d.nodes);
    }
    // Decisions without a comparison of candidates say nothing.
    assert!(ds.iter().any(|d| d.stats.is_empty() && d.score.is_none()));
}

#[test]
fn strong_stops_by_the_clock_it_is_given() {
    // A soft budget of zero is spent before the first world ends: one world per search.
    let spent = || TimeControl::new(Duration::ZERO, Duration::from_secs(60));
    let ds = strong_decisions(2, &spent);
    let searched: Vec<_> = ds.iter().filter(|d| !d.stats.is_empty()).collect();
    assert!(!searched.is_empty());
    for d in searched {
        assert_eq!(stat(d, "worlds"), Some(1.0), "{d:?}");
    }
    // An unlimited clock leaves the spec's worlds to play.
    let ds = strong_decisions(2, &TimeControl::infinite);
    assert!(ds.iter().any(|d| stat(d, "worlds") == Some(4.0)));
}

#[test]
fn a_decision_for_a_seat_not_asked_is_no_answer() {
    let g = Koehandel(Game::new(1));
    let mover = View::mover(&g).unwrap();
    for spec in ["pass", "random", "heuristic", "strong:worlds=2"] {
        let mut a = make_agent(spec, 1).unwrap();
        a.new_game((mover + 1) % 4, 1);
        let d = a.choose(&View::new(&g, (mover + 1) % 4), &TimeControl::infinite());
        assert_eq!(d.action, KhAction(kibitz_koehandel::Answer::None), "{spec}");
    }
}
