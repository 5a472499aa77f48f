//! Codec against every wire line of every recorded real-server game: one trial per line.
//!
//! - `SRV->BOT`: the line decodes, and re-encoding the decoded message gives the exact bytes the
//!   real server wrote.
//! - `BOT->SRV`: the server-side reader classifies it; the reply the real server gave next to that
//!   bot agrees with the classification (penalty after a bad answer, `setName:false` after a non-JSON
//!   name, ...); and every well-formed answer is byte-identical to what our bot writes for it.

use kibitz_bots_maumau::client::{Bot, BotConfig};
use kibitz_bots_maumau::protocol::{
    read_answer, read_name_line, Answer, BotMsg, NameLine, ServerMsg,
};
use kibitz_bots_maumau::transcript::{parse, Event, Kind};
use kibitz_maumau::agents::{make_agent, AgentOptions};
use kibitz_maumau::game::legal_set;
use kibitz_maumau::{Card, CardSet, Suit};
use libtest_mimic::{Arguments, Failed, Trial};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/maumau/transcripts");

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .expect("transcript folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    files.sort();
    assert!(files.len() >= 9, "expected the 9 recorded games in {DIR}");
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("readable transcript");
        let events = match parse(&text) {
            Ok(ev) => ev,
            Err(e) => {
                trials.push(Trial::test(format!("{file}::parse"), move || {
                    Err(e.to_string().into())
                }));
                continue;
            }
        };
        if file != "samename.log" {
            let mut bots: Vec<String> = events
                .iter()
                .filter(|e| e.kind == Kind::Connect)
                .map(|e| e.bot.clone())
                .collect();
            bots.dedup();
            for bot in bots {
                let evs = events.clone();
                trials.push(Trial::test(
                    format!("{file}::our_bot_as_{bot}"),
                    move || our_bot_as(&evs, &bot),
                ));
            }
        }
        for (i, ev) in events.iter().enumerate() {
            let name = format!("{file}::{:05}", ev.seq);
            match &ev.kind {
                Kind::ServerToBot(bytes) => {
                    let bytes = bytes.clone();
                    trials.push(Trial::test(name, move || server_line(&bytes)));
                }
                Kind::BotToServer(line) => {
                    let line = line.clone();
                    let handshake = is_handshake(&events, i);
                    let reply = if handshake {
                        next_set_name(&events, i)
                    } else {
                        next_reply(&events, i)
                    };
                    trials.push(Trial::test(name, move || bot_line(&line, reply, handshake)));
                }
                _ => {}
            }
        }
    }
    libtest_mimic::run(&args, trials).exit();
}

/// Feeds everything the recorded bot `bot` received to our bot's state machine: it must answer
/// the name request and every private request after a broadcast naming it, nothing else, and
/// every card it plays must be in its hand and legal.
fn our_bot_as(events: &[Event], bot: &str) -> Result<(), Failed> {
    let cfg = BotConfig {
        name: bot.to_string(),
        strategy: "heuristic".into(),
        ..BotConfig::default()
    };
    let mut ours = Bot::new(
        &cfg,
        make_agent("heuristic", &AgentOptions::default()).map_err(|e| e.to_string())?,
    );
    let mut name = bot.to_string();
    let mut hand = CardSet::EMPTY;
    let mut expect_request = false;
    let mut last_play: Option<(Card, Option<Suit>, Card)> = None; // (card, wish, top) of the recorded bot
    let mut answers = 0;
    for e in events.iter().filter(|e| e.bot == bot) {
        match &e.kind {
            Kind::BotToServer(l) => {
                // Track the recorded bot's legal plays to know the real hand.
                if let kibitz_bots_maumau::protocol::Answer::Play { card, .. } = read_answer(l) {
                    if let (Some(c), Some((_, wish, top))) = (Card::from_index(card), last_play) {
                        last_play = Some((c, wish, top));
                    }
                } else {
                    last_play = None;
                }
            }
            Kind::ServerToBot(b) => {
                let msg = ServerMsg::decode(b).map_err(|e| e.to_string())?;
                // Apply the recorded bot's last play unless it was penalised as illegal.
                if let Some((c, wish, top)) = last_play.take() {
                    let penalised_illegal =
                        matches!(msg, ServerMsg::Drawn { ok: false, .. }) && !c.is_jack();
                    if !penalised_illegal && hand.contains(c) && legal_set(top, wish).contains(c) {
                        hand.remove(c);
                    }
                }
                let reply = ours.on_line(b);
                match &msg {
                    ServerMsg::SendName => {
                        if reply != Some(BotMsg::Name(bot.to_string())) {
                            return Err(format!("name request answered with {reply:?}").into());
                        }
                        continue;
                    }
                    ServerMsg::SetName { name: Some(n), .. } => name = n.clone(),
                    ServerMsg::Broadcast(bc) => expect_request = bc.turn_of == name && !bc.skipped,
                    ServerMsg::Request(r) => {
                        if let Some(h) = &r.hand {
                            hand = h
                                .iter()
                                .filter_map(|&c| Card::from_index(c as u8))
                                .collect();
                        } else if let Some(d) = &r.drawn {
                            hand = hand.union(
                                d.iter()
                                    .filter_map(|&c| Card::from_index(c as u8))
                                    .collect(),
                            );
                        }
                        let top = Card::from_index(r.top as u8).ok_or("bad top")?;
                        let wish = u8::try_from(r.wished).ok().and_then(Suit::from_index);
                        last_play = Some((top, wish, top));
                        if !expect_request {
                            return Err("request without a broadcast naming the bot".into());
                        }
                        expect_request = false;
                        answers += 1;
                        match reply {
                            Some(BotMsg::Draw) => {}
                            Some(BotMsg::Play { card, wish: w }) => {
                                let c = Card::from_index(card as u8).ok_or("card out of range")?;
                                if !hand.contains(c) || !legal_set(top, wish).contains(c) {
                                    return Err(format!(
                                        "illegal play {c} on {top} wish {wish:?}, hand {hand}"
                                    )
                                    .into());
                                }
                                if c.is_jack() && !(0..4).contains(&w) {
                                    return Err("Jack without a wish".into());
                                }
                            }
                            other => return Err(format!("request answered with {other:?}").into()),
                        }
                        continue;
                    }
                    ServerMsg::Drawn { card, .. } if *card >= 0 => {
                        hand.insert(Card::from_index(*card as u8).ok_or("bad card")?);
                    }
                    _ => {}
                }
                if reply.is_some() {
                    return Err(format!("answered a non-request {msg:?} with {reply:?}").into());
                }
            }
            _ => {}
        }
    }
    if ours.report.penalties as usize != events.iter().filter(|e| e.bot == bot && matches!(&e.kind, Kind::ServerToBot(b) if b.ends_with(b"\"error\"}\n") && b.starts_with(b"{\"drawedCards"))).count() {
        return Err("penalty count differs".into());
    }
    let requests = events
        .iter()
        .filter(|e| {
            e.bot == bot && matches!(&e.kind, Kind::ServerToBot(b) if b.starts_with(b"{\"topcard"))
        })
        .count();
    if answers != requests {
        return Err(format!("answered {answers} of {requests} requests").into());
    }
    Ok(())
}

fn server_line(bytes: &[u8]) -> Result<(), Failed> {
    let msg = ServerMsg::decode(bytes).map_err(|e| format!("decode: {e}"))?;
    let again = msg.encode();
    if again.as_bytes() != bytes {
        return Err(format!(
            "re-encoded differs:\n real {:?}\n ours {again:?}",
            String::from_utf8_lossy(bytes)
        )
        .into());
    }
    Ok(())
}

/// The next message the same bot received after event `i` that is a direct reply (not a
/// broadcast that merely followed), if any.
fn next_reply(events: &[Event], i: usize) -> Option<ServerMsg> {
    let bot = &events[i].bot;
    events[i + 1..]
        .iter()
        .filter(|e| &e.bot == bot)
        .find_map(|e| match &e.kind {
            Kind::ServerToBot(b) => Some(ServerMsg::decode(b).ok()),
            Kind::BotToServer(_) => Some(None),
            _ => None,
        })
        .flatten()
}

/// The `setName` the bot got after its name line (in `samename.log` both bots share one column,
/// so a `gameStart` for the other connection can come first).
fn next_set_name(events: &[Event], i: usize) -> Option<ServerMsg> {
    let bot = &events[i].bot;
    events[i + 1..]
        .iter()
        .filter(|e| &e.bot == bot)
        .find_map(|e| match &e.kind {
            Kind::ServerToBot(b) => ServerMsg::decode(b)
                .ok()
                .filter(|m| matches!(m, ServerMsg::SetName { .. })),
            _ => None,
        })
}

fn is_handshake(events: &[Event], i: usize) -> bool {
    let bot = &events[i].bot;
    events[..i]
        .iter()
        .rev()
        .filter(|e| &e.bot == bot)
        .find_map(|e| match &e.kind {
            Kind::ServerToBot(b) => Some(b.starts_with(br#"{"sendName""#)),
            _ => None,
        })
        == Some(true)
}

fn bot_line(line: &[u8], reply: Option<ServerMsg>, handshake: bool) -> Result<(), Failed> {
    if handshake {
        return match (read_name_line(line), reply) {
            (
                NameLine::Ok(n),
                Some(ServerMsg::SetName {
                    ok: true,
                    name: Some(m),
                }),
            ) if n == m => {
                let ours = BotMsg::Name(n).encode();
                same(line, &ours)
            }
            (
                NameLine::NotJson,
                Some(ServerMsg::SetName {
                    ok: false,
                    name: Some(m),
                }),
            ) if m.starts_with("Bot ") => Ok(()),
            (
                NameLine::Bad,
                Some(ServerMsg::SetName {
                    ok: true,
                    name: None,
                }),
            ) => Ok(()),
            (n, r) => Err(format!("name line read as {n:?} but the server replied {r:?}").into()),
        };
    }
    match (read_answer(line), &reply) {
        // A draw is answered with an `okay` draw reply.
        (Answer::Draw, Some(ServerMsg::Drawn { ok: true, .. })) => {
            same(line, &BotMsg::Draw.encode())
        }
        (Answer::Draw, r) => Err(format!("draw answered with {r:?}").into()),
        // A bad line always costs a penalty.
        (Answer::Bad, Some(ServerMsg::Drawn { ok: false, .. })) => Ok(()),
        (Answer::Bad, r) => Err(format!("bad answer not penalised: {r:?}").into()),
        // A play is either accepted silently or penalised; a Jack without a wish is penalised.
        (Answer::Play { card, wish: None }, r) => match r {
            Some(ServerMsg::Drawn { ok: false, .. }) => Ok(()),
            _ if (16..20).contains(&card) => {
                Err(format!("wishless Jack not penalised: {r:?}").into())
            }
            _ => Ok(()),
        },
        (
            Answer::Play {
                card,
                wish: Some(_),
            },
            r,
        ) => {
            if matches!(r, Some(ServerMsg::Drawn { ok: true, .. })) {
                return Err("a play was answered like a draw".into());
            }
            let raw: serde_json::Value = serde_json::from_slice(line).map_err(|e| e.to_string())?;
            let wish = raw["wishedColor"].as_i64().unwrap_or(-1) as i32;
            same(
                line,
                &BotMsg::Play {
                    card: card as i32,
                    wish,
                }
                .encode(),
            )
        }
    }
}

fn same(line: &[u8], ours: &str) -> Result<(), Failed> {
    if ours.as_bytes().strip_suffix(b"\n") == Some(line) {
        Ok(())
    } else {
        Err(format!(
            "our bot would write {ours:?}, the probe wrote {:?}",
            String::from_utf8_lossy(line)
        )
        .into())
    }
}
