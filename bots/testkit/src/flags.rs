//! Checks every contest binary's command line the same way: `--version` is `NAME VERSION`,
//! `--help` shows the shared flags of `kibitz_net::cli` and hides the old names, speaks to a
//! user (no crate description, Rust paths or spec sections), and old names still parse.

use crate::run_bin;

/// `--version` prints `NAME VERSION`; `--help` has a usage line for `name`, not the crate's
/// `description`, names every flag of `shared` and none of `hidden` (old aliases), and
/// `kibitz_net::cli::help_problems` finds nothing in it.
pub fn check_help(
    bin: &str,
    name: &str,
    version: &str,
    description: &str,
    shared: &[&str],
    hidden: &[&str],
) {
    let v = run_bin(bin, &["--version"]);
    assert!(v.ok, "{}", v.text());
    assert_eq!(v.stdout, format!("{name} {version}\n"));
    let h = run_bin(bin, &["--help"]);
    assert!(h.ok, "{}", h.text());
    assert!(
        h.stdout.contains(&format!("Usage: {name} ")),
        "{}",
        h.stdout
    );
    assert!(!h.stdout.contains(description), "{}", h.stdout);
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

/// Each flag list of `old` (flag and value) is accepted; an unknown flag is refused. Every
/// check ends with `--help`, so nothing starts.
pub fn accepts(bin: &str, old: &[&[&str]]) {
    for args in old {
        let mut a = args.to_vec();
        a.push("--help");
        let r = run_bin(bin, &a);
        assert!(r.ok, "{args:?} refused: {}", r.text());
    }
    let r = run_bin(bin, &["--no-such-flag", "1", "--help"]);
    assert!(!r.ok, "an unknown flag must be refused");
}
