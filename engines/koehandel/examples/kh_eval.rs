//! Strength measurement with per-game output, for paired comparisons:
//! `cargo run --release -p kibitz-koehandel --features research --example kh_eval -- GAMES p1,p2,p3,p4 [SEED]
//! [THREADS] [CSV] [FIRST]` (FIRST: skip games below it, to resume a stopped run). Seats rotate over the same decks as the old `kibitz koehandel match` did (games
//! `4i..4i+3` share deck `SEED+i`); prints every entrant's win share ± 95 % and entrant 1's
//! decision time (mean and max over all its decisions); CSV gets one row per game as it
//! finishes (`game,share1..4,score1..4`) so two runs on the same seed can be paired.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use kibitz_koehandel::event::Event;
use kibitz_koehandel::game_impl::{KhAction, Koehandel};
use kibitz_koehandel::runner::play_game;
use kibitz_koehandel::{make_agent, Game, KhAgent};
use kibitz_search::agent::{Agent, Decision, View};
use kibitz_search::stats::mean_ci;
use kibitz_search::time::TimeControl;
use rayon::prelude::*;

/// Times every decision of the wrapped player.
struct Timed {
    inner: KhAgent,
    times: Vec<f64>,
    sink: Arc<Mutex<Vec<f64>>>,
}

impl Drop for Timed {
    fn drop(&mut self) {
        if let Ok(mut s) = self.sink.lock() {
            s.extend_from_slice(&self.times);
        }
    }
}

impl Agent<Koehandel> for Timed {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn new_game(&mut self, seat: usize, seed: u64) {
        self.inner.new_game(seat, seed)
    }
    fn observe(&mut self, e: &Event) {
        self.inner.observe(e)
    }
    fn choose(&mut self, view: &View<'_, Koehandel>, clock: &TimeControl) -> Decision<KhAction> {
        let d = self.inner.choose(view, clock);
        self.times.push(d.elapsed.as_secs_f64());
        d
    }
}

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().collect();
    let games: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(40);
    let seats = args
        .get(2)
        .cloned()
        .unwrap_or("strong,heuristic,heuristic,heuristic".into());
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let threads: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let csv = args.get(5).cloned();
    let first: u32 = args.get(6).and_then(|s| s.parse().ok()).unwrap_or(0);
    let names: Vec<String> = seats.split(',').map(String::from).collect();
    if names.len() != 4 || names.iter().any(|n| make_agent(n, 0).is_err()) {
        return Err(format!("need four known players, got {seats}").into());
    }
    let times = Arc::new(Mutex::new(Vec::new()));
    // Rows are written as games finish, so a run stopped early still leaves its games.
    let out: Option<Mutex<std::fs::File>> = match &csv {
        Some(path) => {
            let mut f = std::fs::File::create(path)?;
            writeln!(
                f,
                "game,share1,share2,share3,share4,score1,score2,score3,score4"
            )?;
            Some(Mutex::new(f))
        }
        None => None,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let t0 = Instant::now();
    let results: Vec<(u32, [f64; 4], [u32; 4])> = pool.install(|| {
        (first..games)
            .into_par_iter()
            .map(|g| {
                let deck_seed = seed.wrapping_add((g / 4) as u64);
                let rot = (g % 4) as usize;
                let seeds: Vec<u64> = (0..4)
                    .map(|s| deck_seed.wrapping_mul(31).wrapping_add(s))
                    .collect();
                let mut players: Vec<KhAgent> = (0..4)
                    .map(|s| {
                        let e = (s + 4 - rot) % 4;
                        let p = make_agent(&names[e], seeds[s]).expect("checked");
                        if e == 0 {
                            Box::new(Timed {
                                inner: p,
                                times: Vec::new(),
                                sink: times.clone(),
                            }) as KhAgent
                        } else {
                            p
                        }
                    })
                    .collect();
                let r = play_game(Game::new(deck_seed), &mut players, &seeds);
                let best = *r.scores.iter().max().unwrap_or(&0);
                let ties = r.scores.iter().filter(|&&s| s == best).count() as f64;
                let mut share = [0.0; 4];
                let mut score = [0; 4];
                for (e, sh) in share.iter_mut().enumerate() {
                    let s = (e + rot) % 4;
                    score[e] = r.scores[s];
                    if r.scores[s] == best {
                        *sh = 1.0 / ties;
                    }
                }
                if let Some(Ok(mut f)) = out.as_ref().map(|m| m.lock()) {
                    let _ = writeln!(
                        f,
                        "{g},{},{},{},{},{},{},{},{}",
                        share[0],
                        share[1],
                        share[2],
                        share[3],
                        score[0],
                        score[1],
                        score[2],
                        score[3]
                    );
                    let _ = f.flush();
                }
                (g, share, score)
            })
            .collect()
    });
    let secs = t0.elapsed().as_secs_f64();
    for (e, n) in names.iter().enumerate() {
        let w: Vec<f64> = results.iter().map(|r| r.1[e]).collect();
        let sc: Vec<f64> = results.iter().map(|r| r.2[e] as f64).collect();
        let (m, h) = mean_ci(&w);
        let (ms, hs) = mean_ci(&sc);
        println!(
            "{} {:40} win {:5.1} % ± {:4.1}  score {:5.0} ± {:4.0}",
            e + 1,
            n,
            100.0 * m,
            100.0 * h,
            ms,
            hs
        );
    }
    println!("{games} games in {secs:.1} s, {threads} threads, seed {seed}");
    let t = times.lock().map(|t| t.clone()).unwrap_or_default();
    let max = t.iter().copied().fold(0.0, f64::max);
    let mean = t.iter().sum::<f64>() / t.len().max(1) as f64;
    let slow: Vec<f64> = t.iter().copied().filter(|&x| x > 1e-3).collect();
    println!(
        "entrant 1 decisions: {} mean {:.2} ms max {:.1} ms; {} above 1 ms: mean {:.1} ms",
        t.len(),
        mean * 1e3,
        max * 1e3,
        slow.len(),
        slow.iter().sum::<f64>() / slow.len().max(1) as f64 * 1e3
    );
    let t = times.lock().map(|t| t.clone()).unwrap_or_default();
    let max = t.iter().copied().fold(0.0, f64::max);
    let mean = t.iter().sum::<f64>() / t.len().max(1) as f64;
    let slow: Vec<f64> = t.iter().copied().filter(|&x| x > 1e-3).collect();
    println!(
        "entrant 1 decisions: {} mean {:.2} ms max {:.1} ms; {} above 1 ms: mean {:.1} ms",
        t.len(),
        mean * 1e3,
        max * 1e3,
        slow.len(),
        slow.iter().sum::<f64>() / slow.len().max(1) as f64 * 1e3
    );
    if let Some(path) = csv {
        let mut f = std::fs::File::create(path)?;
        writeln!(f, "game,share1,share2,share3,share4")?;
        let mut rows = results.clone();
        rows.sort_by_key(|r| r.0);
        for (g, s, _) in rows {
            writeln!(f, "{g},{},{},{},{}", s[0], s[1], s[2], s[3])?;
        }
    }
    Ok(())
}
