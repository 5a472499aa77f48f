//! The Mau-Mau part of `kibitz tournament`: the contest's knock-out format on our reference
//! server (loopback, port 0), with our ISMCTS bot and the baseline bots as real TCP clients
//! (in-process threads running [`crate::client`]).
//!
//! Field, in seeding order: `kibitz` (ISMCTS, 50 ms per move), `heuristic`, `greedy`, `random`.
//! Matches are a fixed number of games (best of N).

use crate::client::{play, BotConfig};
use crate::knockout::{run_knockout, Entrant, KnockoutConfig, KnockoutReport, Launch};
use crate::server::ServerConfig;
use kibitz_net::tournament::Options;
use kibitz_search::stats::Standing;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Thinking time of our ISMCTS bot per move.
pub const ISMCTS_MOVE_TIME: Duration = Duration::from_millis(50);

fn entrant(name: &str, strategy: &str, time: Duration, seeds: Arc<AtomicU64>) -> Entrant {
    let strategy = strategy.to_string();
    let start = move |addr, name: &str| {
        let cfg = BotConfig {
            name: name.to_string(),
            strategy: strategy.clone(),
            time,
            iterations: None,
            seed: seeds.fetch_add(1, Ordering::Relaxed),
            players: 2,
            read_timeout: Duration::from_secs(15),
        };
        std::thread::spawn(move || {
            if let Err(e) = play(addr, &cfg) {
                tracing::warn!("{}: {e}", cfg.name);
            }
        });
    };
    Entrant {
        name: name.into(),
        launch: Launch::InProcess(Arc::new(start)),
    }
}

/// Runs this contest's local tournament, matches of `opts.games` games (made odd), deals and bot
/// seeds from `seed`, and returns the standings.
pub fn run(opts: &Options) -> anyhow::Result<Vec<Standing>> {
    let (games, seed) = (opts.games, opts.seed);
    let seeds = Arc::new(AtomicU64::new(
        seed.wrapping_mul(0x9e37_79b9).wrapping_add(0x6d61_756d),
    ));
    let entrants = vec![
        entrant("kibitz", "ismcts", ISMCTS_MOVE_TIME, seeds.clone()),
        entrant(
            "heuristic",
            "heuristic",
            Duration::from_millis(10),
            seeds.clone(),
        ),
        entrant("greedy", "greedy", Duration::from_millis(10), seeds.clone()),
        entrant("random", "random", Duration::from_millis(10), seeds),
    ];
    let cfg = KnockoutConfig {
        match_games: games.max(1) | 1,
        shuffle: false,
        server: ServerConfig {
            turn_timeout: Some(Duration::from_secs(2)),
            max_turns: 2000,
            seed,
            games: u32::MAX,
            ..ServerConfig::default()
        },
        deadline: None,
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let report = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        run_knockout(&listener, &entrants, &cfg).await
    })?;
    tracing::info!("maumau knock-out:\n{report}");
    Ok(standings(&report))
}

/// Standings from a knock-out: champion first, then by the round reached, then by wins.
pub fn standings(report: &KnockoutReport) -> Vec<Standing> {
    let n = report.names.len();
    let mut reached = vec![0u32; n];
    let mut out_by = vec![None; n];
    for m in &report.matches {
        for e in std::iter::once(m.a).chain(m.b) {
            reached[e] = reached[e].max(m.round);
            if e != m.winner {
                out_by[e] = Some((m.round, m.winner, m.score));
            }
        }
    }
    let mut rows: Vec<(usize, Standing)> = (0..n)
        .map(|i| {
            let t = &report.totals[i];
            let fate = match out_by[i] {
                _ if i == report.champion => "champion".to_string(),
                Some((r, w, (a, b))) => {
                    format!("out in round {r} to {} ({a}-{b})", report.names[w])
                }
                None => "did not play".to_string(),
            };
            let note = format!(
                "{fate}; penalties {}, timeouts {}, drops {}",
                t.penalties, t.timeouts, t.drops
            );
            let st = Standing {
                player: report.names[i].clone(),
                games: t.games,
                wins: t.wins,
                draws: 0,
                losses: t.games - t.wins,
                points: t.wins as f64,
                note,
            };
            (i, st)
        })
        .collect();
    rows.sort_by_key(|(i, s)| {
        (
            *i != report.champion,
            std::cmp::Reverse(reached[*i]),
            std::cmp::Reverse(s.wins),
        )
    });
    rows.into_iter().map(|(_, s)| s).collect()
}
