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

/// How a bounded run of a binary ended.
struct Bounded {
    /// Exit code (`None`: killed by a signal, or by us at the limit).
    code: Option<i32>,
    /// The signal that ended it, if one did.
    signal: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `bin` with `args` and kills it after `limit` (the test then fails on the result).
fn run_bounded(bin: &str, args: &[&str], limit: std::time::Duration) -> Bounded {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let mut child = Command::new(bin)
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {bin}: {e}"));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    let _ = child.stdout.take().unwrap().read_to_string(&mut stdout);
    let _ = child.stderr.take().unwrap().read_to_string(&mut stderr);
    Bounded {
        code: status.and_then(|s| s.code()),
        signal: status.and_then(|s| s.signal()),
        stdout,
        stderr,
    }
}

/// Issue 37 item 3: a table larger than the machine is refused by the flag parser with a
/// message and exit code 2, not by the allocator with SIGABRT.
#[test]
fn connect4_bot_refuses_an_absurd_hash_size() {
    let bin = env!("CARGO_BIN_EXE_connect4-bot");
    let limit = std::time::Duration::from_secs(30);
    for bad in ["99999999", "lots", "-1"] {
        let flag = format!("--hash-mb={bad}");
        let r = run_bounded(bin, &["--name", "x", "--port", "9", &flag], limit);
        assert_eq!(
            (r.code, r.signal),
            (Some(2), None),
            "--hash-mb {bad}: {}{}",
            r.stdout,
            r.stderr
        );
        assert!(
            r.stderr.contains("--hash-mb") && r.stderr.contains(bad),
            "--hash-mb {bad}: {}",
            r.stderr
        );
    }
    let r = run_bounded(
        bin,
        &["--name", "x", "--port", "9", "--hash-mb", "99999999"],
        limit,
    );
    assert!(r.stderr.contains("MiB"), "{}", r.stderr);
}

/// The help text of `flag`: its line and the description lines under it, spaces collapsed.
fn flag_help(help: &str, flag: &str) -> String {
    let mut out = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        let t = line.trim_start();
        if t.starts_with('-') {
            inside =
                t.starts_with(&format!("{flag} ")) || t == flag || t.contains(&format!(" {flag} "));
        }
        if inside {
            out.push(t);
        }
    }
    out.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Issue 37 item 5: every default `connect4-server --help` states is what the server uses
/// when neither the flag nor its environment variable is given (`ServerConfig::default()`).
#[test]
fn connect4_server_help_states_the_real_defaults() {
    use kibitz_bots_connect4::config::ServerConfig;
    let d = ServerConfig::default();
    let (ok, help) = run(env!("CARGO_BIN_EXE_connect4-server"), &["--help"]);
    assert!(ok, "{help}");
    assert!(
        !help.contains("0.0.0.0"),
        "the server binds 127.0.0.1:\n{help}"
    );
    let expected = [
        ("--host", d.bind.to_string()),
        ("--port", d.port.to_string()),
        ("--time-ms", d.timeout.as_millis().to_string()),
        ("--delay", d.delay.as_millis().to_string()),
        ("--min-players", d.min_players.to_string()),
        ("--columns", d.columns.to_string()),
        ("--rows", d.rows.to_string()),
        ("--connect", d.connect.to_string()),
        ("--parallel", u8::from(d.parallel).to_string()),
        ("--seasons", d.seasons.unwrap_or(0).to_string()),
    ];
    for (flag, value) in expected {
        let text = flag_help(&help, flag);
        assert!(
            text.contains(&format!("(default {value})"))
                || text.contains(&format!("(default {value},"))
                || text.contains(&format!("(default {value};")),
            "{flag} should say (default {value}): {text:?}"
        );
    }
}

/// Issue 37 item 5: every `[default: X]` of `connect4-bot --help` is what the bot uses
/// (`BotConfig::new`).
#[test]
fn connect4_bot_help_states_the_real_defaults() {
    use kibitz_bots_connect4::client::BotConfig;
    use kibitz_connect4::agents::AgentSpec;
    let d = BotConfig::new("127.0.0.1", 4446, "x");
    let AgentSpec::Engine(ref e) = d.player else {
        panic!("the default player is the engine");
    };
    let hash_mb = e.hash_mb;
    let (ok, help) = run(env!("CARGO_BIN_EXE_connect4-bot"), &["--help"]);
    assert!(ok, "{help}");
    let expected = [
        ("--host", d.host.clone()),
        ("--port", d.port.to_string()),
        ("--time-ms", d.time.as_millis().to_string()),
        ("--columns", d.columns.to_string()),
        ("--rows", d.rows.to_string()),
        ("--connect", d.connect.to_string()),
        ("--hash-mb", hash_mb.to_string()),
        ("--reregister-s", d.reregister_after.as_secs().to_string()),
        (
            "--idle-exit-s",
            d.give_up_after.map_or(0, |g| g.as_secs()).to_string(),
        ),
    ];
    for (flag, value) in expected {
        let text = flag_help(&help, flag);
        assert!(
            text.contains(&format!("[default: {value}]")),
            "{flag} should say [default: {value}]: {text:?}"
        );
    }
}

/// Issue 37 item 2: with no server answering, the bot warns, gives up after `--idle-exit-s`
/// and exits with an error that says why (it used to stay silent forever).
#[test]
fn connect4_bot_without_a_server_exits_with_a_message() {
    // A socket that never answers stands in for a missing server (no ICMP involved).
    let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port().to_string();
    let r = run_bounded(
        env!("CARGO_BIN_EXE_connect4-bot"),
        &[
            "--name",
            "lonely",
            "--port",
            &port,
            "--hash-mb",
            "1",
            "--reregister-s",
            "1",
            "--idle-exit-s",
            "2",
        ],
        std::time::Duration::from_secs(30),
    );
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("no answer from the server"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("WARN"), "a warning first: {}", r.stdout);
    let mut buf = [0u8; 64];
    silent.set_nonblocking(true).unwrap();
    let (n, _) = silent
        .recv_from(&mut buf)
        .expect("the bot tried to register");
    assert_eq!(&buf[..n], b"REGISTER;lonely");
}

/// Issue 39 item 3: `--threads` reaches the engine (the bot says how many threads prove
/// before it registers; the default is `DEFAULT_THREADS`, `auto` the machine's cores capped,
/// a spec's own `threads=` wins), and a bad count stops the bot before it sends anything.
#[test]
fn connect4_bot_threads_default_and_refuse_bad_counts() {
    use kibitz_bots_connect4::client::DEFAULT_THREADS;
    let bin = env!("CARGO_BIN_EXE_connect4-bot");
    let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port().to_string();
    let base = [
        "--name",
        "threads",
        "--port",
        port.as_str(),
        "--hash-mb",
        "1",
        "--idle-exit-s",
        "1",
    ];
    let default = kibitz_net::cli::parse_threads(DEFAULT_THREADS).unwrap();
    let auto = kibitz_net::cli::auto_threads();
    for (extra, want) in [
        (vec![], default),
        (vec!["--threads", "2"], 2),
        (vec!["--threads", "auto"], auto),
        (vec!["--threads", "3", "--player", "engine:threads=2"], 2),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra).collect();
        let r = run_bounded(bin, &args, std::time::Duration::from_secs(30));
        assert_eq!(r.code, Some(1), "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains(&format!("proving on {want} thread(s)")),
            "{args:?}: {}",
            r.stdout
        );
    }
    let (ok, help) = run(bin, &["--help"]);
    assert!(ok);
    let text = flag_help(&help, "--threads");
    assert!(
        text.contains(&format!("[default: {DEFAULT_THREADS}]")) && text.contains("--threads 1"),
        "{text}"
    );
    // Bad counts: refused by the flag parser (exit code 2), nothing sent.
    silent.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 64];
    while silent.recv_from(&mut buf).is_ok() {}
    for bad in ["0", "65", "many"] {
        let args: Vec<&str> = base.iter().copied().chain(["--threads", bad]).collect();
        let r = run_bounded(bin, &args, std::time::Duration::from_secs(30));
        assert_eq!((r.code, r.signal), (Some(2), None), "{bad}: {}", r.stderr);
        assert!(
            r.stderr.contains("is not a thread count") && r.stderr.contains(bad),
            "{bad}: {}",
            r.stderr
        );
    }
    assert!(
        silent.recv_from(&mut buf).is_err(),
        "a refused count sent nothing"
    );
}
