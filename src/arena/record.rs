//! Game records: one JSON object per line (JSON lines), one file per match.
//!
//! Every line is one game:
//!
//! ```json
//! {"format": "kibitz-record/1", "game": "connect4", "seed": 7, "index": 0,
//!  "a": "engine:depth=6", "b": "random", "side": "first",
//!  "players": ["engine:depth=6", "random"],
//!  "setup": {...}, "moves": [...], "result": {...}, "native": "4435..."}
//! ```
//!
//! - `seed` is the match seed, `index` the game's number in the match: together with the specs
//!   they reproduce the game (`kibitz match <game> --seed S --games index+1`).
//! - `side` is the colour / seat pattern player A had; `players` lists the spec in each
//!   seat, seat 0 (the side that moves first) first.
//! - `setup` is what the game starts from, per game:
//!   connect4 `{"columns", "rows", "connect", "opening"}` (opening = 1-based column digits,
//!   left out when there is none);
//!   piranhas `{"krakens": "x,y,x,y"}` (+ `"board"`, 100 letters as `data/` writes them, when
//!   an `--openings` line gave a whole board); maumau `{"deal_seed", "exhaustion_winner", "players",
//!   "max_turns", "deck": [cards in deal order]}` (+ `"effect_groups"` when seats share 7/8
//!   effects); koehandel `{"deck_seed", "deck": [animal letters]}`.
//! - `moves` in the game's own notation: connect4 1-based columns; piranhas `x,y,DIR` as the
//!   engine prints them; maumau `{"seat", "action": "draw" | "K♥" (card) | "invalid" |
//!   "dropped", "card": wire number, "wish": wire number or null}` (answers as the server
//!   read them, penalties and dropped seats included; `kibitz_bots_maumau::record`);
//!   koehandel `{"seat", "question": text, "answer"}` (the market's question as a person reads
//!   it and the answer applied; `kibitz_bots_koehandel::record`).
//! - `result`: `{"winner": seat or null, "reason": text, ...}` plus game-specific details
//!   (scores, end reason; connect4 `illegal`: a faulty last announcement, not in `moves`;
//!   piranhas `points`, `swarm`, `cause` per colour and the server's own `server_reason`
//!   text when a server played the game; `reason` reads as in a match either way; a `cmd:`
//!   player that never joined has the `cause` `NOT_JOINED`, a kibitz word the contest's server
//!   does not have; maumau with a `cmd:` player adds `faults`, per seat `{"penalties",
//!   "timeouts", "warnings", "dropped"}` as the server counted them, and `not_joined`, the seat
//!   that never joined). Connect Four games ended by `--adjudicate` give the reason
//!   `adjudicated (proven win for first player)`, `… second player` or `adjudicated (proven
//!   draw)`.
//! - `stderr` (games with a `cmd:` player): `{seat: path}` of the file that kept the external
//!   program's standard error for this game (Koehandel: both seats of a side name the one
//!   process's file). A Koehandel `cmd:` side that failed a request, answered unusably or
//!   exited loses the game: `result.forfeit` `{"seat", "side"}` and `result.reason` say why. A connect4 game with a `cmd:` player also keeps
//!   the server's `server_result` (the `RESULT` datagram), has no opening and names its seats
//!   `first` / `second` (the names the bots registered with).
//! - `think` (optional, arena records only): what our in-process player's search knew, one
//!   entry per element of `moves`, `null` where the player says nothing (random, greedy and
//!   heuristic players, forced moves), every field but `seat` optional; `ms` is the wall time
//!   the choice took. Per game:
//!   connect4 `engine` / `search` `{"seat", "score", "exact", "depth", "nodes", "source",
//!   "ms", "pv"}` (`score` the exact spec score when `exact`, else the proven sign; `pv` the
//!   heuristic search's line in 1-based columns, only for `source: "search"`);
//!   piranhas `search` `{"seat", "score", "depth", "nodes", "ms", "pv"}` (`score` from the
//!   mover's side in centi-units, `pv` the principal variation as `x,y,DIR` moves, the move
//!   played first);
//!   maumau `ismcts` `{"seat", "iterations", "visits", "win_rate", "ms"}` (root iterations,
//!   visits of the chosen action, its mean reward 0..1 for the mover);
//!   koehandel `strong` `{"seat", "worlds", "candidates", "estimate", "ms"}` (sampled worlds
//!   each candidate answer was played out in, the candidates, the chosen one's mean utility).
//!   `kibitz serve` shows it per move with an evaluation graph of `score` (or of `win_rate`,
//!   as points above 50 %) from seat 0's side.
//! - `kibitz wuerfel --records DIR` writes a few sample games per pairing of dice as
//!   `game: "wuerfel"` lines to `DIR/wuerfel-<seed>.jsonl` (`setup: {"dice", "first",
//!   "variant"}`, `moves: [{"side", "roll"}]`; see `wuerfel_report::sample_records`).
//! - `native`, where the contest has its own notation: connect4 the move string of 1-based
//!   column digits, opening included (as the UDP server and the solver read it).
//!   Piranhas' native form is the Software-Challenge replay file (`<protocol>`, every
//!   `<state>` of the server's mementos, the `<data class="result">`, `</protocol>`), written
//!   by the server next to the JSON lines as `DIR/piranhas-<index>.xml`; the record names it
//!   in `native_file` (a file, not a key: one game is about 250 KB of XML).
//!
//! Who writes them: `kibitz match --records DIR` (a line per game as soon as it and all games before it are done), and the reference
//! servers with `--records DIR` (`connect4-server`: every game of every season, in schedule
//! order, to `DIR/connect4.jsonl`; `piranhas-server`: every game as it ends, to
//! `DIR/piranhas.jsonl`), appended through `kibitz_net::record::RecordWriter`.
//! `kibitz tournament --records DIR` hands DIR to each contest, so its Connect Four and
//! Piranhas records are the servers' own. The game-specific part of a line is built in one
//! place per game, `kibitz_bots_connect4::record` and `kibitz_bots_piranhas::record`, which
//! the servers and the arena adapters both call. Server records add `room` (piranhas) or
//! `season` and `server_result` (connect4, the `RESULT` datagram); their `players` are the
//! names the bots registered with, their `index` the game's number on that server (schedule
//! order) and their `seed` the tournament's seed (for a server started by hand: no `seed` key
//! from `connect4-server`, `null` from `piranhas-server`).
//! `maumau-server --records` and `koehandel-server --records` write the same keys through
//! `kibitz_bots_maumau::record` and `kibitz_bots_koehandel::record` (`seed` the server's seed,
//! `index` the game or market number).

use super::Played;
use serde_json::{json, Value};
use std::path::Path;

/// Record format tag, first key of every line.
pub const FORMAT: &str = "kibitz-record/1";

/// The full record line of one game of a match.
pub fn line(game: &str, seed: u64, index: u64, a: &str, b: &str, side: &str, p: &Played) -> Value {
    let mut v = json!({
        "format": FORMAT,
        "game": game,
        "seed": seed,
        "index": index,
        "a": a,
        "b": b,
        "side": side,
    });
    if let (Some(obj), Some(rec)) = (v.as_object_mut(), p.record.as_object()) {
        for (k, x) in rec {
            obj.insert(k.clone(), x.clone());
        }
    }
    v
}

/// Reads every record of a JSON-lines file (blank lines skipped; see
/// [`kibitz_net::record::read`]).
pub fn read(path: &Path) -> anyhow::Result<Vec<Value>> {
    Ok(kibitz_net::record::read(path)?)
}
