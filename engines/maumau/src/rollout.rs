//! The ISMCTS playout policy: a scored heuristic on [`FastSim`]'s bit masks, epsilon-greedy or
//! a softmax, and the features its score is made of, so that its weights can be fitted.

use crate::cards::{Card, Suit};
use crate::game::Action;
use crate::sim::{below, legal_mask, select_bit, suit_mask, FastSim, JACKS};
use kibitz_search::ismcts::RolloutPolicy;
use rand::{Rng, RngCore};
use std::sync::LazyLock;

/// Number of [`features`] of a play.
pub const FEATURES: usize = 13;

/// Names of the [`features`], in order: the registry names of the weights that multiply them.
pub const FEATURE_PARAMS: [&str; FEATURES] = [
    "rsuit",
    "r78",
    "r7",
    "rjack",
    "r8follow",
    "rvoid",
    "r7short",
    "rfollow",
    "rofit",
    "rdraw",
    "rdrawjack",
    "rdrawvoid",
    "rdrawofit",
];

/// Playout policy: with probability `epsilon` a uniformly random choice (a legal card or
/// drawing), otherwise the best-scored legal card. The score is a weighted sum of the
/// [`features`] of the play: cards held of its suit, 7 or 8, 7, Jack (a cost), an 8 we can
/// follow (two players), the next player holding nothing that fits after it (in the sampled
/// deal), a 7 scaled by how short the next player's hand is, our hand still fitting the new
/// top, and the next player's cards that fit (a cost). Noise is 0-3 points, and the policy
/// draws only when nothing fits. With `gumbel` the noise is a Gumbel draw in tenths of a nat,
/// which makes the choice a softmax over the scores (a point = 0.1 nat): the form weights
/// fitted to a stronger player's choices take. Drawing is then a candidate too, scored
/// `draw_bias` (plus `draw_jack` when only Jacks fit), as a strong player often draws with a
/// card in hand. A Jack wishes the suit held most (with a void or fit weight, preferring one
/// the next player lacks).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GreedyRollout {
    /// Probability of a uniformly random choice.
    pub epsilon: f64,
    /// Score bonus for 7s and 8s (the greedy player uses 50: always first).
    pub special_bonus: i32,
    /// Score penalty for Jacks (greedy: 100, only when nothing else fits).
    pub jack_cost: i32,
    /// Score per card held of the played card's suit (greedy: 4).
    pub suit_weight: i32,
    /// Bonus for an 8 we can follow ourselves (two players: a free turn).
    pub eight_follow: i32,
    /// Bonus for a play the next player cannot follow.
    pub void_bonus: i32,
    /// Further bonus for a 7 (on top of `special_bonus`).
    pub seven_bonus: i32,
    /// Bonus for a 7 times 8 / (next player's cards + 1): 7s are worth more near the end.
    pub seven_short: i32,
    /// Bonus when the rest of our hand fits the card we lay (and its wish).
    pub follow_bonus: i32,
    /// Cost per card of the next player's that fits after the play.
    pub opp_fit: i32,
    /// Gumbel noise in tenths of a nat instead of 0-3 points: a softmax choice, with drawing
    /// among the candidates.
    pub gumbel: bool,
    /// With `gumbel`: the score of drawing although a card fits.
    pub draw_bias: i32,
    /// With `gumbel`: further score of drawing when only Jacks fit.
    pub draw_jack: i32,
    /// With `gumbel`: score of drawing when the next player cannot follow the top we leave.
    pub draw_void: i32,
    /// With `gumbel`: cost of drawing per card of the next player's that fits the top we leave.
    pub draw_opp_fit: i32,
}

impl Default for GreedyRollout {
    fn default() -> Self {
        GreedyRollout {
            epsilon: 0.1,
            special_bonus: 50,
            jack_cost: 100,
            suit_weight: 4,
            eight_follow: 0,
            void_bonus: 0,
            seven_bonus: 0,
            seven_short: 0,
            follow_bonus: 0,
            opp_fit: 0,
            gumbel: false,
            draw_bias: 0,
            draw_jack: 0,
            draw_void: 0,
            draw_opp_fit: 0,
        }
    }
}

/// How many times sharper than the fit [`GreedyRollout::fitted`] plays: its weights are the
/// fit's times this, i.e. the fit's softmax at this fraction of its temperature (times 3, 6 and
/// 8 measured no better head to head; tuning/results/maumau_matches.log).
pub const FIT_SHARPENING: i32 = 4;

impl GreedyRollout {
    /// The softmax fitted to the full-information ISMCTS player's choices (600 games at 2,000
    /// iterations, 32,381 decisions; `tests/rollout_fit.rs`), sharpened: the fit's weights in
    /// tenths of a nat times [`FIT_SHARPENING`]. In the fit a Jack costs 1.7 nats, leaving the
    /// next player void gains 1.2, a 7 0.6, and drawing with a card that fits costs 0.9 (1.9
    /// when only Jacks fit); suit length and the 7-or-8 bonus come out near zero. The fit at its own temperature plays playouts so random that hand sizes hardly
    /// predict who wins them (`tests/estimate_fit.rs`) and runs 2.2 times fewer iterations;
    /// sharpened four times, it kept the gain against the heuristic (77.7 % at 50 ms, against
    /// 77.3 % unsharpened and 72.7 % for the greedy playouts on the same deals) and won head
    /// to head: +40 ± 22 Elo against the unsharpened fit and +14 ± 22 against the greedy
    /// playouts. At 200 ms: 78.5 % against the heuristic, and +27 ± 20 Elo (SPRT H1) against
    /// 1305576's bot over the real protocol (tuning/results/maumau_matches.log).
    pub fn fitted() -> GreedyRollout {
        let k = FIT_SHARPENING;
        GreedyRollout {
            epsilon: 0.0,
            special_bonus: 0,
            jack_cost: k * 17,
            suit_weight: 0,
            eight_follow: k * 3,
            void_bonus: k * 12,
            seven_bonus: k * 6,
            seven_short: k * -2,
            follow_bonus: k,
            opp_fit: k,
            gumbel: true,
            draw_bias: k * -9,
            draw_jack: k * -10,
            draw_void: 0,
            draw_opp_fit: 0,
        }
    }
}

/// Ten times Gumbel(0, 1) quantiles at the midpoints of 256 equal slices: adding one to each
/// score and taking the best samples the softmax of scores in tenths of a nat.
static GUMBEL: LazyLock<[i32; 256]> = LazyLock::new(|| {
    std::array::from_fn(|i| {
        let u = (i as f64 + 0.5) / 256.0;
        (-10.0 * (-u.ln()).ln()).round() as i32
    })
});

/// One scored candidate: its noiseless score and wish.
struct Scored {
    score: i32,
    wish: u8,
}

impl GreedyRollout {
    /// The weights in [`FEATURE_PARAMS`] order (costs negated), so `weights · features` is the
    /// noiseless score.
    pub fn weights(&self) -> [i32; FEATURES] {
        let d = self.draw_weights();
        [
            self.suit_weight,
            self.special_bonus,
            self.seven_bonus,
            -self.jack_cost,
            self.eight_follow,
            self.void_bonus,
            self.seven_short,
            self.follow_bonus,
            -self.opp_fit,
            d[0],
            d[1],
            d[2],
            d[3],
        ]
    }

    /// The last [`DRAW_FEATURES`] of [`weights`](Self::weights): those of drawing.
    #[inline]
    fn draw_weights(&self) -> [i32; DRAW_FEATURES] {
        [
            self.draw_bias,
            self.draw_jack,
            self.draw_void,
            -self.draw_opp_fit,
        ]
    }

    /// Whether Jacks' wishes look at the next player's hand.
    #[inline]
    fn wish_sees_opp(&self) -> bool {
        self.void_bonus > 0 || self.opp_fit > 0
    }

    /// The wish for a Jack leaving `rest`: the suit with most non-Jack cards (ties to the lower
    /// suit); when wishes look at the next player (`opp`), a suit it lacks counts 1.5 cards more.
    #[inline]
    fn wish_for(&self, rest: u32, opp: u32) -> u8 {
        let rest = rest & !JACKS;
        let sees = self.wish_sees_opp();
        let mut best = (0i32, 0u8);
        for s in 0..4u32 {
            let mut n = 2 * (rest & suit_mask(s)).count_ones() as i32;
            if sees && opp & suit_mask(s) & !JACKS == 0 && n > 0 {
                n += 3;
            }
            if n > best.0 {
                best = (n, s as u8);
            }
        }
        best.1
    }

    /// The features of laying card `c` (a legal bit of the mover's `hand`) in `sim`, with the
    /// wish this policy would name, and that wish (4 for none).
    #[inline]
    fn features_of(&self, sim: &FastSim, hand: u32, c: u32) -> ([i32; FEATURES], u8) {
        let two = sim.players() == 2;
        let opp = sim.hand(sim.next_seat()).0;
        let rest = hand & !(1 << c);
        let rank = c >> 2;
        let wish = if rank == 4 && sim.jack_wishes() {
            self.wish_for(rest, opp)
        } else {
            4
        };
        let eight_two = rank == 1 && two;
        let fits = legal_mask(c as u8, wish);
        let mut f = [0i32; FEATURES];
        f[0] = (hand & suit_mask(c & 3)).count_ones() as i32;
        f[1] = (rank <= 1) as i32;
        f[2] = (rank == 0) as i32;
        f[3] = (rank == 4) as i32;
        f[4] = (eight_two && fits & rest != 0) as i32;
        if !eight_two {
            let opp_fits = (fits & opp).count_ones() as i32;
            f[5] = (opp_fits == 0) as i32;
            f[7] = (fits & rest != 0) as i32;
            f[8] = opp_fits;
        }
        // In eighths: 64 / (n + 1) = 8 · (8 / (n + 1)), as the score reads it.
        f[6] = if rank == 0 {
            64 / (opp.count_ones() as i32 + 1)
        } else {
            0
        };
        (f, wish)
    }

    /// The noiseless score of laying `c` and its wish: `weights · features` (a test holds the
    /// two together), computing only the features whose weight is not zero, since this runs
    /// for every legal card of every playout step.
    #[inline]
    fn score(&self, hand: u32, opp: u32, two: bool, wishes: bool, c: u32) -> Scored {
        let rest = hand & !(1 << c);
        let rank = c >> 2;
        let mut s = self.suit_weight * (hand & suit_mask(c & 3)).count_ones() as i32;
        let mut wish = 4u8;
        if rank == 4 {
            s -= self.jack_cost;
            if wishes {
                wish = self.wish_for(rest, opp);
            }
        } else if rank <= 1 {
            s += self.special_bonus;
            if rank == 0 {
                s += self.seven_bonus;
                if self.seven_short != 0 {
                    s += self.seven_short * (64 / (opp.count_ones() as i32 + 1)) / 8;
                }
            }
        }
        let eight_two = rank == 1 && two;
        if eight_two {
            if self.eight_follow != 0 && legal_mask(c as u8, 4) & rest != 0 {
                s += self.eight_follow;
            }
        } else if self.void_bonus != 0 || self.opp_fit != 0 || self.follow_bonus != 0 {
            let fits = legal_mask(c as u8, wish);
            let opp_fits = (fits & opp).count_ones() as i32;
            if opp_fits == 0 {
                s += self.void_bonus;
            }
            s -= self.opp_fit * opp_fits;
            if fits & rest != 0 {
                s += self.follow_bonus;
            }
        }
        Scored { score: s, wish }
    }

    /// Picks and plays one move of `sim` (which must not be over).
    #[inline]
    pub fn play_one<R: RngCore + ?Sized>(&self, sim: &mut FastSim, rng: &mut R) {
        let legal = sim.legal();
        if legal == 0 {
            sim.draw(rng);
            return;
        }
        let me = sim.mover();
        let hand = sim.hand(me).0;
        let r = rng.next_u64();
        if ((r as u32) as f64) < self.epsilon * 4_294_967_296.0 {
            let n = legal.count_ones();
            let k = below(rng, n + 1);
            if k == n {
                sim.draw(rng);
            } else {
                sim.play(select_bit(legal, k), (r >> 32) as u8 & 3, rng);
            }
            return;
        }
        let two = sim.players() == 2;
        let opp = sim.hand(sim.next_seat()).0;
        let wishes = sim.jack_wishes();
        let gumbel = if self.gumbel { Some(&*GUMBEL) } else { None };
        let mut wide = if gumbel.is_some() { rng.next_u64() } else { 0 };
        let mut noise = (r >> 32) as u32;
        let mut best = (i32::MIN, 0u32, 0u8);
        let mut m = legal;
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            let sc = self.score(hand, opp, two, wishes, c);
            let s = sc.score
                + match gumbel {
                    Some(g) => {
                        let n = g[(wide & 255) as usize];
                        wide = wide.rotate_right(8);
                        n
                    }
                    None => {
                        let n = (noise & 3) as i32;
                        noise = noise.rotate_right(2);
                        n
                    }
                };
            if s > best.0 {
                best = (s, c, sc.wish);
            }
        }
        if let Some(g) = gumbel {
            let w = self.draw_weights();
            let terms = draw_terms(sim, legal, opp, w[2] != 0 || w[3] != 0);
            let d = g[(wide & 255) as usize] + w.iter().zip(terms).map(|(w, t)| w * t).sum::<i32>();
            if d > best.0 {
                sim.draw(rng);
                return;
            }
        }
        let (_, c, wish) = best;
        let wish = if wish == 4 {
            self.wish_for(hand & !(1 << c), opp)
        } else {
            wish
        };
        sim.play(c, wish, rng);
    }
}

/// Number of [`draw_features`] that can be nonzero: the last of [`FEATURES`].
const DRAW_FEATURES: usize = 4;

/// The quantities drawing is scored by when a card fits, in [`FEATURE_PARAMS`] order: always
/// 1, only Jacks fit, the next player cannot follow the top we leave, and their cards that fit
/// it (`legal`: the mover's legal cards; `opp`: the next player's hand). Drawing leaves the top
/// card (and wish) to the next player, so what matters is whether they can follow it. Without
/// `with_opp` the last two are left 0: the playout skips them while their weights are 0, as
/// computing them cost it 3-4 % of its speed.
#[inline]
fn draw_terms(sim: &FastSim, legal: u32, opp: u32, with_opp: bool) -> [i32; DRAW_FEATURES] {
    let only_jacks = (legal & !JACKS == 0) as i32;
    if !with_opp {
        return [1, only_jacks, 0, 0];
    }
    let opp_fits = (sim.fitting() & opp).count_ones() as i32;
    [1, only_jacks, (opp_fits == 0) as i32, opp_fits]
}

/// The features of drawing in `sim` (where some card fits): what `draw_bias`, `draw_jack`,
/// `draw_void` and `draw_opp_fit` weigh when the policy's choice is a softmax.
pub fn draw_features(sim: &FastSim) -> [f64; FEATURES] {
    let opp = sim.hand(sim.next_seat()).0;
    let terms = draw_terms(sim, sim.legal(), opp, true);
    std::array::from_fn(|i| match i.checked_sub(FEATURES - DRAW_FEATURES) {
        Some(k) => terms[k] as f64,
        None => 0.0,
    })
}

/// The features of laying `card` in `sim` (the mover must hold it and it must be legal), with
/// the wish `policy` would name for it: the quantities its score weighs, in
/// [`FEATURE_PARAMS`] order, so that a fit can set the weights. The 7's shortness feature is
/// `8 / (next player's cards + 1)`.
pub fn features(policy: &GreedyRollout, sim: &FastSim, card: Card) -> [f64; FEATURES] {
    let hand = sim.hand(sim.mover()).0;
    let (f, _) = policy.features_of(sim, hand, card.index() as u32);
    std::array::from_fn(|i| {
        if i == 6 {
            f[i] as f64 / 8.0
        } else {
            f[i] as f64
        }
    })
}

/// The action `play` takes in `sim` (played on a copy), if it is one of `actions`; else the
/// first of them: [`RolloutPolicy::choose`] for policies that play on bit masks.
fn choose_by_probe<R: Rng + ?Sized>(
    sim: &FastSim,
    actions: &[Action],
    rng: &mut R,
    play: impl FnOnce(&mut FastSim, &mut R),
) -> Action {
    let mut probe = *sim;
    play(&mut probe, rng);
    let played = sim.hand(sim.mover()).0 & !probe.hand(sim.mover()).0;
    let a = match played.trailing_zeros() {
        32 => Action::Draw,
        c => Action::Play {
            card: Card::from_bits(c),
            wish: if c >> 2 == 4 && sim.jack_wishes() {
                probe.wish().unwrap_or(Suit::Pik)
            } else {
                Suit::Pik
            },
        },
    };
    if actions.contains(&a) {
        a
    } else {
        actions[0]
    }
}

/// [`RolloutPolicy`] for a policy that plays one move at a time with its own `play_one`:
/// `step` plays it in place, `choose` (for callers that list actions; the search itself uses
/// `step`) reads the action off a probe copy.
macro_rules! one_move_rollout {
    ($policy:ty) => {
        impl RolloutPolicy<FastSim> for $policy {
            fn choose<R: Rng + ?Sized>(
                &mut self,
                sim: &FastSim,
                actions: &[Action],
                rng: &mut R,
            ) -> Action {
                choose_by_probe(sim, actions, rng, |probe, rng| self.play_one(probe, rng))
            }

            #[inline]
            fn step<R: Rng + ?Sized>(
                &mut self,
                sim: &mut FastSim,
                _: &mut Vec<Action>,
                rng: &mut R,
            ) -> bool {
                if sim.winner().is_some() {
                    return false;
                }
                self.play_one(sim, rng);
                true
            }
        }
    };
}

one_move_rollout!(GreedyRollout);

/// Plays one move of `sim` (which must not be over) exactly as the greedy bot
/// ([`crate::agents::MauMauAgent::greedy`]) does: no card fits → draw; otherwise the legal card
/// of highest score (4 per card held of its suit, +50 for a 7 or 8, −100 for a Jack; ties to
/// the higher card number, as its `max_by_key`), wishing the suit the rest holds most (Jacks
/// not counted; ties to the lower suit).
#[inline]
pub fn greedy_bot_step<R: RngCore + ?Sized>(sim: &mut FastSim, rng: &mut R) {
    let legal = sim.legal();
    if legal == 0 {
        sim.draw(rng);
        return;
    }
    let hand = sim.hand(sim.mover()).0;
    let mut best = (i32::MIN, 0u32);
    let mut m = legal;
    while m != 0 {
        let c = m.trailing_zeros();
        m &= m - 1;
        let mut s = 4 * (hand & suit_mask(c & 3)).count_ones() as i32;
        match c >> 2 {
            4 => s -= 100,
            0 | 1 => s += 50,
            _ => {}
        }
        if s >= best.0 {
            best = (s, c);
        }
    }
    let c = best.1;
    let rest = hand & !(1 << c) & !JACKS;
    let mut wish = (0u32, 0u8);
    for s in 0..4u32 {
        let n = (rest & suit_mask(s)).count_ones();
        if n > wish.0 {
            wish = (n, s as u8);
        }
    }
    sim.play(c, wish.1, rng);
}

/// The search's playout policy seen from the searching seat: every seat plays `ours`, except
/// that with `greedy_opponent` the other seats play [`greedy_bot_step`]: the search's model of
/// an opponent whose play so far the particle filter found to be the greedy bot's
/// ([`crate::determinize::Determinizer::opponent_greedy`]). Without it this is `ours` exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatedRollout {
    /// The searching seat.
    pub seat: usize,
    /// Its playout policy (and every seat's without `greedy_opponent`).
    pub ours: GreedyRollout,
    /// Whether the other seats play as the greedy bot.
    pub greedy_opponent: bool,
}

impl SeatedRollout {
    /// Plays one move of `sim` (which must not be over) by the mover's policy.
    #[inline]
    pub fn play_one<R: RngCore + ?Sized>(&self, sim: &mut FastSim, rng: &mut R) {
        if self.greedy_opponent && sim.mover() != self.seat {
            greedy_bot_step(sim, rng);
        } else {
            self.ours.play_one(sim, rng);
        }
    }
}

one_move_rollout!(SeatedRollout);
