//! The ONE koehandel wire codec (spec part C), used by both the bot endpoint and the market.
//!
//! Server → player: an HTTP GET whose query is
//! `market=M&id=I&type=T[&opponent=..][&auctioneer=..][&goods=..][&money=..][&message=..]`
//! ([`Envelope`]). Player → server: a plain-text body `?var=value&...` ([`Reply`]).
//! Parsing is tolerant (percent-decoding, first occurrence of a key wins, unknown keys ignored,
//! optional leading `?`, surrounding whitespace); writing is strict and in the field order above.

mod convert;
mod decode;
mod money;
mod reply;

pub use convert::{answer_reply, event_msg, from_wire, question_msg, reply_answer, to_wire};
pub use decode::{BotDecoder, Incoming};
pub use money::{Card, Cards, Letters, Money, MAX_LETTERS};
pub use reply::Reply;

use std::fmt;

/// Errors when decoding a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// A required field is absent.
    #[error("missing field `{0}`")]
    Missing(&'static str),
    /// A field has a value we cannot read.
    #[error("bad value {value:?} for field `{field}`")]
    BadField {
        /// Field name.
        field: &'static str,
        /// Its value.
        value: String,
    },
    /// A money string with a character that is no card letter.
    #[error("{0:?} is not a money letter")]
    BadLetter(char),
    /// A money string we cannot read.
    #[error("bad money string {0:?}")]
    BadMoney(String),
    /// A card string longer than [`MAX_LETTERS`].
    #[error("money string too long ({0} bytes)")]
    TooLong(usize),
    /// An unknown `type`.
    #[error("unknown message type {0:?}")]
    UnknownType(String),
}

fn bad(field: &'static str, value: &str) -> ProtocolError {
    ProtocolError::BadField {
        field,
        value: value.chars().take(80).collect(),
    }
}

/// Number of seats at a market.
pub const SEATS: usize = 4;

/// A seat letter relative to the recipient: he is always `S`, then `W`, `N`, `E` clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rel {
    /// Yourself.
    S,
    /// The next player clockwise (plays right after you).
    W,
    /// Opposite.
    N,
    /// The player before you.
    E,
}

impl Rel {
    /// All letters in clockwise order from `S`.
    pub const ALL: [Rel; 4] = [Rel::S, Rel::W, Rel::N, Rel::E];

    /// How absolute seat `seat` appears to absolute seat `viewer`: `"SWNE"[(seat − viewer) mod 4]`.
    pub fn of(seat: usize, viewer: usize) -> Rel {
        Rel::ALL[(seat + SEATS - viewer % SEATS) % SEATS]
    }

    /// The absolute seat this letter names for `viewer` (inverse of [`Rel::of`]).
    pub fn seat(self, viewer: usize) -> usize {
        (viewer + self as usize) % SEATS
    }

    /// Steps clockwise from `S` (0..4).
    pub fn offset(self) -> usize {
        self as usize
    }

    /// The letter.
    pub fn letter(self) -> char {
        ['S', 'W', 'N', 'E'][self as usize]
    }

    /// Parses `S`, `W`, `N` or `E`.
    pub fn parse(s: &str) -> Option<Rel> {
        match s {
            "S" => Some(Rel::S),
            "W" => Some(Rel::W),
            "N" => Some(Rel::N),
            "E" => Some(Rel::E),
            _ => None,
        }
    }
}

impl fmt::Display for Rel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// An animal kind `A`..`J` (index 0..10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(pub u8);

impl Kind {
    /// Number of kinds.
    pub const COUNT: usize = 10;
    /// The money donkey `G`.
    pub const DONKEY: Kind = Kind(6);

    /// Value of a quartet of this kind.
    pub fn value(self) -> u32 {
        [10, 40, 90, 160, 250, 350, 500, 650, 800, 1000][usize::from(self.0 % 10)]
    }

    /// The letter `A`..`J`.
    pub fn letter(self) -> char {
        char::from(b'A' + self.0 % 10)
    }

    /// Parses one letter `A`..`J`.
    pub fn from_letter(c: char) -> Option<Kind> {
        ('A'..='J').contains(&c).then(|| Kind(c as u8 - b'A'))
    }
}

/// Animals that move: one kind, one or two cards (`D` / `DD`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Goods {
    /// The kind.
    pub kind: Kind,
    /// 1 or 2.
    pub count: u8,
}

impl Goods {
    /// One animal.
    pub fn one(kind: Kind) -> Goods {
        Goods { kind, count: 1 }
    }

    /// Parses `K` or `KK`.
    pub fn parse(s: &str) -> Option<Goods> {
        let mut it = s.chars();
        let kind = Kind::from_letter(it.next()?)?;
        match (it.next(), it.next()) {
            (None, _) => Some(Goods { kind, count: 1 }),
            (Some(c), None) if c == kind.letter() => Some(Goods { kind, count: 2 }),
            _ => None,
        }
    }
}

impl fmt::Display for Goods {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.count {
            write!(f, "{}", self.kind.letter())?;
        }
        Ok(())
    }
}

/// Text of an `information` (or `trade`) `message` field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Note {
    /// `begin`: a new game begins.
    Begin,
    /// `bluffed`: a winning bidder cannot pay.
    Bluffed,
    /// `second_bluff_not_allowed`: your over-bid is void.
    SecondBluffNotAllowed,
    /// `no_opponement_specified` (sic).
    NoOpponementSpecified,
    /// `opponent_goods_do_not_match`.
    OpponentGoodsDoNotMatch,
    /// `goods_not_owned_by_player`.
    GoodsNotOwnedByPlayer,
    /// `invalid_bid`.
    InvalidBid,
    /// `server_paid` (project addition, D5).
    ServerPaid,
    /// Anything else, kept verbatim.
    Other(String),
}

impl Note {
    /// The wire text.
    pub fn as_str(&self) -> &str {
        match self {
            Note::Begin => "begin",
            Note::Bluffed => "bluffed",
            Note::SecondBluffNotAllowed => "second_bluff_not_allowed",
            Note::NoOpponementSpecified => "no_opponement_specified",
            Note::OpponentGoodsDoNotMatch => "opponent_goods_do_not_match",
            Note::GoodsNotOwnedByPlayer => "goods_not_owned_by_player",
            Note::InvalidBid => "invalid_bid",
            Note::ServerPaid => "server_paid",
            Note::Other(s) => s,
        }
    }

    /// Reads a message text (never fails).
    pub fn parse(s: &str) -> Note {
        [
            Note::Begin,
            Note::Bluffed,
            Note::SecondBluffNotAllowed,
            Note::NoOpponementSpecified,
            Note::OpponentGoodsDoNotMatch,
            Note::GoodsNotOwnedByPlayer,
            Note::InvalidBid,
            Note::ServerPaid,
        ]
        .into_iter()
        .find(|n| n.as_str() == s)
        .unwrap_or_else(|| Note::Other(s.to_string()))
    }
}

/// What a `collect` / `receive` moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Transfer {
    /// Animals.
    Goods(Goods),
    /// Money: real letters (after an auction the `collect` carries the bid verbatim).
    Money(Letters),
}

/// A bid request (`auctioneer` ≠ `S`) or the buy-back offer (`auctioneer` = `S`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AuctionMsg {
    /// Current high bidder (the auctioneer while nobody has bid).
    pub high_bidder: Rel,
    /// The auctioneer.
    pub auctioneer: Rel,
    /// The animal on sale.
    pub goods: Kind,
    /// The high bid, verbatim; `None` while nobody has bid.
    pub high_bid: Option<Letters>,
    /// Bid entries since the recipient's previous reply (D10): seat and value.
    pub history: Vec<(Rel, u32)>,
}

/// A trade request: you are challenged, or a tie asks for a new offer (`equal_bid`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TradeMsg {
    /// The other party (the challenger, or for the challenger's `equal_bid` the challenged).
    pub opponent: Rel,
    /// The animals at stake.
    pub goods: Goods,
    /// The other side's offer as `Q`s (`0` = no cards); `None` in the challenger's `equal_bid`.
    pub offer: Option<Money>,
    /// `message=equal_bid`.
    pub equal_bid: bool,
}

/// An `information` message: every field optional; see spec D11 for the shapes we send.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Info {
    /// The player concerned.
    pub opponent: Option<Rel>,
    /// Animals; `given` = leading `-` (handed over).
    pub goods: Option<(bool, Goods)>,
    /// Money moved, or a bluffer's hand.
    pub money: Option<Money>,
    /// The message.
    pub note: Option<Note>,
}

/// A message from the market to a player.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ServerMsg {
    /// Your turn begins; reply [`Reply::auction`] or [`Reply::trade`].
    Start,
    /// A bid request or buy-back offer.
    Auction(AuctionMsg),
    /// A trade challenge or a tie.
    Trade(TradeMsg),
    /// You hand something to `to` (after an auction you may choose the cards).
    Collect {
        /// The receiver.
        to: Rel,
        /// What.
        what: Transfer,
    },
    /// You get something; `from` is absent for donkey money.
    Receive {
        /// The giver.
        from: Option<Rel>,
        /// What.
        what: Transfer,
    },
    /// A broadcast or an error notice.
    Information(Info),
    /// Game over; scores from your view, yourself first.
    End {
        /// Seat letter and score.
        scores: Vec<(Rel, u32)>,
    },
}

/// A full server message: market id, recipient id and the message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Envelope {
    /// The game (market) id.
    pub market: u64,
    /// The recipient's player id.
    pub id: u64,
    /// The message.
    pub msg: ServerMsg,
}

#[derive(Default)]
struct Fields {
    opponent: Option<String>,
    auctioneer: Option<String>,
    goods: Option<String>,
    money: Option<String>,
    message: Option<String>,
}

fn history_string(h: &[(Rel, u32)]) -> String {
    h.iter().map(|(r, v)| format!("{r}{v}")).collect()
}

/// Parses `W10N20E30W40` (also tolerates `=` between letter and number, as in `E=500`).
pub fn parse_seat_numbers(field: &'static str, s: &str) -> Result<Vec<(Rel, u32)>, ProtocolError> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        let (letter, tail) = rest.split_at(rest.chars().next().map_or(0, char::len_utf8));
        let rel = Rel::parse(letter).ok_or_else(|| bad(field, s))?;
        let tail = tail.strip_prefix('=').unwrap_or(tail);
        let n = tail.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 || n > 9 {
            return Err(bad(field, s));
        }
        out.push((rel, tail[..n].parse().map_err(|_| bad(field, s))?));
        rest = &tail[n..];
    }
    Ok(out)
}

impl Envelope {
    /// The query string (no leading `?`), fields in the spec's order, absent ones omitted.
    pub fn to_query(&self) -> String {
        let mut f = Fields::default();
        let typ = match &self.msg {
            ServerMsg::Start => "start",
            ServerMsg::Auction(a) => {
                f.opponent = Some(a.high_bidder.to_string());
                f.auctioneer = Some(a.auctioneer.to_string());
                f.goods = Some(a.goods.letter().to_string());
                f.money = a.high_bid.as_ref().map(Letters::to_string);
                f.message = (!a.history.is_empty()).then(|| history_string(&a.history));
                "auction"
            }
            ServerMsg::Trade(t) => {
                f.opponent = Some(t.opponent.to_string());
                f.goods = Some(t.goods.to_string());
                f.money = t.offer.as_ref().map(Money::to_string);
                f.message = t.equal_bid.then(|| "equal_bid".to_string());
                "trade"
            }
            ServerMsg::Collect { to, what }
            | ServerMsg::Receive {
                from: Some(to),
                what,
            } => {
                f.opponent = Some(to.to_string());
                match what {
                    Transfer::Goods(g) => f.goods = Some(g.to_string()),
                    Transfer::Money(m) => f.money = Some(m.to_string()),
                }
                if matches!(self.msg, ServerMsg::Collect { .. }) {
                    "collect"
                } else {
                    "receive"
                }
            }
            ServerMsg::Receive { from: None, what } => {
                match what {
                    Transfer::Goods(g) => f.goods = Some(g.to_string()),
                    Transfer::Money(m) => f.money = Some(m.to_string()),
                }
                "receive"
            }
            ServerMsg::Information(i) => {
                f.opponent = i.opponent.map(|r| r.to_string());
                f.goods = i
                    .goods
                    .map(|(given, g)| format!("{}{g}", if given { "-" } else { "" }));
                f.money = i.money.as_ref().map(Money::to_string);
                f.message = i.note.as_ref().map(|n| n.as_str().to_string());
                "information"
            }
            ServerMsg::End { scores } => {
                f.message = Some(history_string(scores));
                "end"
            }
        };
        let mut q = format!("market={}&id={}&type={typ}", self.market, self.id);
        for (k, v) in [
            ("opponent", f.opponent),
            ("auctioneer", f.auctioneer),
            ("goods", f.goods),
            ("money", f.money),
            ("message", f.message),
        ] {
            if let Some(v) = v {
                q.push('&');
                q.push_str(k);
                q.push('=');
                q.extend(percent_encoding::utf8_percent_encode(&v, QUERY_VALUE));
            }
        }
        q
    }

    /// Decodes a request query (with or without a leading `?`).
    pub fn parse(query: &str) -> Result<Envelope, ProtocolError> {
        let mut f = Fields::default();
        let (mut market, mut id, mut typ) = (None, None, None);
        for (k, v) in pairs(query) {
            let slot = match k.as_str() {
                "market" => &mut market,
                "id" => &mut id,
                "type" => &mut typ,
                "opponent" => &mut f.opponent,
                "auctioneer" => &mut f.auctioneer,
                "goods" => &mut f.goods,
                "money" => &mut f.money,
                "message" => &mut f.message,
                _ => continue,
            };
            slot.get_or_insert(v);
        }
        let num = |name: &'static str, v: Option<String>| -> Result<u64, ProtocolError> {
            let v = v.ok_or(ProtocolError::Missing(name))?;
            v.parse().map_err(|_| bad(name, &v))
        };
        let market = num("market", market)?;
        let id = num("id", id)?;
        let rel = |name: &'static str, v: &Option<String>| -> Result<Rel, ProtocolError> {
            let v = v.as_deref().ok_or(ProtocolError::Missing(name))?;
            Rel::parse(v).ok_or_else(|| bad(name, v))
        };
        let opt_rel = |v: &Option<String>| -> Result<Option<Rel>, ProtocolError> {
            v.as_deref()
                .map(|s| Rel::parse(s).ok_or_else(|| bad("opponent", s)))
                .transpose()
        };
        let goods = |v: &Option<String>| -> Result<Goods, ProtocolError> {
            let v = v.as_deref().ok_or(ProtocolError::Missing("goods"))?;
            Goods::parse(v).ok_or_else(|| bad("goods", v))
        };
        let transfer = |f: &Fields| -> Result<Transfer, ProtocolError> {
            match (&f.goods, &f.money) {
                (Some(_), _) => Ok(Transfer::Goods(goods(&f.goods)?)),
                (None, Some(m)) => Ok(Transfer::Money(Letters::parse(m)?)),
                (None, None) => Err(ProtocolError::Missing("goods")),
            }
        };
        let typ = typ.ok_or(ProtocolError::Missing("type"))?;
        let msg = match typ.as_str() {
            "start" => ServerMsg::Start,
            "auction" => ServerMsg::Auction(AuctionMsg {
                high_bidder: rel("opponent", &f.opponent)?,
                auctioneer: rel("auctioneer", &f.auctioneer)?,
                goods: goods(&f.goods)?.kind,
                high_bid: f
                    .money
                    .as_deref()
                    .filter(|m| !m.is_empty())
                    .map(Letters::parse)
                    .transpose()?,
                history: parse_seat_numbers("message", f.message.as_deref().unwrap_or(""))?,
            }),
            "trade" => ServerMsg::Trade(TradeMsg {
                opponent: rel("opponent", &f.opponent)?,
                goods: goods(&f.goods)?,
                offer: f.money.as_deref().map(Money::parse).transpose()?,
                equal_bid: f.message.as_deref() == Some("equal_bid"),
            }),
            "collect" => ServerMsg::Collect {
                to: rel("opponent", &f.opponent)?,
                what: transfer(&f)?,
            },
            "receive" => ServerMsg::Receive {
                from: opt_rel(&f.opponent)?,
                what: transfer(&f)?,
            },
            "information" => ServerMsg::Information(Info {
                opponent: opt_rel(&f.opponent)?,
                goods: f
                    .goods
                    .as_deref()
                    .map(|g| {
                        let (given, g2) = g.strip_prefix('-').map_or((false, g), |r| (true, r));
                        Goods::parse(g2)
                            .map(|gg| (given, gg))
                            .ok_or_else(|| bad("goods", g))
                    })
                    .transpose()?,
                money: f.money.as_deref().map(Money::parse).transpose()?,
                note: f.message.as_deref().map(Note::parse),
            }),
            "end" => ServerMsg::End {
                scores: parse_seat_numbers("message", f.message.as_deref().unwrap_or(""))?,
            },
            other => return Err(ProtocolError::UnknownType(other.chars().take(40).collect())),
        };
        Ok(Envelope { market, id, msg })
    }
}

/// Characters escaped in values we write (values are normally letters, digits, `-` and `_`).
const QUERY_VALUE: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Splits `?a=b&c&d=e` into decoded pairs (`c` → empty value); tolerant of a leading `?` and
/// surrounding whitespace.
pub fn pairs(query: &str) -> Vec<(String, String)> {
    let q = query.trim();
    let q = q.strip_prefix('?').unwrap_or(q);
    form_urlencoded::parse(q.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}
