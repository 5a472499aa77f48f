//! Alpha-beta against brute-force minimax on every reachable tic-tac-toe position, plus time and
//! node-budget behaviour.

use kibitz_search::alphabeta::{Game, Outcome, Score, SearchConfig, Searcher, WIN};
use kibitz_search::time::TimeControl;
use std::collections::HashSet;
use std::time::Duration;

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// Tic-tac-toe: `me` = stones of the side to move, `you` = the opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Ttt {
    me: u16,
    you: u16,
}

impl Ttt {
    fn lost(&self) -> bool {
        LINES.iter().any(|&line| (self.you & line) ^ line == 0)
    }
}

impl Game for Ttt {
    type Move = u8;
    fn hash(&self) -> u64 {
        (self.me as u64 | (self.you as u64) << 9).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
    fn moves(&self, out: &mut Vec<u8>) {
        out.extend((0..9u8).filter(|&i| (self.me | self.you) >> i & 1 == 0));
    }
    fn play(&self, m: u8) -> Self {
        Ttt {
            me: self.you,
            you: self.me | 1 << m,
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.lost() {
            Some(Outcome::Loss)
        } else if (self.me | self.you) == 0o777 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
    fn evaluate(&self) -> Score {
        0
    }
    fn move_key(&self, m: u8) -> usize {
        m as usize
    }
    /// Bit 0: X (the first player) has two in a line with the third square empty; bit 1: O.
    fn threats(&self) -> u8 {
        let open_two = |a: u16, b: u16| {
            LINES
                .iter()
                .any(|&l| (a & l).count_ones() == 2 && (b & l) == 0)
        };
        let x_to_move = self.me.count_ones() == self.you.count_ones();
        let (x, o) = if x_to_move {
            (self.me, self.you)
        } else {
            (self.you, self.me)
        };
        u8::from(open_two(x, o)) | u8::from(open_two(o, x)) << 1
    }
}

fn minimax(p: &Ttt, ply: i32) -> Score {
    match p.outcome() {
        Some(Outcome::Loss) => return -(WIN - ply),
        Some(Outcome::Draw) => return 0,
        _ => {}
    }
    let mut moves = Vec::new();
    p.moves(&mut moves);
    moves
        .iter()
        .map(|&m| -minimax(&p.play(m), ply + 1))
        .max()
        .unwrap()
}

fn reachable() -> Vec<Ttt> {
    let mut seen = HashSet::new();
    let mut stack = vec![Ttt { me: 0, you: 0 }];
    while let Some(p) = stack.pop() {
        if !seen.insert(p) || p.outcome().is_some() {
            continue;
        }
        let mut moves = Vec::new();
        p.moves(&mut moves);
        stack.extend(moves.iter().map(|&m| p.play(m)));
    }
    seen.into_iter().filter(|p| p.outcome().is_none()).collect()
}

#[test]
fn exact_scores_match_brute_force_on_every_position() {
    let positions = reachable();
    assert!(positions.len() > 4000, "{} positions", positions.len());
    let config = SearchConfig {
        hash_mb: 1,
        lmr: false,
        null_move: false,
        ..Default::default()
    };
    let mut searcher = Searcher::new(config);
    for p in positions {
        let want = minimax(&p, 0);
        let got = searcher.search(&p, &TimeControl::infinite(), |_| {});
        assert_eq!(got.score, want, "position {p:?}");
        // The chosen move must achieve the score.
        let best = got.best.expect("a move");
        assert_eq!(-minimax(&p.play(best), 1), want, "move {best} in {p:?}");
    }
}

#[test]
fn default_config_finds_draw_from_empty_board_and_wins_when_possible() {
    let mut searcher = Searcher::new(SearchConfig::default());
    let empty = Ttt { me: 0, you: 0 };
    let r = searcher.search(&empty, &TimeControl::infinite(), |_| {});
    assert_eq!(r.score, 0);
    // X holds 0 and 1, O holds 3 and 4, X to move wins at once on 2.
    let p = Ttt {
        me: 0b000_000_011,
        you: 0b000_011_000,
    };
    let r = searcher.search(&p, &TimeControl::infinite(), |_| {});
    assert_eq!((r.best, r.score), (Some(2), WIN - 1));
}

#[test]
fn stopped_search_still_returns_a_legal_move() {
    let tc = TimeControl::new(Duration::ZERO, Duration::ZERO);
    let mut searcher = Searcher::<Ttt>::new(SearchConfig::default());
    let r = searcher.search(&Ttt { me: 0, you: 0 }, &tc, |_| {});
    assert!(r.best.is_some_and(|m| m < 9));
}

#[test]
fn node_budget_is_deterministic() {
    let config = SearchConfig {
        max_nodes: 500,
        hash_mb: 1,
        ..Default::default()
    };
    let run = || {
        let mut s = Searcher::<Ttt>::new(config.clone());
        let r = s.search(&Ttt { me: 0, you: 0 }, &TimeControl::infinite(), |_| {});
        (r.best, r.depth, s.nodes())
    };
    let a = run();
    assert_eq!(a, run());
    assert_eq!(a.2, 500);
}

/// Tic-tac-toe with a heuristic evaluation (lines still open for the mover minus those
/// open for the opponent), so that depth-limited iterations have scores other than 0.
#[derive(Clone, Copy, Debug)]
struct Scored(Ttt);

impl Game for Scored {
    type Move = u8;
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn moves(&self, out: &mut Vec<u8>) {
        self.0.moves(out)
    }
    fn play(&self, m: u8) -> Self {
        Scored(self.0.play(m))
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn evaluate(&self) -> Score {
        let open = |blocker: u16| LINES.iter().filter(|&&l| blocker & l == 0).count() as Score;
        7 * (open(self.0.you) - open(self.0.me)) + 3 * self.0.me.count_ones() as Score
    }
    fn move_key(&self, m: u8) -> usize {
        m as usize
    }
}

#[test]
fn aspiration_windows_give_exact_scores_on_every_position() {
    // A window of ±1 fails whenever the score changes between iterations, so widening runs.
    let config = SearchConfig {
        hash_mb: 1,
        lmr: false,
        null_move: false,
        aspiration: 1,
        ..Default::default()
    };
    let full = SearchConfig {
        aspiration: 0,
        ..config.clone()
    };
    let (mut searcher, mut reference) = (Searcher::new(config), Searcher::new(full));
    let mut widened = 0;
    for p in reachable() {
        let want = minimax(&p, 0);
        // Every iteration's score equals the full-window one (a fail is never returned).
        let (mut a, mut b) = (Vec::new(), Vec::new());
        searcher.clear();
        reference.clear();
        let got = searcher.search(&Scored(p), &TimeControl::infinite(), |r| a.push(r.score));
        reference.search(&Scored(p), &TimeControl::infinite(), |r| b.push(r.score));
        assert_eq!(a, b, "iterations of {p:?}");
        widened += usize::from(a.windows(2).any(|w| w[0] != w[1]));
        assert_eq!(got.score, want, "position {p:?}");
        let best = got.best.expect("a move");
        assert_eq!(-minimax(&p.play(best), 1), want, "move {best} in {p:?}");
    }
    assert!(widened > 1000, "{widened}");
}

#[test]
fn threat_extensions_see_forks_a_plain_search_misses_and_stay_sound() {
    let at_depth = |extensions: bool| SearchConfig {
        hash_mb: 1,
        max_depth: 2,
        lmr: false,
        null_move: false,
        extensions,
        ..Default::default()
    };
    let (mut plain, mut extended) = (
        Searcher::new(at_depth(false)),
        Searcher::new(at_depth(true)),
    );
    let mut seen_only_with_extensions = 0;
    for p in reachable() {
        let want = minimax(&p, 0);
        let a = plain.search(&p, &TimeControl::infinite(), |_| {}).score;
        let b = extended.search(&p, &TimeControl::infinite(), |_| {}).score;
        // A proven score is exact, with or without extensions.
        for got in [a, b] {
            if got.abs() >= WIN - 100 {
                assert_eq!(got, want, "position {p:?}");
            }
        }
        if b.abs() >= WIN - 100 && a.abs() < WIN - 100 {
            seen_only_with_extensions += 1;
        }
    }
    assert!(
        seen_only_with_extensions > 100,
        "{seen_only_with_extensions}"
    );
}

#[test]
fn new_switches_are_off_by_default() {
    let c = SearchConfig::default();
    assert_eq!((c.aspiration, c.extensions), (0, false));
}
