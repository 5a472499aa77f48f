//! Piranhas in the arena: both colours per Kraken pair (drawn with the official procedure
//! from the unit seed, or taken from `--openings` lines).
//!
//! An `--openings` line is either the Kraken squares `x,y,x,y` or a whole start position in
//! the data files' 100-character board notation (`data/piranhas/start_positions.jsonl`'s
//! `board`: index x + 10·y, `R` red, `B` blue, `O` Kraken, `-` empty; exactly two Krakens;
//! RED moves first, turn 0). A board that is the standard start with its Krakens is recorded
//! as the Kraken pair alone; any other board is recorded in `setup.board` too, and replays
//! start from it.
//!
//! Specs are [`kibitz_piranhas::agents::AgentSpec`]: `random`, `greedy[:...]`,
//! `search[:time=MS,depth=D,nodes=N,param.NAME=V,...]`, or an external bot
//! `cmd:PROGRAM ARGS` with `{host} {port} {reservation}` (see [`super::external`]). Built-in
//! agents are driven by the engine's referee loop ([`kibitz_piranhas::arena::play_from`]);
//! a search agent's [`kibitz_search::agent::Decision`]s become the record's `think`.

use super::{external, Arena, Job, Outcome, Played, Position};
use anyhow::Context;
use kibitz_bots_piranhas::record as precord;
use kibitz_piranhas::agents::{AgentKind, AgentSpec};
use kibitz_piranhas::arena::play_from;
use kibitz_piranhas::board::{Board, Color, Field, Move};
use kibitz_piranhas::kraken::{parse_pair, random_pair};
use kibitz_piranhas::State;
use kibitz_search::agent::Decision;
use rand::SeedableRng;
use serde_json::{json, Value};

/// The Piranhas adapter.
pub struct Piranhas;

/// The spec `spec`, its search budget `tc_ms` (`--tc`) unless it sets `time=` itself.
fn parse(spec: &str, tc_ms: Option<u64>) -> anyhow::Result<AgentSpec> {
    let mut s: AgentSpec = spec
        .parse()
        .map_err(|e| anyhow::anyhow!("piranhas spec {spec:?}: {e}"))?;
    if let (Some(ms), false) = (tc_ms, spec.contains("time=")) {
        if s.kind == AgentKind::Search {
            s.time = Some(std::time::Duration::from_millis(ms));
        }
    }
    Ok(s)
}

/// One move's `think` (of `arena::record`) from its [`Decision`]: what a searching agent
/// knew (score, depth, nodes, ms, pv); `null` for agents that do not evaluate.
fn think(seat: Color, d: &Decision<Move>) -> Value {
    let Some(score) = d.score else {
        return Value::Null;
    };
    let pv: Vec<String> = d.pv.iter().map(Move::to_string).collect();
    json!({"seat": seat as usize, "score": score as i64, "depth": d.depth.unwrap_or(0),
           "nodes": d.nodes, "ms": d.elapsed.as_millis() as u64, "pv": pv})
}

impl Arena for Piranhas {
    fn takes_openings(&self) -> bool {
        true
    }
    fn name(&self) -> &'static str {
        "piranhas"
    }

    fn unit(&self) -> u64 {
        2
    }

    fn side_label(&self, slot: u64) -> String {
        if slot == 0 { "red" } else { "blue" }.into()
    }

    fn check_spec(&self, spec: &str) -> anyhow::Result<()> {
        if external::is_cmd(spec) {
            return external::CmdSpec::parse("piranhas", spec).map(|_| ());
        }
        parse(spec, None).map(|_| ())
    }

    fn play(&self, job: &Job) -> anyhow::Result<Played> {
        let (krakens, board) = match job.opening {
            Some(o) => parse_opening(o).with_context(|| format!("opening {o:?}"))?,
            None => (
                random_pair(&mut rand_chacha::ChaCha8Rng::seed_from_u64(job.unit_seed())),
                None,
            ),
        };
        if external::is_cmd(job.a) || external::is_cmd(job.b) {
            anyhow::ensure!(
                board.is_none(),
                "a cmd: player starts from the standard board: openings with a whole board \
                 (not just a Kraken pair) are for built-in players"
            );
            let build = |s: &str| Ok(parse(s, job.tc_ms)?.build());
            return external::piranhas::play(job, krakens, &build);
        }
        let (a, b) = (parse(job.a, job.tc_ms)?, parse(job.b, job.tc_ms)?);
        let (mut pa, mut pb) = (a.build(), b.build());
        let (sa, sb) = (job.seed_for(1), job.seed_for(2));
        let a_color = if job.slot == 0 {
            Color::Red
        } else {
            Color::Blue
        };
        let start = board.unwrap_or_else(|| State::start(krakens));
        let rec = match a_color {
            Color::Red => play_from([pa.as_mut(), pb.as_mut()], [sa, sb], krakens, start),
            Color::Blue => play_from([pb.as_mut(), pa.as_mut()], [sb, sa], krakens, start),
        };
        let outcome = match rec.winner {
            Some(w) if w == a_color => Outcome::Win,
            None => Outcome::Draw,
            Some(_) => Outcome::Loss,
        };
        let players = if job.slot == 0 {
            [job.a, job.b]
        } else {
            [job.b, job.a]
        };
        let reason = match (&rec.result, &rec.violation) {
            (Some(r), _) => r.to_string(),
            (None, Some((c, e))) => format!("{c} broke the rules: {e}"),
            (None, None) => "unfinished".into(),
        };
        // Built where the server builds its records (one notation, no drift).
        let mut record = precord::game(players, krakens, &rec.moves, rec.winner, &reason);
        if let Some(s) = &board {
            record["setup"]["board"] = json!(s.board().to_letters());
        }
        let thinks: Vec<Value> = rec.decisions.iter().map(|(c, d)| think(*c, d)).collect();
        if thinks.iter().any(|t| !t.is_null()) {
            record["think"] = Value::Array(thinks);
        }
        Ok(Played {
            outcome,
            plies: rec.moves.len() as u32,
            record,
        })
    }

    fn replay(&self, record: &Value) -> anyhow::Result<Vec<(String, String)>> {
        let k = record["setup"]["krakens"]
            .as_str()
            .context("record has no setup.krakens")?;
        let mut state = start_state(record)?;
        let mut out = vec![(format!("start, Kraken {k}"), state.to_string())];
        for (i, m) in record["moves"]
            .as_array()
            .context("record has no moves")?
            .iter()
            .enumerate()
        {
            let text = m.as_str().context("a move is not a string")?;
            let mv: Move = text
                .parse()
                .map_err(|e| anyhow::anyhow!("move {}: {text:?}: {e}", i + 1))?;
            let who = state.current();
            state = state
                .apply(mv)
                .map_err(|e| anyhow::anyhow!("move {} {text} is illegal: {e}", i + 1))?;
            out.push((format!("{}. {who} {mv}", i + 1), state.to_string()));
        }
        if let Some(r) = record["result"]["reason"].as_str() {
            if let Some(last) = out.last_mut() {
                last.0 += &format!("  — {r}");
            }
        }
        Ok(out)
    }

    /// Piranhas positions: `state` is `{"board": 100 letters (index x + 10·y, 'R' red, 'B'
    /// blue, 'O' Kraken, '-' empty; y = 0 is the bottom row), "turn", "to_move": "RED" |
    /// "BLUE", "fish": [red, blue], "last": {"from": [x, y], "to": [x, y]} | null}`.
    fn positions(&self, record: &Value) -> anyhow::Result<Vec<Position>> {
        let texts = self.replay(record)?;
        let mut state = start_state(record)?;
        let draw = |s: &State, last: Option<(usize, usize)>| {
            json!({
                "board": s.board().to_letters(),
                "turn": s.turn(),
                "to_move": s.current().to_string(),
                "fish": [s.fish_count(Color::Red), s.fish_count(Color::Blue)],
                "last": last.map(|(f, t)| json!({"from": [f % 10, f / 10], "to": [t % 10, t / 10]})),
            })
        };
        let mut states = vec![draw(&state, None)];
        for m in record["moves"].as_array().into_iter().flatten() {
            // `replay` above has checked every move: parse and apply cannot fail here.
            let mv: Move = m
                .as_str()
                .unwrap_or("")
                .parse()
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let to = state.check(mv).map_err(|e| anyhow::anyhow!("{e}"))?;
            let from = mv.square().context("move off the board")?;
            state = state.apply(mv).map_err(|e| anyhow::anyhow!("{e}"))?;
            states.push(draw(&state, Some((from, to))));
        }
        anyhow::ensure!(states.len() == texts.len(), "replay and positions disagree");
        Ok(texts
            .into_iter()
            .zip(states)
            .map(|((what, _), state)| Position { what, state })
            .collect())
    }
}

/// The two Kraken squares `(x, y)`.
type Krakens = [(u8, u8); 2];

/// An `--openings` line: Kraken squares `x,y,x,y`, or a 100-character start board (see the
/// module doc). The state is `Some` only for a board other than the standard start.
fn parse_opening(line: &str) -> anyhow::Result<(Krakens, Option<State>)> {
    let line = line.trim();
    if line.chars().count() != 100 {
        return Ok((parse_pair(line)?, None));
    }
    let state = State::from_letters(line, 0).map_err(|e| anyhow::anyhow!("board: {e}"))?;
    let krakens: Vec<(u8, u8)> = (0..100)
        .filter(|i| state.board().get(i % 10, i / 10) == Field::Obstructed)
        .map(|i| ((i % 10) as u8, (i / 10) as u8))
        .collect();
    let [k0, k1] = krakens[..] else {
        anyhow::bail!(
            "a start board has two Krakens (O), this one {}",
            krakens.len()
        );
    };
    let krakens = [k0, k1];
    if state.outcome().is_some() {
        anyhow::bail!("the board is already decided");
    }
    let standard = Board::start(krakens) == *state.board();
    Ok((krakens, (!standard).then_some(state)))
}

/// The start of a recorded game: `setup.board` where there is one, else the standard start
/// with `setup.krakens`.
fn start_state(record: &Value) -> anyhow::Result<State> {
    if let Some(b) = record["setup"]["board"].as_str() {
        return State::from_letters(b, 0).map_err(|e| anyhow::anyhow!("setup.board: {e}"));
    }
    let k = record["setup"]["krakens"]
        .as_str()
        .context("record has no setup.krakens")?;
    Ok(State::start(parse_pair(k)?))
}
