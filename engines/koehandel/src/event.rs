//! What the market tells a player ([`Event`]), what it asks ([`Question`]) and what a player
//! answers ([`Answer`]).
//!
//! Each value maps to exactly one GET message of the spec (part C3/C5/D11), with absolute
//! seats: the wire codec rotates them to the recipient's `S W N E` letters. A bot that only
//! knows relative letters simply calls itself seat 0 (`S` = 0, `W` = 1, `N` = 2, `E` = 3), so the
//! same player code runs in-process and behind HTTP.

use crate::types::{Animal, Cards, MoneyCard, Seat};

/// A request that needs a reply (`start`, `auction`, `trade`, and `collect` after an auction).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// `type=start`: your turn; answer [`Answer::Auction`] or [`Answer::Trade`].
    Start,
    /// `type=auction`: raise the high bid or pass (answer [`Answer::Money`]).
    Bid {
        /// The animal on sale (`goods`).
        animal: Animal,
        /// Who sells (`auctioneer`).
        auctioneer: Seat,
        /// The current high bidder (`None`: nobody has bid; the wire then names the auctioneer).
        high_bidder: Option<Seat>,
        /// The high bid as sent by its bidder (empty: no bid yet, `money` absent on the wire).
        high_bid: Cards,
        /// Bid entries since your own previous reply (spec D10): seat and value as given.
        history: Vec<(Seat, u32)>,
    },
    /// `type=auction&auctioneer=S`: bidding is over; buy back by answering money worth ≥ the
    /// high bid (see [`Answer::buy_back`]).
    BuyBack {
        /// The animal on sale.
        animal: Animal,
        /// The high bidder (`opponent`).
        high_bidder: Seat,
        /// The high bid (`money`).
        high_bid: Cards,
        /// The whole bid history of this run.
        history: Vec<(Seat, u32)>,
    },
    /// `type=collect` after an auction: choose the cards that pay `price.value()` to `to`.
    Pay {
        /// The animal bought.
        animal: Animal,
        /// The seller (`opponent`).
        to: Seat,
        /// The price as bid (`money`); the amount due is its value.
        price: Cards,
    },
    /// `type=trade`: you are challenged; answer a counter offer or empty cards (accept).
    Challenged {
        /// The challenger (`opponent`).
        challenger: Seat,
        /// The kind at stake (`goods`).
        animal: Animal,
        /// Animals at stake, 1 or 2 (`goods` doubled when 2).
        count: u8,
        /// Number of cards in the challenger's hidden offer (`money` = that many `Q`, or `0`).
        offer_cards: u32,
        /// True on the rerun after a tie (`message=equal_bid`).
        tie: bool,
    },
    /// `type=trade&message=equal_bid` to the challenger: offer again ([`Answer::Money`]).
    Reoffer {
        /// The challenged player (`opponent`).
        opponent: Seat,
        /// The kind at stake.
        animal: Animal,
        /// Animals at stake, 1 or 2.
        count: u8,
    },
}

/// A question addressed to one seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ask {
    /// Who must answer.
    pub seat: Seat,
    /// What is asked.
    pub question: Question,
}

/// The fields of a trade start; `None` marks a missing or unusable field (spec D6.1 errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TradeStart {
    /// The challenged seat (`opponent`); the wire `S` maps to the challenger himself (invalid).
    pub opponent: Option<Seat>,
    /// The kind (`goods`, single or doubled; the market decides how many are at stake).
    pub animal: Option<Animal>,
    /// The offer (`money`); `Some(EMPTY)` = no cards, `None` = bad letters.
    pub offer: Option<Cards>,
}

/// A player's reply. Anything that does not fit the question gets the spec's default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// No answer (timeout, error, empty body): the default applies.
    None,
    /// `?type=auction`.
    Auction,
    /// `?type=trade&opponent=..&goods=..&money=..`.
    Trade(TradeStart),
    /// `?money=CARDS` with valid letters (bid, buy-back, payment, counter offer, re-offer).
    /// Empty = accept (to a challenge) or pass.
    Money(Cards),
    /// A reply whose `money` holds letters that are not cards (an `invalid_bid` where the
    /// spec reports one, otherwise the default).
    InvalidMoney,
}

impl Answer {
    /// A bid of exactly `value` (a multiple of 10) in the fewest letters.
    pub fn bid(value: u32) -> Answer {
        Answer::Money(Cards::bid_for(value))
    }

    /// The reply to a [`Question::BuyBack`]: buy at `high_bid` or decline.
    pub fn buy_back(buy: bool, high_bid: &Cards) -> Answer {
        if buy {
            Answer::Money(*high_bid)
        } else {
            Answer::Money(Cards::EMPTY)
        }
    }
}

/// Errors reported to a challenger (or to a challenged player for `InvalidBid`), spec C5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TradeError {
    /// `no_opponement_specified` (sic).
    NoOpponent,
    /// `goods_not_owned_by_player`.
    GoodsNotOwned,
    /// `opponent_goods_do_not_match`.
    OpponentGoodsMismatch,
    /// `invalid_bid`: the offer holds cards the player does not own.
    InvalidBid,
}

impl TradeError {
    /// The spec's `message` text.
    pub fn message(self) -> &'static str {
        match self {
            TradeError::NoOpponent => "no_opponement_specified",
            TradeError::GoodsNotOwned => "goods_not_owned_by_player",
            TradeError::OpponentGoodsMismatch => "opponent_goods_do_not_match",
            TradeError::InvalidBid => "invalid_bid",
        }
    }
}

/// A message that needs no reply, addressed to one seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// `information message=begin`.
    Begin,
    /// `receive goods=K[K] [opponent=giver]`: an auction buy (no giver) or a won trade.
    ReceiveGoods {
        /// Kind.
        animal: Animal,
        /// 1 or 2.
        count: u8,
        /// The trade loser; `None` after an auction.
        from: Option<Seat>,
    },
    /// `collect goods=K[K] opponent=winner`: you lost a trade.
    CollectGoods {
        /// Kind.
        animal: Animal,
        /// 1 or 2.
        count: u8,
        /// The trade winner.
        to: Seat,
    },
    /// `receive money=CARDS [opponent=payer]`: real cards; no payer = donkey payout.
    ReceiveMoney {
        /// The cards received.
        cards: Cards,
        /// The payer; `None` for a donkey payout.
        from: Option<Seat>,
    },
    /// `collect money=CARDS opponent=payee`: your trade offer is handed over (no reply).
    CollectMoney {
        /// The cards handed over.
        cards: Cards,
        /// The receiver.
        to: Seat,
    },
    /// `information goods=K opponent=buyer money=-<Q..><price>` to third parties (`-0` when the
    /// auctioneer got the animal for free: `cards == 0 && price == 0`, and no `Sold` follows).
    Bought {
        /// Kind.
        animal: Animal,
        /// The buyer.
        buyer: Seat,
        /// Number of cards paid.
        cards: u32,
        /// The price (the high bid's value).
        price: u32,
    },
    /// `information opponent=seller money=<Q..><price>` to third parties.
    Sold {
        /// The seller.
        seller: Seat,
        /// Number of cards received.
        cards: u32,
        /// The price.
        price: u32,
    },
    /// `information goods=K opponent=bluffer money=<all his cards> message=bluffed`.
    Bluffed {
        /// Kind on sale.
        animal: Animal,
        /// The caught bidder.
        bluffer: Seat,
        /// His whole hand.
        cards: Cards,
    },
    /// `information goods=K message=second_bluff_not_allowed`: your bid was void.
    SecondBluffNotAllowed {
        /// Kind on sale.
        animal: Animal,
    },
    /// `information goods=K opponent=seller money=-CARDS message=server_paid` (spec D5).
    ServerPaid {
        /// Kind bought.
        animal: Animal,
        /// The seller.
        to: Seat,
        /// The cards the market took from you.
        cards: Cards,
    },
    /// `information message=<error>` (trade start errors, invalid counter offers).
    TradeError(TradeError),
    /// `information goods=K[K] opponent=winner money=-<Q per card of the winner's offer>`.
    TradeWon {
        /// Kind.
        animal: Animal,
        /// 1 or 2.
        count: u8,
        /// The winner.
        winner: Seat,
        /// Cards in the winner's offer (0 = `-0`).
        cards: u32,
    },
    /// `information goods=-K[K] opponent=loser money=<same Q's>`.
    TradeLost {
        /// Kind.
        animal: Animal,
        /// 1 or 2.
        count: u8,
        /// The loser.
        loser: Seat,
        /// Cards in the winner's offer, received by the loser.
        cards: u32,
    },
    /// `information opponent=loser money=-<Q's of the loser's offer>` (only after a counter).
    OfferPaid {
        /// The loser, who pays his counter offer.
        payer: Seat,
        /// Its card count.
        cards: u32,
    },
    /// `information opponent=winner money=<same Q's>`.
    OfferReceived {
        /// The winner, who receives the loser's offer.
        payee: Seat,
        /// Its card count.
        cards: u32,
    },
    /// `information opponent=P money=<card>`: P got a donkey payout.
    DonkeyPaid {
        /// Who was paid.
        seat: Seat,
        /// The card.
        card: MoneyCard,
    },
    /// `end message=S..W..N..E..`: final scores by absolute seat.
    End {
        /// Scores of seats 0..4.
        scores: [u32; 4],
    },
}

/// An event addressed to one seat, in the market's sending order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// Recipient.
    pub seat: Seat,
    /// What he is told.
    pub event: Event,
}
