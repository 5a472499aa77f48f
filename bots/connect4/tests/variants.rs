//! Server extensions (spec §10): parallel matchdays, other board sizes, a size mismatch
//! between bot and server, and configuration errors of the binary.

mod common;

use common::*;
use kibitz_bots_connect4::client::{Bot, BotConfig};
use kibitz_bots_connect4::config::ServerConfig;
use kibitz_bots_connect4::protocol::{GameResult, LoseReason};
use kibitz_bots_connect4::server::Server;
use std::collections::HashSet;
use std::time::Duration;
use tokio::sync::watch;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_matchdays_play_the_full_double_round_robin() {
    let server = Server::start(ServerConfig {
        port: 0,
        min_players: 5,
        seasons: Some(1),
        parallel: true,
        ..ServerConfig::default()
    })
    .await
    .unwrap();
    let addr = server.local_addr();
    let (stop_tx, stop) = watch::channel(false);
    let mut bots = Vec::new();
    for i in 0..5 {
        bots.push(spawn_bot(addr, &format!("r{i}"), random(i), 50, &stop).await);
    }
    assert!(server.wait_seasons(1, Duration::from_secs(60)).await);
    let _ = stop_tx.send(true);
    let mut byes = 0;
    for b in bots {
        let s = b.await.unwrap().unwrap();
        assert_eq!(
            s.wins + s.draws + s.losses,
            8,
            "each plays the 4 others twice"
        );
    }
    let season = &server.results()[0];
    let pairs: HashSet<(String, String)> = season
        .games
        .iter()
        .map(|g| (g.home.clone(), g.away.clone()))
        .collect();
    assert_eq!(season.games.len(), 20);
    assert_eq!(pairs.len(), 20, "every ordered pair once");
    assert!(season
        .games
        .iter()
        .all(|g| !matches!(g.result, GameResult::Lose { .. })));
    byes += season.byes.len();
    assert_eq!(byes, 10, "one bye per matchday, 10 matchdays");
    for i in 0..5 {
        assert_eq!(
            season
                .byes
                .iter()
                .filter(|b| **b == format!("r{i}"))
                .count(),
            2,
            "two byes each"
        );
    }
    let total: f64 = server.standings().iter().map(|s| s.points).sum();
    assert_eq!(total, 30.0, "20 games and 10 byes");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_board_size_with_matching_bots() {
    let server = Server::start(ServerConfig {
        port: 0,
        min_players: 2,
        seasons: Some(2),
        columns: 5,
        rows: 4,
        connect: 3,
        ..ServerConfig::default()
    })
    .await
    .unwrap();
    let port = server.local_addr().port();
    let (stop_tx, stop) = watch::channel(false);
    let mut tasks = Vec::new();
    for (name, brain) in [("kibitz", engine(4, true)), ("random", random(3))] {
        let cfg = BotConfig {
            time: Duration::from_millis(60),
            // The old reply-time semantics: only the hand-off grace is kept.
            overhead: Duration::from_millis(15),
            columns: 5,
            rows: 4,
            connect: 3,
            player: brain.0,
            seed: brain.1,
            ponder: brain.2,
            ..BotConfig::new("127.0.0.1", port, name)
        };
        let bot = Bot::new(cfg).await.unwrap();
        let mut rx = stop.clone();
        tasks.push(tokio::spawn(bot.run(async move {
            let _ = rx.wait_for(|s| *s).await;
        })));
    }
    assert!(server.wait_seasons(2, Duration::from_secs(60)).await);
    let _ = stop_tx.send(true);
    let ours = tasks.remove(0).await.unwrap().unwrap();
    assert_eq!(ours.losses, 0, "{:?}", ours.results);
    assert_eq!(ours.fallbacks, 0);
    for g in server.results().iter().flat_map(|s| s.games.clone()) {
        assert!(g.moves.iter().all(|&c| (0..5).contains(&c)));
        assert!(g.moves.len() <= 20);
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_with_the_wrong_size_keeps_playing_legal_moves() {
    // Server 9 × 7; our bot believes 7 × 6. The random opponent knows the real size.
    let server = Server::start(ServerConfig {
        port: 0,
        min_players: 2,
        seasons: Some(2),
        columns: 9,
        rows: 7,
        ..ServerConfig::default()
    })
    .await
    .unwrap();
    let port = server.local_addr().port();
    let (stop_tx, stop) = watch::channel(false);
    let cfg = BotConfig {
        time: Duration::from_millis(40),
        // The old reply-time semantics: only the hand-off grace is kept.
        overhead: Duration::from_millis(15),
        player: engine(4, false).0,
        seed: engine(4, false).1,
        ponder: engine(4, false).2,
        ..BotConfig::new("127.0.0.1", port, "kibitz")
    };
    let bot = Bot::new(cfg).await.unwrap();
    let mut rx = stop.clone();
    let ours = tokio::spawn(bot.run(async move {
        let _ = rx.wait_for(|s| *s).await;
    }));
    let rnd = BotConfig {
        columns: 9,
        rows: 7,
        player: random(11).0,
        seed: random(11).1,
        ponder: random(11).2,
        ..BotConfig::new("127.0.0.1", port, "random")
    };
    let rnd = Bot::new(rnd).await.unwrap();
    let mut rx = stop.clone();
    let rnd = tokio::spawn(rnd.run(async move {
        let _ = rx.wait_for(|s| *s).await;
    }));
    assert!(server.wait_seasons(2, Duration::from_secs(60)).await);
    let _ = stop_tx.send(true);
    let _ = (ours.await.unwrap().unwrap(), rnd.await.unwrap().unwrap());
    for g in server.results().iter().flat_map(|s| s.games.clone()) {
        // Whatever happens, our bot never times out and never plays outside the board.
        if let GameResult::Lose { loser, reason } = &g.result {
            assert!(
                loser != "kibitz" || matches!(reason, LoseReason::ColumnIsFull),
                "{g:?}"
            );
        }
    }
    let _ = stop_tx;
    server.shutdown().await;
}

#[test]
fn server_binary_refuses_bad_configuration_and_names_the_variable() {
    for (var, val) in [
        ("COLUMNS", "0"),
        ("CONNECT", "9"),
        ("PARALLEL", "yes"),
        ("TIMEOUT", "soon"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_connect4-server"))
            .env(var, val)
            .env("PORT", "0")
            .output()
            .unwrap();
        assert!(!out.status.success(), "{var}={val} accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(var), "{var}={val}: {err}");
    }
}

#[test]
fn binaries_play_a_season_and_print_the_ranking() {
    use std::process::{Command, Stdio};
    let port = std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let server = Command::new(env!("CARGO_BIN_EXE_connect4-server"))
        .env("PORT", port.to_string())
        .env("SEASONS", "1")
        .env("MINPLAYERS", "2")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let bot = |name: &str, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_connect4-bot"))
            .args([
                "--port",
                &port.to_string(),
                "--name",
                name,
                "--time-ms",
                "60",
                "--overhead-ms",
                "15",
                "--hash-mb",
                "4",
            ])
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut ours = bot("engine", &[]);
    let mut rnd = bot("rando", &["--random", "5"]);
    let mut server = server;
    let mut stdout = server.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    // Never hang: the season must end within a minute.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(st) = server.try_wait().unwrap() {
            break Some(st);
        }
        if std::time::Instant::now() > deadline {
            let _ = server.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = ours.kill();
    let _ = rnd.kill();
    let _ = (ours.wait(), rnd.wait(), server.wait());
    let text = reader.join().unwrap();
    assert!(status.is_some_and(|s| s.success()), "{text}");
    assert!(text.contains("Season 1 ended"), "{text}");
    assert!(
        text.contains("1: engine 2.0"),
        "engine wins both games: {text}"
    );
    assert!(text.contains("2: rando  0.0"), "{text}");
    assert!(text.contains("points"), "standings table: {text}");
}
