//! Tests against the streams recorded from the official 19.2.1 server (`shared/data/piranhas`).
//!
//! One trial per transcript file and check: decoding in the recorded TCP chunks, whole and byte
//! by byte; re-encoding every server message to the recorded bytes (minus the stray `<line>`);
//! replaying the server side to our client session (our replies legal and decodable, the
//! recorded moves leading exactly to the next memento, the result agreeing with the final
//! board); the client streams; and `draw_result.xml`.

use kibitz_bots_piranhas::client::{Action, Session};
use kibitz_bots_piranhas::protocol::{ClientMessage, Frame, Framer, ScoreCause, ServerMessage};
use kibitz_piranhas::agents::GreedyAgent;
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_piranhas::{Color, EvalParams};
use kibitz_search::agent::{Agent, RandomAgent, View};
use kibitz_search::time::TimeControl;
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/piranhas")).to_path_buf()
}

fn read(p: &Path) -> Result<Vec<u8>, Failed> {
    std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()).into())
}

/// Frames of a byte stream fed in the given chunks.
fn frames(chunks: &[&[u8]]) -> Result<Vec<Frame>, Failed> {
    let mut f = Framer::new(1 << 20);
    let mut out = Vec::new();
    for c in chunks {
        f.push(c);
        while let Some(fr) = f.next_frame().map_err(|e| e.to_string())? {
            out.push(fr);
        }
    }
    Ok(out)
}

/// The read sizes recorded in a `*.raw.txt` (`<<< [t] RECV n bytes:` headers).
fn recorded_chunks(raw: &[u8], stream: &[u8]) -> Result<Vec<usize>, Failed> {
    let text = String::from_utf8_lossy(raw);
    let mut sizes = Vec::new();
    let mut pos = 0usize;
    for line in text.split('\n') {
        if let Some(rest) = line.strip_prefix("<<< [") {
            if let Some(n) = rest
                .split("RECV ")
                .nth(1)
                .and_then(|r| r.strip_suffix(" bytes:"))
            {
                let n: usize = n.parse().map_err(|_| format!("bad header {line}"))?;
                sizes.push(n);
                pos += n;
            }
        }
    }
    if pos > stream.len() {
        return Err(format!("raw chunks sum {pos} > stream {}", stream.len()).into());
    }
    if pos < stream.len() {
        sizes.push(stream.len() - pos);
    }
    Ok(sizes)
}

fn decode_trial(stream: PathBuf, raw: PathBuf) -> Result<(), Failed> {
    let bytes = read(&stream)?;
    let whole = frames(&[&bytes])?;
    let sizes = recorded_chunks(&read(&raw)?, &bytes)?;
    if sizes.len() < 3 {
        return Err("expected several recorded reads".into());
    }
    let mut chunks = Vec::new();
    let mut at = 0;
    for s in sizes {
        chunks.push(&bytes[at..at + s]);
        at += s;
    }
    let chunked = frames(&chunks)?;
    let bytewise = frames(&bytes.chunks(1).collect::<Vec<_>>())?;
    if whole != chunked || whole != bytewise {
        return Err("framing depends on chunking".into());
    }
    if whole.first() != Some(&Frame::Open) {
        return Err("stream does not start with <protocol>".into());
    }
    let mut n = 0;
    for f in &whole {
        if let Frame::Message(m) = f {
            let msg = ServerMessage::parse(m).map_err(|e| format!("{e} in {m:.200}"))?;
            if let ServerMessage::Unknown(what) = msg {
                return Err(format!("unrecognised message {what}").into());
            }
            n += 1;
        }
    }
    if n < 5 {
        return Err(format!("only {n} messages").into());
    }
    Ok(())
}

fn reencode_trial(stream: PathBuf) -> Result<(), Failed> {
    let bytes = read(&stream)?;
    for f in frames(&[&bytes])? {
        let Frame::Message(m) = f else { continue };
        let ours = ServerMessage::parse(&m)?.to_xml();
        // The server pretty-prints at depth 1: compare with the same leading indentation,
        // without the stray `<line>` (R2: we do not emit it).
        let theirs = format!("\n  {m}").replace("\n          <line>------------</line>", "");
        if ours != theirs {
            return Err(
                format!("re-encoded differs:\nours:   {ours:.400}\ntheirs: {theirs:.400}").into(),
            );
        }
    }
    Ok(())
}

fn client_moves(path: &Path) -> Result<Vec<ClientMessage>, Failed> {
    let bytes = read(path)?;
    let mut out = Vec::new();
    for f in frames(&[&bytes])? {
        if let Frame::Message(m) = f {
            let msg = ClientMessage::parse(&m)?;
            if let ClientMessage::Unknown(w) = &msg {
                return Err(format!("unknown client message {w}").into());
            }
            out.push(msg);
        }
    }
    Ok(out)
}

fn client_stream_trial(path: PathBuf) -> Result<(), Failed> {
    let msgs = client_moves(&path)?;
    for m in &msgs {
        // What we would write for the same message decodes to the same message.
        if &ClientMessage::parse(&m.to_xml())? != m {
            return Err(format!("client message does not round-trip: {m:?}").into());
        }
    }
    if msgs.is_empty() {
        return Err("no client messages".into());
    }
    Ok(())
}

/// Replays the server side of a player's transcript to our session.
fn replay_trial(s2c: PathBuf, c2s: PathBuf) -> Result<(), Failed> {
    let bytes = read(&s2c)?;
    let recorded: Vec<_> = client_moves(&c2s)?
        .into_iter()
        .filter_map(|m| match m {
            ClientMessage::Move { room, mv } => Some((room, mv)),
            _ => None,
        })
        .collect();
    let mut session = Session::new();
    let mut players: [Box<dyn Agent<Piranhas>>; 2] = [
        Box::new(RandomAgent::new(7)),
        Box::new(GreedyAgent::new(EvalParams::default())),
    ];
    // Every move the mementos report, as the agents are told it.
    let mut told = 0usize;
    let mut mementos_after_moves = 0usize;
    let mut requests = 0usize;
    let mut pending: Option<kibitz_piranhas::State> = None;
    let mut finished = false;
    for f in frames(&[&bytes])? {
        if let Frame::Message(m) = &f {
            if let ServerMessage::Memento { state, .. } = ServerMessage::parse(m)? {
                mementos_after_moves += usize::from(state.last_move.is_some());
                // The recorded move we sent for the previous request leads exactly here.
                if let Some(before) = pending.take() {
                    let (_, mv) = &recorded[requests - 1];
                    let after = before
                        .apply(mv.mv)
                        .map_err(|e| format!("recorded move illegal: {e}"))?;
                    let now = state.to_state()?;
                    if after != now {
                        return Err(
                            format!("memento after {} differs from the engine's", mv.mv).into()
                        );
                    }
                    if state.last_move.as_ref() != Some(mv) {
                        return Err("lastMove does not echo our move and hints".into());
                    }
                }
            }
        }
        match session.on_frame(f).map_err(|e| e.to_string())? {
            Action::Wait => {}
            Action::Move { room, state } => {
                if Some(state.current()) != session.color {
                    return Err("MoveRequest for the wrong colour".into());
                }
                // The bot's view is built from what the server said alone; it offers the
                // moves the referee's view of the same position offers.
                let view = session.view(&state).ok_or("no view after the welcome")?;
                let seat = state.current() as usize;
                let referee = Piranhas(state);
                if view.legal_actions() != View::new(&referee, seat).legal_actions()
                    || view.observation() != referee
                    || view.legal_actions().is_empty()
                {
                    return Err("the client's seen view differs from the referee's".into());
                }
                for p in players.iter_mut() {
                    let mv = p.choose(&view, &TimeControl::infinite()).action;
                    if !state.is_legal(mv) {
                        return Err(format!("our move {mv} is illegal").into());
                    }
                    let msg = ClientMessage::Move {
                        room: room.clone(),
                        mv: kibitz_bots_piranhas::protocol::MoveMsg { mv, hints: vec![] },
                    };
                    if ClientMessage::parse(&msg.to_xml())? != msg {
                        return Err("our move does not decode to itself".into());
                    }
                }
                let (rec_room, _) = recorded
                    .get(requests)
                    .ok_or("more requests than recorded moves")?;
                if *rec_room != room {
                    return Err("room id mismatch".into());
                }
                requests += 1;
                pending = Some(state);
            }
            Action::Finish => finished = true,
        }
        for e in session.take_events() {
            // Told in order: the i-th move told was played at turn i.
            let mover = usize::from(!told.is_multiple_of(2));
            if e.actor != kibitz_search::game::Turn::Seat(mover) {
                return Err(format!("move {told} told as {:?}'s", e.actor).into());
            }
            told += 1;
        }
    }
    if told != mementos_after_moves {
        return Err(format!("{told} moves told, {mementos_after_moves} reported").into());
    }
    if requests != recorded.len() {
        return Err(format!("{requests} requests, {} recorded moves", recorded.len()).into());
    }
    if !finished {
        return Err("session never finished".into());
    }
    if let Some(err) = &session.error {
        // The violator's stream: error message, no result.
        if session.result.is_some() || !err.starts_with("Ungueltiger Zug von ") {
            return Err(format!("unexpected error flow: {err}").into());
        }
        return Ok(());
    }
    let result = session.result.clone().ok_or("no result")?;
    let last = session.state.ok_or("no memento")?;
    if told != last.turn() as usize {
        return Err(format!("{told} moves told, {} played", last.turn()).into());
    }
    for c in Color::BOTH {
        let s = &result.scores[c as usize];
        if s.swarm != last.biggest_swarm(c) {
            return Err(format!("{c} swarm {} vs board {}", s.swarm, last.biggest_swarm(c)).into());
        }
        let expect = match &result.winner {
            None => 1,
            Some((_, w)) if *w == c => 2,
            Some(_) => 0,
        };
        if s.points != expect {
            return Err(format!("{c} points {} vs winner", s.points).into());
        }
    }
    let regular = result.scores.iter().all(|s| s.cause == ScoreCause::Regular);
    if regular {
        // A regular end: the engine's own evaluation of the final board agrees.
        let r = last.result().ok_or("engine sees no game end")?;
        if r.winner != result.winner.as_ref().map(|w| w.1)
            || r.reason.text() != result.scores[0].reason.as_deref()
        {
            return Err(format!("engine result {r} differs").into());
        }
    }
    Ok(())
}

fn draw_result_trial() -> Result<(), Failed> {
    let text = String::from_utf8(read(&data_dir().join("draw_result.xml"))?)?;
    let msg = ServerMessage::parse(text.trim())?;
    let ServerMessage::Result { result, .. } = &msg else {
        return Err("not a result".into());
    };
    if result.winner.is_some() || result.scores.iter().any(|s| s.points != 1) {
        return Err("not a draw".into());
    }
    let mut ours = String::new();
    msg.to_element().write_pretty(&mut ours, 0);
    if ours.trim_start() != text.trim_end() {
        return Err(format!("re-encoded draw differs:\n{ours}").into());
    }
    Ok(())
}

/// Seeded random corruptions of a recorded stream (byte flips, insertions, truncations, chunk
/// splits): the framer, decoder and session return errors or carry on, they never panic.
fn corruption_trial(stream: PathBuf, seed: u64, client_side: bool) -> Result<(), Failed> {
    use rand::{Rng, SeedableRng};
    let original = read(&stream)?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..300 {
        let mut bytes = original.clone();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..bytes.len());
            match rng.random_range(0..3) {
                0 => bytes[at] = rng.random(),
                1 => bytes.insert(at, b"<>\"'&/=\xff"[rng.random_range(0..8)]),
                _ => bytes.truncate(at.max(1)),
            }
        }
        let mut framer = Framer::new(1 << 20);
        let mut session = Session::new();
        let mut at = 0;
        'feed: while at < bytes.len() {
            let n = rng.random_range(1..4096).min(bytes.len() - at);
            framer.push(&bytes[at..at + n]);
            at += n;
            loop {
                match framer.next_frame() {
                    Ok(Some(Frame::Message(m))) if client_side => {
                        let _ = ClientMessage::parse(&m);
                    }
                    Ok(Some(f)) => {
                        let _ = session.on_frame(f);
                    }
                    Ok(None) => break,
                    Err(_) => break 'feed,
                }
            }
        }
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let root = data_dir().join("transcripts");
    let mut trials = vec![Trial::test("draw_result", draw_result_trial)];
    for (i, dir) in ["invalid", "timeout"].into_iter().enumerate() {
        let p = root.join(dir).join("p1.server_to_client.xml");
        trials.push(Trial::test(format!("corruption/{dir}/p1"), move || {
            corruption_trial(p, i as u64, false)
        }));
        let p = root.join(dir).join("p1.client_to_server.xml");
        trials.push(Trial::test(
            format!("corruption/{dir}/p1.client"),
            move || corruption_trial(p, 10 + i as u64, true),
        ));
    }
    for dir in ["prepared", "join", "invalid", "timeout"] {
        for who in ["admin", "p1", "p2"] {
            let s2c = root.join(dir).join(format!("{who}.server_to_client.xml"));
            if !s2c.exists() {
                continue;
            }
            let raw = root.join(dir).join(format!("{who}.raw.txt"));
            let c2s = root.join(dir).join(format!("{who}.client_to_server.xml"));
            let (a, b) = (s2c.clone(), raw.clone());
            trials.push(Trial::test(format!("decode/{dir}/{who}"), move || {
                decode_trial(a, b)
            }));
            let a = s2c.clone();
            trials.push(Trial::test(format!("reencode/{dir}/{who}"), move || {
                reencode_trial(a)
            }));
            let a = c2s.clone();
            trials.push(Trial::test(
                format!("client_stream/{dir}/{who}"),
                move || client_stream_trial(a),
            ));
            if who != "admin" {
                trials.push(Trial::test(format!("replay/{dir}/{who}"), move || {
                    replay_trial(s2c, c2s)
                }));
            }
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
