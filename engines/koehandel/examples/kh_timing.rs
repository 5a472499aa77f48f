//! Times the strong player's decisions by question type (wall clock, so machine load counts):
//! `cargo run --release -p kibitz-koehandel --features research --example kh_timing -- GAMES
//! [WORLDS] [THREADS]`. The decisions (and play-outs) are the same at every thread count, so
//! play-outs per second of wall time compare the threads directly; the process's CPU time
//! (`/usr/bin/time`) gives them per CPU second.

use std::time::{Duration, Instant};

use kibitz_koehandel::game_impl::Koehandel;
use kibitz_koehandel::strong::{StrongParams, StrongPlayer};
use kibitz_koehandel::{make_agent, Game, KhAgent, Question};
use kibitz_search::agent::{Agent, View};
use kibitz_search::time::TimeControl;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let worlds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(16);
    let threads: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let kinds = ["start", "bid", "buy-back", "pay", "challenged", "reoffer"];
    let mut stats = vec![(0u64, Duration::ZERO, Duration::ZERO); kinds.len()];
    let mut rollouts = 0;
    for seed in 0..games {
        let params = StrongParams {
            worlds,
            threads,
            ..Default::default()
        };
        let mut strong = StrongPlayer::with_params(params, seed);
        let mut others: Vec<KhAgent> = (1..4)
            .map(|i| make_agent("heuristic", seed * 4 + i).unwrap())
            .collect();
        let mut g = Koehandel(Game::new(seed + 500));
        strong.new_game(0, seed);
        for (i, o) in others.iter_mut().enumerate() {
            o.new_game(i + 1, seed * 4 + i as u64 + 1);
        }
        loop {
            for n in g.0.drain_notices() {
                match n.seat.idx() {
                    0 => strong.observe(&n.event),
                    s => others[s - 1].observe(&n.event),
                }
            }
            let Some(ask) = g.0.ask() else { break };
            let (view, clock) = (View::new(&g, ask.seat.idx()), TimeControl::infinite());
            let a = if ask.seat.idx() == 0 {
                let kind = match ask.question {
                    Question::Start => 0,
                    Question::Bid { .. } => 1,
                    Question::BuyBack { .. } => 2,
                    Question::Pay { .. } => 3,
                    Question::Challenged { .. } => 4,
                    Question::Reoffer { .. } => 5,
                };
                let t = Instant::now();
                let a = strong.choose(&view, &clock).action;
                let d = t.elapsed();
                let s = &mut stats[kind];
                s.0 += 1;
                s.1 += d;
                s.2 = s.2.max(d);
                a
            } else {
                others[ask.seat.idx() - 1].choose(&view, &clock).action
            };
            g.0.answer(a.0);
        }
        rollouts += strong.rollouts();
    }
    let total: Duration = stats.iter().map(|s| s.1).sum();
    let n: u64 = stats.iter().map(|s| s.0).sum();
    for (k, s) in kinds.iter().zip(&stats) {
        if s.0 > 0 {
            println!(
                "{k:10} {:6} decisions  mean {:8.2} ms  max {:8.2} ms",
                s.0,
                s.1.as_secs_f64() * 1e3 / s.0 as f64,
                s.2.as_secs_f64() * 1e3
            );
        }
    }
    println!(
        "all        {n:6} decisions  mean {:8.2} ms; {rollouts} play-outs, {:.1} µs each \
         ({:.0} play-outs/s wall, {threads} threads)",
        total.as_secs_f64() * 1e3 / n as f64,
        total.as_secs_f64() * 1e6 / rollouts.max(1) as f64,
        rollouts as f64 / total.as_secs_f64().max(1e-9)
    );
}
