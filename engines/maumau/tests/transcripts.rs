//! Replays every game recorded from the real contest server (`shared/data/maumau/transcripts`)
//! through the engine, one trial per transcript: the engine must make the same moves happen,
//! produce the same broadcasts and private messages, react to every answer as the server did
//! (play, draw, penalty, played-plus-penalty), reshuffle when the server did, and declare the
//! same winner. Where names are distinct, each bot's card tracker is also fed the bot's own
//! messages and checked against the true state at each of its decisions.

use kibitz_maumau::game::{Config, DrawTwo, Game, Phase, RawAnswer, Reaction};
use kibitz_maumau::knowledge::{Knowledge, Notice};
use kibitz_maumau::{Card, CardSet, Suit};
use libtest_mimic::{Arguments, Failed, Trial};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::path::Path;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/maumau/transcripts");

#[derive(Debug, Clone)]
struct Line {
    bot: String,
    kind: String,
    json: Option<Value>,
}

fn parse_log(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    for raw in text.lines() {
        let mut parts = raw.split_whitespace();
        let (Some(_seq), Some(_t), Some(bot), Some(kind)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let body = raw[raw.find(kind).map_or(0, |i| i + kind.len())..].trim();
        let body = body.strip_prefix('b').unwrap_or(body);
        let body = body
            .strip_prefix('\'')
            .and_then(|b| b.strip_suffix('\''))
            .unwrap_or(body);
        let body = body.trim_end_matches("\\n");
        let json = serde_json::from_str::<Value>(body)
            .ok()
            .filter(|v| v.is_object());
        out.push(Line {
            bot: bot.to_string(),
            kind: kind.to_string(),
            json,
        });
    }
    out
}

fn int(v: &Value, k: &str) -> Option<i64> {
    v.get(k).and_then(Value::as_i64)
}

fn card(v: &Value, k: &str) -> Result<Card, String> {
    int(v, k)
        .and_then(Card::from_wire)
        .ok_or_else(|| format!("no card {k} in {v}"))
}

fn cards(v: &Value, k: &str) -> Vec<Card> {
    v.get(k)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_i64().and_then(Card::from_wire))
                .collect()
        })
        .unwrap_or_default()
}

fn is_private(l: &Line) -> bool {
    l.kind == "SRV->BOT" && l.json.as_ref().is_some_and(|j| j.get("topcard").is_some())
}
fn is_broadcast(l: &Line) -> bool {
    l.kind == "SRV->BOT" && l.json.as_ref().is_some_and(|j| j.get("topCard").is_some())
}
fn is_reply(l: &Line) -> bool {
    l.kind == "SRV->BOT"
        && l.json
            .as_ref()
            .is_some_and(|j| j.get("drawedCards").is_some() && j.get("topcard").is_none())
}

fn raw_answer(l: Option<&Line>) -> RawAnswer {
    let Some(j) = l.and_then(|l| l.json.as_ref()) else {
        return RawAnswer::Invalid;
    };
    match j.get("status").and_then(Value::as_str) {
        Some("skip") => RawAnswer::Draw,
        Some(_) => RawAnswer::Play {
            selected: int(j, "selectedCard"),
            wished: int(j, "wishedColor"),
        },
        None => RawAnswer::Invalid,
    }
}

/// One decision of a mover: its private message, its answer line and the server's reply.
struct Turn {
    bot: String,
    private: Value,
    answer: Option<Line>,
    reply: Option<Value>,
    silent: bool,
}

fn turns(lines: &[Line]) -> Vec<Turn> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !is_private(l) {
            continue;
        }
        let mut t = Turn {
            bot: l.bot.clone(),
            private: l.json.clone().expect("private is JSON"),
            answer: None,
            reply: None,
            silent: false,
        };
        let mut after_answer = false;
        for m in &lines[i + 1..] {
            if m.bot != l.bot {
                continue;
            }
            if !after_answer {
                match m.kind.as_str() {
                    "BOT->SRV" => {
                        t.answer = Some(m.clone());
                        after_answer = true;
                    }
                    "SILENT" => {
                        t.silent = true;
                        break;
                    }
                    "QUIT" | "EOF" => break,
                    _ => {}
                }
            } else if is_reply(m) {
                t.reply = m.json.clone();
                break;
            } else if is_private(m) || is_broadcast(m) || m.kind == "EOF" {
                break;
            }
        }
        out.push(t);
    }
    out
}

fn ensure(cond: bool, msg: impl FnOnce() -> String) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(msg())
    }
}

fn replay(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let lines = parse_log(&text);
    let turns = turns(&lines);
    let won = lines
        .iter()
        .rev()
        .find_map(|l| l.json.as_ref().filter(|j| j.get("won").is_some()))
        .and_then(|j| {
            j.get("nameOfWinner")
                .and_then(Value::as_str)
                .map(String::from)
        });
    let Some(first_b) = lines.iter().find(|l| is_broadcast(l)) else {
        ensure(turns.is_empty() && won.is_none(), || {
            "turns without broadcast".into()
        })?;
        return Ok("no game (server crashed before the first turn)".into());
    };
    let top = card(first_b.json.as_ref().expect("json"), "topCard")?;
    // Server names by seat: turnOf of the first broadcasts; log columns by seat: the bots
    // receiving the first private messages with a hand.
    let mut names: Vec<String> = Vec::new();
    for l in lines.iter().filter(|l| is_broadcast(l)) {
        let n = l
            .json
            .as_ref()
            .and_then(|j| j["turnOf"].as_str())
            .unwrap_or("")
            .to_string();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let same_name = names.len() < 2;
    let mut hands = Vec::new();
    let mut columns = Vec::new();
    for t in turns.iter().filter(|t| t.private.get("hand").is_some()) {
        let mut h: CardSet = cards(&t.private, "hand").into_iter().collect();
        for c in cards(&t.private, "drawedCards") {
            h.remove(c);
        }
        hands.push(h);
        columns.push(t.bot.clone());
    }
    ensure(hands.len() == 2, || {
        format!("{} initial hands", hands.len())
    })?;
    let mut deck = vec![top];
    deck.extend(hands[0].iter());
    deck.extend(hands[1].iter());
    let used: CardSet = deck.iter().copied().collect();
    ensure(used.len() == 15, || "overlapping initial hands".into())?;
    deck.extend(used.complement().iter());
    let mut game = Game::from_deck(Config::default(), &deck);
    if same_name {
        game.set_effect_groups([0, 0, 2, 3]);
    }
    let seat_of_col = |c: &str| columns.iter().position(|x| x == c);
    // Broadcasts the engine sent, in order (checked against each bot's received ones).
    let mut sent = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut quitter = None;
    let mut reshuffles = 0;
    let mut knows: Vec<Knowledge> = (0..2)
        .map(|s| Knowledge::new(Config::default(), s))
        .collect();
    let mut fed = [0usize; 2];
    for (k, t) in turns.iter().enumerate() {
        let ctx = |m: String| format!("turn {k} ({}): {m}", t.bot);
        game.force_next_draws(&cards(&t.private, "drawedCards"));
        // Skipped turns first.
        let start = loop {
            ensure(game.phase() == Phase::BeginTurn, || {
                ctx(format!("phase {:?}", game.phase()))
            })?;
            let pile_before = game.pile().len();
            let s = game.begin_turn(&mut rng).map_err(|e| ctx(e.to_string()))?;
            if game.pile().len() < pile_before {
                reshuffles += 1;
            }
            sent.push(s);
            if !s.skipped {
                break s;
            }
        };
        if !same_name {
            ensure(seat_of_col(&t.bot) == Some(start.seat), || {
                ctx(format!("engine says seat {} moves", start.seat))
            })?;
        }
        let p = &t.private;
        ensure(card(p, "topcard")? == start.top, || ctx("topcard".into()))?;
        ensure(
            int(p, "wishedColor") == Some(start.wish.map_or(-1, |w| w.index() as i64)),
            || ctx(format!("wish {:?} vs {p}", start.wish)),
        )?;
        ensure(
            int(p, "cardsLeft") == Some(game.hand_size(start.seat) as i64),
            || ctx(format!("cardsLeft {} vs {p}", game.hand_size(start.seat))),
        )?;
        let d2 = p.get("drawTwoCards").and_then(Value::as_bool);
        match start.draw_two {
            DrawTwo::None => ensure(d2 == Some(false), || {
                ctx("drawTwoCards should be false".into())
            })?,
            DrawTwo::Drawn(c) => ensure(d2 == Some(true) && cards(p, "drawedCards") == c, || {
                ctx(format!("draw-two {c:?} vs {p}"))
            })?,
            DrawTwo::Failed => ensure(d2.is_none(), || {
                ctx("drawTwoCards key should be missing".into())
            })?,
        }
        if p.get("hand").is_some() {
            let h: CardSet = cards(p, "hand").into_iter().collect();
            ensure(h == game.hand(start.seat), || ctx("hand".into()))?;
        }
        // The tracker of the mover, fed with everything this bot received so far.
        if !same_name {
            let s = start.seat;
            let col = &columns[s];
            feed(&lines, col, &names, &mut knows[s], &mut fed[s], p)?;
            knows[s]
                .check_against(&game)
                .map_err(|e| ctx(format!("tracker: {e}")))?;
        }
        if t.silent {
            ensure(won.is_none(), || {
                ctx("a silent bot must hang the real server".into())
            })?;
            return Ok(format!("{} turns, then the bot fell silent", k + 1));
        }
        if let Some(r) = &t.reply {
            if let Some(c) = int(r, "drawedCards").and_then(Card::from_wire) {
                game.force_next_draws(&[c]);
            }
        }
        let answer = raw_answer(t.answer.as_ref());
        let pile_before = game.pile().len();
        let reaction = game
            .answer(answer, &mut rng)
            .map_err(|e| ctx(e.to_string()))?;
        if game.pile().len() < pile_before {
            reshuffles += 1;
        }
        if t.answer.is_none() {
            quitter = Some(start.seat);
        }
        let reply = t.reply.as_ref();
        let status = reply.and_then(|r| r["status"].as_str());
        let drawn = reply.and_then(|r| int(r, "drawedCards"));
        let wire = |c: Option<Card>| Some(c.map_or(-1, |c| c.index() as i64));
        match reaction {
            Reaction::Played { .. } => {
                ensure(reply.is_none(), || ctx("no reply to a legal play".into()))?
            }
            Reaction::Drew(c) => ensure(status == Some("okay") && drawn == wire(c), || {
                ctx(format!("draw {c:?} vs {reply:?}"))
            })?,
            Reaction::Penalty(c) | Reaction::PlayedWithPenalty { penalty: c, .. } => {
                if t.answer.is_some() {
                    ensure(status == Some("error") && drawn == wire(c), || {
                        ctx(format!("penalty {c:?} vs {reply:?}"))
                    })?
                }
            }
        }
    }
    // A bot that quit goes offline at the next failed write.
    if let (Some(q), None) = (quitter, game.outcome()) {
        let s = game.begin_turn(&mut rng).map_err(|e| e.to_string())?;
        sent.push(s);
        game.drop_seat(q);
    }
    // Every bot received exactly the engine's broadcasts, in order.
    if !same_name {
        for (seat, col) in columns.iter().enumerate() {
            let got: Vec<(usize, Card, i64, bool)> = lines
                .iter()
                .filter(|l| &l.bot == col && is_broadcast(l))
                .filter_map(|l| l.json.as_ref())
                .map(|j| {
                    let who = names
                        .iter()
                        .position(|n| Some(n.as_str()) == j["turnOf"].as_str());
                    (
                        who.unwrap_or(9),
                        card(j, "topCard").unwrap_or_default(),
                        int(j, "cardsLeft").unwrap_or(-1),
                        j["skipped"] == true,
                    )
                })
                .collect();
            let want: Vec<_> = sent
                .iter()
                .map(|s| (s.seat, s.top, s.cards_left as i64, s.skipped))
                .collect();
            ensure(
                got == want[..got.len().min(want.len())] && got.len() + 1 >= want.len(),
                || format!("seat {seat} broadcasts differ:\n got {got:?}\nwant {want:?}"),
            )?;
        }
    }
    match (&won, game.outcome()) {
        (Some(name), Some(end)) => {
            if !same_name {
                ensure(names.get(end.winner()) == Some(name), || {
                    format!("winner {end:?}, server said {name}")
                })?;
            }
        }
        (None, None) => {}
        (w, o) => return Err(format!("server winner {w:?}, engine {o:?}")),
    }
    Ok(format!(
        "{} decisions, {} broadcasts, {reshuffles} reshuffles, end {:?}",
        turns.len(),
        sent.len(),
        game.outcome()
    ))
}

/// Feeds `col`'s received messages into `know` up to (and including) the private message `upto`.
fn feed(
    lines: &[Line],
    col: &str,
    names: &[String],
    know: &mut Knowledge,
    pos: &mut usize,
    upto: &Value,
) -> Result<(), String> {
    while *pos < lines.len() {
        let l = &lines[*pos];
        *pos += 1;
        if l.bot != col || l.kind != "SRV->BOT" {
            continue;
        }
        let Some(j) = &l.json else { continue };
        if j.get("topCard").is_some() {
            let seat = names
                .iter()
                .position(|n| Some(n.as_str()) == j["turnOf"].as_str())
                .ok_or("unknown turnOf")?;
            know.observe(&Notice::Broadcast {
                seat,
                top: card(j, "topCard")?,
                cards_left: int(j, "cardsLeft").unwrap_or(0) as usize,
                skipped: j["skipped"] == true,
            });
        } else if j.get("topcard").is_some() {
            let drawn = cards(j, "drawedCards");
            know.observe(&Notice::Private {
                top: card(j, "topcard")?,
                wish: int(j, "wishedColor")
                    .and_then(|w| u8::try_from(w).ok())
                    .and_then(Suit::from_index),
                cards_left: int(j, "cardsLeft").unwrap_or(0) as usize,
                draw_two: match j.get("drawTwoCards").and_then(Value::as_bool) {
                    Some(true) if drawn.len() == 2 => DrawTwo::Drawn([drawn[0], drawn[1]]),
                    None => DrawTwo::Failed,
                    _ => DrawTwo::None,
                },
                hand: j
                    .get("hand")
                    .map(|_| cards(j, "hand").into_iter().collect()),
            });
            if j == upto {
                return Ok(());
            }
        } else if j.get("drawedCards").is_some() {
            know.observe(&Notice::DrawReply {
                card: int(j, "drawedCards").and_then(Card::from_wire),
                penalty: j["status"] != "okay",
            });
        }
    }
    Err("private message not found in the bot's stream".into())
}

fn main() {
    let args = Arguments::from_args();
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "log"));
    files.sort();
    let mut trials: Vec<Trial> = files
        .into_iter()
        .map(|p| {
            let name = p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            Trial::test(format!("replay::{name}"), move || {
                replay(&p).map(|_| ()).map_err(Failed::from)
            })
        })
        .collect();
    if trials.is_empty() {
        trials.push(Trial::test("replay::data_present", || {
            Err(Failed::from(format!("no transcripts in {DIR}")))
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
