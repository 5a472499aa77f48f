//! Records written by the reference servers (through `kibitz tournament`'s Connect Four and
//! Piranhas contests with `--records`) are read by `kibitz replay --all`, and the last
//! position it prints is the server's final position: for Connect Four the board of the
//! record's native move string, for Piranhas the last `<state>` of the server's own replay
//! XML.

use kibitz_bots_piranhas::protocol::ServerMessage;
use kibitz_net::tournament::Options;
use kibitz_testkit::{fresh_dir, json_lines, run_bin};
use std::path::Path;

/// The board printed last by `kibitz replay FILE --game G --all`, and the number of
/// positions printed.
fn replayed_final(file: &Path, game: usize) -> (String, usize) {
    let game = game.to_string();
    let file = file.to_string_lossy();
    let out = run_bin(
        env!("CARGO_BIN_EXE_kibitz"),
        &["replay", "--all", "--game", &game, &file],
    );
    assert!(out.ok, "replay failed: {}", out.stderr);
    let text = out.stdout;
    let positions = text.lines().filter(|l| l.starts_with('[')).count();
    let last_header = text.rfind("\n[").expect("a position header") + 1;
    let after = &text[last_header..];
    let board = after.split_once('\n').map_or("", |(_, b)| b);
    (board.trim_end().to_string(), positions)
}

fn records(dir: &Path, name: &str) -> Vec<serde_json::Value> {
    json_lines(&dir.join(format!("{name}.jsonl")))
}

#[test]
fn server_records_replay_to_the_servers_final_positions() {
    let dir = fresh_dir("replay-srv");
    let opts = Options {
        games: 2,
        seed: 5,
        records: Some(dir.clone()),
        ..Options::default()
    };
    kibitz_bots_connect4::tournament::run(&opts).expect("connect4 contest");
    kibitz_bots_piranhas::tournament::run(&opts).expect("piranhas contest");

    let c4 = records(&dir, "connect4");
    assert_eq!(c4.len(), 12);
    for (g, rec) in c4.iter().enumerate() {
        let native = rec["native"].as_str().unwrap();
        let mut b = kibitz_connect4::Board::<u64>::new(7, 6, 4).unwrap();
        for ch in native.chars() {
            b.play(ch.to_digit(10).unwrap() as usize - 1).unwrap();
        }
        let (board, n) = replayed_final(&dir.join("connect4.jsonl"), g);
        assert_eq!(board, b.to_string().trim_end(), "connect4 game {g}");
        assert_eq!(n, native.len() + 1);
    }

    let pir = records(&dir, "piranhas");
    assert_eq!(pir.len(), 6);
    for (g, rec) in pir.iter().enumerate() {
        let xml = std::fs::read_to_string(dir.join(rec["native_file"].as_str().unwrap())).unwrap();
        let start = xml.rfind("<state ").unwrap();
        let end = xml.rfind("</state>").unwrap() + "</state>".len();
        let wrapped = format!(
            "<room roomId=\"r\"><data class=\"memento\">{}</data></room>",
            &xml[start..end]
        );
        let ServerMessage::Memento { state, .. } = ServerMessage::parse(&wrapped).unwrap() else {
            panic!("not a memento");
        };
        let last = state.to_state().unwrap();
        let (board, n) = replayed_final(&dir.join("piranhas.jsonl"), g);
        assert_eq!(board, last.to_string().trim_end(), "piranhas game {g}");
        assert_eq!(n, rec["moves"].as_array().unwrap().len() + 1);
        // The reason reads as the arena's (the rules' words, English); the server's own
        // (German) text is kept beside it.
        let reason = rec["result"]["reason"].as_str().unwrap();
        assert!(
            reason.starts_with("RED wins")
                || reason.starts_with("BLUE wins")
                || reason.starts_with("draw")
                || reason.contains(" lost by "),
            "piranhas game {g}: {reason}"
        );
        assert!(rec["result"]["server_reason"].is_string(), "{rec}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kibitz replay FILE --all | head -1`: the reader closes the pipe early; the replay stops
/// quietly with success instead of panicking (exit 101) on the broken pipe.
#[test]
fn replay_into_a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = kibitz_testkit::fresh_dir("replay-pipe");
    let out = Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args([
            "match", "piranhas", "--a", "random", "--b", "random", "--games", "4", "--seed", "5",
        ])
        .arg("--records")
        .arg(&dir)
        .output()
        .expect("run kibitz match");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = dir.join("piranhas-5.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .arg("replay")
        .arg(&file)
        .arg("--all")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kibitz replay");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is gone (dropped above): the rest of the output (about 170 kB, more than a
    // pipe holds) hits a closed pipe.
    let done = child.wait_with_output().expect("replay ends");
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(first.starts_with("piranhas game 0"), "{first}");
    assert!(
        done.status.success(),
        "exit {:?}: {stderr}",
        done.status.code()
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
