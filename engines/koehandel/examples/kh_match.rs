//! Development match runner (the real front door is `kibitz koehandel match`):
//! `cargo run --release -p kibitz-koehandel --features research --example kh_match -- GAMES p1,p2,p3,p4 [SEED] [THREADS]`.

use kibitz_koehandel::runner::run_match;
use kibitz_search::stats::mean_ci;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let seats = args
        .get(2)
        .cloned()
        .unwrap_or("heuristic,random,random,random".into());
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let threads: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let names: Vec<String> = seats.split(',').map(String::from).collect();
    let entrants: [String; 4] = names.try_into().expect("four names");
    let t = std::time::Instant::now();
    let (res, decisions) = run_match(&entrants, games, seed, threads, &|| {}).expect("match");
    let secs = t.elapsed().as_secs_f64();
    for r in &res {
        let (m, h) = mean_ci(&r.scores);
        println!(
            "{:10} wins {:6.1} ({:5.1} %)  mean {:6.0} ± {:4.0}  bluffs {} defaults {}",
            r.name,
            r.wins,
            100.0 * r.wins / games as f64,
            m,
            h,
            r.bluffs,
            r.defaults
        );
    }
    println!(
        "{games} games, {decisions} decisions, {secs:.2} s, {:.2} µs/decision",
        secs * 1e6 / decisions as f64
    );
}
