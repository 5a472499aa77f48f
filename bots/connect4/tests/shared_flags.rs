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
fn connect4_bot_shared_flags() {
    let bin = env!("CARGO_BIN_EXE_connect4-bot");
    let shared = [
        "--host <HOST>",
        "--port <PORT>",
        "--player <NAME>",
        "--seed <N>",
        "--time-ms",
        "--overhead-ms",
        "[default: 250]",
        "[default: 4446]",
    ];
    check_help(bin, "connect4-bot", &shared, &["--random", "--bind"]);
    accepts(
        bin,
        &[&["--random", "5"], &["--player", "random", "--seed", "3"]],
    );
    // A player name it does not know is refused before any datagram is sent.
    let r = run_bin(bin, &["--name", "x", "--player", "nope", "--port", "9"]);
    assert!(
        !r.ok && r.text().contains("unknown --player \"nope\""),
        "{}",
        r.text()
    );
    // A budget that leaves the engine nothing is refused with both numbers.
    let r = run_bin(
        bin,
        &["--name", "x", "--time-ms", "100", "--overhead-ms", "50"],
    );
    assert!(
        !r.ok && r.text().contains("--overhead-ms 50"),
        "{}",
        r.text()
    );
}

#[test]
fn connect4_server_shared_flags() {
    let bin = env!("CARGO_BIN_EXE_connect4-server");
    let shared = [
        "--host <HOST>",
        "--port <PORT>",
        "--time-ms <MS>",
        "[env: TIMEOUT]",
    ];
    check_help(bin, "connect4-server", &shared, &["--timeout", "--bind"]);
    accepts(
        bin,
        &[
            &["--timeout", "300"],
            &["--bind", "127.0.0.1"],
            &["--time-ms", "300"],
        ],
    );
}
