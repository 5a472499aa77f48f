//! `kibitz connect4 timing`: the bot's time per move on any board size, measured through the
//! bot's own [`Thinker`] (engine thread, pondering on the opponent's time, the bot's clock
//! rule [`MoveBudget::for_move`], fallback when no answer came)
//! against a random opponent that takes a random 0–40 ms per move; optionally with a CPU hog.

use super::fmt_dur;
use anyhow::Context;
use kibitz_bots_connect4::thinker::Thinker;
use kibitz_connect4::agents::{self, AgentSpec, EngineSpec};
use kibitz_connect4::game_impl::C4Config;
use kibitz_connect4::Position;
use kibitz_search::clock::MoveBudget;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of `kibitz connect4 timing`.
#[derive(Clone, Debug)]
pub struct TimingArgs {
    /// Board columns.
    pub columns: usize,
    /// Board rows.
    pub rows: usize,
    /// Line length.
    pub connect: usize,
    /// Bot moves to measure.
    pub moves: usize,
    /// The bot's `--time-ms` (its move budget).
    pub time_ms: u64,
    /// The bot's `--overhead-ms`.
    pub overhead_ms: u64,
    /// Keep one core busy.
    pub hog: bool,
    /// Random seed.
    pub seed: u64,
    /// Threads of the solver's proofs (`connect4-bot --threads`).
    pub threads: usize,
    /// Engine tunables.
    pub params: kibitz_connect4::params::EngineParams,
}

/// Runs the measurement and prints the distribution.
pub fn timing(a: &TimingArgs) -> anyhow::Result<()> {
    anyhow::ensure!(a.moves > 0, "--moves must be at least 1");
    let rule = clock(a).with_room(
        Duration::from_millis(a.time_ms),
        Duration::from_millis(a.overhead_ms),
    )?;
    let stop = Arc::new(AtomicBool::new(false));
    let hog = a.hog.then(|| {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut x = 1u64;
            while !stop.load(Ordering::Relaxed) {
                for i in 0..100_000u64 {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
                }
                std::hint::black_box(x);
            }
        })
    });
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("tokio runtime")?;
    let r = rt.block_on(measure(a));
    stop.store(true, Ordering::Relaxed);
    if let Some(h) = hog {
        let _ = h.join();
    }
    let (mut times, late, fallbacks, sources) = r?;
    times.sort();
    let n = times.len();
    let q = |p: f64| times[((n as f64 * p).ceil() as usize).clamp(1, n) - 1];
    let budget = Duration::from_millis(a.time_ms);
    println!(
        "{}×{} connect {}, --time-ms {} --overhead-ms {} --threads {} (soft {}, hard {}, send by {}){}: \
         {n} moves; p50 {}, p99 {}, p99.9 {}, max {}; \
         {late} over {} ms, {fallbacks} engine fallbacks; sources {sources:?}",
        a.columns,
        a.rows,
        a.connect,
        a.time_ms,
        a.overhead_ms,
        a.threads,
        fmt_dur(rule.soft),
        fmt_dur(rule.hard),
        fmt_dur(rule.send_by),
        if a.hog { " (CPU hog)" } else { "" },
        fmt_dur(q(0.5)),
        fmt_dur(q(0.99)),
        fmt_dur(q(0.999)),
        fmt_dur(times[n - 1]),
        budget.as_millis()
    );
    Ok(())
}

/// The bot's times of one move, as `connect4-bot` computes them from the same flags.
fn clock(a: &TimingArgs) -> MoveBudget {
    MoveBudget::for_move(
        Duration::from_millis(a.time_ms),
        Duration::from_millis(a.overhead_ms),
    )
}

type Measured = (Vec<Duration>, usize, usize, Vec<(&'static str, usize)>);

async fn measure(a: &TimingArgs) -> anyhow::Result<Measured> {
    let config = C4Config {
        columns: a.columns,
        rows: a.rows,
        connect: a.connect,
    };
    let spec = AgentSpec::Engine(EngineSpec {
        params: a.params,
        threads: a.threads,
        ..EngineSpec::engine(64)
    });
    let mut thinker = Thinker::start(spec.build(&config)?, config, false)?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(a.seed);
    let time = Duration::from_millis(a.time_ms);
    let (mut times, mut late, mut fallbacks) = (Vec::new(), 0, 0);
    let mut sources: Vec<(&'static str, usize)> = Vec::new();
    let mut game = 0usize;
    while times.len() < a.moves {
        let we_first = game.is_multiple_of(2);
        game += 1;
        let mut b = Position::new(a.columns, a.rows, a.connect)?;
        let mut hist = Vec::new();
        thinker.new_game(usize::from(!we_first), game as u64);
        while !b.is_over() && times.len() < a.moves {
            let our_turn = (b.moves_played() % 2 == 0) == we_first;
            let col = if our_turn {
                let started = Instant::now();
                let rule = clock(a);
                let r = thinker
                    .think(
                        hist.clone(),
                        started,
                        rule.soft,
                        rule.hard,
                        rule.send_by - rule.hard,
                    )
                    .await;
                let col = match r {
                    Some((d, _)) if b.can_play(d.action) => {
                        let source = agents::source(&d).unwrap_or("none");
                        match sources.iter_mut().find(|(s, _)| *s == source) {
                            Some(e) => e.1 += 1,
                            None => sources.push((source, 1)),
                        }
                        d.action
                    }
                    _ => {
                        fallbacks += 1;
                        b.legal_moves()[0]
                    }
                };
                let dt = started.elapsed();
                late += usize::from(dt > time);
                times.push(dt);
                col
            } else {
                thinker.ponder(hist.clone());
                tokio::time::sleep(Duration::from_millis(rng.random_range(0..40))).await;
                let legal = b.legal_moves();
                legal[rng.random_range(0..legal.len())]
            };
            b.play(col)?;
            hist.push(col);
        }
    }
    thinker.stop_ponder();
    Ok((times, late, fallbacks, sources))
}
