//! Mau-Mau game records, in one place for the reference server (`maumau-server --records`,
//! `kibitz tournament --records`), the arena (`kibitz match maumau --records`) and
//! `kibitz replay`.
//!
//! A record is one `kibitz-record/1` line (format described in the root crate's
//! `arena::record`):
//! - `setup`: `{"deal_seed", "exhaustion_winner", "players", "max_turns", "deck"}` (the deck in
//!   deal order: top card, the hands seat by seat, the talon) and, only when two seats share a
//!   name on the server, `"effect_groups"`;
//! - `moves`: one entry per answer, `{"seat", "action": "draw" | "K♥" (card) | "invalid",
//!   "card": wire number, "wish": wire number or null}` exactly as the server read it (so a
//!   penalty replays as a penalty), plus `{"seat", "action": "dropped"}` where the server
//!   dropped a seat (timeouts, failed writes);
//! - `result`: `{"winner", "reason", "turns"}` (+ `penalties` per seat).
//!
//! Replaying the moves on the deal of `deal_seed` (the draws after a reshuffle come from the
//! same generator) reaches the recorded end.

use anyhow::Context;
use kibitz_maumau::{
    Action, Card, Config, ExhaustionWinner, Game, GameEnd, Phase, RawAnswer, Reaction,
};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// The turn cap of engine-driven games (`kibitz_maumau::arena::MAX_TURNS`).
pub use kibitz_maumau::arena::MAX_TURNS;

/// The 32 cards in the order a game of `deal_seed` deals them (the server's and the engine's
/// shuffle: `ChaCha8Rng::seed_from_u64(deal_seed)`).
pub fn shuffled_deck(deal_seed: u64) -> Vec<Card> {
    let mut d: Vec<Card> = Card::all().collect();
    d.shuffle(&mut ChaCha8Rng::seed_from_u64(deal_seed));
    d
}

/// One answer as the server read it.
pub fn answer_json(seat: usize, raw: &RawAnswer) -> Value {
    match *raw {
        RawAnswer::Draw => json!({"seat": seat, "action": "draw"}),
        RawAnswer::Invalid | RawAnswer::Play { selected: None, .. } => {
            json!({"seat": seat, "action": "invalid"})
        }
        RawAnswer::Play {
            selected: Some(sel),
            wished,
        } => {
            let action = Card::from_wire(sel).map_or("invalid".to_string(), |c| c.to_string());
            json!({"seat": seat, "action": action, "card": sel, "wish": wished})
        }
    }
}

/// One decision of an engine player.
pub fn action_json(seat: usize, a: Action) -> Value {
    answer_json(seat, &a.into())
}

/// The server dropped `seat` (it is passed over from here on).
pub fn dropped_json(seat: usize) -> Value {
    json!({"seat": seat, "action": "dropped"})
}

/// A move of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// `seat` answered.
    Answer(usize, RawAnswer),
    /// `seat` was dropped.
    Dropped(usize),
}

/// Reads a move written by [`answer_json`] or [`dropped_json`].
pub fn move_from_json(v: &Value) -> anyhow::Result<Move> {
    let seat = v["seat"].as_u64().context("move without seat")? as usize;
    let action = v["action"].as_str().context("move without action")?;
    Ok(match action {
        "draw" => Move::Answer(seat, RawAnswer::Draw),
        "dropped" => Move::Dropped(seat),
        _ => match v["card"].as_i64() {
            Some(sel) => Move::Answer(
                seat,
                RawAnswer::Play {
                    selected: Some(sel),
                    wished: v["wish"].as_i64(),
                },
            ),
            None if action == "invalid" => Move::Answer(seat, RawAnswer::Invalid),
            None => anyhow::bail!("move {action:?} without a card number"),
        },
    })
}

/// The record's name of an exhaustion rule.
pub fn exhaustion_name(w: ExhaustionWinner) -> &'static str {
    match w {
        ExhaustionWinner::SecondSeat => "SecondSeat",
        ExhaustionWinner::MostValidMoves => "MostValidMoves",
    }
}

/// Why a game ended, as a person reads it.
pub fn end_reason(end: GameEnd) -> &'static str {
    end.reason()
}

/// `setup` of a record. `groups` only when seats share 7/8 effects (same names on the server).
pub fn setup_json(
    cfg: Config,
    deal_seed: u64,
    deck: &[Card],
    max_turns: u32,
    groups: Option<[u8; 4]>,
) -> Value {
    let mut v = json!({
        "deal_seed": deal_seed,
        "exhaustion_winner": exhaustion_name(cfg.exhaustion_winner),
        "players": cfg.players,
        "max_turns": max_turns,
        "deck": deck.iter().map(Card::to_string).collect::<Vec<_>>(),
    });
    if let Some(g) = groups {
        v["effect_groups"] = json!(&g[..cfg.players.min(4)]);
    }
    v
}

/// `result` of a record.
pub fn result_json(end: GameEnd, turns: u32, penalties: &[u32]) -> Value {
    json!({"winner": end.winner(), "reason": end_reason(end), "turns": turns, "penalties": penalties})
}

/// The game-specific part of a record; the caller adds `game`, `seed`, `index`.
pub fn game_json(players: &[String], setup: Value, moves: Vec<Value>, result: Value) -> Value {
    json!({"game": "maumau", "players": players, "setup": setup, "moves": moves, "result": result})
}

fn describe(seat: usize, raw: &RawAnswer) -> String {
    match *raw {
        RawAnswer::Draw => format!("seat {seat} draws"),
        RawAnswer::Play {
            selected: Some(sel),
            wished,
        } => match Card::from_wire(sel) {
            Some(c) if c.is_jack() => format!(
                "seat {seat} plays {c}, wishes {}",
                wished
                    .and_then(|w| u8::try_from(w).ok())
                    .and_then(kibitz_maumau::Suit::from_index)
                    .map_or("nothing".to_string(), |s| s.symbol().to_string())
            ),
            Some(c) => format!("seat {seat} plays {c}"),
            None => format!("seat {seat} sends card number {sel}"),
        },
        _ => format!("seat {seat} sends an unreadable answer"),
    }
}

/// What the server answered, as a person reads it (empty for a legal play).
fn reaction_text(r: Reaction) -> String {
    let card = |c: Option<Card>| c.map_or("nothing (talon empty)".to_string(), |c| c.to_string());
    match r {
        Reaction::Played { .. } => String::new(),
        Reaction::Drew(c) => format!(" {}", card(c)),
        Reaction::Penalty(c) => format!(": illegal, penalty card {}", card(c)),
        Reaction::PlayedWithPenalty { penalty, .. } => {
            format!(": no wish sent, penalty card {}", card(penalty))
        }
    }
}

/// Positions of a record for `kibitz replay`: the deal, then one per turn (what happened, the
/// table after it); the last names the winner. Fails when a move does not fit the game or the
/// replay ends elsewhere than the record says.
pub fn replay(record: &Value) -> anyhow::Result<Vec<(String, String)>> {
    replay_with(record, |game, _| game.to_string())
}

/// [`replay`] with each position taken by `snapshot(game, actor)` instead of the drawn table
/// (`actor`: the seat that acted last, `None` at the deal), so the viewer draws the same steps
/// from the same one walk over the record.
pub fn replay_with<T>(
    record: &Value,
    mut snapshot: impl FnMut(&Game, Option<usize>) -> T,
) -> anyhow::Result<Vec<(String, T)>> {
    let setup = &record["setup"];
    let deal_seed = setup["deal_seed"]
        .as_u64()
        .context("record has no setup.deal_seed")?;
    let cfg = Config {
        players: setup["players"].as_u64().unwrap_or(2).clamp(2, 4) as usize,
        exhaustion_winner: match setup["exhaustion_winner"].as_str() {
            Some("MostValidMoves") => ExhaustionWinner::MostValidMoves,
            _ => ExhaustionWinner::SecondSeat,
        },
    };
    let max_turns = setup["max_turns"]
        .as_u64()
        .map_or(MAX_TURNS, |t| t.min(u64::from(u32::MAX)) as u32);
    let mut rng = ChaCha8Rng::seed_from_u64(deal_seed);
    let mut game = Game::deal(cfg, &mut rng);
    if let Some(deck) = setup["deck"].as_array() {
        let shuffled: Vec<String> = shuffled_deck(deal_seed)
            .iter()
            .map(Card::to_string)
            .collect();
        let recorded: Vec<&str> = deck.iter().filter_map(Value::as_str).collect();
        anyhow::ensure!(
            recorded == shuffled,
            "the record's deck is not the deal of seed {deal_seed} (a prescribed deck cannot be replayed)"
        );
    }
    if let Some(g) = setup["effect_groups"].as_array() {
        let mut groups = [0u8, 1, 2, 3];
        for (s, v) in g.iter().take(4).enumerate() {
            groups[s] = v.as_u64().unwrap_or(s as u64).min(3) as u8;
        }
        game.set_effect_groups(groups);
    }
    let moves: Vec<Move> = record["moves"]
        .as_array()
        .context("record has no moves")?
        .iter()
        .enumerate()
        .map(|(i, m)| move_from_json(m).with_context(|| format!("move {}", i + 1)))
        .collect::<anyhow::Result<_>>()?;
    let mut next = moves.into_iter().peekable();
    let mut out = vec![("deal".to_string(), snapshot(&game, None))];
    let drops = |game: &mut Game,
                 next: &mut std::iter::Peekable<std::vec::IntoIter<Move>>,
                 out: &mut Vec<(String, T)>,
                 snapshot: &mut dyn FnMut(&Game, Option<usize>) -> T| {
        while let Some(&Move::Dropped(s)) = next.peek() {
            next.next();
            game.drop_seat(s);
            out.push((format!("seat {s} is dropped"), snapshot(game, Some(s))));
        }
    };
    let end = loop {
        drops(&mut game, &mut next, &mut out, &mut snapshot);
        if let Phase::Over(end) = game.phase() {
            break end;
        }
        if max_turns > 0 && game.turns() >= max_turns {
            game.end_by_turn_cap();
            continue;
        }
        let start = game
            .begin_turn(&mut rng)
            .map_err(|e| anyhow::anyhow!("replay: {e}"))?;
        drops(&mut game, &mut next, &mut out, &mut snapshot);
        if start.skipped {
            out.push((
                format!("seat {} is skipped", start.seat),
                snapshot(&game, Some(start.seat)),
            ));
            continue;
        }
        if game.outcome().is_some() || !game.is_online(start.seat) {
            continue;
        }
        let Some(mv) = next.next() else {
            anyhow::bail!("the record ends before the game does");
        };
        let Move::Answer(seat, raw) = mv else {
            unreachable!("drops were taken above")
        };
        anyhow::ensure!(
            seat == start.seat,
            "record says seat {seat} moved, the game says seat {}",
            start.seat
        );
        let reaction = game
            .answer(raw, &mut rng)
            .map_err(|e| anyhow::anyhow!("replay: {e}"))?;
        out.push((
            format!("{}{}", describe(seat, &raw), reaction_text(reaction)),
            snapshot(&game, Some(seat)),
        ));
    };
    anyhow::ensure!(
        next.next().is_none(),
        "the game ends before the record does"
    );
    if let Some(w) = record["result"]["winner"].as_u64() {
        anyhow::ensure!(
            w as usize == end.winner(),
            "replay ends with seat {} winning, the record says seat {w}",
            end.winner()
        );
    }
    if let Some(last) = out.last_mut() {
        last.0 += &format!("  — seat {} wins ({})", end.winner(), end_reason(end));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip_including_penalties_and_drops() {
        let cases = [
            RawAnswer::Draw,
            RawAnswer::Invalid,
            RawAnswer::Play {
                selected: Some(5),
                wished: Some(2),
            },
            RawAnswer::Play {
                selected: Some(99),
                wished: None,
            },
        ];
        for raw in cases {
            assert_eq!(
                move_from_json(&answer_json(1, &raw)).unwrap(),
                Move::Answer(1, raw)
            );
        }
        assert_eq!(move_from_json(&dropped_json(0)).unwrap(), Move::Dropped(0));
    }

    #[test]
    fn deck_is_the_engines_deal() {
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let g = Game::deal(Config::default(), &mut rng);
        let deck = shuffled_deck(42);
        assert_eq!(g.top(), deck[0]);
        let hand: kibitz_maumau::CardSet = deck[1..8].iter().copied().collect();
        assert_eq!(g.hand(0), hand);
    }
}
