//! A lean duplicate-deal match of two Mau-Mau specs, in process and untimed, for measuring
//! at fixed iterations on a loaded machine without building the `kibitz` binary: each deal is
//! played twice with the seats swapped, one game at a time.
//!
//! ```text
//! cargo run --release -p kibitz-maumau --example mm_match -- A B DEALS [SEED]
//! ```
//! `A` and `B` are engine specs (`ismcts:iters=8000,param.om_exploit=1`, `greedy`, ...).
//! Output: A's wins and losses, its score ± 95 %, the Elo of that score ± 95 %, penalty cards
//! per side (illegal answers counted by the game loop), games per end reason, and A's mean
//! search iterations per searched move.

use kibitz_maumau::agents::{parse_agent, AgentOptions, MauMauAgent};
use kibitz_maumau::arena::{play_game_by, Seats};
use kibitz_maumau::game_impl::MauMau;
use kibitz_maumau::knowledge::Notice;
use kibitz_maumau::{Action, Config, Game};
use kibitz_search::agent::{Agent, View};
use kibitz_search::time::TimeControl;

/// Two agents in seat order; counts A's searched moves and iterations.
struct Pair {
    agents: [MauMauAgent; 2],
    a_seat: usize,
    searched: u64,
    iterations: u64,
}

impl Seats for Pair {
    fn tell(&mut self, seat: usize, notice: &Notice) {
        self.agents[seat].observe(notice);
    }
    fn choose(&mut self, _: &Game, view: &View<'_, MauMau>, clock: &TimeControl) -> Option<Action> {
        let seat = view.seat();
        let d = self.agents[seat].choose(view, clock);
        if seat == self.a_seat && d.nodes > 0 {
            self.searched += 1;
            self.iterations += d.nodes;
        }
        Some(d.action)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        return Err("usage: mm_match A B DEALS [SEED]".into());
    }
    let (a, b) = (&args[1], &args[2]);
    let deals: u64 = args[3].parse()?;
    let seed: u64 = args.get(4).map_or(Ok(404), |s| s.parse())?;
    let opts = AgentOptions::default();
    let (mut wins, mut games, mut searched, mut iterations) = (0u64, 0u64, 0u64, 0u64);
    let mut penalties = [0u64; 2];
    let mut ends = std::collections::BTreeMap::new();
    for d in 0..deals {
        let deal_seed = seed.wrapping_mul(1_000_003).wrapping_add(d);
        for a_seat in 0..2usize {
            let g = 2 * d + a_seat as u64;
            let sa = parse_agent(a, &opts)?.seated(a_seat, g.wrapping_mul(31) ^ 1);
            let sb = parse_agent(b, &opts)?.seated(1 - a_seat, g.wrapping_mul(31) ^ 2);
            let agents = if a_seat == 0 { [sa, sb] } else { [sb, sa] };
            let mut pair = Pair {
                agents,
                a_seat,
                searched: 0,
                iterations: 0,
            };
            let rec = play_game_by(Config::default(), deal_seed, None, &mut pair);
            wins += (rec.end.winner() == a_seat) as u64;
            games += 1;
            searched += pair.searched;
            iterations += pair.iterations;
            penalties[0] += rec.penalties[a_seat] as u64;
            penalties[1] += rec.penalties[1 - a_seat] as u64;
            *ends
                .entry(
                    format!("{:?}", rec.end)
                        .split('(')
                        .next()
                        .unwrap_or("")
                        .to_string(),
                )
                .or_insert(0u64) += 1;
        }
        if (d + 1) % 25 == 0 {
            eprintln!("after {games} games: A won {wins}");
        }
    }
    let p = wins as f64 / games as f64;
    let se = (p * (1.0 - p) / games as f64).sqrt();
    let elo = |q: f64| -400.0 * (1.0 / q.clamp(1e-9, 1.0 - 1e-9) - 1.0).log10();
    println!(
        "A {a} vs B {b}: {games} games (deals {deals}, seed {seed}): W {wins} L {}, score {:.1} % ± {:.1}, Elo {:+.0} ± {:.0}",
        games - wins,
        100.0 * p,
        196.0 * se,
        elo(p),
        (elo(p + 1.96 * se) - elo(p - 1.96 * se)) / 2.0
    );
    println!(
        "penalties A {} B {}; ends {ends:?}; A mean iterations per searched move {:.0} ({searched} moves)",
        penalties[0],
        penalties[1],
        iterations as f64 / searched.max(1) as f64
    );
    Ok(())
}
