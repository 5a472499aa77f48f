//! The two binaries: start both on free ports, play a game through the server's front door.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts a binary and returns it with the URL it logs on startup.
fn start(bin: &str, args: &[&str]) -> (Proc, String) {
    let mut child = Command::new(bin)
        .args(args)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary starts");
    let out = child.stdout.take().unwrap();
    let proc = Proc(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if let Some(i) = line.find("http://") {
                let url: String = line[i..]
                    .chars()
                    .take_while(|c| !c.is_whitespace() && *c != '\u{1b}')
                    .collect();
                let _ = tx.send(url);
            }
        }
    });
    let url = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("startup line with URL");
    (proc, url)
}

fn get(url: &str) -> String {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let caller =
            kibitz_bots_koehandel::caller::Caller::with_limit(Duration::from_secs(10), 1 << 24);
        let (url, q) = url.split_once('?').unwrap_or((url, ""));
        caller.call(url, q).await.0.unwrap()
    })
}

#[test]
fn server_and_bot_binaries_play_a_game() {
    let (_bot, bot_url) = start(
        env!("CARGO_BIN_EXE_koehandel-bot"),
        &["--listen", "127.0.0.1:0", "--strategy", "heuristic"],
    );
    let (_srv, srv_url) = start(
        env!("CARGO_BIN_EXE_koehandel-server"),
        &["--listen", "127.0.0.1:0", "--deadline-ms", "3000"],
    );
    let reply = get(&format!("{srv_url}?connect&url1={bot_url}&url2={bot_url}"));
    assert!(
        reply.starts_with("?market=1&id1=1&id2=2&id3=3&id4=4"),
        "{reply}"
    );
    let mut log = String::new();
    for _ in 0..600 {
        log = get(&format!("{srv_url}?log=2"));
        if log.contains("&type=end&") {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(log.contains("&type=end&"), "game did not finish: {log}");
    assert!(!log.contains("no answer"), "{log}");
}

/// The `[default: X]` that `--help` shows for `--flag`.
fn shown_default(help: &str, flag: &str) -> String {
    let at = help
        .find(&format!("--{flag} <"))
        .unwrap_or_else(|| panic!("--{flag} missing:\n{help}"));
    let rest = &help[at + 2..];
    let own = &rest[..rest.find("\n      --").unwrap_or(rest.len())];
    let d = own
        .split("[default: ")
        .nth(1)
        .unwrap_or_else(|| panic!("no default for --{flag}: {own}"));
    d[..d.find(']').unwrap()].to_string()
}

#[test]
fn version_and_help_name_the_binary_and_show_the_defaults_that_apply() {
    use kibitz_bots_koehandel::client::EndpointLimits;
    use kibitz_bots_koehandel::server::MarketConfig;
    use kibitz_testkit::run_bin;
    let server = env!("CARGO_BIN_EXE_koehandel-server");
    let bot = env!("CARGO_BIN_EXE_koehandel-bot");
    for (bin, name) in [(server, "koehandel-server"), (bot, "koehandel-bot")] {
        let v = run_bin(bin, &["--version"]);
        assert!(v.ok, "{}", v.text());
        assert_eq!(v.stdout, format!("{name} {}\n", env!("CARGO_PKG_VERSION")));
        let h = run_bin(bin, &["--help"]);
        assert!(h.ok);
        assert!(
            h.stdout.contains(&format!("Usage: {name} [OPTIONS]")),
            "{}",
            h.stdout
        );
        assert!(!h.stdout.contains("kibitz-bots-koehandel"), "{}", h.stdout);
        assert!(
            !h.stdout.contains(env!("CARGO_PKG_DESCRIPTION")),
            "{}",
            h.stdout
        );
    }
    // What the server's --help shows is what the market does without flags.
    let help = run_bin(server, &["--help"]).stdout;
    let d = MarketConfig::default();
    for (flag, value) in [
        ("time-ms", d.deadline.as_millis().to_string()),
        ("seed", d.seed.to_string()),
        ("give-up-after", d.give_up_after.unwrap().to_string()),
        (
            "header-timeout-ms",
            d.header_timeout.as_millis().to_string(),
        ),
        ("max-connections", d.max_connections.to_string()),
        (
            "max-connections-per-peer",
            d.max_connections_per_peer.to_string(),
        ),
        ("host", "127.0.0.1".into()),
    ] {
        assert_eq!(shown_default(&help, flag), value, "server --{flag}");
    }
    let help = run_bin(bot, &["--help"]).stdout;
    let l = EndpointLimits::default();
    for (flag, value) in [
        (
            "header-timeout-ms",
            l.header_timeout.as_millis().to_string(),
        ),
        ("max-connections", l.max_connections.to_string()),
        (
            "max-connections-per-peer",
            l.max_connections_per_peer.to_string(),
        ),
        ("host", "127.0.0.1".into()),
    ] {
        assert_eq!(shown_default(&help, flag), value, "bot --{flag}");
    }
    assert!(help.contains(&format!(
        "[default: {}]",
        kibitz_bots_koehandel::client::best_strategy()
    )));
    // Values the help rules out are refused, not silently changed.
    for (bin, args) in [
        (server, ["--time-ms", "0"]),
        (server, ["--time-ms", "5001"]),
        (server, ["--header-timeout-ms", "0"]),
        (server, ["--max-connections", "0"]),
        (bot, ["--max-connections-per-peer", "0"]),
        (bot, ["--header-timeout-ms", "0"]),
    ] {
        let r = run_bin(bin, &args);
        assert!(!r.ok, "{args:?} accepted");
        assert!(r.stderr.contains(args[0]), "{args:?}: {}", r.stderr);
    }
}
