//! Prints the deterministic bench signature (`kibitz koehandel bench` does the same).

fn main() {
    let t = std::time::Instant::now();
    let n = kibitz_koehandel::bench();
    println!("koehandel bench: {n} in {:.2} s", t.elapsed().as_secs_f64());
}
