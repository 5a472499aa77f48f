//! The mutator: byte- and token-level edits of seed inputs (the moves libFuzzer's default mutator
//! makes, minus coverage feedback), driven by a seeded ChaCha stream so every run is reproducible.

use rand::{Rng, RngCore};

/// Tokens that tend to break parsers: numeric edges, escapes, delimiters of every wire format.
pub const DICTIONARY: &[&str] = &[
    "0",
    "-1",
    "+1",
    "6",
    "7",
    "8",
    "42",
    "43",
    "44",
    "60",
    "61",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999",
    "1e309",
    "NaN",
    "-0",
    "null",
    "true",
    "false",
    "\"",
    "\\",
    "\\u0000",
    "\\ud800",
    "\\/",
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "<",
    ">",
    "/>",
    "</",
    "<protocol>",
    "</protocol>",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "<?xml version=\"1.0\"?>",
    "&amp;",
    "&lt;",
    "&#0;",
    "&#xFFFFFFFF;",
    "&unknown;",
    "=",
    "&",
    "?",
    "%",
    "%00",
    "%zz",
    "%ff",
    "%C3%A4",
    "+",
    ";",
    ";;",
    "\n",
    "\r\n",
    "\t",
    " ",
    "\u{feff}",
    "\u{2028}",
    "\u{ffff}",
    "ä",
    "\u{10ffff}",
    "REGISTER;",
    "YOURTURN;",
    "RESULT;WIN;",
    "TOKEN INSERTED;",
    "NEW SEASON;",
    "market=",
    "id=",
    "type=",
    "money=",
    "\"status\":\"okay\"",
    "\"topCard\":",
    "\"nameOfWinner\":",
    "\"hand\":[",
    "x=\"",
    "y=\"",
];

/// Bytes that delimit something in at least one of the formats.
const STRUCTURAL: &[u8] = b"<>\"'&=;:,{}[]\\/ \n0-9%+?#";

/// Largest input the mutator produces: parsers are expected to cope, but huge inputs only slow
/// the loop down.
pub const MAX_INPUT: usize = 64 * 1024;

/// Applies 1–6 random edits to `data`, using `pool` (the corpus) for splicing.
pub fn mutate(rng: &mut impl RngCore, data: &mut Vec<u8>, pool: &[Vec<u8>]) {
    let edits = rng.random_range(1..=6);
    for _ in 0..edits {
        edit(rng, data, pool);
    }
    data.truncate(MAX_INPUT);
}

fn edit(rng: &mut impl RngCore, data: &mut Vec<u8>, pool: &[Vec<u8>]) {
    let len = data.len();
    let pos = |rng: &mut dyn RngCore, n: usize| if n == 0 { 0 } else { rng.random_range(0..=n) };
    match rng.random_range(0..11) {
        // Flip one bit.
        0 if len > 0 => {
            let i = rng.random_range(0..len);
            data[i] ^= 1 << rng.random_range(0..8);
        }
        // Overwrite one byte with an arbitrary or a structural value.
        1 if len > 0 => {
            let i = rng.random_range(0..len);
            data[i] = if rng.random_bool(0.5) {
                rng.random()
            } else {
                STRUCTURAL[rng.random_range(0..STRUCTURAL.len())]
            };
        }
        // Insert a dictionary token.
        2 | 3 => {
            let t = DICTIONARY[rng.random_range(0..DICTIONARY.len())].as_bytes();
            let i = pos(rng, len);
            data.splice(i..i, t.iter().copied());
        }
        // Delete a range.
        4 if len > 0 => {
            let a = rng.random_range(0..len);
            let b = (a + rng.random_range(1..=16.min(len - a).max(1))).min(len);
            data.drain(a..b);
        }
        // Duplicate a range (grows repeated structure: nesting, long numbers, many fields).
        5 if len > 0 => {
            let a = rng.random_range(0..len);
            let b = (a + rng.random_range(1..=64)).min(len);
            let copy = data[a..b].repeat(rng.random_range(1..=8));
            let i = pos(rng, len);
            data.splice(i..i, copy);
        }
        // Replace a run of digits by a numeric edge value.
        6 => {
            if let Some(start) =
                (0..len).find(|&i| data[i].is_ascii_digit() && rng.random_bool(0.1))
            {
                let end = (start..len)
                    .find(|&i| !data[i].is_ascii_digit())
                    .unwrap_or(len);
                let t = DICTIONARY[rng.random_range(0..20)].as_bytes();
                data.splice(start..end, t.iter().copied());
            }
        }
        // Splice: our head with another corpus entry's tail.
        7 if !pool.is_empty() => {
            let other = &pool[rng.random_range(0..pool.len())];
            let cut = pos(rng, len);
            let from = pos(rng, other.len());
            data.truncate(cut);
            data.extend_from_slice(&other[from..]);
        }
        // Truncate.
        8 if len > 0 => data.truncate(rng.random_range(0..len)),
        // Insert random bytes.
        9 => {
            let n = rng.random_range(1..=8);
            let i = pos(rng, len);
            let bytes: Vec<u8> = (0..n).map(|_| rng.random()).collect();
            data.splice(i..i, bytes);
        }
        // Swap two bytes.
        _ if len > 1 => {
            let (a, b) = (rng.random_range(0..len), rng.random_range(0..len));
            data.swap(a, b);
        }
        _ => data.push(rng.random()),
    }
}
