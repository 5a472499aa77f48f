//! Research tool for issue 38: a quick paired match between two agent specs in process,
//! without the `kibitz` binary. Every Kraken pair is played twice, each spec once as RED,
//! one game after the other on one thread; prints W-D-L and the score of A, overall and per
//! colour. Meant for fixed-node specs (`search:nodes=N,...`), which make it independent of
//! the machine's load.
//!
//! Run: `cargo run --release -p kibitz-piranhas --example limit_match -- SPEC_A SPEC_B PAIRS SEED`.

mod common;

use common::Tally;
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
    // A's results.
    let mut tally = Tally::default();
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
            println!(
                "pair {i} krakens {krakens:?} A {a_colour}: {}",
                tally.record(a_colour, record.winner)
            );
        }
    }
    println!("A {a} vs B {b}: {}", tally.summary());
    Ok(())
}
