//! One game as the bot sees it: the stones of both sides, the board rebuilt from them, and
//! our turn (the thinker's move, or a safe fallback column when it is late or the history
//! has a gap).

use super::{answerable, Bot};
use crate::protocol::{ClientMsg, GameResult, ServerMsg};
use kibitz_connect4::{agents, Position};
use std::time::Duration;
use tracing::{debug, error, info, warn};

/// One game as the bot sees it.
#[derive(Debug, Default)]
pub(super) struct Game {
    /// A game is on: from `NEW GAME` (or a `YOURTURN` outside a game) until its result.
    pub(super) active: bool,
    /// The opponent's name, once the server said it.
    pub(super) opponent: Option<String>,
    /// Whether we moved first; known from the first `YOURTURN`.
    pub(super) home: Option<bool>,
    /// Our columns, in order.
    pub(super) own: Vec<i32>,
    /// The opponent's columns, in order.
    pub(super) opp: Vec<i32>,
    /// How many of our stones the server confirmed (`TOKEN INSERTED` with our name).
    pub(super) own_confirmed: usize,
    /// The agent was told that this game started ([`crate::thinker::Thinker::new_game`]).
    pub(super) agent_started: bool,
}

impl Game {
    /// Stones the opponent must have played when it is our turn.
    pub(super) fn expected_opp(&self) -> usize {
        match self.home {
            Some(true) => self.own.len(),
            _ => self.own.len() + 1,
        }
    }

    /// All stones in playing order, as far as known without a gap.
    pub(super) fn interleaved(&self) -> Vec<i32> {
        let (first, second) = if self.home == Some(false) {
            (&self.opp, &self.own)
        } else {
            (&self.own, &self.opp)
        };
        let mut out = Vec::new();
        for i in 0.. {
            let Some(&a) = first.get(i) else { break };
            out.push(a);
            let Some(&b) = second.get(i) else { break };
            out.push(b);
        }
        out
    }
}

impl Bot {
    /// Gives the player a seed of its own for the game that starts against `opponent`: a
    /// function of the seed, the season, the opponent and how often we met it in this season,
    /// so a game's random moves never depend on the games played before it.
    pub(super) fn reseed(&mut self, opponent: &str) {
        let seed = self.cfg.seed;
        let season = u64::from(self.stats.seasons);
        let key = (season, opponent.to_string());
        let met = self.met.iter().filter(|k| **k == key).count() as u64;
        self.met.retain(|(s, _)| *s == season);
        self.met.push(key);
        let mut h = seed ^ 0x005e_ed0f_9a3e;
        for x in [season, met]
            .into_iter()
            .chain(opponent.bytes().map(u64::from))
        {
            h = (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(17);
        }
        self.game_seed = h;
    }

    /// A `TOKEN INSERTED`: confirms one of ours or records the opponent's stone.
    pub(super) fn on_stone(&mut self, player: String, column: i32) {
        let g = &mut self.game;
        if player == self.cfg.name {
            match g.own.get(g.own_confirmed) {
                Some(&c) if c == column => {}
                Some(&c) => warn!(
                    sent = c,
                    announced = column,
                    "server announced another column for us"
                ),
                None => warn!(
                    column,
                    "server announced a stone of ours that we did not send"
                ),
            }
            g.own_confirmed += 1;
            return;
        }
        if !g.active {
            debug!(player = %player.escape_debug(), column, "stone outside a game ignored");
            return;
        }
        if g.opp.len() >= g.expected_opp() {
            warn!(player = %player.escape_debug(), column, "unexpected opponent stone ignored (duplicate datagram?)");
            return;
        }
        if g.home.is_none() {
            // The opponent's stone before any turn of ours: it moved first. (Known here and
            // not only at our first YOURTURN, which never comes when its first move ends the
            // game.)
            g.home = Some(false);
        }
        g.opp.push(column);
    }

    /// A `RESULT`: counts it, keeps the game's history and ends the game.
    pub(super) fn on_result(&mut self, result: GameResult) {
        self.thinker.stop_ponder();
        let me = &self.cfg.name;
        let text = ServerMsg::Result(result.clone()).encode();
        match &result {
            GameResult::Win { winner, .. } if winner == me => self.stats.wins += 1,
            GameResult::Lose { loser, .. } if loser != me => self.stats.wins += 1,
            GameResult::Draw => self.stats.draws += 1,
            _ => self.stats.losses += 1,
        }
        let opponent = self.game.opponent.clone().unwrap_or_default();
        info!(opponent = %opponent.escape_debug(), result = %text.escape_debug(), stones = self.game.own.len() + self.game.opp.len(), "game over");
        self.stats.results.push((opponent, text));
        self.stats.histories.push(self.game.interleaved());
        self.game.active = false;
    }

    /// Replays the known stones on our board, skipping those that are illegal there.
    pub(super) fn board(&self) -> (Vec<usize>, Position) {
        let c = &self.cfg;
        let mut pos = Position::new(c.columns, c.rows, c.connect).expect("size checked at start");
        let mut history = Vec::new();
        for col in self.game.interleaved() {
            match usize::try_from(col)
                .ok()
                .filter(|&x| x < c.columns && pos.can_play(x) && !pos.is_over())
            {
                Some(x) if pos.play(x).is_ok() => history.push(x),
                _ => error!(
                    column = col,
                    "size mismatch: a stone that is illegal on our {}x{} board; skipped",
                    c.columns,
                    c.rows
                ),
            }
        }
        (history, pos)
    }

    /// A column with at least two empty cells (legal whatever one missing stone did), as
    /// central as possible; else any legal column; else 0.
    pub(super) fn fallback(&self, pos: &Position) -> usize {
        let n = self.cfg.columns;
        let mut cols: Vec<usize> = (0..n).collect();
        cols.sort_by_key(|&c| (2 * c).abs_diff(n - 1));
        let room = |c: usize| self.cfg.rows.saturating_sub(pos.height(c));
        cols.iter()
            .copied()
            .find(|&c| room(c) >= 2)
            .or_else(|| cols.iter().copied().find(|&c| pos.can_play(c)))
            .unwrap_or(0)
    }

    /// A `YOURTURN`: answers each usable token once with `INSERT`, in time (see the
    /// module doc of [`crate::client`]).
    pub(super) async fn on_turn(&mut self, token: String) -> anyhow::Result<()> {
        let started = std::time::Instant::now();
        if !answerable(&token) {
            warn!(token = %token.escape_debug(), "YOURTURN without a usable token: no reply could match it, none sent");
            return Ok(());
        }
        if !self.first_time(&token) {
            debug!(%token, "repeated YOURTURN: answered once already");
            return Ok(());
        }
        // 1. Take whatever already arrived: a reordered stone, RESULT or NEW GAME.
        self.drain().await?;
        if !self.game.active {
            self.game = Game {
                active: true,
                ..Game::default()
            };
        }
        if self.game.home.is_none() {
            self.game.home = Some(self.game.opp.is_empty() && self.game.own.is_empty());
        }
        // 2. Wait briefly for an opponent stone that this YOURTURN overtook.
        let wait = (self.cfg.time / 5).min(Duration::from_millis(30));
        let mut buf = vec![0u8; 65536];
        while self.game.opp.len() < self.game.expected_opp() && started.elapsed() < wait {
            let left = wait.saturating_sub(started.elapsed());
            match tokio::time::timeout(left, self.socket.recv_from(&mut buf)).await {
                Ok(Ok((n, from))) => {
                    if let Some(msg) = self.read(&buf[..n], from) {
                        self.handle_now_or_later(msg).await?;
                    }
                }
                Ok(Err(_)) => {}
                Err(_) => break,
            }
        }
        let missing = self.game.opp.len() < self.game.expected_opp();
        let (history, pos) = self.board();
        // 3. Choose.
        let mut info = String::new();
        let column = if missing {
            error!("the opponent's last stone never arrived: playing a column with room for two");
            self.stats.fallbacks += 1;
            self.fallback(&pos)
        } else if pos.is_over() || pos.legal_moves().is_empty() {
            error!("asked to move in a finished game (size mismatch?)");
            self.stats.fallbacks += 1;
            self.fallback(&pos)
        } else {
            if !self.game.agent_started {
                let seat = usize::from(self.game.home == Some(false));
                self.thinker.new_game(seat, self.game_seed);
                self.game.agent_started = true;
            }
            let b = self.cfg.move_budget();
            let grace = b.send_by - b.hard;
            match self
                .thinker
                .think(history.clone(), started, b.soft, b.hard, grace)
                .await
            {
                Some((d, queued)) if pos.can_play(d.action) => {
                    if let Some(depth) = d.depth {
                        info = format!(
                            "score={:?} exact={} depth={depth} nodes={} source={} pv={:?} queued={:.1}ms",
                            d.score,
                            agents::exact(&d),
                            d.nodes,
                            agents::source(&d).unwrap_or("none"),
                            d.pv,
                            queued.as_secs_f64() * 1000.0
                        );
                    }
                    d.action
                }
                other => {
                    error!(?other, "the player gave no usable move in time: fallback");
                    self.stats.fallbacks += 1;
                    self.fallback(&pos)
                }
            }
        };
        // 4. Answer: exactly INSERT;<column>;<token>.
        let text = ClientMsg::Insert {
            column: column as i32,
            token: token.clone(),
        }
        .encode();
        self.send(&text).await;
        let spent = started.elapsed();
        self.stats.times.push(spent);
        info!(
            ply = history.len(),
            column,
            ms = format!("{:.1}", spent.as_secs_f64() * 1000.0),
            "move {info}"
        );
        self.game.own.push(column as i32);
        // 5. Ponder on the opponent's time.
        if self.cfg.pondering() {
            let mut next = history;
            next.push(column);
            self.thinker.ponder(next);
        }
        Ok(())
    }
}
