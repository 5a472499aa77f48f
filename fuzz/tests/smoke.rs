//! Every fuzz target briefly, inside the normal test suite: a few hundred inputs each (the seeds
//! plus mutations, fixed seed), no panics, no broken round trips, no hangs. Long runs:
//! `fuzz/run.sh SECONDS`.

use kibitz_fuzz::{fuzz, targets, Budget};

/// Mutated inputs per target beyond the seeds.
const EXECS: u64 = 1000;

fn check(name: &str) {
    let all = targets::all();
    let t = all.iter().find(|t| t.name == name).expect("known target");
    assert!((t.seeds)().len() >= 2, "{name}: seeds from data/ found");
    let s = fuzz(t, Budget::Execs((t.seeds)().len() as u64 + EXECS), 7);
    assert!(
        s.clean(),
        "{name}: crashes {:?}\nviolations {:?}\nhangs {:?}",
        s.crashes.first(),
        s.violations.first(),
        s.hangs.first()
    );
}

#[test]
fn connect4_udp() {
    check("connect4-udp");
}

#[test]
fn piranhas_xml() {
    check("piranhas-xml");
}

#[test]
fn maumau_json() {
    check("maumau-json");
}

#[test]
fn koehandel_query() {
    check("koehandel-query");
}

#[test]
fn wuerfel_dice() {
    check("wuerfel-dice");
}

#[test]
fn connect4_position() {
    check("connect4-position");
}
