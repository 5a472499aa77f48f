//! Learning the determinizer's evidence weights from games.
//!
//! The tracker counts, per opponent and card, how often the opponent drew while the card would
//! have been legal, wished its suit, or spent a Jack while it would have been legal
//! ([`crate::knowledge::Evidence`]). How much such a count says depends on how opponents play
//! (a random bot never draws with a legal card; a searching bot sometimes hoards), so the
//! factors are measured, not guessed: at every decision of every seat in recorded or self-play
//! games, each pool card of each opponent is bucketed by its evidence counts, and we count how
//! often it really was in that opponent's hand. The ratio of a bucket's rate to the rate of
//! cards without evidence is the likelihood factor the determinizer should use.

use crate::arena::play_game_with;
use crate::game::Config;
use crate::game_impl::MauMau;
use crate::knowledge::Evidence;
use crate::sim::EvidenceWeights;
use kibitz_search::agent::Agent;
use std::fmt;

/// Buckets per evidence kind: for draws, the cards drawn since the card was last legal at a
/// draw (0 = never such a draw, 1, 2, … , 5 or more); for wishes and Jacks the counts 0, 1, 2, …,
/// 5 or more.
pub const BUCKETS: usize = 6;

/// Hits (card in the opponent's hand) and trials per evidence kind and count bucket, each kind
/// taken with the other two counts at zero.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvidenceStats {
    /// `[kind][bucket] = (in hand, seen)`; kinds: draws, wishes, jacks.
    pub counts: [[(u64, u64); BUCKETS]; 3],
    /// `[kind][bucket]`: expected hits under uniform sampling (unknown cards of the seat /
    /// cards of open place, summed over trials), which controls for hand size.
    pub expected: [[f64; BUCKETS]; 3],
    /// Decisions looked at.
    pub decisions: u64,
}

impl EvidenceStats {
    /// Likelihood ratio of bucket `b` of `kind`: hits over the hits uniform sampling would
    /// give, divided by the same for cards without evidence (None if either was never seen).
    pub fn ratio(&self, kind: usize, b: usize) -> Option<f64> {
        let r = |k: usize, b: usize| {
            let h = self.counts[k][b].0 as f64;
            let e = self.expected[k][b];
            (e > 0.0).then_some(h / e)
        };
        let (r0, rb) = (r(0, 0)?, r(kind, b)?);
        (r0 > 0.0).then_some(rb / r0)
    }

    /// Factors for the determinizer: the one-count ratio of each kind (floored so a single
    /// surprising card stays possible, 1 where nothing was seen), and the decay of void
    /// evidence from how the ratio's distance to 1 shrinks from 1 to 2 cards drawn since.
    pub fn weights(&self) -> EvidenceWeights {
        let f = |k: usize, b: usize| self.ratio(k, b).unwrap_or(1.0).clamp(0.005, 20.0);
        let (v1, v2) = (f(0, 1), f(0, 2));
        let decay = if v1 < 1.0 {
            ((1.0 - v2) / (1.0 - v1)).clamp(0.0, 1.0)
        } else {
            1.0
        };
        EvidenceWeights {
            per_draw: 1.0,
            void: v1,
            decay,
            wish: f(1, 1),
            jack: f(2, 1),
        }
    }

    /// Adds the decisions of games `seeds` between the agents `make(seed)` builds (seated).
    pub fn add_games(
        &mut self,
        cfg: Config,
        seeds: std::ops::Range<u64>,
        make: &dyn Fn(u64) -> Vec<Box<dyn Agent<MauMau> + Send>>,
    ) {
        for seed in seeds {
            let mut players = make(seed);
            play_game_with(cfg, seed, &mut players, None, &mut |game, know| {
                self.decisions += 1;
                let pool = know.pool();
                for s in (0..game.players()).filter(|&s| s != know.me()) {
                    let hand = game.hand(s);
                    let open = pool.minus(know.known(s)).len();
                    let unknown = know.hand_size(s).saturating_sub(know.known(s).len());
                    let p = unknown as f64 / open.max(1) as f64;
                    // Only cards whose place is open (not known to be in the hand).
                    for c in pool.minus(know.known(s)) {
                        let e = know.evidence(s, c);
                        let hit = hand.contains(c) as u64;
                        let void = if e.since_void == Evidence::NEVER {
                            0
                        } else {
                            e.since_void.max(1)
                        };
                        let v = [void, e.wishes, e.jacks];
                        for k in 0..3 {
                            if v.iter().enumerate().all(|(j, &x)| j == k || x == 0) {
                                let b = (v[k] as usize).min(BUCKETS - 1);
                                let slot = &mut self.counts[k][b];
                                slot.0 += hit;
                                slot.1 += 1;
                                self.expected[k][b] += p;
                            }
                        }
                    }
                }
            });
        }
    }
}

impl fmt::Display for EvidenceStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "decisions: {}", self.decisions)?;
        writeln!(
            f,
            "kind\tbucket\tin hand\tseen\trate\tuniform rate\tlikelihood ratio"
        )?;
        for (k, name) in ["draw", "wish", "jack"].iter().enumerate() {
            for b in 0..BUCKETS {
                let (h, n) = self.counts[k][b];
                if n == 0 || (k > 0 && b == 0) {
                    continue;
                }
                let label = if b == BUCKETS - 1 {
                    format!("{b}+")
                } else {
                    b.to_string()
                };
                writeln!(
                    f,
                    "{name}\t{label}\t{h}\t{n}\t{:.3}\t{:.3}\t{}",
                    h as f64 / n as f64,
                    self.expected[k][b] / n as f64,
                    self.ratio(k, b).map_or("-".into(), |r| format!("{r:.3}"))
                )?;
            }
        }
        let w = self.weights();
        write!(
            f,
            "suggested: param.ev_draw=1 param.ev_void={:.3} param.ev_decay={:.3} param.ev_wish={:.3} param.ev_jack={:.3}",
            w.void, w.decay, w.wish, w.jack
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::MauMauAgent;

    #[test]
    fn greedy_players_reveal_voids_by_drawing() {
        let mut st = EvidenceStats::default();
        st.add_games(Config::default(), 0..40, &|s| {
            vec![
                Box::new(MauMauAgent::greedy().seated(0, s)),
                Box::new(MauMauAgent::random().seated(1, s)),
            ]
        });
        assert!(st.decisions > 300);
        // Neither player ever draws while holding a legal card: a card that was legal at a
        // draw is far less likely to be in that hand than one without evidence.
        let r = st.ratio(0, 1).expect("draws seen");
        assert!(r < 0.5, "{st}");
    }
}
