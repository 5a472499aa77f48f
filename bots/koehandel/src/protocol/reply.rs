//! Player → market: the plain-text answer body `?var=value&...`.

use super::{pairs, Cards, Goods, Letters, Rel};
use std::fmt;

/// A player's answer, field by field, exactly as received (first occurrence of each key).
/// The typed accessors return `None` for absent or unusable values; the market decides what an
/// unusable value means (spec C3 / D).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reply {
    /// `type` (reply to `start`: `auction` or `trade`).
    pub typ: Option<String>,
    /// `opponent` (trade start).
    pub opponent: Option<String>,
    /// `goods` (trade start).
    pub goods: Option<String>,
    /// `money`: a bid, an offer or a payment.
    pub money: Option<String>,
}

impl Reply {
    /// No answer (empty body): accept / pass / no buy-back / let the server choose.
    pub fn empty() -> Reply {
        Reply::default()
    }

    /// `?type=auction`.
    pub fn auction() -> Reply {
        Reply {
            typ: Some("auction".into()),
            ..Reply::default()
        }
    }

    /// `?type=trade&opponent=X&goods=K&money=CARDS` (no `money` for an empty offer).
    pub fn trade(opponent: Rel, goods: Goods, offer: &Cards) -> Reply {
        Reply {
            typ: Some("trade".into()),
            opponent: Some(opponent.to_string()),
            goods: Some(goods.to_string()),
            money: (!offer.is_empty()).then(|| offer.to_string()),
        }
    }

    /// `?money=...` with a bid string.
    pub fn bid(bid: &Letters) -> Reply {
        Reply {
            money: Some(bid.to_string()),
            ..Reply::default()
        }
    }

    /// `?money=CARDS` (counter offer, payment); an empty multiset gives the empty reply.
    pub fn cards(cards: &Cards) -> Reply {
        Reply {
            money: (!cards.is_empty()).then(|| cards.to_string()),
            ..Reply::default()
        }
    }

    /// Reads a body; never fails (garbage gives absent fields). Oversized bodies are the
    /// caller's business (the market reads at most a few KiB).
    pub fn parse(body: &str) -> Reply {
        let mut r = Reply::default();
        for (k, v) in pairs(body) {
            let slot = match k.as_str() {
                "type" => &mut r.typ,
                "opponent" => &mut r.opponent,
                "goods" => &mut r.goods,
                "money" => &mut r.money,
                _ => continue,
            };
            slot.get_or_insert(v);
        }
        r
    }

    /// True when `type=trade`.
    pub fn wants_trade(&self) -> bool {
        self.typ.as_deref() == Some("trade")
    }

    /// `opponent` as a seat letter.
    pub fn opponent_rel(&self) -> Option<Rel> {
        self.opponent.as_deref().and_then(Rel::parse)
    }

    /// `goods` as `K` or `KK`.
    pub fn goods_parsed(&self) -> Option<Goods> {
        self.goods.as_deref().and_then(Goods::parse)
    }

    /// `money` as card letters (absent or empty = `Some(empty)`); `None` when unusable.
    pub fn money_cards(&self) -> Option<Cards> {
        Cards::parse(self.money.as_deref().unwrap_or("")).ok()
    }

    /// `money` as a verbatim bid; `None` when absent, empty or unusable.
    pub fn money_bid(&self) -> Option<Letters> {
        self.money
            .as_deref()
            .filter(|m| !m.is_empty())
            .and_then(|m| Letters::parse(m).ok())
    }

    /// True when no field is set.
    pub fn is_empty(&self) -> bool {
        *self == Reply::default()
    }
}

impl fmt::Display for Reply {
    /// The body: `?k=v&...` in the order type, opponent, goods, money; empty reply = `?`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("?")?;
        let mut first = true;
        for (k, v) in [
            ("type", &self.typ),
            ("opponent", &self.opponent),
            ("goods", &self.goods),
            ("money", &self.money),
        ] {
            if let Some(v) = v {
                if !first {
                    f.write_str("&")?;
                }
                first = false;
                write!(f, "{k}=")?;
                for part in form_urlencoded::byte_serialize(v.as_bytes()) {
                    f.write_str(part)?;
                }
            }
        }
        Ok(())
    }
}
