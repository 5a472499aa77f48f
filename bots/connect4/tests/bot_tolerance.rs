//! Our bot against a scripted fake server: exact replies from the registered socket, stale and
//! repeated tokens, reordered datagrams, a missing stone, an illegal final stone, garbage and
//! `UNREGISTERED`.

use kibitz_bots_connect4::client::{Bot, BotConfig, BotStats, Ending};
use kibitz_connect4::agents::{AgentSpec, EngineSpec};
use kibitz_connect4::Position;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio::sync::oneshot;

struct Fake {
    sock: UdpSocket,
    bot: Option<SocketAddr>,
}

impl Fake {
    async fn send(&self, msg: &str) {
        self.sock
            .send_to(msg.as_bytes(), self.bot.expect("bot known"))
            .await
            .unwrap();
    }

    async fn send_raw(&self, msg: &[u8]) {
        self.sock
            .send_to(msg, self.bot.expect("bot known"))
            .await
            .unwrap();
    }

    /// The next datagram from the bot (checked to come from its registered socket).
    async fn recv(&mut self) -> String {
        let mut buf = [0u8; 2048];
        let (n, from) = tokio::time::timeout(Duration::from_secs(5), self.sock.recv_from(&mut buf))
            .await
            .expect("bot answers within 5 s")
            .unwrap();
        match self.bot {
            None => self.bot = Some(from),
            Some(b) => assert_eq!(b, from, "reply from another socket"),
        }
        String::from_utf8(buf[..n].to_vec()).expect("bot sends UTF-8")
    }

    /// Asserts nothing arrives for `ms`.
    async fn quiet(&mut self, ms: u64) {
        let mut buf = [0u8; 2048];
        if let Ok(Ok((n, _))) =
            tokio::time::timeout(Duration::from_millis(ms), self.sock.recv_from(&mut buf)).await
        {
            panic!(
                "unexpected datagram {:?}",
                String::from_utf8_lossy(&buf[..n])
            );
        }
    }

    /// Sends YOURTURN and returns the column of the exact `INSERT;<c>;<token>` reply.
    async fn turn(&mut self, token: &str) -> usize {
        self.send(&format!("YOURTURN;{token}")).await;
        self.column_reply(token).await
    }

    async fn column_reply(&mut self, token: &str) -> usize {
        let r = self.recv().await;
        let rest = r
            .strip_prefix("INSERT;")
            .unwrap_or_else(|| panic!("not an INSERT: {r:?}"));
        let (c, t) = rest
            .split_once(';')
            .unwrap_or_else(|| panic!("bad INSERT {r:?}"));
        assert_eq!(t, token, "exact token, nothing after it: {r:?}");
        assert!(
            c.bytes().all(|b| b.is_ascii_digit()),
            "plain decimal column: {r:?}"
        );
        c.parse().unwrap()
    }
}

type Started = (
    Fake,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<anyhow::Result<BotStats>>,
);

/// A player for a test bot: the spec, its seed and whether it ponders.
type Who = (AgentSpec, u64, bool);

/// The random baseline seeded with `seed`.
fn random(seed: u64) -> Who {
    (AgentSpec::Random, seed, false)
}

/// Our engine with `hash_mb` MiB on the bot's clock, pondering or not.
fn engine(hash_mb: usize, ponder: bool) -> Who {
    (AgentSpec::Engine(EngineSpec::engine(hash_mb)), 1, ponder)
}

async fn start_bot(brain: Who) -> Started {
    start_bot_with(brain, |_| {}).await
}

/// [`start_bot`] with the config changed by `edit` first.
async fn start_bot_with(brain: Who, edit: impl FnOnce(&mut BotConfig)) -> Started {
    let sock = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let port = sock.local_addr().unwrap().port();
    let mut cfg = BotConfig {
        time: Duration::from_millis(150),
        // The old reply-time semantics: only the hand-off grace is kept.
        overhead: Duration::from_millis(15),
        player: brain.0,
        seed: brain.1,
        ponder: brain.2,
        ..BotConfig::new("127.0.0.1", port, "kibitz")
    };
    edit(&mut cfg);
    let bot = Bot::new(cfg).await.unwrap();
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(bot.run(async move {
        let _ = rx.await;
    }));
    (Fake { sock, bot: None }, tx, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_survives_an_odd_server() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_test_writer()
        .try_init();
    let (mut fake, stop, task) = start_bot(engine(4, true)).await;
    assert_eq!(fake.recv().await, "REGISTER;kibitz");
    fake.send("WELCOME;kibitz").await;
    fake.send("NEW SEASON;aaaaaaa1").await;
    assert_eq!(fake.recv().await, "JOIN;aaaaaaa1");

    // Game 1: we are home. The fake's stones arrive *after* the next YOURTURN.
    fake.send("NEW GAME;fake").await;
    let mut pos = Position::new(7, 6, 4).unwrap();
    let mut col = fake.turn("bbbbbbb0").await;
    for i in 1..4 {
        assert!(pos.can_play(col));
        pos.play(col).unwrap();
        fake.send(&format!("TOKEN INSERTED;kibitz;{col}")).await;
        let theirs = (0..7)
            .rev()
            .find(|&c| pos.can_play(c) && !pos.is_winning_move(c))
            .unwrap();
        pos.play(theirs).unwrap();
        let token = format!("bbbbbbb{i}");
        // Reordered: the request overtakes the stone sent before it.
        fake.send(&format!("YOURTURN;{token}")).await;
        fake.send(&format!("TOKEN INSERTED;fake;{theirs}")).await;
        col = fake.column_reply(&token).await;
    }
    // A repeated YOURTURN (a duplicated datagram) is answered once only: the server takes
    // one reply per token (spec §3.3), so a second one would only fill its queue.
    fake.send("YOURTURN;bbbbbbb3").await;
    fake.quiet(100).await;
    // The fake announces an illegal stone and loses for it.
    fake.send(&format!("TOKEN INSERTED;kibitz;{col}")).await;
    fake.send("TOKEN INSERTED;fake;9").await;
    fake.send("RESULT;LOSE;fake;ILLEGAL_COLUMN_ANNOUNCED").await;

    // Garbage from the server side never crashes the bot and gets no answer.
    fake.send("WHAT;ever").await;
    fake.send("").await;
    fake.send_raw(&[0xff, 0x00, b';']).await;
    fake.send("TOKEN INSERTED;fake;notanumber").await;
    fake.send("RESULT;MAYBE;x;y").await;
    fake.quiet(100).await;

    // Game 2: we are away; the fake's second stone never arrives.
    fake.send("NEW GAME;fake").await;
    let mut pos = Position::new(7, 6, 4).unwrap();
    pos.play(0).unwrap();
    fake.send("TOKEN INSERTED;fake;0").await;
    let c = fake.turn("ccccccc0").await;
    pos.play(c).unwrap();
    fake.send(&format!("TOKEN INSERTED;kibitz;{c}")).await;
    pos.play(6).unwrap(); // the stone the bot never hears of
    let c = fake.turn("ccccccc1").await;
    let room = 6 - (0..6).filter(|&r| pos.cell(c, r).is_some()).count();
    assert!(room >= 2, "fallback column {c} must have two empty cells");
    fake.send("RESULT;DRAW;;").await;

    // Removed by the server: the bot registers again, exactly as before.
    fake.send("UNREGISTERED").await;
    assert_eq!(fake.recv().await, "REGISTER;kibitz");
    fake.send("WELCOME;kibitz").await;
    fake.send("NEW SEASON;ddddddd0").await;
    assert_eq!(fake.recv().await, "JOIN;ddddddd0");

    let _ = stop.send(());
    let stats = task.await.unwrap().unwrap();
    assert_eq!((stats.wins, stats.draws, stats.losses), (1, 1, 0));
    assert_eq!(
        stats.fallbacks, 1,
        "only the missing stone needed a fallback"
    );
    assert_eq!(stats.registrations, 2);
    assert_eq!(stats.seasons, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_refuses_bad_names_and_sizes() {
    for name in ["", " x", "a;b", "a,b", "abcdefghijklmnopqrstuvwxyz12345"] {
        assert!(
            Bot::new(BotConfig::new("127.0.0.1", 9, name))
                .await
                .is_err(),
            "{name:?}"
        );
    }
    let big = BotConfig {
        columns: 20,
        rows: 20,
        ..BotConfig::new("127.0.0.1", 9, "x")
    };
    assert!(Bot::new(big).await.is_err());
}

/// A name that can never be accepted (too long, none) ends the bot at once with the reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_name_ends_the_bot_with_an_error() {
    let (mut fake, _stop, task) = start_bot(random(1)).await;
    assert_eq!(fake.recv().await, "REGISTER;kibitz");
    fake.send("NAME_TOO_LONG").await;
    let r = tokio::time::timeout(Duration::from_secs(5), task)
        .await
        .unwrap()
        .unwrap();
    assert!(r.unwrap_err().to_string().contains("NAME_TOO_LONG"));
}

/// Issue 37 item 1: `NAME_ALREADY_TAKEN` can pass (the holder is removed after its timeouts,
/// spec §7), so the bot keeps asking; once the name is free it plays on. If the name stays
/// taken, it gives up after the idle limit with an error naming the refusal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn taken_name_is_asked_for_again_then_given_up() {
    let quick = |c: &mut BotConfig| {
        c.reregister_after = Duration::from_millis(200);
        c.give_up_after = Some(Duration::from_millis(1500));
    };
    let (mut fake, stop, task) = start_bot_with(random(1), quick).await;
    assert_eq!(fake.recv().await, "REGISTER;kibitz");
    fake.send("NAME_ALREADY_TAKEN").await;
    assert_eq!(fake.recv().await, "REGISTER;kibitz", "asks again");
    fake.send("WELCOME;kibitz").await;
    fake.send("NEW SEASON;abcdef01").await;
    assert_eq!(fake.recv().await, "JOIN;abcdef01");
    let _ = stop.send(());
    let stats = task.await.unwrap().unwrap();
    assert_eq!(stats.registrations, 1);

    let (mut fake, _stop, task) = start_bot_with(random(1), quick).await;
    assert_eq!(fake.recv().await, "REGISTER;kibitz");
    fake.send("NAME_ALREADY_TAKEN").await;
    let started = std::time::Instant::now();
    let r = loop {
        let mut buf = [0u8; 256];
        tokio::select! {
            r = fake.sock.recv_from(&mut buf) => {
                assert_eq!(&buf[..r.unwrap().0], b"REGISTER;kibitz");
                fake.send("NAME_ALREADY_TAKEN").await;
            }
            _ = tokio::time::sleep(Duration::from_millis(50)) => {}
        }
        if task.is_finished() {
            break task.await.unwrap();
        }
        assert!(started.elapsed() < Duration::from_secs(10), "still running");
    };
    let e = r.unwrap_err().to_string();
    assert!(e.contains("NAME_ALREADY_TAKEN"), "{e}");
}

/// Issue 37 item 2: a server that falls silent in the middle of a game gets `REGISTER` again
/// after `reregister_after` (in case another client took the name), and when nothing answers
/// for `give_up_after` the bot stops by itself and says so in its stats.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_server_mid_game_gets_register_then_the_bot_stops() {
    let (mut fake, _stop, task) = start_bot_with(random(5), |c| {
        c.reregister_after = Duration::from_millis(300);
        c.give_up_after = Some(Duration::from_millis(1200));
    })
    .await;
    assert_eq!(fake.recv().await, "REGISTER;kibitz");
    fake.send("WELCOME;kibitz").await;
    fake.send("NEW SEASON;abcdef02").await;
    assert_eq!(fake.recv().await, "JOIN;abcdef02");
    fake.send("NEW GAME;fake").await;
    fake.turn("abcdef03").await;
    // The server stops talking.
    assert_eq!(
        fake.recv().await,
        "REGISTER;kibitz",
        "re-registers after the silence"
    );
    let stats = tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .expect("the bot stops by itself")
        .unwrap()
        .unwrap();
    assert_eq!(stats.ending, Ending::ServerSilent);
    assert!(stats.reregistrations >= 1);
}

/// Spec §2, §3.3: a request is answered by echoing its token as the reply's last field, and
/// tokens are 8 hexadecimal characters. `YOURTURN;` and `NEW SEASON;` carry no token, so no
/// reply could ever match (`INSERT;3;` splits to `INSERT`, `3`): the bot must not answer them.
/// A duplicated request is answered once (spec §3.3 takes one reply per token).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokenless_and_duplicated_requests_get_no_reply() {
    let (mut fake, stop, task) = start_bot(random(3)).await;
    assert_eq!(fake.recv().await, "REGISTER;kibitz");
    fake.send("WELCOME;kibitz").await;
    fake.send("NEW SEASON;").await;
    fake.quiet(150).await;
    fake.send("NEW SEASON;eeeeeee0").await;
    assert_eq!(fake.recv().await, "JOIN;eeeeeee0");
    fake.send("NEW SEASON;eeeeeee0").await;
    fake.quiet(150).await;
    fake.send("NEW GAME;fake").await;
    fake.send("YOURTURN;").await;
    fake.quiet(150).await;
    fake.send("YOURTURN;fffffff0").await;
    fake.send("YOURTURN;fffffff0").await;
    let c = fake.column_reply("fffffff0").await;
    assert!(c < 7);
    fake.quiet(150).await;
    fake.send(&format!("TOKEN INSERTED;kibitz;{c}")).await;
    fake.send("TOKEN INSERTED;fake;3").await;
    fake.send("YOURTURN;fffffff1").await;
    fake.column_reply("fffffff1").await;
    fake.send("YOURTURN;fffffff0").await;
    fake.quiet(150).await;
    let _ = stop.send(());
    let stats = task.await.unwrap().unwrap();
    assert_eq!(stats.seasons, 1, "one season, joined once");
    assert_eq!(stats.times.ms.len(), 2, "two turns, two moves");
}
