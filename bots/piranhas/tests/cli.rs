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
fn piranhas_bot_param_takes_every_tunable_and_refuses_unknown_names_before_connecting() {
    let bin = env!("CARGO_BIN_EXE_piranhas-bot");
    let port = closed_port().to_string();
    let base = ["-h", "127.0.0.1", "-p", port.as_str()];
    // A search switch, a search knob and an evaluation weight are all accepted: the bot gets
    // as far as connecting (and finds the port closed).
    for good in ["end_plies=0", "null_r=3", "fish=90", "asp=0"] {
        let (ok, text) = run(bin, &[&base[..], &["--param", good]].concat());
        assert!(!ok, "{good}: {text}");
        assert!(text.contains("cannot connect"), "{good}: {text}");
    }
    for (bad, says) in [
        ("bogus=1", "unknown parameter `bogus`"),
        ("fish=x", "`x` is not a number"),
        ("fish", "name=value"),
    ] {
        let (ok, text) = run(bin, &[&base[..], &["--param", bad]].concat());
        assert!(!ok, "{bad}: {text}");
        assert!(text.contains(says), "{bad}: {text}");
        assert!(
            !text.contains("onnect"),
            "{bad} must stop before connecting: {text}"
        );
    }
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

/// Runs `bin` with `args` (no backtraces), killing it after `guard`: a hang fails the test
/// instead of stalling it. Returns the exit code (`None`: killed by a signal) and stderr.
fn run_bounded(bin: &str, args: &[&str], guard: std::time::Duration) -> (Option<i32>, String) {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(bin)
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .env_remove("RUST_LIB_BACKTRACE")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {bin}: {e}"));
    let mut stderr = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > guard {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{bin} {args:?} still running after {guard:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    (status.code(), reader.join().unwrap())
}

/// A loopback listener that accepts one connection, writes `script`, then keeps the
/// connection open for `hold` (or closes at once), reading whatever the client sends.
fn fake_server(script: Vec<u8>, hold: std::time::Duration) -> u16 {
    use std::io::{Read, Write};
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let Ok((mut s, _)) = l.accept() else { return };
        let _ = s.write_all(&script);
        let _ = s.set_read_timeout(Some(hold.max(std::time::Duration::from_millis(1))));
        let deadline = std::time::Instant::now() + hold;
        let mut buf = [0u8; 4096];
        while std::time::Instant::now() < deadline {
            match s.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                Err(_) => break,
            }
        }
    });
    port
}

/// A loopback port nobody listens on (bound, then released).
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

const GUARD: std::time::Duration = std::time::Duration::from_secs(60);

#[test]
fn piranhas_bot_warns_about_a_silent_server_then_gives_up_with_a_message() {
    let bin = env!("CARGO_BIN_EXE_piranhas-bot");
    // The server accepts and never says a word (held far longer than the bot waits).
    let port = fake_server(Vec::new(), GUARD);
    let p = port.to_string();
    let (code, err) = run_bounded(
        bin,
        &["-h", "127.0.0.1", "-p", &p, "--idle-timeout-s", "1"],
        GUARD,
    );
    assert_eq!(code, Some(1), "{err}");
    let addr = format!("127.0.0.1:{port}");
    assert!(
        err.contains("WARN") && err.contains(&format!("no message from the server at {addr}")),
        "a warning first: {err}"
    );
    // It gives up after the limit, not before (later when the machine is loaded: the message
    // says how long the silence really was).
    let said = format!("the server at {addr} sent nothing for ");
    let silent: f64 = err
        .split_once(&said)
        .and_then(|(_, rest)| rest.split_once(" s (--idle-timeout-s)"))
        .and_then(|(secs, _)| secs.parse().ok())
        .unwrap_or_else(|| panic!("no '{said}… s (--idle-timeout-s)': {err}"));
    assert!(
        silent >= 1.0,
        "gave up after {silent} s, before the limit: {err}"
    );
}

#[test]
fn piranhas_bot_names_the_address_it_cannot_reach() {
    let bin = env!("CARGO_BIN_EXE_piranhas-bot");
    let port = closed_port().to_string();
    let (code, err) = run_bounded(bin, &["-h", "127.0.0.1", "-p", &port], GUARD);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("cannot connect to the server at 127.0.0.1:{port}"))
            && err.contains("refused"),
        "{err}"
    );
}

#[test]
fn piranhas_bot_refuses_a_hash_table_larger_than_the_machine() {
    let bin = env!("CARGO_BIN_EXE_piranhas-bot");
    let port = closed_port().to_string();
    let (code, err) = run_bounded(
        bin,
        &["--hash-mb", "99999999", "-h", "127.0.0.1", "-p", &port],
        GUARD,
    );
    // A usage error (exit 2) naming the request, not SIGABRT and not a connection attempt.
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--hash-mb") && err.contains("99999999 MiB"),
        "{err}"
    );
    assert!(!err.contains("connect"), "{err}");
}

#[test]
fn piranhas_bot_reports_a_stream_cut_mid_tag_and_exits_non_zero() {
    let bin = env!("CARGO_BIN_EXE_piranhas-bot");
    let script = b"<protocol>\n  <joined roomId=\"r\"/>\n  <room roomId=\"r\">\n    <data cla\x00\x01 garbage \xff".to_vec();
    // The server reads the bot's join (so its close is a clean FIN), then closes.
    let port = fake_server(script, std::time::Duration::from_millis(300)).to_string();
    let (code, err) = run_bounded(bin, &["-h", "127.0.0.1", "-p", &port], GUARD);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("ERROR") && err.contains("could not read the server's stream: garbage"),
        "the protocol error is logged: {err}"
    );
    assert!(
        err.contains("game ended abnormally") && err.contains("undecodable server stream"),
        "{err}"
    );
}

#[test]
fn piranhas_server_tournament_honours_krakens_and_rounds_games_up() {
    let server = env!("CARGO_BIN_EXE_piranhas-server");
    let bot = env!("CARGO_BIN_EXE_piranhas-bot");
    let dir = kibitz_testkit::fresh_dir("piranhas-cli-krakens");
    let records = dir.to_string_lossy().into_owned();
    let client = format!("{bot} --player random --log-level warn");
    let (code, err) = run_bounded(
        server,
        &[
            "--client",
            &client,
            "--client",
            &client,
            "--games",
            "3",
            "--krakens",
            "2,2,7,3",
            "--records",
            &records,
            "--log-level",
            "warn",
        ],
        GUARD,
    );
    assert_eq!(code, Some(0), "{err}");
    let games = kibitz_testkit::json_lines(&dir.join("piranhas.jsonl"));
    // `--games 3` is rounded up to 4: two Kraken pairs, each with both colours.
    assert_eq!(games.len(), 4, "{games:?}");
    for g in &games {
        assert_eq!(g["setup"]["krakens"], "2,2,7,3", "--krakens holds: {g}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn piranhas_server_refuses_zero_games_or_parallelism() {
    let server = env!("CARGO_BIN_EXE_piranhas-server");
    for flag in ["--games", "--parallel"] {
        let (code, err) = run_bounded(
            server,
            &["--client", "true", "--client", "true", flag, "0"],
            GUARD,
        );
        assert_eq!(code, Some(2), "{flag} 0: {err}");
        assert!(err.contains(flag), "{err}");
    }
}

#[test]
fn piranhas_bot_threads_default_to_the_machines_cores_and_refuse_bad_counts() {
    let bin = env!("CARGO_BIN_EXE_piranhas-bot");
    let port = closed_port().to_string();
    let addr = ["-h", "127.0.0.1", "-p", port.as_str()];
    // No flag: `auto`, the machine's cores capped; the bot says how many before connecting.
    let auto = kibitz_net::cli::auto_threads();
    assert!((1..=kibitz_net::cli::AUTO_THREADS_CAP).contains(&auto));
    for (extra, want) in [(vec![], auto), (vec!["--threads", "3"], 3)] {
        let args: Vec<&str> = addr.iter().copied().chain(extra).collect();
        let (code, err) = run_bounded(bin, &args, GUARD);
        assert_eq!(code, Some(1), "{err}");
        assert!(
            err.contains(&format!("searching on {want} thread(s)")),
            "{args:?}: {err}"
        );
    }
    // Bad counts stop the bot before it connects, naming what it takes.
    for bad in ["0", "65", "many"] {
        let (ok, text) = run(bin, &["--threads", bad, "-h", "127.0.0.1", "-p", &port]);
        assert!(!ok, "{bad}: {text}");
        assert!(
            text.contains("is not a thread count") && !text.contains("onnect"),
            "{bad}: {text}"
        );
    }
}
