//! koehandel over the wire (spec `koehandel.md`): the HTTP GET codec ([`protocol`]), our bot
//! endpoint ([`client`]) and the reference market ([`server`] with its web front end [`web`]
//! and HTTP client [`caller`]), plus the local tournament ([`tournament`]).
//!
//! The rules live in `kibitz-koehandel`: the market drives its `Game` state machine and sends
//! every notice and question, in the engine's order, as one GET; the bot feeds decoded messages
//! to an engine agent (`kibitz_koehandel::agents`) sitting at seat 0 (`S`).
//!
//! # Decisions not fixed by the spec
//! - Bids are echoed verbatim (`ntttt` stays `ntttt`); the engine keeps bids as multisets, so
//!   the market remembers the last raise's text. CARDS (offers, payments) are written in
//!   descending order (C4), also where the original echoed an offer as sent (`nntt`).
//! - Card strings longer than [`protocol::MAX_LETTERS`] (64) letters are unusable (= no answer);
//!   answer bodies over [`caller::MAX_BODY`] bytes too.
//! - An empty card set in a money field is written `0` (e.g. a bluffer without cards).
//! - The bot infers the two things the wire leaves implicit ([`protocol::BotDecoder`]): a
//!   `collect money` right after an auction `receive goods` is a payment question, and
//!   `goods=K money=-0` is a free auction when it was just asked to bid on K.
//! - A URL seat that failed 20 requests in a row is treated as passive for the rest of the game
//!   (configurable, see [`server::MarketConfig`]).
//! - `GET /?start&url1=..` (the page's form) starts a game and redirects to `/?market=M`, the
//!   game page with scores, counters and logs.
//!
//! # Limits (defaults)
//! The market's HTTP front end ([`web::spawn`], settings in [`server::MarketConfig`]):
//!
//! | limit | default | what happens |
//! |---|---|---|
//! | request head (header) timeout | 10 s (`header_timeout`, `--header-timeout-ms`) | counted from the connection's start and from the end of each response (keep-alive idle); the connection is closed (slowloris, silent sockets) |
//! | connections at once | 512 (`max_connections`, `--max-connections`) | further connections are closed at once |
//! | connections per peer IP | 32 (`max_connections_per_peer`, `--max-connections-per-peer`) | further connections from that address are closed at once |
//! | seat URL | `http://HOST:PORT/...`, 2,000 bytes ([`guard::check_player_url`]) | `400 Bad Request`, logged at warn |
//! | request method | GET and HEAD | `405 Method Not Allowed` with `Allow: GET, HEAD`, logged at warn |
//! | rejected requests logged | 5 single lines per 10 s (`reject_window`), the rest counted in one summary line | a flood cannot fill the log |
//! | games running at once | 64 (`max_running`) | `503 Service Unavailable` |
//! | finished games kept | 500 (`keep_games`) | oldest forgotten |
//! | request to a player | 5 s including connect (`deadline`, spec) | no answer: defaults apply |
//! | answer body | 4,096 bytes ([`caller::MAX_BODY`]) | unusable (= no answer) |
//! | card string | 64 letters ([`protocol::MAX_LETTERS`]) | unusable (= no answer) |
//! | failed requests in a row | 20 (`give_up_after`) | seat treated as passive |
#![warn(missing_docs)]

pub mod caller;
pub mod client;
pub mod external;
pub mod guard;
pub mod market_view;
pub use kibitz_net::limits;
pub mod protocol;
pub mod record;
pub mod server;
pub mod tournament;
pub mod web;
