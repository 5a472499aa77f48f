//! The arena: one match runner for every two-sided game, plugged in through [`Arena`].
//!
//! A match is a list of games numbered `0..N`. Games come in *pairing units* (an opening,
//! deal or deck played with the sides swapped or the seats rotated); game `i` is slot
//! `i % unit` of unit `i / unit`. Every seed a game needs (opening, players' RNGs) is derived
//! from the match seed and the game's number, games run in parallel on a rayon pool, and the
//! results are reduced in game order, so the outcome depends only on the seed and N — never on
//! `--concurrency` or on machine load (with fixed-node / fixed-depth specs the moves are
//! deterministic too; time specs are for strength).
//!
//! The statistics (Elo ± 95 %, LOS, SPRT) come from [`kibitz_search::stats`].

pub mod cli;
pub mod connect4;
pub mod deals;
pub mod koehandel;
pub mod maumau;
pub mod piranhas;
pub mod record;
mod runner;

pub use runner::{run_match, MatchOutcome, MatchSettings, SideTally};

pub use kibitz_search::seed::mix;
use serde_json::Value;

/// Result of one game from player A's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A won.
    Win,
    /// Drawn (or, in Koehandel, A's and B's seats scored the same).
    Draw,
    /// A lost.
    Loss,
}

/// What one game produced: the result for A and the record of the game.
#[derive(Clone, Debug)]
pub struct Played {
    /// Result from A's point of view.
    pub outcome: Outcome,
    /// Plies / decisions played (for the summary line).
    pub plies: u32,
    /// The game-specific part of the record: `setup`, `moves`, `result` and, where one
    /// exists, `native` (the contest's own notation). See [`record`].
    pub record: Value,
}

/// One game to play.
#[derive(Clone, Debug)]
pub struct Job<'a> {
    /// Spec of player A.
    pub a: &'a str,
    /// Spec of player B.
    pub b: &'a str,
    /// Match seed.
    pub seed: u64,
    /// Game number in the match (0-based).
    pub index: u64,
    /// Pairing unit (opening / deal / deck) number.
    pub unit: u64,
    /// Slot within the unit: which side or seat pattern A takes.
    pub slot: u64,
    /// The opening line from `--openings` for this unit, if any.
    pub opening: Option<&'a str>,
    /// Default per-move time in ms (`--tc`) for specs that set no limit of their own.
    pub tc_ms: Option<u64>,
}

impl Job<'_> {
    /// A seed for `purpose` (0 = opening, 1 = player A, 2 = player B, ...): unique per game,
    /// derived from the match seed only.
    pub fn seed_for(&self, purpose: u64) -> u64 {
        mix(mix(self.seed, self.index), purpose)
    }

    /// The seed of this game's pairing unit (the opening / deal / deck all slots share).
    pub fn unit_seed(&self) -> u64 {
        mix(mix(self.seed ^ 0x0bad_5eed, self.unit), 0)
    }
}

/// A game plugged into the arena: two players A and B, specs as strings.
pub trait Arena: Sync {
    /// Command-line name (`connect4`, `piranhas`, `maumau`, `koehandel`).
    fn name(&self) -> &'static str;
    /// Games per pairing unit (2: sides swapped; 4: Koehandel seat patterns).
    fn unit(&self) -> u64;
    /// Label of slot `slot` (which colour / seat A has), for the per-side breakdown.
    fn side_label(&self, slot: u64) -> String;
    /// Parses a spec without playing; the error is one line.
    fn check_spec(&self, spec: &str) -> anyhow::Result<()>;
    /// Plays one game.
    fn play(&self, job: &Job) -> anyhow::Result<Played>;
    /// Positions of a recorded game for `kibitz replay`: `(what happened, board drawn)` for the
    /// start and after every move.
    fn replay(&self, record: &Value) -> anyhow::Result<Vec<(String, String)>>;
    /// Whether `--openings FILE` means something for this game (a start position per line).
    fn takes_openings(&self) -> bool {
        false
    }
    /// The same positions as [`Arena::replay`], structured for `kibitz serve` to draw: one
    /// [`Position`] for the start and after every move, `state` a game-specific JSON object
    /// (documented at each adapter's `positions`). The default carries the text board as
    /// `{"text": board}`, so a game without its own drawing still shows in the viewer.
    fn positions(&self, record: &Value) -> anyhow::Result<Vec<Position>> {
        Ok(self
            .replay(record)?
            .into_iter()
            .map(|(what, board)| Position {
                what,
                state: serde_json::json!({ "text": board }),
            })
            .collect())
    }
}

/// One position of a recorded game as the viewer draws it (see [`Arena::positions`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// What happened (the same line `kibitz replay` prints).
    pub what: String,
    /// The position, structured per game (cells, hands, herds, the last move), so the viewer
    /// draws it without parsing the text board.
    pub state: Value,
}

/// The adapter for game `name`.
pub fn adapter(name: &str) -> anyhow::Result<Box<dyn Arena>> {
    Ok(match name {
        "connect4" | "c4" => Box::new(connect4::Connect4),
        "piranhas" => Box::new(piranhas::Piranhas),
        "maumau" => Box::new(maumau::Maumau::default()),
        "koehandel" => Box::new(koehandel::Koehandel),
        other => anyhow::bail!(
            "unknown game {other:?} (expected connect4, piranhas, maumau or koehandel)"
        ),
    })
}

/// Splits `key=value` options of a spec body (`kind:k=v,k=v`), returning the kind and pairs.
pub fn split_spec(spec: &str) -> (&str, Vec<(&str, &str)>) {
    let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
    let opts = rest
        .split([',', ':'])
        .map(str::trim)
        .filter(|o| !o.is_empty())
        .map(|o| o.split_once('=').unwrap_or((o, "")))
        .collect();
    (kind.trim(), opts)
}

#[cfg(test)]
mod positions_tests {
    //! `Arena::positions` against `Arena::replay`: the same steps, the same lines, and where
    //! the text board shows cells, the same cells.
    use super::*;

    fn game(name: &str, a: &str, b: &str, slot: u64) -> Value {
        let arena = adapter(name).unwrap();
        let job = Job {
            a,
            b,
            seed: 5,
            index: slot,
            unit: 0,
            slot,
            opening: None,
            tc_ms: None,
        };
        record::line(name, 5, slot, a, b, "x", &arena.play(&job).unwrap())
    }

    /// The board glyphs of a text drawing (rows top to bottom), only `●○▒·`.
    fn glyphs(text: &str) -> Vec<String> {
        text.lines()
            .map(|l| {
                l.chars()
                    .filter(|c| "●○▒·".contains(*c))
                    .collect::<String>()
            })
            .filter(|l| l.chars().count() >= 7)
            .collect()
    }

    #[test]
    fn structured_positions_follow_the_text_replay_in_every_game() {
        for (name, a, b) in [
            ("connect4", "search:depth=2", "random"),
            ("piranhas", "greedy", "random"),
            ("maumau", "heuristic", "random"),
            ("koehandel", "heuristic", "random"),
        ] {
            let rec = game(name, a, b, 1);
            let arena = adapter(name).unwrap();
            let text = arena.replay(&rec).unwrap();
            let pos = arena.positions(&rec).unwrap();
            assert_eq!(text.len(), pos.len(), "{name}");
            assert!(pos.len() > 3, "{name}");
            for (i, (t, p)) in text.iter().zip(&pos).enumerate() {
                assert_eq!(t.0, p.what, "{name} ply {i}");
                assert!(p.state.get("text").is_none(), "{name} has its own drawing");
                let drawn: Vec<String> = match name {
                    "connect4" => p.state["grid"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|r| {
                            r.as_str()
                                .unwrap()
                                .chars()
                                .map(|c| match c {
                                    '1' => '●',
                                    '2' => '○',
                                    _ => '·',
                                })
                                .collect()
                        })
                        .collect(),
                    "piranhas" => {
                        let b: Vec<char> = p.state["board"].as_str().unwrap().chars().collect();
                        (0..10)
                            .rev()
                            .map(|y| {
                                (0..10)
                                    .map(|x| match b[x + 10 * y] {
                                        'R' => '●',
                                        'B' => '○',
                                        'O' => '▒',
                                        _ => '·',
                                    })
                                    .collect()
                            })
                            .collect()
                    }
                    _ => continue,
                };
                assert_eq!(drawn, glyphs(&t.1), "{name} ply {i}");
            }
            let last = &pos.last().unwrap().state;
            match name {
                "maumau" => {
                    let hands = last["hands"].as_array().unwrap();
                    for (s, h) in hands.iter().enumerate() {
                        assert_eq!(h.as_array().unwrap().len() as u64, last["hand_sizes"][s]);
                    }
                    let winner = rec["result"]["winner"].as_u64().unwrap() as usize;
                    assert!(
                        hands[winner].as_array().unwrap().is_empty()
                            || rec["result"]["reason"] != "emptied hand"
                    );
                }
                "koehandel" => {
                    assert!(last["deal"].is_null(), "the game is over at the end");
                    assert_eq!(last["scores"], rec["result"]["scores"]);
                }
                _ => {}
            }
        }
    }

    #[test]
    fn connect4_marks_the_winning_line_on_any_board_size() {
        // 9 × 7, connect 5: first plays column 1..5 on the bottom row, second stacks on 9.
        let rec = serde_json::json!({"game": "connect4",
            "setup": {"columns": 9, "rows": 7, "connect": 5, "opening": ""},
            "moves": [1, 9, 2, 9, 3, 9, 4, 9, 5]});
        let pos = connect4::Connect4.positions(&rec).unwrap();
        let last = &pos.last().unwrap().state;
        assert_eq!(last["grid"].as_array().unwrap().len(), 7);
        assert_eq!(last["last"], serde_json::json!([4, 0]));
        assert_eq!(
            last["win"],
            serde_json::json!([[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]])
        );
        assert!(pos[8].state["win"].as_array().unwrap().is_empty());
        assert!(pos.last().unwrap().what.ends_with("first player wins"));
    }
}
