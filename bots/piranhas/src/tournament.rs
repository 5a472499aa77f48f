//! Round robins over the real protocol: our server on loopback, clients over TCP (in-process
//! tasks running our client, or external commands started like the contest starts clients:
//! `CMD -h HOST -p PORT -r CODE`). Every pair plays an even number of games, colours alternate,
//! and the two games of a colour swap share their Kraken pair (spec R7).
//!
//! [`run`] is the contract with `kibitz tournament`: our search bot, greedy and random.

use crate::client::{self, ClientConfig};
use crate::protocol::{ScoreCause, Slot};
use crate::server::{GameRecord, PreparedGame, Server, ServerConfig};
use comfy_table::Table;
use kibitz_net::tournament::{Options, Progress};
use kibitz_piranhas::agents::{AgentKind, AgentSpec};
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_piranhas::{Color, EngineConfig};
use kibitz_search::agent::Agent;
use kibitz_search::clock::PIRANHAS;
use kibitz_search::stats::Standing;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Builds a fresh agent for one game; the client seeds it with a per-game seed
/// ([`Agent::new_game`]).
pub type PlayerFactory = Arc<dyn Fn() -> Box<dyn Agent<Piranhas> + Send> + Send + Sync>;

/// A tournament participant.
#[derive(Clone)]
pub enum Entrant {
    /// Our client code in this process with the given player and time budget.
    InProcess {
        /// Display name.
        name: String,
        /// Makes the player.
        make: PlayerFactory,
        /// Soft budget per move.
        soft: Duration,
        /// Hard deadline per move.
        hard: Duration,
    },
    /// An external program, started as `sh -c "CMD -h HOST -p PORT -r CODE"`.
    Command {
        /// Display name.
        name: String,
        /// The command line.
        cmd: String,
    },
}

impl Entrant {
    /// The display name.
    pub fn name(&self) -> &str {
        match self {
            Entrant::InProcess { name, .. } | Entrant::Command { name, .. } => name,
        }
    }
}

/// Tournament settings.
#[derive(Debug, Clone)]
pub struct TournamentConfig {
    /// Games per pair (rounded up to even: each Kraken pair is played with both colours).
    pub games_per_pair: u32,
    /// Server settings (time limits etc.).
    pub server: ServerConfig,
    /// Games played at the same time.
    pub parallel: usize,
    /// A game not finished after this is abandoned (counted in `aborted`).
    pub game_timeout: Duration,
    /// Seed for the Kraken pairs.
    pub seed: u64,
}

impl Default for TournamentConfig {
    fn default() -> Self {
        Self {
            games_per_pair: 2,
            server: ServerConfig::default(),
            parallel: 2,
            game_timeout: Duration::from_secs(600),
            seed: 2019,
        }
    }
}

/// One participant's totals.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Row {
    /// Display name.
    pub name: String,
    /// Games finished.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Sum of match points ("Gewinner": 2 / 1 / 0).
    pub points: u32,
    /// Sum of final biggest swarms (for the average, the contest's tie-break).
    pub swarm_sum: u32,
    /// Losses by soft or hard timeout.
    pub timeouts: u32,
    /// Losses by rule violation.
    pub violations: u32,
    /// Losses by leaving.
    pub left: u32,
    /// Games of this player that never finished.
    pub aborted: u32,
}

impl Row {
    /// Average biggest swarm per finished game.
    pub fn avg_swarm(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.swarm_sum as f64 / self.games as f64
        }
    }

    fn add(&mut self, rec: &GameRecord, c: Color) {
        let s = &rec.result.scores[c as usize];
        self.games += 1;
        self.points += s.points;
        self.swarm_sum += s.swarm;
        match s.points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
        match s.cause {
            ScoreCause::SoftTimeout | ScoreCause::HardTimeout => self.timeouts += 1,
            ScoreCause::RuleViolation => self.violations += 1,
            ScoreCause::Left => self.left += 1,
            ScoreCause::Regular => {}
        }
    }
}

async fn play_one(
    server: &Server,
    red: &Entrant,
    blue: &Entrant,
    prepared: PreparedGame,
    seed: u64,
    timeout: Duration,
) -> Option<GameRecord> {
    let port = server.local_addr().port();
    let mut tasks = Vec::new();
    let mut children = Vec::new();
    for (i, (e, code)) in [(red, &prepared.codes[0]), (blue, &prepared.codes[1])]
        .into_iter()
        .enumerate()
    {
        match e {
            Entrant::InProcess {
                make, soft, hard, ..
            } => {
                let config = ClientConfig {
                    host: "127.0.0.1".into(),
                    port,
                    reservation: Some(code.clone()),
                    soft: *soft,
                    hard: *hard,
                    // The one clock rule: the move leaves one overhead after the hard deadline.
                    send_by: *hard + PIRANHAS.overhead,
                    idle_timeout: Some(timeout),
                    seed: seed.wrapping_add(i as u64),
                    // Games run side by side here: the cores are not free for pondering.
                    ponder: false,
                    ..ClientConfig::default()
                };
                let player = make();
                tasks.push(tokio::spawn(
                    async move { client::run(&config, player).await },
                ));
            }
            Entrant::Command { cmd, .. } => {
                let line = format!("{cmd} -h 127.0.0.1 -p {port} -r {code}");
                match tokio::process::Command::new("sh")
                    .arg("-c")
                    .arg(&line)
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .kill_on_drop(true)
                    .spawn()
                {
                    Ok(c) => children.push(c),
                    Err(e) => tracing::error!("cannot start {line:?}: {e}"),
                }
            }
        }
    }
    let rec = match tokio::time::timeout(timeout, wait_result(prepared.result, &mut children)).await
    {
        Ok(Some(r)) => Some(r),
        _ => {
            tracing::warn!(
                "game {} ({} vs {}) did not finish",
                prepared.room,
                red.name(),
                blue.name()
            );
            None
        }
    };
    for t in tasks {
        match tokio::time::timeout(Duration::from_secs(2), t).await {
            Ok(Ok(Err(e))) => tracing::warn!("client error: {e}"),
            Err(_) => tracing::warn!("client did not close in time"),
            _ => {}
        }
    }
    for mut c in children {
        if tokio::time::timeout(Duration::from_secs(2), c.wait())
            .await
            .is_err()
        {
            let _ = c.kill().await;
        }
    }
    rec
}

/// The game's result; gives up 3 s after an external client exited while the game had not
/// ended (a client that dies before joining would otherwise stall the game forever).
async fn wait_result(
    mut result: tokio::sync::oneshot::Receiver<GameRecord>,
    children: &mut [tokio::process::Child],
) -> Option<GameRecord> {
    let mut exited_at: Option<Instant> = None;
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    loop {
        tokio::select! {
            r = &mut result => return r.ok(),
            _ = tick.tick() => {
                if exited_at.is_none() && children.iter_mut().any(|c| !matches!(c.try_wait(), Ok(None))) {
                    exited_at = Some(Instant::now());
                }
                if exited_at.is_some_and(|t| t.elapsed() > Duration::from_secs(3)) {
                    tracing::warn!("a client exited and its game did not end");
                    return None;
                }
            }
        }
    }
}

/// Plays the round robin and returns the rows, ranked by match points, then average swarm.
pub async fn round_robin(entrants: &[Entrant], cfg: &TournamentConfig) -> anyhow::Result<Vec<Row>> {
    round_robin_with(entrants, cfg, &Progress::default()).await
}

/// [`round_robin`], telling `progress` the number of games and each finished one.
///
/// Every game is prepared on the server before any is played, in schedule order, so game `n`
/// of the schedule is room number `n` (the records' `index`) whichever game finishes first;
/// its Kraken pair and random seeds depend only on `cfg.seed` and `n`.
pub async fn round_robin_with(
    entrants: &[Entrant],
    cfg: &TournamentConfig,
    progress: &Progress,
) -> anyhow::Result<Vec<Row>> {
    let server = Arc::new(Server::bind("127.0.0.1:0", cfg.server.clone()).await?);
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut schedule = Vec::new();
    let pairs_of_games = cfg.games_per_pair.div_ceil(2).max(1);
    for i in 0..entrants.len() {
        for j in i + 1..entrants.len() {
            for _ in 0..pairs_of_games {
                // A fixed pair (`--krakens`) holds for every game, as the flag says.
                let k = cfg
                    .server
                    .krakens
                    .unwrap_or_else(|| kibitz_piranhas::kraken::random_pair(&mut rng));
                schedule.push((i, j, k));
                schedule.push((j, i, k));
            }
        }
    }
    progress.total(schedule.len() as u64);
    let sem = Arc::new(tokio::sync::Semaphore::new(cfg.parallel.max(1)));
    let entrants: Arc<Vec<Entrant>> = Arc::new(entrants.to_vec());
    let slot = |e: &Entrant| Slot {
        display_name: e.name().to_string(),
        can_timeout: true,
        should_be_paused: false,
    };
    let mut handles = Vec::new();
    for (n, (r, b, k)) in schedule.into_iter().enumerate() {
        let prepared = server.prepare([slot(&entrants[r]), slot(&entrants[b])], Some(k));
        let (sem, server, es) = (Arc::clone(&sem), Arc::clone(&server), Arc::clone(&entrants));
        let timeout = cfg.game_timeout;
        let seed = cfg.seed.wrapping_mul(1000).wrapping_add(n as u64 * 2);
        let progress = progress.clone();
        handles.push(tokio::spawn(async move {
            let _permit = sem.acquire().await.ok()?;
            let rec = play_one(&server, &es[r], &es[b], prepared, seed, timeout).await;
            match &rec {
                Some(g) => progress.game_done(g.summary().split_once(": ").map_or("", |(_, s)| s)),
                None => progress.game_done(&format!(
                    "{} vs {}: not finished",
                    es[r].name(),
                    es[b].name()
                )),
            }
            rec.map(|g| (r, b, g))
        }));
    }
    let mut rows: Vec<Row> = entrants
        .iter()
        .map(|e| Row {
            name: e.name().to_string(),
            ..Row::default()
        })
        .collect();
    for h in handles {
        match h.await {
            Ok(Some((r, b, rec))) => {
                rows[r].add(&rec, Color::Red);
                rows[b].add(&rec, Color::Blue);
            }
            _ => {
                // An unfinished game: we cannot tell which pair from here, so count it on the
                // server side below via the number of finished games.
            }
        }
    }
    server.shutdown();
    let expected =
        cfg.games_per_pair.div_ceil(2).max(1) * 2 * (entrants.len() as u32).saturating_sub(1);
    for row in &mut rows {
        row.aborted = expected.saturating_sub(row.games);
    }
    rows.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.avg_swarm().total_cmp(&a.avg_swarm()))
    });
    Ok(rows)
}

/// The results as a table (rank, games, W/D/L, points, ∅ swarm, timeouts, violations, left).
pub fn table(rows: &[Row]) -> Table {
    let mut t = Table::new();
    t.set_header(vec![
        "#",
        "player",
        "games",
        "W",
        "D",
        "L",
        "points",
        "\u{2205} swarm",
        "timeouts",
        "violations",
        "left",
        "aborted",
    ]);
    for (i, r) in rows.iter().enumerate() {
        t.add_row(vec![
            (i + 1).to_string(),
            r.name.clone(),
            r.games.to_string(),
            r.wins.to_string(),
            r.draws.to_string(),
            r.losses.to_string(),
            r.points.to_string(),
            format!("{:.2}", r.avg_swarm()),
            r.timeouts.to_string(),
            r.violations.to_string(),
            r.left.to_string(),
            r.aborted.to_string(),
        ]);
    }
    t
}

/// Rows as the workspace's standings (points = contest match points 2/1/0).
pub fn standings(rows: &[Row]) -> Vec<Standing> {
    rows.iter()
        .map(|r| Standing {
            player: r.name.clone(),
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            points: r.points as f64,
            note: format!(
                "avg swarm {:.2}; timeouts {}; violations {}; left {}; aborted {}",
                r.avg_swarm(),
                r.timeouts,
                r.violations,
                r.left,
                r.aborted
            ),
        })
        .collect()
}

/// The three standard entrants: our search bot (`search_ms` move budget), greedy, random.
pub fn standard_entrants(search_ms: u64) -> Vec<Entrant> {
    entrants_with(search_ms, None)
}

/// The three standard entrants; with `nodes`, our search bot searches that many nodes per
/// move instead of watching the clock (reproducible: no smart time, the clock only a guard
/// at `search_ms`), and every player is built fresh for each game.
pub fn entrants_with(search_ms: u64, nodes: Option<u64>) -> Vec<Entrant> {
    let clock = PIRANHAS.budget_for(Duration::from_millis(search_ms), PIRANHAS.overhead);
    let soft = if nodes.is_some() {
        clock.hard
    } else {
        clock.soft
    };
    let hard = clock.hard;
    let search: PlayerFactory = Arc::new(move || {
        let mut cfg = EngineConfig::default();
        cfg.search.hash_mb = 16;
        if let Some(n) = nodes {
            cfg.search.max_nodes = n;
            cfg.search.smart_time = false;
        }
        Box::new(client::search_agent(cfg))
    });
    let spec = |kind| AgentSpec::new(kind, EngineConfig::default());
    let greedy = spec(AgentKind::Greedy);
    let greedy: PlayerFactory = Arc::new(move || greedy.build());
    let random = spec(AgentKind::Random);
    let random: PlayerFactory = Arc::new(move || random.build());
    [("kibitz", search), ("greedy", greedy), ("random", random)]
        .into_iter()
        .map(|(name, make)| Entrant::InProcess {
            name: name.into(),
            make,
            soft,
            hard,
        })
        .collect()
}

/// Node budget per move of our search bot (`kibitz`) in `kibitz tournament`: about 30 ms of
/// CPU per move (20k: 15 ms, 60k: 53 ms, measured against random on the shared 2-core
/// machine), far inside the server's 2 s. Against the old 100 ms clock: −83 ± 133 Elo
/// (`kibitz match piranhas --a search:nodes=40000,hash=16 --b search:time=100,hash=16
/// --games 30 --seed 3 --concurrency 1`); 20k scored −191 ± 148.
pub const NODES: u64 = 40_000;
/// The tournament's guard on our bot's move: the search stops here even if the node budget
/// is not used up (then the game is no longer reproducible; only on a badly overloaded
/// machine). It is the server's 2 s: the one clock rule makes the hard guard 1,500 ms.
pub const SEARCH_MS: u64 = 2_000;

/// Runs this contest's local tournament: our server on loopback, kibitz (search) / greedy /
/// random over real TCP XML, round robin, `games_per_pair` games per pair (both colours per
/// Kraken pair), Kraken pairs and random players from `seed`; returns the standings.
pub fn run(opts: &Options) -> anyhow::Result<Vec<Standing>> {
    let (games_per_pair, seed) = (opts.games, opts.seed);
    let started = Instant::now();
    let search_ms = SEARCH_MS;
    let cfg = TournamentConfig {
        games_per_pair: games_per_pair.max(1),
        parallel: 2,
        game_timeout: Duration::from_secs(120),
        seed,
        server: ServerConfig {
            seed: Some(seed),
            records: opts.records.clone(),
            ..ServerConfig::default()
        },
    };
    let progress = opts.progress.clone();
    // Our own runtime on our own thread: callers may or may not be inside tokio.
    let rows = std::thread::spawn(move || -> anyhow::Result<Vec<Row>> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let rows = rt.block_on(round_robin_with(
            &entrants_with(search_ms, Some(NODES)),
            &cfg,
            &progress,
        ));
        rt.shutdown_timeout(Duration::from_millis(500));
        rows
    })
    .join()
    .map_err(|_| anyhow::anyhow!("tournament thread panicked"))??;
    tracing::info!(
        "piranhas tournament took {:?}\n{}",
        started.elapsed(),
        table(&rows)
    );
    Ok(standings(&rows))
}
