//! The opponent model: how likely an opponent's actions so far were, had it held a given hand.
//!
//! The determinizer ([`crate::determinize`]) samples many candidate hands from the tracker's
//! evidence and keeps them in proportion to this likelihood, so the search plays against the
//! hands the opponent's play makes likely, not merely the ones it makes possible.
//!
//! The hand at each past action is rebuilt by walking back from the candidate hand: a card
//! played since was in the hand then. Cards drawn since cannot be told apart from the older
//! ones, so the rebuilt hand may hold a few cards too many; the draw test allows for them.
//! The model of a choice is a mixture of "uniform among the legal options" and a soft greedy
//! player (longest suit, 7s and 8s first, Jacks last; wish the suit held most), which is how
//! most bots play. Both parts are tunable, and weight 0 turns each off. The default greedy part is
//! nearly deterministic: the two hypotheses are then "plays like a greedy bot" and "plays
//! anything", and the history soon tells which one an opponent is.

use crate::cards::{Card, CardSet, Suit};
use crate::knowledge::SeatMove;

/// Weights of the opponent model (all settable by `--param`, see [`crate::params`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelWeights {
    /// Inverse temperature of the played card's greedy score (per card of its suit held;
    /// 0: a card choice says nothing).
    pub play: f64,
    /// Inverse temperature of the wished suit's count in the hand (0: a wish says nothing).
    pub wish: f64,
    /// Likelihood factor per card the seat would have held that fitted when it drew anyway
    /// (1: draws say nothing; most bots draw only when nothing fits).
    pub void: f64,
    /// Share of choices modelled as uniformly random (the rest follow the soft greedy player).
    pub noise: f64,
    /// Candidate hands scored per decision (0: no model, sample by evidence alone); with
    /// `filter`, the number of particles followed through the game.
    pub particles: u32,
    /// Follow the opponent's hand forward from the deal with a particle filter
    /// ([`crate::filter`]) instead of scoring hands rebuilt backwards (two players only).
    pub filter: bool,
    /// The soft greedy player's bonus for a 7 or an 8, in cards of a suit (greedy bots play
    /// them first).
    pub special: f64,
    /// The soft greedy player's cost of a Jack, in cards of a suit (bots keep them last).
    pub jack: f64,
}

impl ModelWeights {
    /// No model: every consistent hand as likely as the evidence weights say.
    pub const OFF: ModelWeights = ModelWeights {
        play: 0.0,
        wish: 0.0,
        void: 1.0,
        noise: 1.0,
        particles: 0,
        filter: false,
        special: 3.0,
        jack: 6.0,
    };

    /// Whether the model changes anything.
    pub fn is_on(&self) -> bool {
        self.particles > 0 && (self.play > 0.0 || self.wish > 0.0 || self.void < 1.0)
    }
}

/// A soft greedy player's score of playing `c` from `hand` (in cards of the suit held).
fn play_score(hand: CardSet, c: Card, w: &ModelWeights) -> f64 {
    let mut s = hand.count_suit(c.suit()) as f64;
    if c.is_seven() || c.is_eight() {
        s += w.special;
    }
    if c.is_jack() {
        s -= w.jack;
    }
    s
}

/// The soft greedy player's chance of wishing `suit` from `hand` (Jacks do not count).
fn wish_p(hand: CardSet, suit: Suit, w: &ModelWeights) -> f64 {
    let rest = hand.minus(CardSet::JACKS);
    let z: f64 = Suit::ALL
        .iter()
        .map(|&s| (w.wish * rest.count_suit(s) as f64).exp())
        .sum();
    (w.wish * rest.count_suit(suit) as f64).exp() / z
}

/// The soft greedy player's chance of playing `card` among `options` from `hand`.
fn play_p(hand: CardSet, options: CardSet, card: Card, w: &ModelWeights) -> f64 {
    let z: f64 = options
        .iter()
        .map(|c| (w.play * play_score(hand, c, w)).exp())
        .sum();
    (w.play * play_score(hand, card, w)).exp() / z
}

/// Log-likelihood of one action `m` for a seat that held exactly `hand` when it acted (for a
/// play: before the card left; for a wish: after the Jack left), under the soft greedy
/// hypothesis of `w` and under the uniform one: `(greedy, uniform)`. Used by the forward
/// filter, which knows each particle's hand at every moment.
pub fn step_log_likelihood(m: &SeatMove, hand: CardSet, w: &ModelWeights) -> (f64, f64) {
    let noise = w.noise.clamp(0.0, 1.0);
    match *m {
        SeatMove::Wished { suit } if w.wish > 0.0 => (
            ((1.0 - noise) * wish_p(hand, suit, w) + noise / 4.0).ln(),
            0.25f64.ln(),
        ),
        SeatMove::Played {
            card,
            legal: Some(legal),
        } if w.play > 0.0 => {
            let options = hand.inter(legal);
            if !options.contains(card) {
                return (0.0, 0.0);
            }
            let p = play_p(hand, options, card, w);
            let k = options.len() as f64;
            (((1.0 - noise) * p + noise / k).ln(), -k.ln())
        }
        SeatMove::Drew { legal: Some(legal) } if w.void < 1.0 => {
            let l = hand.inter(legal).len() as f64 * w.void.max(1e-6).ln();
            (l, l)
        }
        _ => (0.0, 0.0),
    }
}

/// The two hypotheses' log-likelihoods combined as [`log_likelihood`] does (equal priors).
pub fn mix(greedy: f64, uniform: f64, w: &ModelWeights) -> f64 {
    if w.noise >= 1.0 {
        return greedy;
    }
    let top = greedy.max(uniform);
    if top == f64::NEG_INFINITY {
        return top;
    }
    top + (0.5 * ((greedy - top).exp() + (uniform - top).exp())).ln()
}

/// Log-likelihood of `seat_moves` (oldest first) for a seat that holds `hand` now, averaged
/// over two hypotheses about the seat, equally likely a priori: it plays like the soft greedy
/// player of `w`, or it chooses uniformly at random (`noise` 1). Against a random player the
/// second one dominates and its card choices stop shaping the sampled hands.
pub fn log_likelihood<I>(seat_moves: I, hand: CardSet, w: &ModelWeights) -> f64
where
    I: DoubleEndedIterator<Item = SeatMove> + Clone,
{
    let greedy = log_likelihood_of(seat_moves.clone(), hand, w);
    if w.noise >= 1.0 {
        return greedy;
    }
    let uniform = log_likelihood_of(seat_moves, hand, &ModelWeights { noise: 1.0, ..*w });
    mix(greedy, uniform, w)
}

/// Log-likelihood of `seat_moves` under the one hypothesis `w`.
fn log_likelihood_of<I>(seat_moves: I, hand: CardSet, w: &ModelWeights) -> f64
where
    I: DoubleEndedIterator<Item = SeatMove>,
{
    let mut hand = hand;
    // Cards taken since the action being looked at: in `hand`, but not held back then.
    let mut taken_since = 0usize;
    let mut ll = 0.0;
    let noise = w.noise.clamp(0.0, 1.0);
    for m in seat_moves.rev() {
        match m {
            SeatMove::Wished { suit } => {
                if w.wish > 0.0 {
                    ll += ((1.0 - noise) * wish_p(hand, suit, w) + noise / 4.0).ln();
                }
            }
            SeatMove::Played { card, legal } => {
                hand = hand.with(card);
                if let Some(legal) = legal.filter(|_| w.play > 0.0) {
                    let options = hand.inter(legal);
                    if options.contains(card) {
                        let p = play_p(hand, options, card, w);
                        ll += ((1.0 - noise) * p + noise / options.len() as f64).ln();
                    }
                }
            }
            SeatMove::Drew { legal } => {
                taken_since += 1;
                if let Some(legal) = legal.filter(|_| w.void < 1.0) {
                    // Fitting cards beyond those that may have come in since (this draw too).
                    let excess = hand.inter(legal).len().saturating_sub(taken_since);
                    ll += excess as f64 * w.void.max(1e-6).ln();
                }
            }
            SeatMove::Took { n } => taken_since += n as usize,
        }
    }
    ll
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Rank;

    const ON: ModelWeights = ModelWeights {
        play: 1.0,
        wish: 1.0,
        void: 0.1,
        noise: 0.1,
        particles: 64,
        filter: false,
        special: 3.0,
        jack: 6.0,
    };

    fn c(rank: Rank, suit: Suit) -> Card {
        Card::new(rank, suit)
    }

    #[test]
    fn a_draw_is_unlikely_with_fitting_cards_but_not_with_one_drawn_since() {
        let legal = CardSet::suit(Suit::Herz);
        let moves = [SeatMove::Drew { legal: Some(legal) }];
        let none = CardSet::from_cards([c(Rank::Ace, Suit::Pik)]);
        let one = none.with(c(Rank::Nine, Suit::Herz));
        let two = one.with(c(Rank::Ten, Suit::Herz));
        // The drawn card may be the one fitting card; two fitting cards break the rule.
        assert!(log_likelihood(moves.iter().copied(), none, &ON).abs() < 1e-12);
        assert!(log_likelihood(moves.iter().copied(), one, &ON).abs() < 1e-12);
        assert!(log_likelihood(moves.iter().copied(), two, &ON) < -2.0);
        assert_eq!(
            log_likelihood(moves.iter().copied(), two, &ModelWeights::OFF),
            0.0
        );
    }

    #[test]
    fn longest_suit_plays_and_most_held_wishes_are_likelier() {
        // On the Kreuz King: both Kings fit, the Herz and Pik small cards do not, so both
        // hands below have the same two options and only the suit lengths differ.
        let legal = CardSet::suit(Suit::Kreuz).union(CardSet::rank(Rank::King));
        let played = c(Rank::King, Suit::Herz);
        let moves = [SeatMove::Played {
            card: played,
            legal: Some(legal),
        }];
        // Holding more Herz makes playing the Herz King (over the Pik King) likelier.
        let long = CardSet::from_cards([
            c(Rank::King, Suit::Pik),
            c(Rank::Nine, Suit::Herz),
            c(Rank::Ten, Suit::Herz),
        ]);
        let short = CardSet::from_cards([
            c(Rank::King, Suit::Pik),
            c(Rank::Nine, Suit::Pik),
            c(Rank::Ten, Suit::Pik),
        ]);
        assert!(
            log_likelihood(moves.iter().copied(), long, &ON)
                > log_likelihood(moves.iter().copied(), short, &ON)
        );
        let wish = [SeatMove::Wished { suit: Suit::Kreuz }];
        let kreuz = CardSet::from_cards([c(Rank::Nine, Suit::Kreuz), c(Rank::Ten, Suit::Kreuz)]);
        let pik = CardSet::from_cards([c(Rank::Nine, Suit::Pik), c(Rank::Ten, Suit::Pik)]);
        assert!(
            log_likelihood(wish.iter().copied(), kreuz, &ON)
                > log_likelihood(wish.iter().copied(), pik, &ON)
        );
    }

    #[test]
    fn one_step_on_the_exact_hand_orders_hands() {
        let w = ModelWeights { filter: true, ..ON };
        // A draw on Herz: every held Herz card makes it less likely; no Herz, no penalty.
        let draw = SeatMove::Drew {
            legal: Some(CardSet::suit(Suit::Herz)),
        };
        let none = CardSet::from_cards([c(Rank::Ace, Suit::Pik), c(Rank::Nine, Suit::Pik)]);
        let one = none.with(c(Rank::Nine, Suit::Herz));
        let two = one.with(c(Rank::Ten, Suit::Herz));
        let ll = |h| step_log_likelihood(&draw, h, &w);
        assert_eq!(ll(none), (0.0, 0.0));
        assert!(ll(one).0 < -2.0 && ll(two).0 < ll(one).0);
        // A played 7 is likelier from a hand where it is the greedy choice (7s first, over a
        // longer suit when the 7 bonus is large) than from one where a Jack was the only
        // other option... and a Jack is least likely when anything else fitted.
        let legal = CardSet::suit(Suit::Kreuz).union(CardSet::JACKS);
        let seven = c(Rank::Seven, Suit::Kreuz);
        let play = SeatMove::Played {
            card: seven,
            legal: Some(legal),
        };
        let with_king = CardSet::from_cards([seven, c(Rank::King, Suit::Kreuz)]);
        let with_jack = CardSet::from_cards([seven, c(Rank::Jack, Suit::Pik)]);
        let alone = CardSet::from_cards([seven, c(Rank::Nine, Suit::Herz)]);
        let lp = |h| step_log_likelihood(&play, h, &w);
        assert!(lp(alone).0 > lp(with_king).0, "no alternative is likeliest");
        assert!(
            lp(with_jack).0 > lp(with_king).0,
            "a Jack is a worse alternative"
        );
        // A card the hand lacks says nothing here (the filter never asks).
        assert_eq!(lp(CardSet::EMPTY), (0.0, 0.0));
        // The uniform hypothesis only counts options.
        assert!((lp(with_king).1 - 0.5f64.ln()).abs() < 1e-12);
        // A wish of the suit held most is likeliest.
        let wish = SeatMove::Wished { suit: Suit::Herz };
        let herz = CardSet::from_cards([c(Rank::Nine, Suit::Herz), c(Rank::Ten, Suit::Herz)]);
        let pik = CardSet::from_cards([c(Rank::Nine, Suit::Pik), c(Rank::Ten, Suit::Pik)]);
        assert!(step_log_likelihood(&wish, herz, &w).0 > step_log_likelihood(&wish, pik, &w).0);
        assert!(mix(-1.0, -3.0, &w) < -1.0 && mix(-1.0, -3.0, &w) > -3.0);
    }
}
