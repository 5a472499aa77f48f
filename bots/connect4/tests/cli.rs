//! The binaries' command lines: `--help` lists the common flags, `--version` answers, and
//! neither starts a bot or a server.

fn run(bin: &str, args: &[&str]) -> (bool, String) {
    let r = kibitz_testkit::run_bin(bin, args);
    (r.ok, r.text())
}

#[test]
fn connect4_bot_help_and_version() {
    let bin = env!("CARGO_BIN_EXE_connect4-bot");
    let (ok, help) = run(bin, &["--help"]);
    assert!(ok, "{help}");
    for flag in [
        "--host",
        "--port",
        "--name",
        "--time-ms",
        "--log-level",
        "--nodes",
        "--version",
        "--help",
    ] {
        assert!(
            help.contains(flag),
            "connect4-bot --help lacks {flag}:\n{help}"
        );
    }
    let (ok, v) = run(bin, &["--version"]);
    assert!(ok && v.starts_with("connect4-bot "), "{v}");
    // The log level is a flag (RUST_LOG still wins); an unknown flag is refused.
    let (ok, _) = run(bin, &["--log-level", "debug", "--help"]);
    assert!(ok);
    let (ok, _) = run(bin, &["--no-such-flag"]);
    assert!(!ok);
}

#[test]
fn connect4_server_help_and_version() {
    let bin = env!("CARGO_BIN_EXE_connect4-server");
    let (ok, help) = run(bin, &["--help"]);
    assert!(ok, "{help}");
    for flag in [
        "--host",
        "--port",
        "--time-ms",
        "--records",
        "--log-level",
        "--version",
    ] {
        assert!(
            help.contains(flag),
            "connect4-server --help lacks {flag}:\n{help}"
        );
    }
    let (ok, v) = run(bin, &["--version"]);
    assert!(ok && v.starts_with("connect4-server "), "{v}");
}
