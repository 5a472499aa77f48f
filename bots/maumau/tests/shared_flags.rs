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
fn maumau_bot_shared_flags() {
    let bin = env!("CARGO_BIN_EXE_maumau-bot");
    let shared = [
        "--host <HOST>",
        "--port <PORT>",
        "--player <NAME>",
        "--seed <N>",
        "--time-ms",
        "--overhead-ms",
        "[default: ismcts]",
    ];
    check_help(bin, "maumau-bot", &shared, &["--strategy"]);
    accepts(
        bin,
        &[
            &["--strategy", "random"],
            &["--player", "greedy", "--seed", "2"],
        ],
    );
    let r = run_bin(bin, &["--time-ms", "150", "--port", "9"]);
    assert!(!r.ok && r.text().contains("--time-ms 150"), "{}", r.text());
}

#[test]
fn maumau_server_shared_flags() {
    let bin = env!("CARGO_BIN_EXE_maumau-server");
    let shared = [
        "--host <HOST>",
        "--port <PORT>",
        "--time-ms <MS>",
        "--seed <N>",
        "[default: 5000]",
    ];
    check_help(
        bin,
        "maumau-server",
        &shared,
        &["--turn-timeout-ms", "--bind"],
    );
    accepts(
        bin,
        &[
            &["--turn-timeout-ms", "500"],
            &["-turn-timeout-ms=500"],
            &["--bind", "::1"],
        ],
    );
}
