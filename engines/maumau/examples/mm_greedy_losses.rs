//! Where ISMCTS loses its points against the greedy bot: plays duplicate deals of ISMCTS
//! (fixed iterations) against `greedy` and, at every ISMCTS decision that is not forced, also
//! asks (a) the same search shown the opponent's whole hand (the arena's `peek=1`) and (b) the
//! same search again with another seed (how often two blind searches disagree by chance).
//! Each decision is put in one class (draw vs play, Jack timing, wish, 7/8 timing, answer to
//! a 7, other card) by how the blind action differs from the peek one (where they agree: from
//! the re-seeded one; `same` when all three agree), and the disagreements are tallied for won
//! and lost games apart. The re-seeded column is the noise floor: a class matters where peek
//! differs clearly more often than a second blind search does.
//!
//! Measured (150 deals = 300 games, 4,000 iterations, seed 404; 72.7 % won): per lost game,
//! peek differs minus re-seed differs: draw vs play +1.33, other card +0.51, Jack timing
//! +0.48, 7/8 timing +0.22, wish +0.06, answer to a 7 +0.06; per won game +0.46, +0.19,
//! +0.29, +0.10, +0.02, +0.06. Whether to draw is where hidden cards cost most.
//!
//! ```text
//! cargo run --release -p kibitz-maumau --example mm_greedy_losses -- DEALS ITERS [SEED] [SPEC]
//! ```
//! `SPEC` is the blind player's spec (default `ismcts`); the peek and re-seeded searches
//! use the same spec. Output: one table on stdout.

use kibitz_maumau::agents::{parse_agent, AgentOptions, MauMauAgent};
use kibitz_maumau::arena::{play_game_by, Knowing};
use kibitz_maumau::game_impl::MauMau;
use kibitz_maumau::knowledge::{Knowledge, PublicEvent};
use kibitz_maumau::{Action, Config};
use kibitz_search::time::TimeControl;
use std::collections::BTreeMap;

/// The class of a decision, from the two actions compared.
fn class(know: &Knowledge, a: Action, b: Action) -> &'static str {
    let hit_by_seven = know.top().is_some_and(|t| t.is_seven())
        && matches!(know.history().iter().rev().find(|e| matches!(e, PublicEvent::Played { .. })),
            Some(PublicEvent::Played { seat, .. }) if *seat != know.me());
    match (a, b) {
        (Action::Draw, Action::Draw) => "same",
        (Action::Draw, _) | (_, Action::Draw) => "draw-vs-play",
        (Action::Play { card: x, wish: u }, Action::Play { card: y, wish: v }) => {
            if x == y && u == v {
                "same"
            } else if x.is_jack() != y.is_jack() {
                "jack-timing"
            } else if x.is_jack() && y.is_jack() {
                if u != v {
                    "wish"
                } else {
                    "jack-choice"
                }
            } else if hit_by_seven {
                "seven-answer"
            } else if x.is_seven() || x.is_eight() || y.is_seven() || y.is_eight() {
                "78-timing"
            } else {
                "other-card"
            }
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args.get(1).map_or(Ok(100), |s| s.parse())?;
    let iters: u64 = args.get(2).map_or(Ok(5000), |s| s.parse())?;
    let seed: u64 = args.get(3).map_or(Ok(404), |s| s.parse())?;
    let spec = args.get(4).cloned().unwrap_or_else(|| "ismcts".into());
    let opts = AgentOptions {
        iterations: Some(iters),
        ..AgentOptions::default()
    };
    let tc = TimeControl::infinite();
    // class -> [decisions in won games, in lost games, peek-disagree won, lost, reseed-disagree won, lost]
    let mut tally: BTreeMap<&'static str, [u64; 6]> = BTreeMap::new();
    let (mut won, mut games) = (0u64, 0u64);
    for d in 0..deals {
        let deal_seed = seed.wrapping_mul(1_000_003).wrapping_add(d);
        for me in 0..2usize {
            let g = d * 2 + me as u64;
            let mut blind = parse_agent(&spec, &opts)?.seated(me, g);
            let mut seeing = parse_agent(&spec, &opts)?.seated(me, g ^ 0x5eed);
            let mut again = parse_agent(&spec, &opts)?.seated(me, g ^ 0xa9a1);
            let mut greedy = MauMauAgent::greedy();
            let mut rows: Vec<(&'static str, bool, bool)> = Vec::new();
            let mut decide = |game: &kibitz_maumau::Game,
                              seat: usize,
                              know: &Knowledge,
                              _: &kibitz_search::agent::View<'_, MauMau>,
                              _: &TimeControl| {
                if seat != me {
                    return Some(greedy.decide(know, &tc).action);
                }
                let a = blind.decide(know, &tc).action;
                let forced = know.legal_plays().is_empty() || know.hand().len() == 1;
                if !forced {
                    let mut shown = know.clone();
                    shown.reveal(1 - me, game.hand(1 - me));
                    let b = seeing.decide(&shown, &tc).action;
                    let c = again.decide(know, &tc).action;
                    let k = class(know, a, b);
                    let k = if k == "same" { class(know, a, c) } else { k };
                    rows.push((k, a != b, a != c));
                }
                Some(a)
            };
            let mut seats = Knowing::new(Config::default(), &mut decide);
            let rec = play_game_by(Config::default(), deal_seed, None, &mut seats);
            let win = rec.end.winner() == me;
            won += win as u64;
            games += 1;
            let o = if win { 0 } else { 1 };
            for (k, peek_differs, reseed_differs) in rows {
                let t = tally.entry(k).or_default();
                t[o] += 1;
                t[2 + o] += peek_differs as u64;
                t[4 + o] += reseed_differs as u64;
            }
        }
    }
    println!(
        "{games} games, {won} won ({:.1} %), {iters} iterations, spec {spec}",
        100.0 * won as f64 / games as f64
    );
    println!("class          | decisions won/lost | peek differs won/lost | reseed differs won/lost | per lost game (peek) | per won game (peek)");
    let lost = games - won;
    for (k, t) in &tally {
        println!(
            "{k:<14} | {:>6} / {:>6} | {:>6} / {:>6} | {:>6} / {:>6} | {:.3} | {:.3}",
            t[0],
            t[1],
            t[2],
            t[3],
            t[4],
            t[5],
            t[3] as f64 / lost.max(1) as f64,
            t[2] as f64 / won.max(1) as f64
        );
    }
    Ok(())
}
