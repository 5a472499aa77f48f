//! The arena: one match runner for every game, plugged in through [`Arena`]: player A against
//! player B at tables of 2 to 4 seats (B fills every seat A does not hold).
//!
//! A match is a list of games numbered `0..N`. Games come in *pairing units* (an opening,
//! deal or deck played with the sides swapped or the seats rotated); game `i` is slot
//! `i % unit` of unit `i / unit`, and the adapter's [`Arena::seating`] says which seats A holds
//! in each slot (two seats: A first, then second; Mau-Mau at 3–4 seats: A alone, rotated over
//! every seat; Koehandel: two A's and two B's in the four rotations of `AABB`). Every seed a game needs (opening, players' RNGs) is derived
//! from the match seed and the game's number, games run in parallel on a rayon pool, and the
//! results are reduced in game order, so the outcome depends only on the seed and N — never on
//! `--concurrency` or on machine load (with fixed-node / fixed-depth specs the moves are
//! deterministic too; time specs are for strength).
//!
//! The statistics (Elo ± 95 %, LOS, SPRT) come from [`kibitz_search::stats`].

pub mod cli;
pub mod connect4;
pub mod deals;
pub mod external;
pub mod game_match;
pub mod koehandel;
pub mod maumau;
pub mod piranhas;
pub mod play_flags;
pub mod record;
mod runner;

pub use runner::{
    run_match, run_match_interruptible, Interrupted, MatchOutcome, MatchSettings, SideTally,
};

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
    /// Which seats A holds in this game (from [`Arena::seating`] of `slot`).
    pub seating: Seating,
}

/// The seats of one table and which of them player A holds (B holds the rest).
///
/// A bit mask over at most [`Seating::MAX_SEATS`] seats: bit `s` set means seat `s` holds A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seating {
    seats: u8,
    a: u8,
}

impl Seating {
    /// The most seats a table has in any game (Mau-Mau and Koehandel: 4).
    pub const MAX_SEATS: usize = 4;

    /// A table of `seats` seats (clamped to `2..=MAX_SEATS`) where A holds the seats whose bit
    /// is set in `a_mask` (bits above the table are dropped).
    pub fn new(seats: usize, a_mask: u8) -> Self {
        let seats = seats.clamp(2, Self::MAX_SEATS) as u8;
        Seating {
            seats,
            a: a_mask & ((1u8 << seats) - 1),
        }
    }

    /// A alone at `seat` (taken modulo the table) of `seats`, B everywhere else: the default
    /// rotation, one slot per seat.
    pub fn single(seats: usize, seat: usize) -> Self {
        let n = seats.clamp(2, Self::MAX_SEATS);
        Self::new(n, 1 << (seat % n))
    }

    /// Seats at the table.
    pub fn seats(&self) -> usize {
        self.seats as usize
    }

    /// Whether seat `seat` holds A.
    pub fn is_a(&self, seat: usize) -> bool {
        seat < self.seats() && self.a >> seat & 1 == 1
    }

    /// The table as letters, seat 0 first: `ABB`, `BAAB`.
    pub fn pattern(&self) -> String {
        (0..self.seats())
            .map(|s| if self.is_a(s) { 'A' } else { 'B' })
            .collect()
    }
}

/// The seat count `--seats N` asks of `arena`: `None` keeps the game's own; a count outside the
/// game's [`Arena::seat_range`] is refused with a message saying what the game allows.
pub fn check_seats(arena: &dyn Arena, wanted: Option<usize>) -> anyhow::Result<usize> {
    let range = arena.seat_range();
    let Some(n) = wanted else {
        return Ok(arena.seats());
    };
    if range.contains(&n) {
        return Ok(n);
    }
    if range.start() == range.end() {
        anyhow::bail!(
            "--seats {n}: {} is always played at {} seats",
            arena.name(),
            range.start()
        );
    }
    anyhow::bail!(
        "--seats {n}: {} is played at {} to {} seats",
        arena.name(),
        range.start(),
        range.end()
    )
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

/// A game plugged into the arena: two players A and B, specs as strings, at a table of
/// [`Arena::seats`] seats.
pub trait Arena: Sync {
    /// Command-line name (`connect4`, `piranhas`, `maumau`, `koehandel`).
    fn name(&self) -> &'static str;
    /// Seats at this adapter's table (2 unless the game says otherwise).
    fn seats(&self) -> usize {
        2
    }
    /// The seat counts `--seats N` may ask for (default: only [`Arena::seats`], fixed).
    fn seat_range(&self) -> std::ops::RangeInclusive<usize> {
        self.seats()..=self.seats()
    }
    /// Games per pairing unit (2: sides swapped; 3–4: Mau-Mau seats; 4: Koehandel seat
    /// patterns).
    fn unit(&self) -> u64;
    /// Which seats A holds in slot `slot` of a pairing unit. The default puts A alone at seat
    /// `slot` (modulo the table), so a unit of one game per seat rotates A over every seat of
    /// the same opening / deal.
    fn seating(&self, slot: u64) -> Seating {
        Seating::single(self.seats(), (slot % self.seats() as u64) as usize)
    }
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
    /// Whether `--deals FILE` means something for this game (a deal seed per line).
    fn takes_deals(&self) -> bool {
        false
    }
    /// This game set up with the options only some games have, or `None` when it plays as it
    /// is. An option the game does not have is refused with a message naming the flag; the
    /// default refuses every option, so a flag that would do nothing never passes silently.
    fn configure(&self, opts: &GameOptions) -> anyhow::Result<Option<Box<dyn Arena>>> {
        opts.refuse_all(self.name())?;
        Ok(None)
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

/// Options of `kibitz match` / `roundrobin` that only some games have ([`Arena::configure`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameOptions {
    /// Players at one table (`--seats`), already checked by [`check_seats`].
    pub seats: usize,
    /// `--exhaustion-winner` when given other than the default (a Mau-Mau rule).
    pub exhaustion_winner: Option<String>,
    /// `--adjudicate[=NODES]` (games with an exact solver).
    pub adjudicate: Option<Option<u64>>,
}

impl GameOptions {
    /// Refuses `--exhaustion-winner` for a game without that rule.
    pub fn refuse_exhaustion(&self, game: &str) -> anyhow::Result<()> {
        if self.exhaustion_winner.is_some() {
            anyhow::bail!("--exhaustion-winner is a Mau-Mau rule; {game} has none");
        }
        Ok(())
    }

    /// Refuses `--adjudicate` for a game without an exact solver.
    pub fn refuse_adjudication(&self, game: &str) -> anyhow::Result<()> {
        if self.adjudicate.is_some() {
            anyhow::bail!("--adjudicate: {game} has no exact solver to adjudicate with");
        }
        Ok(())
    }

    /// Refuses every option: what a game without any of them answers.
    pub fn refuse_all(&self, game: &str) -> anyhow::Result<()> {
        self.refuse_exhaustion(game)?;
        self.refuse_adjudication(game)
    }
}

/// `arena` set up with `opts` ([`Arena::configure`]).
pub fn configured(arena: Box<dyn Arena>, opts: &GameOptions) -> anyhow::Result<Box<dyn Arena>> {
    Ok(arena.configure(opts)?.unwrap_or(arena))
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

/// The adapter for game `name` (or an alias), looked up in [`crate::registry`].
pub fn adapter(name: &str) -> anyhow::Result<Box<dyn Arena>> {
    crate::registry::adapter(name)
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
mod seating_tests {
    use super::*;

    #[test]
    fn every_adapter_seats_a_and_b_in_every_slot() {
        // Two-seat games: A first, then second. Koehandel: the four rotations of AABB.
        for (name, want) in [
            ("connect4", vec!["AB", "BA"]),
            ("piranhas", vec!["AB", "BA"]),
            ("maumau", vec!["AB", "BA"]),
            ("koehandel", vec!["AABB", "BAAB", "BBAA", "ABBA"]),
        ] {
            let arena = adapter(name).unwrap();
            let got: Vec<String> = (0..arena.unit())
                .map(|k| arena.seating(k).pattern())
                .collect();
            assert_eq!(got, want, "{name}");
        }
        // Mau-Mau at 3 and 4 seats: A alone, rotated over every seat of the deal.
        let three = maumau::Maumau {
            seats: 3,
            ..Default::default()
        };
        let got: Vec<String> = (0..three.unit())
            .map(|k| three.seating(k).pattern())
            .collect();
        assert_eq!(got, ["ABB", "BAB", "BBA"]);
        let four = maumau::Maumau {
            seats: 4,
            ..Default::default()
        };
        assert_eq!((four.unit(), four.seating(3).pattern()), (4, "BBBA".into()));
    }

    #[test]
    fn seats_flag_is_refused_where_the_game_fixes_the_table() {
        let mm = maumau::Maumau::default();
        assert_eq!(check_seats(&mm, None).unwrap(), 2);
        assert_eq!(check_seats(&mm, Some(4)).unwrap(), 4);
        let e = check_seats(&mm, Some(5)).unwrap_err().to_string();
        assert_eq!(e, "--seats 5: maumau is played at 2 to 4 seats");
        let e = check_seats(&connect4::Connect4, Some(3))
            .unwrap_err()
            .to_string();
        assert_eq!(e, "--seats 3: connect4 is always played at 2 seats");
        assert!(check_seats(&koehandel::Koehandel, Some(2)).is_err());
        assert_eq!(check_seats(&koehandel::Koehandel, Some(4)).unwrap(), 4);
    }

    #[test]
    fn a_seating_stays_on_its_table() {
        let s = Seating::new(3, 0b1111_0010);
        assert_eq!((s.seats(), s.pattern()), (3, "BAB".into()));
        assert!(!s.is_a(7));
        assert_eq!(Seating::single(4, 6).pattern(), "BBAB");
        assert_eq!(Seating::single(9, 0).seats(), Seating::MAX_SEATS);
    }
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
            seating: arena.seating(slot),
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
