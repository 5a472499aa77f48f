//! Mau-Mau in the arena: duplicate deals. At two seats each deal is played twice with the
//! seats swapped; at 3–4 seats (`--seats N`) A plays against copies of B, each deal once per
//! seat of A (A's seat rotated over the same deck). A wins a game when A's seat wins it; so at
//! N seats equal players score 1/N, not ½ (read the Elo against that fair share).
//!
//! Specs are the engine's ([`kibitz_maumau::agents::parse_agent`]): `random`, `first`, `greedy`,
//! `heuristic[:k=v,...]`, `ismcts[:c=,eps=,rollout=,r78=]`, plus two arena keys:
//! `iterations=N` (ISMCTS iterations per move: reproducible) and `time=MS` (per-move budget;
//! default 100 ms or `--tc` for ISMCTS without `iterations`; soft and hard times by
//! `kibitz_search::clock`: half of it soft, all of it hard). Parameters may also be written
//! `param.NAME=V`, or an external bot `cmd:PROGRAM ARGS` with `{host} {port} {name}` at two
//! seats (see [`super::external`]). The research key `peek=Q` (0-1) shows the player each card of its opponents'
//! hands with chance Q, drawn once per card and game, before every decision
//! ([`MauMauAgent::peek`]); `peek=1` is the whole hand: what card inference would be worth.

use super::{split_spec, Arena, Job, Outcome, Played, Position};
use kibitz_bots_maumau::record as mm_record;
use kibitz_maumau::agents::{parse_agent, AgentOptions, MauMauAgent};
use kibitz_maumau::arena::Seats;
use kibitz_maumau::arena::MAX_TURNS;
use kibitz_maumau::cards::CardSet;
use kibitz_maumau::game::{Config, ExhaustionWinner, MAX_PLAYERS};
use kibitz_maumau::game_impl::MauMau;
use kibitz_maumau::knowledge::Notice;
use kibitz_maumau::turn::Action;
use kibitz_search::agent::{Agent, Decision, View};
use kibitz_search::clock::MoveBudget;
use kibitz_search::time::TimeControl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// The Mau-Mau adapter.
#[derive(Clone, Copy, Debug)]
pub struct Maumau {
    /// Who wins on talon exhaustion.
    pub exhaustion: ExhaustionWinner,
    /// Seats at the table (2–4); one game per seat of A in a pairing unit.
    pub seats: usize,
}

impl Default for Maumau {
    /// The contest's rules at two seats.
    fn default() -> Self {
        Maumau {
            exhaustion: ExhaustionWinner::default(),
            seats: 2,
        }
    }
}

/// A spec split into the engine's spec and the arena's budget keys.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// What [`parse_agent`] gets.
    pub engine: String,
    /// ISMCTS iterations per move.
    pub iterations: Option<u64>,
    /// Per-move time in ms (`None` = untimed).
    pub time_ms: Option<u64>,
    /// Share of the opponents' cards the player sees (a ceiling for card inference, not a
    /// bot); 0 = none.
    pub peek: f64,
}

/// Parses and checks `spec`.
pub fn parse(spec: &str, tc_ms: Option<u64>) -> anyhow::Result<Spec> {
    let (kind, opts) = split_spec(spec);
    let (mut iterations, mut time_ms, mut peek, mut rest) = (None, None, 0.0, Vec::new());
    let bad = |k: &str| anyhow::anyhow!("maumau spec {spec:?}: bad value for {k:?}");
    for (k, v) in opts {
        match k {
            "iterations" => iterations = Some(v.parse().map_err(|_| bad(k))?),
            "time" => time_ms = Some(v.parse().map_err(|_| bad(k))?),
            "peek" => {
                peek = v
                    .parse::<f64>()
                    .ok()
                    .filter(|q| (0.0..=1.0).contains(q))
                    .ok_or_else(|| bad(k))?
            }
            // Passed on as written: the player takes registry names as `param.NAME` (and its
            // few old short keys bare).
            _ => rest.push(format!("{k}={v}")),
        }
    }
    if time_ms.is_none() && iterations.is_none() {
        time_ms = Some(tc_ms.unwrap_or(100));
    }
    let engine = if rest.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}:{}", rest.join(","))
    };
    parse_agent(&engine, &spec_options(iterations))
        .map_err(|e| anyhow::anyhow!("maumau spec {spec:?}: {e}"))?;
    Ok(Spec {
        engine,
        iterations,
        time_ms,
        peek,
    })
}

/// The clock of one move: `time_ms` is the move budget under the one clock rule
/// ([`MoveBudget::in_process`]); `None` is untimed.
fn move_time_control(time_ms: Option<u64>) -> TimeControl {
    match time_ms {
        Some(ms) => MoveBudget::in_process_ms(ms).time_control(),
        None => TimeControl::infinite(),
    }
}

/// The options a spec's agent is built with (the table is set where it sits).
fn spec_options(iterations: Option<u64>) -> AgentOptions {
    AgentOptions {
        iterations,
        ..AgentOptions::default()
    }
}

/// What an agent thought about one decision, for `think` of `arena::record` (`null` where
/// it ran no search): the search's iterations, the chosen action's root visits and win rate.
fn think_json(seat: usize, d: &Decision<Action>, ms: u64) -> Value {
    let Some(&(_, visits)) = d.stats.iter().find(|(k, _)| *k == "visits") else {
        return Value::Null;
    };
    json!({"seat": seat, "iterations": d.nodes, "visits": visits as u64,
           "win_rate": d.score.unwrap_or(0.0), "ms": ms})
}

/// An agent that plays on its own budget, whatever clock it is handed (the built-in seat of
/// a `cmd:` game, whose client hands it the contest clock).
struct Budgeted {
    inner: MauMauAgent,
    time_ms: Option<u64>,
}

impl Agent<MauMau> for Budgeted {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn new_game(&mut self, seat: usize, seed: u64) {
        self.inner.new_game(seat, seed);
    }
    fn observe(&mut self, notice: &Notice) {
        self.inner.observe(notice);
    }
    fn choose(&mut self, view: &View<'_, MauMau>, _: &TimeControl) -> Decision<Action> {
        self.inner.choose(view, &move_time_control(self.time_ms))
    }
}

/// The seats of an in-process arena game: each agent on its spec's budget, shown its `peek`
/// share of the other hands, every action and thought logged for the record.
struct Table {
    agents: Vec<MauMauAgent>,
    time_ms: Vec<Option<u64>>,
    /// The cards each seat's agent sees wherever they are (its `peek` share of the deck).
    seen: Vec<CardSet>,
    log: Vec<(usize, Action)>,
    think: Vec<Value>,
}

impl Seats for Table {
    fn tell(&mut self, seat: usize, notice: &Notice) {
        self.agents[seat].observe(notice);
    }

    fn choose(
        &mut self,
        game: &kibitz_maumau::Game,
        view: &View<'_, MauMau>,
        _: &TimeControl,
    ) -> Option<Action> {
        let seat = view.seat();
        if !self.seen[seat].is_empty() {
            let hands = (0..game.players())
                .map(|s| game.hand(s).inter(self.seen[seat]))
                .collect();
            self.agents[seat].peek(hands);
        }
        let tc = move_time_control(self.time_ms[seat]);
        let started = std::time::Instant::now();
        let d = self.agents[seat].choose(view, &tc);
        let ms = started.elapsed().as_millis() as u64;
        self.think.push(think_json(seat, &d, ms));
        self.log.push((seat, d.action));
        Some(d.action)
    }
}

/// The cards a `peek = q` player sees: each card with chance `q`, drawn from `seed` (so the
/// same cards all game long, and again when the deal is replayed).
fn peek_mask(q: f64, seed: u64) -> CardSet {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    CardSet(
        (0..32)
            .filter(|_| rng.random::<f64>() < q)
            .fold(0, |m, c| m | 1 << c),
    )
}

impl Maumau {
    fn config(&self) -> Config {
        Config {
            players: self.seats(),
            exhaustion_winner: self.exhaustion,
        }
    }
}

impl Arena for Maumau {
    fn takes_deals(&self) -> bool {
        true
    }
    fn configure(&self, opts: &super::GameOptions) -> anyhow::Result<Option<Box<dyn Arena>>> {
        opts.refuse_adjudication(self.name())?;
        let exhaustion = match opts.exhaustion_winner.as_deref().unwrap_or("second-seat") {
            "second-seat" => kibitz_maumau::game::ExhaustionWinner::SecondSeat,
            "most-valid-moves" => kibitz_maumau::game::ExhaustionWinner::MostValidMoves,
            o => anyhow::bail!("--exhaustion-winner {o:?}: second-seat or most-valid-moves"),
        };
        Ok(Some(Box::new(Maumau {
            seats: opts.seats,
            exhaustion,
        })))
    }
    fn name(&self) -> &'static str {
        "maumau"
    }

    fn seats(&self) -> usize {
        self.seats.clamp(2, MAX_PLAYERS)
    }

    fn seat_range(&self) -> std::ops::RangeInclusive<usize> {
        2..=MAX_PLAYERS
    }

    /// One game per seat of A: at two seats the deal twice, seats swapped.
    fn unit(&self) -> u64 {
        self.seats() as u64
    }

    fn side_label(&self, slot: u64) -> String {
        format!("seat{slot}")
    }

    fn check_spec(&self, spec: &str) -> anyhow::Result<()> {
        if super::external::is_cmd(spec) {
            anyhow::ensure!(
                self.seats() == 2,
                "maumau: cmd: players play at two seats only, not --seats {}",
                self.seats()
            );
            return super::external::CmdSpec::parse("maumau", spec).map(|_| ());
        }
        parse(spec, None).map(|_| ())
    }

    fn play(&self, job: &Job) -> anyhow::Result<Played> {
        if super::external::is_cmd(job.a) || super::external::is_cmd(job.b) {
            let tc = job.tc_ms;
            let build = |spec: &str| -> anyhow::Result<Box<dyn Agent<MauMau> + Send>> {
                let sp = parse(spec, tc)?;
                anyhow::ensure!(
                    sp.peek == 0.0,
                    "maumau spec {spec:?}: peek needs the hands, which a cmd: game does not show"
                );
                // The server's 5 s turn timeout holds every seat, ours too.
                anyhow::ensure!(
                    sp.time_ms.is_none_or(|t| t <= 4000),
                    "maumau spec {spec:?}: against a cmd: player a move may take at most 4000 ms \
                     (the server's turn timeout is 5 s)"
                );
                let inner = parse_agent(&sp.engine, &spec_options(sp.iterations))
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                Ok(Box::new(Budgeted {
                    inner,
                    time_ms: sp.time_ms,
                }))
            };
            let deal_seed = super::deals::seed(job)?;
            return super::external::maumau::play(job, self.config(), deal_seed, &build);
        }
        let (sa, sb) = (parse(job.a, job.tc_ms)?, parse(job.b, job.tc_ms)?);
        let n = self.seats();
        let deal_seed = super::deals::seed(job)?;
        let mut table = Table {
            agents: Vec::new(),
            time_ms: Vec::new(),
            seen: Vec::new(),
            log: Vec::new(),
            think: Vec::new(),
        };
        // Seeds: A's is purpose 1, the k-th copy of B's (k = 0, 1, ...) purpose 2 + k, so a
        // two-seat game seeds its agents as it always has.
        let mut b_copies = 0;
        for seat in 0..n {
            let (spec, seed) = if job.seating.is_a(seat) {
                (&sa, job.seed_for(1))
            } else {
                b_copies += 1;
                (&sb, job.seed_for(1 + b_copies))
            };
            let agent = parse_agent(&spec.engine, &spec_options(spec.iterations))
                .map_err(|e| anyhow::anyhow!("{e}"))?
                .at_table(self.config())
                .seated(seat, seed);
            table.agents.push(agent);
            table.time_ms.push(spec.time_ms);
            table
                .seen
                .push(peek_mask(spec.peek, deal_seed ^ seat as u64));
        }
        let rec = kibitz_maumau::arena::play_game_by(self.config(), deal_seed, None, &mut table);
        let winner = rec.end.winner();
        let outcome = if job.seating.is_a(winner) {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        let moves: Vec<Value> = table
            .log
            .iter()
            .map(|&(s, a)| mm_record::action_json(s, a))
            .collect();
        let players: Vec<String> = (0..n)
            .map(|s| if job.seating.is_a(s) { job.a } else { job.b }.to_string())
            .collect();
        let deck = mm_record::shuffled_deck(deal_seed);
        let setup = mm_record::setup_json(self.config(), deal_seed, &deck, MAX_TURNS, None);
        let result = mm_record::result_json(rec.end, rec.turns, &rec.penalties[..n]);
        let plies = moves.len() as u32;
        let mut record = mm_record::game_json(&players, setup, moves, result);
        let thinks = std::mem::take(&mut table.think);
        if thinks.iter().any(|t| !t.is_null()) {
            record["think"] = Value::Array(thinks);
        }
        Ok(Played {
            outcome,
            plies,
            record,
        })
    }

    fn replay(&self, record: &Value) -> anyhow::Result<Vec<(String, String)>> {
        mm_record::replay(record)
    }

    /// Mau-Mau positions, at the same steps as [`mm_record::replay`] (whose lines they
    /// carry): `state` is `{"top": card, "wish": suit symbol | null, "hands": [[cards] per
    /// seat], "hand_sizes": [..], "talon": cards left to draw, "to_move": seat, "online":
    /// [bool per seat], "actor": seat | null (who acted last)}`. A replay from the deal seed
    /// knows every card, so `hands` is complete.
    fn positions(&self, record: &Value) -> anyhow::Result<Vec<Position>> {
        Ok(mm_record::replay_with(record, maumau_state)?
            .into_iter()
            .map(|(what, state)| Position { what, state })
            .collect())
    }
}

/// The structured table of `game` after `actor` acted (see [`Maumau::positions`]).
fn maumau_state(game: &kibitz_maumau::Game, actor: Option<usize>) -> Value {
    let n = game.players();
    json!({
        "top": game.top().to_string(),
        "wish": game.wish().map(|s| s.symbol().to_string()),
        "hands": (0..n)
            .map(|s| game.hand(s).iter().map(|c| c.to_string()).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        "hand_sizes": (0..n).map(|s| game.hand_size(s)).collect::<Vec<_>>(),
        "talon": game.talon_len(),
        "to_move": game.turn(),
        "online": (0..n).map(|s| game.is_online(s)).collect::<Vec<_>>(),
        "actor": actor,
    })
}

#[cfg(test)]
mod tests {
    use super::{move_time_control, parse};
    use std::time::Duration;

    #[test]
    fn time_is_the_move_budget_under_the_clock_rule() {
        let ms = Duration::from_millis;
        // Before the one clock rule: soft 200, hard 1.5 · 200 + 5 = 305.
        let tc = move_time_control(Some(200));
        assert_eq!((tc.soft(), tc.hard()), (Some(ms(100)), Some(ms(200))));
        assert_eq!(move_time_control(None).hard(), None);
    }

    #[test]
    fn every_registry_parameter_reaches_the_player() {
        for p in kibitz_maumau::param_specs() {
            let spec = format!("ismcts:iterations=10,param.{}={}", p.name, p.default);
            let parsed = parse(&spec, None).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert!(
                parsed.engine.contains(&format!("param.{}=", p.name)),
                "{spec}"
            );
        }
        assert!(parse("ismcts:param.c=0.8,time=200", None).is_ok());
        assert!(parse("ismcts:param.nope=1", None).is_err());
        assert!(parse("ismcts:time=x", None).is_err());
        assert!(parse("ismcts:peek=1,time=200", None).is_ok_and(|s| s.peek == 1.0));
        assert!(parse("ismcts:peek=0.25", None).is_ok_and(|s| s.peek == 0.25));
        assert!(parse("ismcts:time=200", None).is_ok_and(|s| s.peek == 0.0));
        assert!(parse("ismcts:peek=yes", None).is_err());
        assert!(parse("ismcts:peek=1.5", None).is_err());
    }

    #[test]
    fn a_three_seat_table_seats_a_once_and_b_twice() {
        use crate::arena::{Arena, Job, Outcome};
        let arena = super::Maumau {
            seats: 3,
            ..Default::default()
        };
        for slot in 0..3 {
            let job = Job {
                a: "heuristic",
                b: "random",
                seed: 4,
                index: slot,
                unit: 0,
                slot,
                opening: None,
                tc_ms: None,
                seating: arena.seating(slot),
            };
            let p = arena.play(&job).unwrap();
            let players = p.record["players"].as_array().unwrap();
            assert_eq!(p.record["setup"]["players"], 3);
            assert_eq!(players.len(), 3);
            assert_eq!(players[slot as usize], "heuristic");
            assert_eq!(players.iter().filter(|x| *x == "random").count(), 2);
            assert_eq!(p.record["result"]["penalties"].as_array().unwrap().len(), 3);
            // The same deal in every slot: one deck per pairing unit.
            assert_eq!(p.record["setup"]["deal_seed"], job.unit_seed());
            let winner = p.record["result"]["winner"].as_u64().unwrap() as usize;
            assert_eq!(p.outcome == Outcome::Win, winner == slot as usize);
        }
    }

    #[test]
    fn peek_masks_show_about_their_share_of_the_deck() {
        assert_eq!(super::peek_mask(1.0, 7), kibitz_maumau::CardSet::FULL);
        assert!(super::peek_mask(0.0, 7).is_empty());
        let n: usize = (0..200).map(|s| super::peek_mask(0.25, s).len()).sum();
        // 6,400 cards at a quarter each: 1,600 ± 35 (one sigma).
        assert!((1450..=1750).contains(&n), "{n}");
        assert_eq!(super::peek_mask(0.25, 3), super::peek_mask(0.25, 3));
    }
}
