//! In-process games and matches: the market drives [`Player`]s directly.

use rayon::prelude::*;

use crate::event::Answer;
use crate::game::{Game, SeatStats};
use crate::player::{make_player, Player};
use crate::types::{Seat, PLAYERS};
use crate::RulesError;

/// Result of one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameResult {
    /// Final scores by seat.
    pub scores: [u32; PLAYERS],
    /// Per-seat counters.
    pub stats: [SeatStats; PLAYERS],
    /// Questions answered.
    pub decisions: u64,
    /// Turns played.
    pub turns: u32,
}

/// Plays `game` to the end with one player per seat, delivering every notice and question.
pub fn play_game(mut game: Game, players: &mut [Box<dyn Player>]) -> GameResult {
    for (i, p) in players.iter_mut().enumerate() {
        p.new_game(Seat(i as u8));
    }
    let mut decisions = 0;
    loop {
        for n in game.drain_notices() {
            players[n.seat.idx()].observe(&n.event);
        }
        let Some(ask) = game.ask() else { break };
        let answer = players[ask.seat.idx()].decide(&ask.question);
        decisions += 1;
        game.answer(answer);
    }
    GameResult {
        scores: game.scores(),
        stats: game.stats(),
        decisions,
        turns: game.turns(),
    }
}

/// Plays a game where every seat answers nothing (all defaults); useful as a smoke test.
pub fn play_silent(seed: u64) -> GameResult {
    let mut g = Game::new(seed);
    g.set_quiet(true);
    let mut decisions = 0;
    while g.ask().is_some() {
        g.answer(Answer::None);
        decisions += 1;
    }
    GameResult {
        scores: g.scores(),
        stats: g.stats(),
        decisions,
        turns: g.turns(),
    }
}

/// Per-entrant results of a match.
#[derive(Clone, Debug, Default)]
pub struct EntrantResult {
    /// Registry name.
    pub name: String,
    /// Score of every game played.
    pub scores: Vec<f64>,
    /// Wins, a k-way tie for first counting 1/k.
    pub wins: f64,
    /// Outright or shared first places.
    pub firsts: u32,
    /// Sum of the per-seat counters.
    pub defaults: u32,
    /// Bluffs caught.
    pub bluffs: u32,
}

/// Plays `games` games between four entrants (registry names), rotating seats so that every
/// entrant sits in every seat over the same deck order (games `4i..4i+3` share deck `seed+i`).
/// `on_game` is called after each game (progress bars). Uses `threads` rayon workers.
pub fn run_match(
    entrants: &[String; PLAYERS],
    games: u32,
    seed: u64,
    threads: usize,
    on_game: &(dyn Fn() + Sync),
) -> Result<(Vec<EntrantResult>, u64), RulesError> {
    for e in entrants {
        if make_player(e, 0).is_none() {
            return Err(RulesError::UnknownPlayer(e.clone()));
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| RulesError::Threads(e.to_string()))?;
    let results: Vec<(u32, GameResult)> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|g| {
                let deck_seed = seed.wrapping_add((g / 4) as u64);
                let rot = (g % 4) as usize;
                // Entrant e sits at seat (e + rot) % 4.
                let mut players: Vec<Box<dyn Player>> = (0..PLAYERS)
                    .map(|s| {
                        let e = (s + PLAYERS - rot) % PLAYERS;
                        let pseed = deck_seed.wrapping_mul(31).wrapping_add(s as u64);
                        make_player(&entrants[e], pseed).expect("checked above")
                    })
                    .collect();
                let r = play_game(Game::new(deck_seed), &mut players);
                on_game();
                (g, r)
            })
            .collect()
    });
    let mut out: Vec<EntrantResult> = entrants
        .iter()
        .map(|n| EntrantResult {
            name: n.clone(),
            ..Default::default()
        })
        .collect();
    let mut decisions = 0;
    for (g, r) in results {
        decisions += r.decisions;
        let rot = (g % 4) as usize;
        let best = *r.scores.iter().max().unwrap_or(&0);
        let ties = r.scores.iter().filter(|&&s| s == best).count() as f64;
        for (e, res) in out.iter_mut().enumerate() {
            let s = (e + rot) % PLAYERS;
            res.scores.push(r.scores[s] as f64);
            if r.scores[s] == best {
                res.wins += 1.0 / ties;
                res.firsts += 1;
            }
            res.defaults += r.stats[s].defaults;
            res.bluffs += r.stats[s].bluffs;
        }
    }
    Ok((out, decisions))
}
