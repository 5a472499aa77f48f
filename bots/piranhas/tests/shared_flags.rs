//! Each binary's command line carries the shared flags of `kibitz_net::cli` (`--host`,
//! `--port`, `--time-ms`, `--seed`, `--player`), `--version` prints the binary's name, the
//! help speaks to a user (no Rust paths or spec sections), and the old flag names still parse
//! (each check ends with `--help`, so nothing starts; an unknown flag would fail first).

use kibitz_testkit::run_bin;

/// `--version` is `NAME VERSION`, `--help` names `shared` and none of `hidden`, and is clean.
fn check_help(bin: &str, name: &str, shared: &[&str], hidden: &[&str]) {
    let v = run_bin(bin, &["--version"]);
    assert!(v.ok, "{}", v.text());
    assert_eq!(v.stdout, format!("{name} {}\n", env!("CARGO_PKG_VERSION")));
    let h = run_bin(bin, &["--help"]);
    assert!(h.ok, "{}", h.text());
    assert!(
        h.stdout.contains(&format!("Usage: {name} ")),
        "{}",
        h.stdout
    );
    assert!(
        !h.stdout.contains(env!("CARGO_PKG_DESCRIPTION")),
        "{}",
        h.stdout
    );
    for flag in shared {
        assert!(
            h.stdout.contains(flag),
            "{name} --help lacks {flag}:\n{}",
            h.stdout
        );
    }
    for old in hidden {
        let shown = format!("{old} ");
        assert!(
            !h.stdout.contains(&shown),
            "{name} --help shows {old}:\n{}",
            h.stdout
        );
    }
    let problems = kibitz_net::cli::help_problems(&h.stdout);
    assert!(
        problems.is_empty(),
        "{name} --help: {problems:?}\n{}",
        h.stdout
    );
}

/// Each of `old` (flag and value) is accepted.
fn accepts(bin: &str, old: &[&[&str]]) {
    for args in old {
        let mut a = args.to_vec();
        a.push("--help");
        let r = run_bin(bin, &a);
        assert!(r.ok, "{args:?} refused: {}", r.text());
    }
    let r = run_bin(bin, &["--no-such-flag", "1", "--help"]);
    assert!(!r.ok, "an unknown flag must be refused");
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
