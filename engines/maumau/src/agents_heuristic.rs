//! The hand-written policies of [`super::MauMauAgent`]: first-fit, greedy and the scored
//! heuristic, each a function of the seat's [`Knowledge`].

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::game::{legal_set, Action};
use crate::knowledge::Knowledge;

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

/// The first card that fits (the lowest card number), wishing the suit held most; a draw
/// when nothing fits.
pub(super) fn first_fit(know: &Knowledge) -> Action {
    play_wishing_most_held(know.hand(), know.legal_plays().first())
}

/// Keeps Jacks for when nothing else fits, plays 7s and 8s first, otherwise the card of its
/// longest suit, wishing the suit held most.
pub(super) fn greedy(know: &Knowledge) -> Action {
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

/// Tunable weights of the heuristic agent ([`super::MauMauAgent::heuristic`]).
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

impl HeuristicParams {
    /// The weight a spec key (`seven`, `jack_cost`, ...) names.
    pub(super) fn slot(&mut self, key: &str) -> Option<&mut f32> {
        Some(match key {
            "suit_length" => &mut self.suit_length,
            "eight_follow" => &mut self.eight_follow,
            "seven" => &mut self.seven,
            "jack_cost" => &mut self.jack_cost,
            "opponent_void" => &mut self.opponent_void,
            "keep_jack_above" => &mut self.keep_jack_above,
            _ => return None,
        })
    }
}

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
fn wish_for(
    params: &HeuristicParams,
    know: &Knowledge,
    rest: CardSet,
    opp: usize,
    jack: Card,
) -> Suit {
    let nonjack = rest.minus(CardSet::JACKS);
    Suit::ALL
        .into_iter()
        .map(|s| {
            let mine = nonjack.count_suit(s) as f32;
            let f = opp_follow(know, opp, jack, Some(s));
            (s, mine * 10.0 - f * params.opponent_void)
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

/// The scored heuristic's answer (see [`super::MauMauAgent::heuristic`]).
pub(super) fn heuristic(params: &HeuristicParams, know: &Knowledge) -> Action {
    let hand = know.hand();
    let legal = know.legal_plays();
    if legal.is_empty() {
        return Action::Draw;
    }
    if legal.minus(CardSet::JACKS).is_empty() && hand.len() as f32 > params.keep_jack_above {
        return Action::Draw;
    }
    let me = know.me();
    let opp = know.next_seat(me);
    let opp_size = know.hand_size(opp) as f32;
    let p = *params;
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
            Some(wish_for(params, know, rest, opp, card))
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
            let f = opp_follow(know, opp, card, wish);
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
