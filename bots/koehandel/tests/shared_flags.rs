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
