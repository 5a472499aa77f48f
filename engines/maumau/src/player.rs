//! The player API for bots, and the hand-written baseline players.
//!
//! A bot keeps one [`Knowledge`] per game, feeds it every [`Notice`](crate::knowledge::Notice)
//! and, whenever a private message asks for an answer, calls [`Player::choose`]. The answer is
//! an [`Action`]; the bots crate turns it into the wire's JSON.

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::game::{legal_set, Action};
use crate::knowledge::Knowledge;
use kibitz_search::time::TimeControl;
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A Mau-Mau decision maker.
pub trait Player: Send {
    /// Short name (for tables and logs).
    fn name(&self) -> String;
    /// Chooses an answer for the seat that `know` describes, at its turn. Must return within
    /// `tc`'s hard deadline. Must never panic, whatever the knowledge says.
    fn choose(&mut self, know: &Knowledge, tc: &TimeControl) -> Action;

    /// What the player's search knew about its last [`Player::choose`], for game records
    /// (`think`); `None` for players without a search (the default) and forced moves.
    fn last_think(&self) -> Option<Think> {
        None
    }
}

/// What a search player knew about one decision (see [`Player::last_think`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Think {
    /// Search iterations run.
    pub iterations: u64,
    /// Times the chosen action was visited at the root.
    pub visits: u32,
    /// The chosen action's estimated win rate for the mover (mean reward, 0 to 1).
    pub win_rate: f64,
}

/// The suit to wish: the one with most non-Jack cards in `hand`, ties to lower suit.
pub fn most_held_suit(hand: CardSet) -> Suit {
    let rest = hand.minus(CardSet::JACKS);
    Suit::ALL
        .into_iter()
        .rev()
        .max_by_key(|&s| rest.count_suit(s))
        .unwrap_or(Suit::Pik)
}

/// Plays `card` from `hand`, wishing the suit the rest holds most, or draws if there is none:
/// how the simple bots turn their chosen card into an answer.
fn play_wishing_most_held(hand: CardSet, card: Option<Card>) -> Action {
    match card {
        Some(card) => Action::Play {
            card,
            wish: most_held_suit(hand.minus(CardSet::single(card))),
        },
        None => Action::Draw,
    }
}

/// Uniformly random legal player: plays a random legal card (random wish) if it has one,
/// otherwise draws.
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// Seeded random player.
    pub fn new(seed: u64) -> Self {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, know: &Knowledge, _: &TimeControl) -> Action {
        let legal = know.legal_plays();
        match legal.nth(self.rng.random_range(0..legal.len().max(1))) {
            Some(card) => Action::Play {
                card,
                wish: Suit::ALL[self.rng.random_range(0..4)],
            },
            None => Action::Draw,
        }
    }
}

/// The plainest greedy bot: plays the first card that fits (the lowest card number, so 7s and
/// 8s before 9s and Aces) and wishes the suit it holds most; draws only when nothing fits. A
/// stand-in for "a greedy bot" of unknown make: sheds cards as fast as it can and plans nothing.
#[derive(Default)]
pub struct FirstFitPlayer;

impl Player for FirstFitPlayer {
    fn name(&self) -> String {
        "first".into()
    }
    fn choose(&mut self, know: &Knowledge, _: &TimeControl) -> Action {
        play_wishing_most_held(know.hand(), know.legal_plays().first())
    }
}

/// Greedy heuristic: keeps Jacks for when nothing else fits, plays 7s and 8s first, otherwise
/// the card of its longest suit, and wishes the suit it holds most.
#[derive(Default)]
pub struct GreedyPlayer;

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }
    fn choose(&mut self, know: &Knowledge, _: &TimeControl) -> Action {
        let hand = know.hand();
        let legal = know.legal_plays();
        let best = legal.iter().max_by_key(|&c| {
            let mut s = 4 * hand.count_suit(c.suit()) as i32;
            if c.is_jack() {
                s -= 100;
            }
            if c.is_seven() || c.is_eight() {
                s += 50;
            }
            s
        });
        play_wishing_most_held(hand, best)
    }
}

/// Tunable weights of [`HeuristicPlayer`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeuristicParams {
    /// Per remaining card of the played card's suit (keeps options open).
    pub suit_length: f32,
    /// Bonus for an 8 when we can follow it (a free extra turn with two players).
    pub eight_follow: f32,
    /// Bonus for a 7, scaled up as the opponent's hand shrinks.
    pub seven: f32,
    /// Penalty for spending a Jack while other cards fit.
    pub jack_cost: f32,
    /// Bonus per unit of evidence that the opponent cannot follow the new top card.
    pub opponent_void: f32,
    /// Draw instead of spending a Jack when Jacks are the only legal cards and the hand holds
    /// more than this many cards.
    pub keep_jack_above: f32,
}

impl Default for HeuristicParams {
    fn default() -> Self {
        HeuristicParams {
            suit_length: 3.0,
            eight_follow: 30.0,
            seven: 12.0,
            jack_cost: 60.0,
            opponent_void: 25.0,
            keep_jack_above: 99.0,
        }
    }
}

/// The strongest hand-written player: scores each legal card by what it leaves in our hand
/// and what it leaves the opponent (using the card tracker's void evidence), chains 8s, times
/// 7s, saves Jacks, and wishes a suit we hold that the opponent is likely void in.
#[derive(Default)]
pub struct HeuristicPlayer {
    /// Weights.
    pub params: HeuristicParams,
}

impl HeuristicPlayer {
    /// Probability-like estimate that `opp` can follow after `card` is laid with `wish`.
    fn opp_follow(know: &Knowledge, opp: usize, card: Card, wish: Option<Suit>) -> f32 {
        let fits = legal_set(card, wish);
        let known = know.known(opp);
        if !known.inter(fits).is_empty() {
            return 1.0;
        }
        let pool = know.pool();
        let unknown = know.hand_size(opp).saturating_sub(known.len()) as f32;
        let tot: f32 = pool.iter().map(|c| know.weight(opp, c)).sum();
        if tot <= 0.0 || unknown == 0.0 {
            return 0.0;
        }
        let fit: f32 = pool.inter(fits).iter().map(|c| know.weight(opp, c)).sum();
        1.0 - (1.0 - fit / tot).powf(unknown)
    }

    /// Best wish after playing a Jack: a suit we can follow, which the opponent likely can't.
    fn wish_for(&self, know: &Knowledge, rest: CardSet, opp: usize, jack: Card) -> Suit {
        let nonjack = rest.minus(CardSet::JACKS);
        Suit::ALL
            .into_iter()
            .map(|s| {
                let mine = nonjack.count_suit(s) as f32;
                let f = Self::opp_follow(know, opp, jack, Some(s));
                (s, mine * 10.0 - f * self.params.opponent_void)
            })
            .fold((Suit::Pik, f32::NEG_INFINITY), |b, x| {
                if x.1 > b.1 {
                    x
                } else {
                    b
                }
            })
            .0
    }
}

impl Player for HeuristicPlayer {
    fn name(&self) -> String {
        "heuristic".into()
    }
    fn choose(&mut self, know: &Knowledge, _: &TimeControl) -> Action {
        let hand = know.hand();
        let legal = know.legal_plays();
        if legal.is_empty() {
            return Action::Draw;
        }
        if legal.minus(CardSet::JACKS).is_empty() && hand.len() as f32 > self.params.keep_jack_above
        {
            return Action::Draw;
        }
        let me = know.me();
        let opp = know.next_seat(me);
        let opp_size = know.hand_size(opp) as f32;
        let p = self.params;
        let mut best = (f32::NEG_INFINITY, Action::Draw);
        for card in legal {
            let rest = hand.minus(CardSet::single(card));
            if rest.is_empty() {
                return Action::Play {
                    card,
                    wish: Suit::Pik,
                };
            }
            let wishing = card.is_jack() && !know.top().is_some_and(|t| t.is_jack());
            let wish = if wishing {
                Some(self.wish_for(know, rest, opp, card))
            } else {
                None
            };
            let mut s = p.suit_length * rest.count_suit(card.suit()) as f32;
            // What we can play next time if the top stays (8) or comes back unchanged.
            let follow = legal_set(card, wish).inter(rest);
            if card.is_jack() {
                s -= p.jack_cost;
            }
            if card.rank() == Rank::Eight && know.players() == 2 {
                s += if follow.is_empty() {
                    -5.0
                } else {
                    p.eight_follow
                };
            } else {
                let f = Self::opp_follow(know, opp, card, wish);
                s += p.opponent_void * (1.0 - f);
                if !follow.is_empty() {
                    s += 4.0;
                }
            }
            if card.is_seven() {
                s += p.seven * (1.0 + 8.0 / (opp_size + 1.0));
            }
            if s > best.0 {
                best = (
                    s,
                    Action::Play {
                        card,
                        wish: wish.unwrap_or(Suit::Pik),
                    },
                );
            }
        }
        best.1
    }
}

/// Names accepted by [`make_player`].
pub const PLAYER_NAMES: [&str; 6] = [
    "random",
    "first",
    "greedy",
    "heuristic",
    "ismcts",
    "ismcts-legacy",
];

/// A player spec [`make_player`] cannot build.
#[derive(Debug, thiserror::Error)]
pub enum PlayerSpecError {
    /// Unknown player name.
    #[error("unknown player {0:?} (known: {known})", known = PLAYER_NAMES.join(", "))]
    UnknownPlayer(String),
    /// Unknown or malformed `name=value` parameter.
    #[error("bad parameter {0:?} for this player")]
    BadParam(String),
}

/// Builds a player from a spec `name[:param=value,...]`: `random`, `first`, `greedy`,
/// `heuristic[:suit_length=,eight_follow=,seven=,jack_cost=,opponent_void=]` or
/// `ismcts[:iters=N,param.NAME=V,...]` (any name of [`crate::param_specs`]; the old short keys
/// `c=,eps=,rollout=,r78=` still work) or `ismcts-legacy[:...]` (the same search with the
/// settings of the ISMCTS before issue 16: uniform-ish sampling, greedy playouts, no bias).
/// `iterations` caps the ISMCTS search (otherwise only the time control stops it; `iters=` in
/// the spec overrides it per player); `threads` > 1 runs root-parallel ISMCTS on the current
/// rayon pool.
pub fn make_player(
    spec: &str,
    seed: u64,
    iterations: Option<u64>,
    threads: usize,
) -> Result<Box<dyn Player>, PlayerSpecError> {
    let (name, params) = spec.split_once(':').unwrap_or((spec, ""));
    let mut kv = Vec::new();
    for item in params.split(',').filter(|s| !s.is_empty()) {
        let bad = || PlayerSpecError::BadParam(item.to_string());
        let (k, v) = item.split_once('=').ok_or_else(bad)?;
        let v = v.trim().parse::<f64>().ok().filter(|v| v.is_finite());
        kv.push((k.trim(), v.ok_or_else(bad)?, item));
    }
    let bad = |item: &str| PlayerSpecError::BadParam(item.to_string());
    Ok(match name {
        "random" | "first" | "greedy" if !kv.is_empty() => return Err(bad(kv[0].2)),
        "random" => Box::new(RandomPlayer::new(seed)),
        "first" => Box::new(FirstFitPlayer),
        "greedy" => Box::new(GreedyPlayer),
        "heuristic" => {
            let mut h = HeuristicPlayer::default();
            for (k, v, item) in kv {
                let slot = match k {
                    "suit_length" => &mut h.params.suit_length,
                    "eight_follow" => &mut h.params.eight_follow,
                    "seven" => &mut h.params.seven,
                    "jack_cost" => &mut h.params.jack_cost,
                    "opponent_void" => &mut h.params.opponent_void,
                    "keep_jack_above" => &mut h.params.keep_jack_above,
                    _ => return Err(bad(item)),
                };
                *slot = v as f32;
            }
            Box::new(h)
        }
        "ismcts" | "ismcts-legacy" => {
            use kibitz_search::params::Tunable;
            let mut p = if name == "ismcts" {
                crate::mcts::IsmctsParams::default()
            } else {
                crate::mcts::IsmctsParams::legacy()
            };
            p.threads = threads.max(1);
            if let Some(k) = iterations {
                p.search.max_iterations = k;
            }
            for (k, v, item) in kv {
                let k = match k {
                    "iters" => {
                        p.search.max_iterations = v.max(1.0) as u64;
                        continue;
                    }
                    "c" | "eps" | "rollout" | "r78" => k,
                    _ => k.strip_prefix("param.").ok_or_else(|| bad(item))?,
                };
                p.set_param(k, v).map_err(|_| bad(item))?;
            }
            Box::new(crate::mcts::IsmctsPlayer::new(p, seed))
        }
        other => return Err(PlayerSpecError::UnknownPlayer(other.to_string())),
    })
}
