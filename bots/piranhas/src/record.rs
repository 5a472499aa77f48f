//! Piranhas game records in `kibitz-record/1` (the format is described once, in the root
//! crate's `arena::record`): the one place that turns a game into a record line, called by the
//! reference server (`piranhas-server --records DIR`, and so `kibitz tournament --records`)
//! and by the arena adapter (`kibitz match piranhas --records`), so the two cannot drift.
//!
//! Notation: `setup.krakens` is `x,y,x,y`; `moves` are `x,y,DIR` as the engine prints them
//! (`Move`'s `Display`, read back by its `FromStr`); `players` are RED then BLUE;
//! `result.winner` is the seat (0 = RED) or `null`.
//!
//! The contest-native form is the Software-Challenge replay file: every `<state>` the server
//! sent in the game's mementos, then the `<data class="result">`, inside
//! `<protocol>` … `</protocol>` ([`replay_xml`]). The server writes it next to the JSON lines
//! as `DIR/piranhas-<index>.xml` and names the file in the record's `native_file` key.

use crate::protocol::{Element, Memento, ResultMsg, ServerMessage};
use kibitz_piranhas::{Color, Move, State};
use serde_json::{json, Value};

/// The `game` key of a Piranhas record.
pub const GAME: &str = "piranhas";

/// `x,y,x,y`.
pub fn krakens_text(k: [(u8, u8); 2]) -> String {
    format!("{},{},{},{}", k[0].0, k[0].1, k[1].0, k[1].1)
}

/// The game-specific part of a record line: `game`, `players` (RED first), `setup`, `moves`
/// and `result` (`winner` seat and `reason` in words). Callers add `seed`, `index` and
/// anything else they know (the server adds the contest's scores).
pub fn game(
    players: [&str; 2],
    krakens: [(u8, u8); 2],
    moves: &[Move],
    winner: Option<Color>,
    reason: &str,
) -> Value {
    json!({
        "game": GAME,
        "players": players,
        "setup": {"krakens": krakens_text(krakens)},
        "moves": moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "result": {
            "winner": winner.map(|c| c as usize),
            "reason": reason,
        },
    })
}

/// The server's own reason text (the official server's German words, as sent in the result):
/// the loser's cause and text, else the regular end's text (newlines as spaces).
pub fn server_reason(result: &ResultMsg) -> String {
    let forfeit = result
        .scores
        .iter()
        .zip(Color::BOTH)
        .find(|(s, _)| s.cause != crate::protocol::ScoreCause::Regular);
    let text = match forfeit {
        Some((s, c)) => format!(
            "{} lost by {}: {}",
            c.name(),
            s.cause.name(),
            s.reason.as_deref().unwrap_or("")
        ),
        None => result
            .scores
            .iter()
            .find_map(|s| s.reason.clone())
            .unwrap_or_else(|| "game over".into()),
    };
    text.replace('\n', " ").trim().to_string()
}

/// The record's reason in the words of in-process matches, so server and arena records read
/// alike: a forfeit as `BLUE lost by LEFT`, a regular end as the rules say it from the final
/// position (`RED wins (round limit; swarms RED 12 BLUE 1)`); the server's text where the
/// moves do not replay.
pub fn reason_in_words(result: &ResultMsg, krakens: [(u8, u8); 2], moves: &[Move]) -> String {
    let forfeit = result
        .scores
        .iter()
        .zip(Color::BOTH)
        .find(|(s, _)| s.cause != crate::protocol::ScoreCause::Regular);
    if let Some((s, c)) = forfeit {
        return format!("{} lost by {}", c.name(), s.cause.name());
    }
    let end = moves
        .iter()
        .try_fold(State::start(krakens), |st, &m| st.apply(m).ok())
        .and_then(|st| st.outcome());
    end.map_or_else(|| server_reason(result), |e| e.to_string())
}

/// A server-played game's record: [`game`] plus the contest's scores (`points`, `swarm`,
/// `cause` per colour, RED first).
pub fn from_server(
    names: [&str; 2],
    krakens: [(u8, u8); 2],
    moves: &[Move],
    result: &ResultMsg,
) -> Value {
    let winner = result.winner.as_ref().map(|(_, c)| *c);
    let mut v = game(
        names,
        krakens,
        moves,
        winner,
        &reason_in_words(result, krakens, moves),
    );
    v["result"]["server_reason"] = json!(server_reason(result));
    v["result"]["points"] = json!(result.scores.iter().map(|s| s.points).collect::<Vec<_>>());
    v["result"]["swarm"] = json!(result.scores.iter().map(|s| s.swarm).collect::<Vec<_>>());
    v["result"]["cause"] = json!(result
        .scores
        .iter()
        .map(|s| s.cause.name())
        .collect::<Vec<_>>());
    v
}

/// The `<state>` element of a memento, as the server sends it inside `<data class="memento">`.
pub fn state_element(room: &str, memento: &Memento) -> Option<Element> {
    let room_el = ServerMessage::Memento {
        room: room.to_string(),
        state: Box::new(memento.clone()),
    }
    .to_element();
    room_el.find("data")?.find("state").cloned()
}

/// The Software-Challenge replay file of a game: `<protocol>`, every state in order, the
/// result's `<data class="result">`, `</protocol>` (pretty-printed like the server's stream).
pub fn replay_xml(states: &[Element], result: &ResultMsg) -> String {
    let mut out = String::from("<protocol>");
    for s in states {
        s.write_pretty(&mut out, 2);
    }
    let result_el = ServerMessage::Result {
        room: String::new(),
        result: result.clone(),
    }
    .to_element();
    if let Some(data) = result_el.find("data") {
        data.write_pretty(&mut out, 2);
    }
    out.push_str("\n</protocol>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz_piranhas::State;

    #[test]
    fn moves_round_trip_and_the_replay_holds_every_state() {
        let krakens = [(3, 4), (6, 5)];
        let mut st = State::start(krakens);
        let names = ["a".to_string(), "b".to_string()];
        let mut states =
            vec![state_element("r", &Memento::from_state(&st, names.clone(), None)).unwrap()];
        let mut moves = Vec::new();
        for _ in 0..4 {
            let m = st.legal_moves()[0];
            st = st.apply(m).unwrap();
            moves.push(m);
            states
                .push(state_element("r", &Memento::from_state(&st, names.clone(), None)).unwrap());
        }
        let v = game(["a", "b"], krakens, &moves, Some(Color::Blue), "x");
        assert_eq!(v["setup"]["krakens"], "3,4,6,5");
        assert_eq!(v["result"]["winner"], 1);
        let back: Vec<Move> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().parse().unwrap())
            .collect();
        assert_eq!(back, moves);
        let result = ResultMsg {
            scores: std::array::from_fn(|_| crate::protocol::ScoreMsg {
                cause: crate::protocol::ScoreCause::Regular,
                reason: Some("Das Rundenlimit wurde erreicht.".into()),
                points: 1,
                swarm: 5,
            }),
            winner: None,
        };
        let xml = replay_xml(&states, &result);
        assert!(xml.starts_with("<protocol>\n  <state class=\"sc.plugin2019.GameState\""));
        assert_eq!(xml.matches("<state ").count(), 5);
        assert!(xml.contains("turn=\"4\""));
        assert!(xml.contains("<data class=\"result\">"));
        assert!(xml.ends_with("</protocol>\n"));
        assert_eq!(server_reason(&result), "Das Rundenlimit wurde erreicht.");
        // The record's own reason is in the arena's words: four moves do not end a game, so
        // the server's text stands in; a forfeit names the colour and cause.
        assert_eq!(
            reason_in_words(&result, krakens, &moves),
            "Das Rundenlimit wurde erreicht."
        );
        let mut left = result.clone();
        left.scores[1].cause = crate::protocol::ScoreCause::Left;
        assert_eq!(reason_in_words(&left, krakens, &moves), "BLUE lost by LEFT");
    }
}
