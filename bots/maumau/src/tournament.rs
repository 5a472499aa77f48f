//! The Mau-Mau part of `kibitz tournament`: the contest's knock-out format on our reference
//! server (loopback, port 0), with our ISMCTS bot and the baseline bots as real TCP clients
//! (in-process threads running [`crate::client`]).
//!
//! Field, in seeding order: `kibitz` (ISMCTS, [`ISMCTS_ITERATIONS`] iterations per move),
//! `heuristic`, `greedy`, `random`. Every match plays all its games (the majority goes
//! through), so the contest has a fixed game count.
//!
//! Reproducible: deals come from the seed and the game number (game `i` of the run deals with
//! `seed + i`), every bot's randomness from the seed, its entrant number and the game number,
//! and our bot searches a fixed number of iterations, not a time: the standings depend only on
//! the seed and the game count. [`ISMCTS_MOVE_CAP`] only guards against a stalled machine (far
//! above a move's normal time and far below the server's [`TURN_TIMEOUT`]).

use crate::client::{play, BotConfig};
use crate::knockout::{run_knockout_with, Entrant, KnockoutConfig, KnockoutReport, Launch};
use crate::server::ServerConfig;
use kibitz_net::tournament::Options;
use kibitz_search::seed::mix;
use kibitz_search::stats::Standing;
use std::sync::Arc;
use std::time::Duration;

/// ISMCTS iterations per move of our bot (about the 50 ms per move the tournament used to
/// give it on a loaded 2-core machine).
pub const ISMCTS_ITERATIONS: u64 = 20_000;

/// Safety cap per move of our bot: reached only on a stalled machine (then the move, and
/// only it, depends on timing). A move normally takes a few tens of ms.
pub const ISMCTS_MOVE_CAP: Duration = Duration::from_millis(2_000);

/// The server's per-answer timeout in the tournament (the contest's 5 s).
pub const TURN_TIMEOUT: Duration = Duration::from_secs(5);

fn entrant(name: &str, strategy: &str, number: u64, seed: u64) -> Entrant {
    let strategy = strategy.to_string();
    let iterations = (strategy == "ismcts").then_some(ISMCTS_ITERATIONS);
    let start = move |addr, name: &str, game: u32| {
        let cfg = BotConfig {
            name: name.to_string(),
            strategy: strategy.clone(),
            time: ISMCTS_MOVE_CAP,
            overhead: kibitz_search::clock::MAUMAU.overhead,
            iterations,
            seed: mix(mix(seed, number), u64::from(game)),
            players: 2,
            read_timeout: Duration::from_secs(30),
            params: Vec::new(),
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

/// Runs this contest's local tournament, matches of `opts.games` games (made odd, all
/// played), deals and bot seeds from `opts.seed`, records to `opts.records`, and returns the
/// standings.
pub fn run(opts: &Options) -> anyhow::Result<Vec<Standing>> {
    let seed = opts.seed;
    let entrants = vec![
        entrant("kibitz", "ismcts", 0, seed),
        entrant("heuristic", "heuristic", 1, seed),
        entrant("greedy", "greedy", 2, seed),
        entrant("random", "random", 3, seed),
    ];
    let cfg = KnockoutConfig {
        match_games: opts.games.max(1) | 1,
        shuffle: false,
        server: ServerConfig {
            turn_timeout: Some(TURN_TIMEOUT),
            max_turns: 2000,
            seed,
            games: u32::MAX,
            records: opts.record_writer("maumau")?,
            ..ServerConfig::default()
        },
        deadline: None,
        play_out: true,
    };
    opts.progress.total(cfg.total_games(entrants.len()));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let report = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        run_knockout_with(listener, &entrants, &cfg, &|s| opts.progress.game_done(s)).await
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
