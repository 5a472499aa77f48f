//! End-to-end games on loopback: our bot against a random client, `join` games, misbehaving
//! clients (garbage, oversized, silent, vanishing) that must lose their own game while a
//! parallel game finishes normally, the tournament contract, and pondering on the opponent's
//! time.

use kibitz_bots_piranhas::client::{self, ClientConfig, ClientOutcome};
use kibitz_bots_piranhas::protocol::{Framer, ScoreCause, ServerMessage, Slot};
use kibitz_bots_piranhas::server::{GameRecord, Server, ServerConfig};
use kibitz_piranhas::agents::{GreedyAgent, SearchAgent};
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_piranhas::{Color, EngineConfig, EvalParams, Move, State};
use kibitz_search::agent::{Agent, Decision, RandomAgent, View};
use kibitz_search::time::TimeControl;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

mod common;
use common::{drain, read_until, GUARD};

fn slot(name: &str) -> Slot {
    Slot {
        display_name: name.into(),
        can_timeout: true,
        should_be_paused: false,
    }
}

fn client_config(port: u16, code: Option<String>) -> ClientConfig {
    ClientConfig {
        host: "127.0.0.1".into(),
        port,
        reservation: code,
        soft: Duration::from_millis(30),
        hard: Duration::from_millis(80),
        send_by: Duration::from_millis(1000),
        idle_timeout: Some(GUARD),
        ..ClientConfig::default()
    }
}

fn search_player() -> Box<dyn Agent<Piranhas> + Send> {
    let mut cfg = EngineConfig::default();
    cfg.search.hash_mb = 4;
    Box::new(SearchAgent::new(cfg))
}

/// Replays the server's record with the engine: every move legal, and a regular end agrees
/// with the engine's evaluation of the final board.
fn check_record(rec: &GameRecord) {
    let mut st = State::start(rec.krakens);
    for &m in &rec.moves {
        st = st.apply(m).expect("server applied an illegal move");
    }
    for c in Color::BOTH {
        assert_eq!(rec.result.scores[c as usize].swarm, st.biggest_swarm(c));
    }
    if ended_regularly(rec) {
        let r = st.result().expect("regular end without an engine result");
        assert_eq!(r.winner, rec.result.winner.as_ref().map(|w| w.1));
        for c in Color::BOTH {
            assert_eq!(rec.result.scores[c as usize].points, r.points(c));
        }
    }
}

/// Whether both sides' games ended regularly: no timeout, no rule violation, nobody left.
fn ended_regularly(rec: &GameRecord) -> bool {
    rec.result
        .scores
        .iter()
        .all(|s| s.cause == ScoreCause::Regular)
}

/// Asserts [`ended_regularly`], showing the result when not.
fn assert_regular_end(rec: &GameRecord) {
    assert!(ended_regularly(rec), "{:?}", rec.result);
}

/// A player of [`play_prepared`]: its slot name and its agent.
type Seat = (&'static str, Box<dyn Agent<Piranhas> + Send>);

/// One prepared game on a fresh server with `config`: RED and BLUE each a client of ours with
/// its own agent and [`client_config`], changed per colour by `tune`. Waits for the record
/// (a hang guard, [`GUARD`]) and both clients; returns the record and RED's and BLUE's
/// outcomes.
async fn play_prepared(
    config: ServerConfig,
    krakens: [(u8, u8); 2],
    [red, blue]: [Seat; 2],
    tune: impl Fn(Color, &mut ClientConfig),
) -> (GameRecord, ClientOutcome, ClientOutcome) {
    let server = Server::bind("127.0.0.1:0", config).await.unwrap();
    let port = server.local_addr().port();
    let g = server.prepare([slot(red.0), slot(blue.0)], Some(krakens));
    let [red, blue] = [(Color::Red, red.1), (Color::Blue, blue.1)].map(|(colour, agent)| {
        let mut c = client_config(port, Some(g.codes[colour as usize].clone()));
        tune(colour, &mut c);
        tokio::spawn(async move { client::run(&c, agent).await })
    });
    let rec = tokio::time::timeout(GUARD, g.result)
        .await
        .unwrap()
        .unwrap();
    let (r, b) = (red.await.unwrap().unwrap(), blue.await.unwrap().unwrap());
    (rec, r, b)
}

fn check_client(out: &ClientOutcome, rec: &GameRecord, color: Color) {
    assert_eq!(out.color, Some(color));
    assert_eq!(
        out.result.as_ref(),
        Some(&rec.result),
        "client saw another result"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_bot_plays_a_full_game_against_random() {
    let record = std::env::temp_dir().join(format!("piranhas-e2e-{}", std::process::id()));
    let config = ServerConfig {
        close_grace: Duration::from_millis(100),
        record_dir: Some(record.clone()),
        ..ServerConfig::default()
    };
    let players: [Seat; 2] = [
        ("search", search_player()),
        ("random", Box::new(RandomAgent::new(3))),
    ];
    let (rec, r, b) = play_prepared(config, [(3, 3), (6, 7)], players, |_, _| {}).await;
    check_record(&rec);
    assert_regular_end(&rec);
    check_client(&r, &rec, Color::Red);
    check_client(&b, &rec, Color::Blue);
    assert_eq!((r.moves + b.moves) as usize, rec.moves.len());
    assert_eq!(rec.names, ["search".to_string(), "random".to_string()]);
    // Both directions of both connections, as recorded, are one well-formed XML document each.
    let mut files = 0;
    for entry in std::fs::read_dir(&record).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("<protocol>") && text.ends_with("</protocol>"),
            "{path:?}"
        );
        let mut reader = quick_xml::Reader::from_str(&text);
        reader.config_mut().check_end_names = true;
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("{path:?} is not well-formed: {e}"),
            }
        }
        files += 1;
    }
    assert_eq!(files, 4);
    let _ = std::fs::remove_dir_all(&record);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_game_first_joiner_is_red() {
    let config = ServerConfig {
        close_grace: Duration::from_millis(100),
        seed: Some(9),
        ..ServerConfig::default()
    };
    let server = Server::bind("127.0.0.1:0", config).await.unwrap();
    let port = server.local_addr().port();
    let c = client_config(port, None);
    // The first joiner (the probe, random moves through the same session logic as our
    // client) must be seated before the second client connects.
    let mut second = None;
    let join = "<join gameType=\"swc_2019_piranhas\" />";
    let session = common::random_player(port, join, 5, |session, _| {
        if session.room.is_some() && second.is_none() {
            let c = c.clone();
            second = Some(tokio::spawn(async move { client::run(&c, greedy()).await }));
        }
        None
    })
    .await;
    assert_eq!(session.color, Some(Color::Red));
    let rec = tokio::time::timeout(GUARD, server.next_finished())
        .await
        .unwrap()
        .unwrap();
    check_record(&rec);
    assert_eq!(session.result.as_ref(), Some(&rec.result));
    let b = second.expect("never joined").await.unwrap().unwrap();
    check_client(&b, &rec, Color::Blue);
    assert_eq!(rec.names, ["Unknown".to_string(), "Unknown".to_string()]);
}

/// A raw client: joins with `code`, waits for its first MoveRequest, then does `act`.
async fn misbehave(port: u16, code: String, act: &'static str) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    s.write_all(format!("<protocol><joinPrepared reservationCode=\"{code}\" />").as_bytes())
        .await
        .unwrap();
    let mut framer = Framer::new(1 << 20);
    read_until(&mut s, &mut framer, |m| {
        matches!(m, ServerMessage::MoveRequest { .. })
    })
    .await;
    match act {
        "garbage" => s
            .write_all(b"this is not XML \xff\xfe <<<>>>")
            .await
            .unwrap(),
        "oversized" => {
            let mut big = b"<room roomId=\"x\"><data class=\"move\" x=\"".to_vec();
            big.extend(std::iter::repeat_n(b'9', 100_000));
            let _ = s.write_all(&big).await;
        }
        "vanish" => return String::new(),
        "silent" => {}
        _ => unreachable!(),
    }
    drain(&mut s).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn misbehaving_clients_lose_while_a_parallel_game_finishes() {
    let config = ServerConfig {
        soft_timeout: Duration::from_millis(1000),
        hard_timeout: Duration::from_millis(1500),
        close_grace: Duration::from_millis(200),
        max_message: 4096,
        ..ServerConfig::default()
    };
    let server = Server::bind("127.0.0.1:0", config).await.unwrap();
    let port = server.local_addr().port();

    // A stranger sending garbage before joining is refused and harms nobody.
    let mut stranger = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    stranger.write_all(b"GET / HTTP/1.1\r\n\r\n").await.unwrap();

    let mut games = Vec::new();
    for act in ["garbage", "oversized", "vanish", "silent"] {
        let g = server.prepare([slot(act), slot("random")], None);
        let bad = tokio::spawn(misbehave(port, g.codes[0].clone(), act));
        let c = client_config(port, Some(g.codes[1].clone()));
        let good =
            tokio::spawn(async move { client::run(&c, Box::new(RandomAgent::new(1))).await });
        games.push((act, g.result, bad, good));
    }
    let normal = server.prepare([slot("greedy"), slot("random")], None);
    let c1 = client_config(port, Some(normal.codes[0].clone()));
    let c2 = client_config(port, Some(normal.codes[1].clone()));
    let n1 = tokio::spawn(async move { client::run(&c1, greedy()).await });
    let n2 = tokio::spawn(async move { client::run(&c2, Box::new(RandomAgent::new(2))).await });

    let refused = drain(&mut stranger).await;
    assert!(
        refused.contains("<error message="),
        "stranger got {refused:?}"
    );

    for (act, result, bad, good) in games {
        let rec = tokio::time::timeout(GUARD, result).await.unwrap().unwrap();
        let red = &rec.result.scores[0];
        let expected = if act == "silent" {
            ScoreCause::HardTimeout
        } else {
            ScoreCause::Left
        };
        assert_eq!(red.cause, expected, "{act}");
        assert_eq!(red.points, 0, "{act}");
        assert_eq!(
            rec.result.winner.as_ref().map(|w| w.1),
            Some(Color::Blue),
            "{act}"
        );
        assert!(rec.moves.is_empty(), "{act}");
        let good = good.await.unwrap().unwrap();
        check_client(&good, &rec, Color::Blue);
        let bad_stream = bad.await.unwrap();
        if act == "silent" {
            assert!(
                bad_stream.contains("cause=\"HARD_TIMEOUT\""),
                "{bad_stream}"
            );
        }
        // (An oversized sender may see a reset instead of the closing tag.)
        if act != "vanish" && act != "oversized" {
            assert!(
                bad_stream.ends_with("\n</protocol>"),
                "{act}: {bad_stream:?}"
            );
        }
    }
    let rec = tokio::time::timeout(GUARD, normal.result)
        .await
        .unwrap()
        .unwrap();
    check_record(&rec);
    assert_regular_end(&rec);
    check_client(&n1.await.unwrap().unwrap(), &rec, Color::Red);
    check_client(&n2.await.unwrap().unwrap(), &rec, Color::Blue);
}

#[test]
fn tournament_contract() {
    let standings = kibitz_bots_piranhas::tournament::run(&kibitz_net::tournament::Options {
        games: 2,
        seed: 2019,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(standings.len(), 3);
    let games: u32 = standings.iter().map(|s| s.games).sum();
    assert_eq!(games, 12, "6 games, two players each");
    let wins: u32 = standings.iter().map(|s| s.wins).sum();
    let losses: u32 = standings.iter().map(|s| s.losses).sum();
    assert_eq!(wins, losses);
    let points: f64 = standings.iter().map(|s| s.points).sum();
    assert_eq!(points, 12.0, "2 match points per game");
    for s in &standings {
        assert_eq!(s.wins + s.draws + s.losses, s.games);
        assert!(
            s.note
                .contains("timeouts 0; violations 0; left 0; aborted 0"),
            "{}",
            s.note
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn command_tournament_with_a_broken_entrant() {
    use kibitz_bots_piranhas::tournament::{round_robin, Entrant, TournamentConfig};
    let bot = env!("CARGO_BIN_EXE_piranhas-bot");
    let entrants = vec![
        Entrant::Command {
            name: "greedy".into(),
            cmd: format!("{bot} --player greedy --log warn"),
        },
        Entrant::Command {
            name: "random".into(),
            cmd: format!("{bot} --player random --log warn"),
        },
        Entrant::Command {
            name: "broken".into(),
            cmd: "/nonexistent/piranhas-client".into(),
        },
    ];
    let cfg = TournamentConfig {
        games_per_pair: 2,
        parallel: 6,
        game_timeout: GUARD,
        ..TournamentConfig::default()
    };
    let rows = tokio::time::timeout(GUARD * 2, round_robin(&entrants, &cfg))
        .await
        .unwrap()
        .unwrap();
    let row = |n: &str| rows.iter().find(|r| r.name == n).unwrap().clone();
    // greedy and random played their two games; every game with the broken entrant was abandoned.
    assert_eq!(row("greedy").games, 2);
    assert_eq!(row("random").games, 2);
    assert_eq!(row("greedy").aborted, 2);
    assert_eq!(row("broken").games, 0);
    assert_eq!(row("broken").aborted, 4);
    assert_eq!(row("greedy").points + row("random").points, 4);
    let table = kibitz_bots_piranhas::tournament::table(&rows).to_string();
    assert!(table.contains("broken") && table.contains("\u{2205} swarm"));
}

/// The greedy agent with the engine's default weights.
fn greedy() -> Box<dyn Agent<Piranhas> + Send> {
    Box::new(GreedyAgent::new(EvalParams::default()))
}

/// An agent that ignores its time control and sleeps far past the server's soft limit.
struct Stubborn;

impl Agent<Piranhas> for Stubborn {
    fn name(&self) -> String {
        "stubborn".into()
    }

    fn choose(
        &mut self,
        view: &View<'_, Piranhas>,
        _tc: &kibitz_search::time::TimeControl,
    ) -> Decision<kibitz_piranhas::Move> {
        std::thread::sleep(Duration::from_millis(2500));
        Decision::action(view.legal_actions()[0])
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_answers_in_time_even_when_its_player_hangs() {
    let config = ServerConfig {
        close_grace: Duration::from_millis(100),
        ..ServerConfig::default()
    };
    let players: [Seat; 2] = [("stubborn", Box::new(Stubborn)), ("greedy", greedy())];
    let (rec, r, _) = play_prepared(config, [(2, 2), (7, 3)], players, |colour, c| {
        if colour == Color::Red {
            c.send_by = Duration::from_millis(200);
        }
    })
    .await;
    // The hanging player's side still answered every request inside the 2 s soft limit.
    assert_regular_end(&rec);
    check_record(&rec);
    check_client(&r, &rec, Color::Red);
    assert!(r.moves > 0);
}

// Thinking on the opponent's time: after each of its moves the agent is asked to ponder the
// position the opponent faces, and that search is stopped before the next move request is
// answered, so the agent is free to choose again.

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

/// One game of the pondering agent (RED) against greedy; returns its log and moves sent.
async fn game(ponder: bool) -> (Log, u32) {
    let log = Arc::new(Mutex::new(Log::default()));
    let players: [Seat; 2] = [
        ("ponderer", Box::new(Ponderer(Arc::clone(&log)))),
        ("greedy", greedy()),
    ];
    let (rec, out, _) = play_prepared(
        ServerConfig::default(),
        [(2, 2), (7, 3)],
        players,
        |_, c| c.ponder = ponder,
    )
    .await;
    assert_regular_end(&rec);
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
