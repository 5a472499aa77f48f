//! End-to-end games on loopback: our server, our bot and baselines over real TCP, plus silent,
//! vanishing, garbage and hoarding bots. Every wait has a generous hang guard; nothing here
//! asserts on speed.

use kibitz_bots_maumau::client::{play, BotConfig, BotReport};
use kibitz_bots_maumau::knockout::{run_knockout, Entrant, KnockoutConfig, Launch};
use kibitz_bots_maumau::server::{spawn, EndReason, GameReport, ServerConfig};
use kibitz_maumau::ExhaustionWinner;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

fn ours(name: &str, seed: u64) -> BotConfig {
    BotConfig {
        name: name.into(),
        strategy: "ismcts".into(),
        time: Duration::from_secs(2),
        iterations: Some(150),
        seed,
        read_timeout: Duration::from_secs(60),
        ..BotConfig::default()
    }
}

fn baseline(name: &str, strategy: &str, seed: u64) -> BotConfig {
    BotConfig {
        strategy: strategy.into(),
        ..ours(name, seed)
    }
}

fn bot(addr: SocketAddr, cfg: BotConfig) -> JoinHandle<BotReport> {
    std::thread::spawn(move || play(addr, &cfg).expect("bot plays"))
}

/// A scripted raw client: handshakes as `name`, then calls `on_line` for every line received
/// (broadcasts included) and sends what it returns. Returns everything it received.
fn raw(
    addr: SocketAddr,
    name: &str,
    mut on_line: impl FnMut(&[u8], &mut TcpStream) -> bool + Send + 'static,
) -> JoinHandle<Vec<Vec<u8>>> {
    let name = name.to_string();
    std::thread::spawn(move || {
        let mut s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut r = BufReader::new(s.try_clone().unwrap());
        let mut got = Vec::new();
        loop {
            let mut line = Vec::new();
            match r.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => return got,
                Ok(_) => {}
            }
            got.push(line.clone());
            if line.starts_with(br#"{"sendName""#) {
                let _ = s
                    .write_all(format!("{{\"status\":\"okay\",\"name\":\"{name}\"}}\n").as_bytes());
            } else if !on_line(&line, &mut s) {
                return got;
            }
        }
    })
}

fn is_request(line: &[u8]) -> bool {
    line.starts_with(br#"{"topcard""#)
}

fn finish(h: std::thread::JoinHandle<anyhow::Result<Vec<GameReport>>>) -> Vec<GameReport> {
    h.join().expect("server thread").expect("server result")
}

fn seat(r: &GameReport, name: &str) -> usize {
    r.names.iter().position(|n| n == name).expect("seated")
}

#[test]
fn our_bot_plays_baselines_without_penalties() {
    let strategies = [
        "random",
        "heuristic",
        "greedy",
        "random",
        "heuristic",
        "greedy",
    ];
    let cfg = ServerConfig {
        games: strategies.len() as u32,
        seed: 11,
        ..ServerConfig::default()
    };
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    let mut ours_reports = Vec::new();
    for (i, s) in strategies.iter().enumerate() {
        let a = bot(addr, ours(&format!("ours{i}"), i as u64));
        let b = bot(addr, baseline(&format!("{s}{i}"), s, 100 + i as u64));
        ours_reports.push(a.join().unwrap());
        let rb = b.join().unwrap();
        assert!(rb.winner.is_some(), "baseline saw the end");
    }
    let reports = finish(server);
    assert_eq!(reports.len(), strategies.len());
    for (i, (r, me)) in reports.iter().zip(&ours_reports).enumerate() {
        let s = seat(r, &me.name);
        assert_eq!(
            r.faults[s].penalties, 0,
            "game {i}: server counted penalties for our bot"
        );
        assert_eq!(me.penalties, 0, "game {i}: our bot saw penalties");
        assert_eq!(me.odd_lines, 0);
        assert_eq!(me.winner.as_deref(), Some(r.winner_name()));
        assert!(
            matches!(r.reason, EndReason::Emptied | EndReason::Exhausted),
            "{:?}",
            r.reason
        );
    }
}

#[test]
fn silent_bot_is_repeated_then_dropped() {
    let cfg = ServerConfig {
        turn_timeout: Some(Duration::from_millis(300)),
        ..ServerConfig::default()
    };
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    let silent = raw(addr, "Silent", |_, _| true);
    std::thread::sleep(Duration::from_millis(50)); // seat order only; not a race guard
    let me = bot(addr, ours("Ours", 3)).join().unwrap();
    let got = silent.join().unwrap();
    let r = finish(server).remove(0);
    let s = seat(&r, "Silent");
    assert_eq!(r.reason, EndReason::LastOnline);
    assert_eq!(r.winner_name(), me.name);
    assert!(me.won());
    assert!(r.faults[s].dropped);
    assert_eq!(r.faults[s].timeouts, 4, "first wait plus three repeats");
    let requests: Vec<_> = got.iter().filter(|l| is_request(l)).collect();
    assert_eq!(requests.len(), 4);
    assert!(
        requests.windows(2).all(|w| w[0] == w[1]),
        "repeats are byte-identical"
    );
}

#[test]
fn vanishing_bot_gets_a_penalty_and_is_dropped() {
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), ServerConfig::default()).unwrap();
    let gone = raw(addr, "Gone", |l, s| {
        if is_request(l) {
            let _ = s.shutdown(std::net::Shutdown::Both);
            return false;
        }
        true
    });
    std::thread::sleep(Duration::from_millis(50));
    let me = bot(addr, ours("Ours", 4)).join().unwrap();
    gone.join().unwrap();
    let r = finish(server).remove(0);
    let s = seat(&r, "Gone");
    assert_eq!(
        (r.reason, r.faults[s].penalties, r.faults[s].dropped),
        (EndReason::LastOnline, 1, true)
    );
    assert!(me.won());
}

#[test]
fn garbage_bot_does_not_disturb_the_server_or_the_next_game() {
    let cfg = ServerConfig {
        games: 2,
        max_turns: 400,
        ..ServerConfig::default()
    };
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    let mut n = 0;
    let garbage = raw(addr, "Garbage", move |_, s| {
        n += 1;
        let line: Vec<u8> = match n % 7 {
            0 => b"\xff\xfe\xfd not utf-8".to_vec(),
            1 => b"not json at all".to_vec(),
            2 => vec![b'x'; 100_000],
            3 => br#"{"status":"turn","selectedCard":99,"wishedColor":"x"}"#.to_vec(),
            4 => b"[]".to_vec(),
            5 => br#"{"status":5}"#.to_vec(),
            _ => br#"{"status":"turn","selectedCard":3.5}"#.to_vec(),
        };
        s.write_all(&[line.as_slice(), b"\n"].concat()).is_ok()
    });
    std::thread::sleep(Duration::from_millis(50));
    let me = bot(addr, ours("Ours", 5)).join().unwrap();
    garbage.join().unwrap();
    // The next game is unaffected.
    let a = bot(addr, ours("Next", 6));
    let b = bot(addr, baseline("Heur", "heuristic", 7));
    let (ra, rb) = (a.join().unwrap(), b.join().unwrap());
    let reports = finish(server);
    assert_eq!(reports.len(), 2);
    let r = &reports[0];
    let g = seat(r, "Garbage");
    assert!(r.faults[g].penalties > 0 && r.faults[g].warnings > 0);
    assert_eq!(r.faults[1 - g].penalties, 0);
    assert_eq!(me.penalties, 0);
    assert_eq!(
        reports[1].faults.iter().map(|f| f.penalties).sum::<u32>(),
        0
    );
    assert_eq!(ra.winner, rb.winner);
}

fn hoarders(w: ExhaustionWinner) -> GameReport {
    let cfg = ServerConfig {
        exhaustion_winner: w,
        ..ServerConfig::default()
    };
    let (r, g0, g1) = hoard_game(cfg);
    assert_eq!(r.reason, EndReason::Exhausted);
    // The last draw failed: `drawedCards:-1`, then `won`.
    let last = if r.turns % 2 == 1 { &g0 } else { &g1 };
    assert_eq!(
        last[last.len() - 2],
        b"{\"drawedCards\":-1,\"status\":\"okay\"}\n"
    );
    r
}

/// Two bots that always draw; returns the report and what each received.
fn hoard_game(cfg: ServerConfig) -> (GameReport, Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    let hoard = |s: &mut TcpStream, l: &[u8]| {
        !is_request(l) || s.write_all(b"{\"status\":\"skip\"}\n").is_ok()
    };
    let h0 = raw(addr, "H0", move |l, s| hoard(s, l));
    std::thread::sleep(Duration::from_millis(50));
    let h1 = raw(addr, "H1", move |l, s| hoard(s, l));
    let (g0, g1) = (h0.join().unwrap(), h1.join().unwrap());
    let r = finish(server).remove(0);
    assert_eq!(r.names, ["H0", "H1"]);
    (r, g0, g1)
}

#[test]
fn turn_cap_ends_the_game_like_exhaustion() {
    let cfg = ServerConfig {
        max_turns: 6,
        ..ServerConfig::default()
    };
    let (r, g0, _) = hoard_game(cfg);
    assert_eq!((r.reason, r.turns, r.winner), (EndReason::TurnCap, 6, 1));
    assert_eq!(
        g0.last().unwrap(),
        b"{\"won\":true,\"nameOfWinner\":\"H1\",\"status\":\"okay\"}\n"
    );
}

#[test]
fn exhaustion_winner_second_seat_like_the_real_server() {
    assert_eq!(hoarders(ExhaustionWinner::SecondSeat).winner, 1);
}

#[test]
fn exhaustion_winner_most_valid_moves_ties_to_lower_seat() {
    assert_eq!(hoarders(ExhaustionWinner::MostValidMoves).winner, 0);
}

#[test]
fn nameless_connection_times_out_and_the_seat_stays_open() {
    let cfg = ServerConfig {
        turn_timeout: Some(Duration::from_millis(500)),
        ..ServerConfig::default()
    };
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    let mute = TcpStream::connect(addr).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let a = bot(addr, ours("A", 8));
    let b = bot(addr, baseline("B", "random", 9));
    let (ra, rb) = (a.join().unwrap(), b.join().unwrap());
    drop(mute);
    let r = finish(server).remove(0);
    let mut names = r.names.clone();
    names.sort();
    assert_eq!(names, ["A", "B"]);
    assert_eq!(ra.winner, rb.winner);
}

#[test]
fn network_games_with_three_and_four_players() {
    for players in [3usize, 4] {
        let cfg = ServerConfig {
            players,
            seed: 21,
            ..ServerConfig::default()
        };
        let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
        let strategies = ["heuristic", "random", "greedy"];
        let mut hs = vec![bot(
            addr,
            BotConfig {
                players,
                ..ours("Ours", 10)
            },
        )];
        for (i, s) in strategies.iter().take(players - 1).enumerate() {
            hs.push(bot(
                addr,
                BotConfig {
                    players,
                    ..baseline(&format!("{s}{i}"), s, i as u64)
                },
            ));
        }
        let reports: Vec<BotReport> = hs.into_iter().map(|h| h.join().unwrap()).collect();
        let r = finish(server).remove(0);
        assert_eq!(r.names.len(), players);
        assert_eq!(reports[0].penalties, 0, "{players} players");
        assert_eq!(r.faults[seat(&r, "Ours")].penalties, 0);
        assert!(reports
            .iter()
            .all(|x| x.winner.as_deref() == Some(r.winner_name())));
    }
}

#[test]
fn knockout_with_a_bye() {
    let make = |strategy: &'static str| -> Launch {
        Launch::InProcess(Arc::new(move |addr, name: &str, _game| {
            let cfg = baseline(name, strategy, 1);
            std::thread::spawn(move || play(addr, &cfg));
        }))
    };
    let entrants: Vec<Entrant> = [
        ("ours", "ismcts"),
        ("heur", "heuristic"),
        ("rand", "random"),
    ]
    .into_iter()
    .map(|(n, s)| Entrant {
        name: n.into(),
        launch: make(s),
    })
    .collect();
    let kcfg = KnockoutConfig {
        match_games: 3,
        shuffle: false,
        server: ServerConfig::default(),
        deadline: None,
        play_out: false,
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let report = rt
        .block_on(async {
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            run_knockout(l, &entrants, &kcfg).await
        })
        .unwrap();
    // Seed 1 (ours) gets the bye; seeds 2 and 3 play; the final follows.
    assert_eq!(report.matches.len(), 3);
    assert_eq!((report.matches[0].a, report.matches[0].b), (0, None));
    assert_eq!((report.matches[1].a, report.matches[1].b), (1, Some(2)));
    for m in &report.matches[1..] {
        assert_eq!(m.score.0.max(m.score.1), 2, "first to two wins");
    }
    assert_eq!(report.champion, report.matches[2].winner);
    assert_eq!(report.totals.iter().map(|t| t.penalties).sum::<u32>(), 0);
    let games: u32 = report.totals.iter().map(|t| t.games).sum();
    let wins: u32 = report.totals.iter().map(|t| t.wins).sum();
    assert_eq!(games, 2 * wins);
    assert!(report.to_string().contains("Champion"));
}

#[test]
fn flooding_bot_is_held_back_and_the_game_ends() {
    let (addr, server) = spawn("127.0.0.1:0".parse().unwrap(), ServerConfig::default()).unwrap();
    let mut flooded = false;
    let flood = raw(addr, "Flood", move |_, s| {
        if !flooded {
            flooded = true;
            let burst = b"{\"status\":\"skip\"}\n".repeat(5000);
            return s.write_all(&burst).is_ok();
        }
        true
    });
    std::thread::sleep(Duration::from_millis(50));
    let me = bot(addr, ours("Ours", 12)).join().unwrap();
    flood.join().unwrap();
    let r = finish(server).remove(0);
    let f = seat(&r, "Flood");
    assert!(r.faults[f].warnings > 0, "queued lines are reported");
    assert_eq!(r.faults[f].penalties, 0, "each queued skip is a plain draw");
    assert_eq!(me.penalties, 0);
    assert_eq!(me.winner.as_deref(), Some(r.winner_name()));
}
