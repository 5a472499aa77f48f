//! The binaries' command lines: `--help` lists the common flags (long forms beside the
//! contest's `-h`/`-p`/`-r`), `--version` answers, the old `--log` still parses, and none of
//! this starts a bot or a server.

fn run(bin: &str, args: &[&str]) -> (bool, String) {
    let r = kibitz_testkit::run_bin(bin, args);
    (r.ok, r.text())
}

#[test]
fn piranhas_bot_help_and_version() {
    let bin = env!("CARGO_BIN_EXE_piranhas-bot");
    let (ok, help) = run(bin, &["--help"]);
    assert!(ok, "{help}");
    for flag in [
        "-h, --host",
        "-p, --port",
        "-r, --reservation",
        "--time-ms",
        "--log-level",
        "--nodes",
        "--eval",
        "--version",
    ] {
        assert!(
            help.contains(flag),
            "piranhas-bot --help lacks {flag}:\n{help}"
        );
    }
    assert!(
        !help.contains("--log "),
        "the old --log is a hidden alias:\n{help}"
    );
    let (ok, v) = run(bin, &["--version"]);
    assert!(ok && v.starts_with("piranhas-bot "), "{v}");
    for old in [["--log", "debug"], ["--log-level", "debug"]] {
        let (ok, text) = run(bin, &[old[0], old[1], "--help"]);
        assert!(ok, "{old:?}: {text}");
    }
    let (ok, _) = run(bin, &["--no-such-flag"]);
    assert!(!ok);
}

#[test]
fn piranhas_bot_refuses_an_unknown_eval_preset_before_connecting() {
    let bin = env!("CARGO_BIN_EXE_piranhas-bot");
    // Port 9 (discard) on loopback: were the preset accepted, the bot would try to connect
    // and fail with a connection error instead of naming the preset.
    let (ok, text) = run(bin, &["--eval", "v9", "-h", "127.0.0.1", "-p", "9"]);
    assert!(!ok, "{text}");
    assert!(text.contains("unknown --eval \"v9\""), "{text}");
    assert!(
        !text.contains("onnect"),
        "it must not get as far as connecting: {text}"
    );
}

#[test]
fn piranhas_server_help_and_version() {
    let bin = env!("CARGO_BIN_EXE_piranhas-server");
    let (ok, help) = run(bin, &["--help"]);
    assert!(ok, "{help}");
    for flag in [
        "--host",
        "-p, --port",
        "--records",
        "--record-streams",
        "--log-level",
        "--version",
    ] {
        assert!(
            help.contains(flag),
            "piranhas-server --help lacks {flag}:\n{help}"
        );
    }
    assert!(
        !help.contains("--bind") && !help.contains("--log "),
        "old names are hidden:\n{help}"
    );
    let (ok, v) = run(bin, &["--version"]);
    assert!(ok && v.starts_with("piranhas-server "), "{v}");
    for args in [
        ["--log", "warn"],
        ["--bind", "127.0.0.1"],
        ["--record", "/nonexistent"],
    ] {
        let (ok, text) = run(bin, &[args[0], args[1], "--help"]);
        assert!(ok, "{args:?}: {text}");
    }
}
