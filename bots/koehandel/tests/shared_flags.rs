//! Each binary's command line carries the shared flags of `kibitz_net::cli` (`--host`,
//! `--port`, `--time-ms`, `--seed`, `--player`), `--version` prints the binary's name, the
//! help speaks to a user (no Rust paths or spec sections), and the old flag names still parse
//! (each check ends with `--help`, so nothing starts; an unknown flag would fail first).

use kibitz_testkit::flags::accepts;
use kibitz_testkit::run_bin;

/// [`kibitz_testkit::flags::check_help`] with this crate's version and description.
fn check_help(bin: &str, name: &str, shared: &[&str], hidden: &[&str]) {
    let (version, description) = (env!("CARGO_PKG_VERSION"), env!("CARGO_PKG_DESCRIPTION"));
    kibitz_testkit::flags::check_help(bin, name, version, description, shared, hidden);
}

#[test]
fn koehandel_bot_shared_flags() {
    let bin = env!("CARGO_BIN_EXE_koehandel-bot");
    let shared = [
        "--host <HOST>",
        "--port <PORT>",
        "--player <NAME>",
        "--seed <N>",
        "--time-ms",
        "--overhead-ms",
        "[default: 5000]",
        "[default: 56790]",
    ];
    check_help(bin, "koehandel-bot", &shared, &["--strategy", "--listen"]);
    accepts(
        bin,
        &[&["--strategy", "heuristic"], &["--listen", "127.0.0.1:0"]],
    );
    let r = run_bin(bin, &["--time-ms", "1000", "--overhead-ms", "500"]);
    assert!(
        !r.ok && r.text().contains("--overhead-ms 500"),
        "{}",
        r.text()
    );
}

#[test]
fn koehandel_server_shared_flags() {
    let bin = env!("CARGO_BIN_EXE_koehandel-server");
    let shared = [
        "--host <HOST>",
        "--port <PORT>",
        "--time-ms <MS>",
        "--seed <N>",
        "[default: 2010]",
    ];
    check_help(
        bin,
        "koehandel-server",
        &shared,
        &["--deadline-ms", "--listen"],
    );
    accepts(bin, &[&["--deadline-ms", "500"], &["--bind", "127.0.0.1"]]);
    let r = run_bin(bin, &["--deadline-ms", "6000"]);
    assert!(!r.ok && r.stderr.contains("--time-ms"), "{}", r.text());
}
