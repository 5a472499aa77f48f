//! The binaries' command lines: `--help` and `--version` of both, the renamed flags, the
//! original server's `-port 7777` style, `--param`, and a whole game through the binaries
//! with `--records` that replays to the end the server printed.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn run(bin: &str, args: &[&str]) -> (bool, String, String) {
    let r = kibitz_testkit::run_bin(bin, args);
    (r.ok, r.stdout, r.stderr)
}

const BOT: &str = env!("CARGO_BIN_EXE_maumau-bot");
const SERVER: &str = env!("CARGO_BIN_EXE_maumau-server");

#[test]
fn help_and_version() {
    for (bin, flags) in [
        (
            BOT,
            &["--host", "--port", "--log-level", "--param", "--iterations"][..],
        ),
        (
            SERVER,
            &[
                "--host",
                "--port",
                "--log-level",
                "--transcript",
                "--records",
            ][..],
        ),
    ] {
        let (ok, out, err) = run(bin, &["--help"]);
        assert!(ok, "{err}");
        for f in flags {
            assert!(out.contains(f), "{bin} --help lacks {f}:\n{out}");
        }
        // Renamed flags stay hidden aliases.
        assert!(!out.contains("--bind") && !out.contains("--log <"), "{out}");
        let (ok, out, _) = run(bin, &["--version"]);
        assert!(ok);
        assert!(
            out.starts_with("maumau-") && out.contains(env!("CARGO_PKG_VERSION")),
            "{out}"
        );
    }
}

#[test]
fn bad_param_fails_before_connecting() {
    let (ok, _, err) = run(BOT, &["--param", "nosuch=1", "--port", "9"]);
    assert!(!ok);
    assert!(err.contains("--param nosuch=1"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let (ok, _, err) = run(
        BOT,
        &["--strategy", "random", "--param", "c=1", "--port", "9"],
    );
    assert!(!ok && err.contains("ismcts strategy only"), "{err}");
}

#[test]
fn go_style_port_and_records_through_the_binaries() {
    let dir = std::env::temp_dir().join(format!("mm-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut server = Command::new(SERVER)
        .args(["-FreeHackContest", "-port", "0", "-seed=5", "--games", "1"])
        .arg("--records")
        .arg(&dir)
        .args(["--log-level", "warn"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("server starts");
    let mut lines = BufReader::new(server.stdout.take().expect("stdout")).lines();
    let port = loop {
        let l = lines.next().expect("a listening line").expect("utf-8");
        if let Some(a) = l.strip_prefix("[#] listening on ") {
            break a.rsplit(':').next().unwrap().to_string();
        }
    };
    let bots: Vec<_> = [("A", "ismcts"), ("B", "random")]
        .into_iter()
        .map(|(name, strategy)| {
            let b = Command::new(BOT)
                .args(["--port", &port, "--name", name, "--exact-name"])
                .args(["--strategy", strategy, "--seed", "3", "--log-level", "warn"])
                .args(if strategy == "ismcts" {
                    &["--iterations", "300", "--param", "c=0.8"][..]
                } else {
                    &[][..]
                })
                .stderr(Stdio::piped())
                .spawn()
                .expect("bot starts");
            std::thread::sleep(std::time::Duration::from_millis(100));
            b
        })
        .collect();
    for b in bots {
        let out = b.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(server.wait().unwrap().success());
    let game = rest
        .iter()
        .find(|l| l.starts_with("[#] game 1:"))
        .expect("a game line");
    assert!(
        [
            "emptied hand",
            "talon exhausted",
            "last bot online",
            "turn cap"
        ]
        .iter()
        .any(|r| game.contains(r)),
        "end reason in words: {game}"
    );
    let text = std::fs::read_to_string(dir.join("maumau.jsonl")).expect("records written");
    let rec: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(rec["setup"]["deal_seed"], 5);
    let winner = rec["result"]["winner"].as_u64().unwrap() as usize;
    let name = rec["players"][winner].as_str().unwrap();
    assert!(game.contains(&format!("winner {name} ")), "{game}");
    let positions = kibitz_bots_maumau::record::replay(&rec).expect("replays");
    assert!(positions
        .last()
        .unwrap()
        .0
        .contains(&format!("seat {winner} wins")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 37 item 5: every default and range `--help` states is what the binaries do; values
/// outside the stated ranges are refused with a message instead of silently changed.
#[test]
fn help_matches_behaviour_and_out_of_range_values_are_refused() {
    // Each command line ends quickly whatever the checks do: a missing knock-out file stops
    // the server, a closed port the bot.
    let missing = "/nonexistent/kibitz-maumau-bots.txt";
    for (bin, args, flag) in [
        (
            SERVER,
            &["--players", "5", "--knockout", missing][..],
            "--players",
        ),
        (
            SERVER,
            &["--players", "1", "--knockout", missing][..],
            "--players",
        ),
        (
            SERVER,
            &["--games", "0", "--knockout", missing][..],
            "--games",
        ),
        (BOT, &["--players", "7", "--port", "9"][..], "--players"),
    ] {
        let (ok, _, err) = run(bin, args);
        assert!(!ok, "{args:?} accepted");
        assert!(err.contains(flag), "{args:?}: {err}");
    }
    // The knock-out plays two-seat games only.
    let dir = kibitz_testkit::fresh_dir("maumau-cli-knockout");
    let file = dir.join("bots.txt");
    std::fs::write(&file, "a x\nb y\n").unwrap();
    let (ok, _, err) = run(
        SERVER,
        &[
            "--knockout",
            file.to_str().unwrap(),
            "--players",
            "3",
            "--port",
            "0",
            "--match-games",
            "1",
        ],
    );
    assert!(
        !ok && err.contains("--knockout plays two-seat games"),
        "{err}"
    );
    // --time-ms 0 does not wait forever by default: the idle timeout then applies.
    let (_, out, _) = run(SERVER, &["--help"]);
    let turn = out
        .split("--time-ms")
        .nth(1)
        .and_then(|t| t.split("\n      --").next())
        .unwrap_or_default();
    assert!(turn.contains("--idle-timeout-ms then"), "{turn}");
    assert!(!turn.contains("wait forever"), "{turn}");
}
