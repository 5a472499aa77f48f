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
