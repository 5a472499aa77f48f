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
fn piranhas_bot_shared_flags() {
    let bin = env!("CARGO_BIN_EXE_piranhas-bot");
    let shared = [
        "-h, --host <HOST>",
        "-p, --port <PORT>",
        "--player <NAME>",
        "--seed <N>",
        "--time-ms",
        "--overhead-ms",
        "[default: 2000]",
        "[default: 13050]",
    ];
    check_help(bin, "piranhas-bot", &shared, &["--hard-ms", "--log"]);
    accepts(
        bin,
        &[
            &["--hard-ms", "1200"],
            &["--log", "debug"],
            &["--strategy", "greedy"],
        ],
    );
    let r = run_bin(
        bin,
        &["--time-ms", "400", "--overhead-ms", "200", "-p", "9"],
    );
    assert!(
        !r.ok && r.text().contains("--overhead-ms 200"),
        "{}",
        r.text()
    );
}

#[test]
fn piranhas_server_shared_flags() {
    let bin = env!("CARGO_BIN_EXE_piranhas-server");
    let shared = [
        "--host <HOST>",
        "-p, --port <PORT>",
        "--time-ms <MS>",
        "--hard-ms",
        "--seed <N>",
        "[default: 2000]",
    ];
    check_help(bin, "piranhas-server", &shared, &["--soft-ms", "--bind"]);
    accepts(
        bin,
        &[
            &["--soft-ms", "1500"],
            &["--bind", "127.0.0.1"],
            &["--seed", "4"],
        ],
    );
}
