//! Research tool for issue 38: a quick paired match between two agent specs in process,
//! without the `kibitz` binary. Every Kraken pair is played twice, each spec once as RED,
//! one game after the other on one thread; prints W-D-L and the score of A, overall and per
//! colour. Meant for fixed-node specs (`search:nodes=N,...`), which make it independent of
//! the machine's load.
//!
//! Run: `cargo run --release -p kibitz-piranhas --example limit_match -- SPEC_A SPEC_B PAIRS SEED`.

use kibitz_piranhas::agents::AgentSpec;
use kibitz_piranhas::arena::play_game;
use kibitz_piranhas::kraken::random_pair;
use kibitz_piranhas::Color;
use kibitz_search::seed::mix;
use rand::SeedableRng;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [a, b, pairs, seed] = args.as_slice() else {
        return Err("usage: limit_match SPEC_A SPEC_B PAIRS SEED".into());
    };
    let (a, b): (AgentSpec, AgentSpec) = (a.parse()?, b.parse()?);
    let pairs: u64 = pairs.parse()?;
    let seed: u64 = seed.parse()?;
    // [colour of A][win, draw, loss] from A's view.
    let mut tally = [[0u32; 3]; 2];
    for i in 0..pairs {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(mix(seed, i));
        let krakens = random_pair(&mut rng);
        for a_colour in [Color::Red, Color::Blue] {
            let (mut pa, mut pb) = (a.build(), b.build());
            let seeds = [mix(seed, 2 * i), mix(seed, 2 * i + 1)];
            let record = if a_colour == Color::Red {
                play_game([pa.as_mut(), pb.as_mut()], seeds, krakens)
            } else {
                play_game([pb.as_mut(), pa.as_mut()], seeds, krakens)
            };
            let r = match record.winner {
                Some(w) if w == a_colour => 0,
                None => 1,
                Some(_) => 2,
            };
            tally[a_colour as usize][r] += 1;
            println!(
                "pair {i} krakens {krakens:?} A {a_colour}: {}",
                ["win", "draw", "loss"][r]
            );
        }
    }
    let score = |t: [u32; 3]| (t[0] as f64 + t[1] as f64 / 2.0) / (t.iter().sum::<u32>() as f64);
    let all = [0, 1, 2].map(|k| tally[0][k] + tally[1][k]);
    println!(
        "A {a} vs B {b}: W-D-L {}-{}-{} score {:.3} | A as RED {:?} {:.3} | A as BLUE {:?} {:.3}",
        all[0],
        all[1],
        all[2],
        score(all),
        tally[0],
        score(tally[0]),
        tally[1],
        score(tally[1])
    );
    Ok(())
}
