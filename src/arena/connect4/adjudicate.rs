//! Adjudication (`kibitz match connect4 --adjudicate[=NODES]`): the exact solver ends a game
//! as soon as it proves the result. Kept apart from the game loop in `connect4.rs`, which
//! asks the [`Judge`] before every move.

use super::*;

/// Default node budget per move of `--adjudicate`.
pub const ADJUDICATE_NODES: u64 = 200_000;

/// Connect Four with adjudication (`kibitz match connect4 --adjudicate[=NODES]`): before
/// every move the exact solver gets `nodes` nodes to prove the position a win, draw or loss
/// for the side to move (one solver per game, its table kept from move to move, so later
/// proofs reuse earlier work). Once it proves one, the game ends with that result and the
/// record's `result.reason` says `adjudicated (proven win for first player)` (or second
/// player, or `adjudicated (proven draw)`); `moves` are the moves played up to there.
/// Node budgets make this reproducible, like the rest of a match.
pub struct Adjudicated {
    /// Solver nodes per move.
    pub nodes: u64,
}

impl Arena for Adjudicated {
    fn takes_openings(&self) -> bool {
        true
    }
    fn name(&self) -> &'static str {
        Connect4.name()
    }
    fn unit(&self) -> u64 {
        Connect4.unit()
    }
    fn side_label(&self, slot: u64) -> String {
        Connect4.side_label(slot)
    }
    fn check_spec(&self, spec: &str) -> anyhow::Result<()> {
        Connect4.check_spec(spec)
    }
    fn play(&self, job: &Job) -> anyhow::Result<Played> {
        Connect4.play_game(job, Some(self.nodes))
    }
    fn replay(&self, record: &Value) -> anyhow::Result<Vec<(String, String)>> {
        Connect4.replay(record)
    }
    fn positions(&self, record: &Value) -> anyhow::Result<Vec<Position>> {
        Connect4.positions(record)
    }
}

/// The adjudicator of one game: the exact solver under a node budget per look.
pub(super) struct Judge {
    solver: Solver<u64>,
    nodes: u64,
}

impl Judge {
    pub(super) fn new(nodes: u64) -> anyhow::Result<Self> {
        let geo = Geometry::new(COLUMNS, ROWS, CONNECT)?;
        let config = SolverConfig {
            hash_mb: 16,
            ..SolverConfig::default()
        };
        Ok(Self {
            solver: Solver::new(geo, config),
            nodes: nodes.max(1),
        })
    }

    /// The proven value of `board` for the side to move (positive: win, 0: draw, negative:
    /// loss), or `None` when the budget ran out first.
    pub(super) fn prove(&mut self, board: &Board<u64>) -> Option<i32> {
        self.solver.reset_nodes();
        self.solver.set_node_limit(Some(self.nodes));
        self.solver
            .solve_window(board, -1, 1, &TimeControl::infinite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `history` to the end with two perfect players (the exact solver at every move).
    fn perfect_result(history: Vec<usize>) -> Option<Player> {
        let mut p: Vec<_> = (0..2)
            .map(|_| agent("search:depth=42,book=0,solve=42", None).unwrap())
            .collect();
        let (a, b) = p.split_at_mut(1);
        let end = play_game(
            [&mut *a[0], &mut *b[0]],
            [1, 2],
            &history,
            TimeControl::infinite,
            |_| false,
            |_| Ok::<(), kibitz_connect4::Error>(()),
        )
        .unwrap();
        end.board.winner()
    }

    #[test]
    fn adjudicated_results_are_those_of_perfect_play_from_there() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..6 {
            for (a, b) in [("random", "random"), ("search:depth=2", "random")] {
                let job = Job {
                    a,
                    b,
                    seed,
                    index: seed,
                    unit: seed,
                    slot: seed % 2,
                    seating: crate::arena::Seating::single(2, (seed % 2) as usize),
                    opening: None,
                    tc_ms: None,
                };
                let rec = Adjudicated {
                    nodes: ADJUDICATE_NODES,
                }
                .play(&job)
                .unwrap()
                .record;
                let reason = rec["result"]["reason"].as_str().unwrap().to_string();
                assert!(reason.starts_with("adjudicated (proven "), "{reason}");
                // The position where the game was stopped, and perfect play from it.
                let mut board = Board::<u64>::new(COLUMNS, ROWS, CONNECT).unwrap();
                let native = rec["native"].as_str().unwrap();
                let history: Vec<usize> = native
                    .chars()
                    .map(|c| c.to_digit(10).unwrap() as usize - 1)
                    .collect();
                for &c in &history {
                    board.play(c).unwrap();
                }
                assert!(!board.is_over(), "adjudicated before the game ended");
                let want = perfect_result(history).map(|p| usize::from(p == Player::Second));
                assert_eq!(
                    rec["result"]["winner"].as_u64().map(|w| w as usize),
                    want,
                    "{rec}"
                );
                let word = match want {
                    Some(0) => "win for first player",
                    Some(_) => "win for second player",
                    None => "draw",
                };
                assert_eq!(reason, format!("adjudicated (proven {word})"));
                seen.insert(word);
                // The replay names the adjudication on the last line.
                let lines = Connect4.replay(&rec).unwrap();
                assert!(lines.last().unwrap().0.ends_with(&reason));
            }
        }
        assert!(
            seen.len() >= 2,
            "only {seen:?}: the positions tried are too alike"
        );
    }

    #[test]
    fn an_adjudicated_game_is_a_prefix_of_the_game_played_out() {
        let job = Job {
            a: "random",
            b: "search:depth=2",
            seed: 3,
            index: 0,
            unit: 0,
            slot: 0,
            seating: crate::arena::Seating::single(2, 0),
            opening: None,
            tc_ms: None,
        };
        let cut = Adjudicated {
            nodes: ADJUDICATE_NODES,
        }
        .play(&job)
        .unwrap();
        let full = Connect4.play(&job).unwrap();
        assert!(cut.plies < full.plies, "{} vs {}", cut.plies, full.plies);
        let (c, f) = (&cut.record["moves"], &full.record["moves"]);
        assert_eq!(
            c.as_array().unwrap()[..],
            f.as_array().unwrap()[..cut.plies as usize]
        );
        assert_eq!(full.record["result"]["reason"], "CONNECTED_LINE");
    }
}
