//! The client thinks on the opponent's time: after each of its moves the agent is asked to
//! ponder the position the opponent faces, and that search is stopped before the next move
//! request is answered, so the agent is free to choose again.

use kibitz_bots_piranhas::client::{self, ClientConfig};
use kibitz_bots_piranhas::protocol::{ScoreCause, Slot};
use kibitz_bots_piranhas::server::{Server, ServerConfig};
use kibitz_piranhas::agents::GreedyAgent;
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_piranhas::{EvalParams, Move, State};
use kibitz_search::agent::{Agent, Decision, View};
use kibitz_search::time::TimeControl;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A hang guard, not a speed assertion.
const GUARD: Duration = Duration::from_secs(60);

/// What the pondering agent was asked.
#[derive(Default)]
struct Log {
    /// The positions it chose in, and the move it chose.
    chosen: Vec<(State, Move)>,
    /// The positions it pondered, and whether the client stopped each ponder.
    pondered: Vec<(State, bool)>,
}

/// Plays the first legal move; ponders by holding on to the agent until its clock stops.
struct Ponderer(Arc<Mutex<Log>>);

impl Agent<Piranhas> for Ponderer {
    fn name(&self) -> String {
        "ponderer".into()
    }

    fn choose(&mut self, view: &View<'_, Piranhas>, _tc: &TimeControl) -> Decision<Move> {
        let mv = view.legal_actions()[0];
        self.0
            .lock()
            .unwrap()
            .chosen
            .push((view.observation().0, mv));
        Decision::action(mv)
    }

    fn ponder(&mut self, view: &View<'_, Piranhas>, clock: &TimeControl) {
        while !clock.stopped() && !clock.hard_expired() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let stopped = clock.stopped();
        self.0
            .lock()
            .unwrap()
            .pondered
            .push((view.observation().0, stopped));
    }
}

fn slot(name: &str) -> Slot {
    Slot {
        display_name: name.into(),
        can_timeout: true,
        should_be_paused: false,
    }
}

fn config(port: u16, code: String, ponder: bool) -> ClientConfig {
    ClientConfig {
        host: "127.0.0.1".into(),
        port,
        reservation: Some(code),
        soft: Duration::from_millis(30),
        hard: Duration::from_millis(80),
        send_by: Duration::from_millis(1000),
        idle_timeout: Some(GUARD),
        ponder,
        ..ClientConfig::default()
    }
}

/// One game of the pondering agent (RED) against greedy; returns its log and moves sent.
async fn game(ponder: bool) -> (Log, u32) {
    let server = Server::bind("127.0.0.1:0", ServerConfig::default())
        .await
        .unwrap();
    let port = server.local_addr().port();
    let g = server.prepare([slot("ponderer"), slot("greedy")], Some([(2, 2), (7, 3)]));
    let log = Arc::new(Mutex::new(Log::default()));
    let agent = Box::new(Ponderer(Arc::clone(&log)));
    let c = config(port, g.codes[0].clone(), ponder);
    let red = tokio::spawn(async move { client::run(&c, agent).await });
    let c2 = config(port, g.codes[1].clone(), ponder);
    let greedy = Box::new(GreedyAgent::new(EvalParams::default()));
    let blue = tokio::spawn(async move { client::run(&c2, greedy).await });
    let rec = tokio::time::timeout(GUARD, g.result)
        .await
        .unwrap()
        .unwrap();
    assert!(
        rec.result
            .scores
            .iter()
            .all(|s| s.cause == ScoreCause::Regular),
        "{:?}",
        rec.result
    );
    let out = red.await.unwrap().unwrap();
    blue.await.unwrap().unwrap();
    let log = std::mem::take(&mut *log.lock().unwrap());
    (log, out.moves)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_ponders_after_each_move_and_is_stopped_before_the_next() {
    let (log, moves) = game(true).await;
    // Every move the client sent was the agent's: no ponder ever kept it from choosing.
    assert!(moves > 5);
    assert_eq!(log.chosen.len(), moves as usize);
    // After each move but a last one that ended the game, the agent pondered the position
    // its move left, and the client stopped that ponder (none ran out its own clock).
    let expected: Vec<State> = log
        .chosen
        .iter()
        .map(|(s, m)| s.apply(*m).expect("legal"))
        .filter(|s| s.result().is_none())
        .collect();
    let pondered: Vec<State> = log.pondered.iter().map(|(s, _)| *s).collect();
    assert_eq!(pondered, expected);
    assert!(log.pondered.iter().all(|&(_, stopped)| stopped));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_pondering_when_switched_off() {
    let (log, moves) = game(false).await;
    assert_eq!(log.chosen.len(), moves as usize);
    assert!(log.pondered.is_empty());
}
