//! The game registry: one [`GameEntry`] per game, read by every command that takes a game name
//! (`match`, `play`, `replay`, `score`, `bench`, `params` and the help texts that list games).
//!
//! Why: the game names used to be matched in each command on its own, so adding a game meant
//! finding every `match name { … }`. Now adding a sixth game is one engine crate, one arena
//! adapter module and one line in [`GAMES`]; no command matches on game names.

use crate::arena::{self, Arena};
use kibitz_search::params::ParamSpec;

/// A human `play` driver: runs one game of a person against the bot in the terminal.
pub type PlayDriver = fn(&crate::play::Args, &mut crate::play::Input) -> anyhow::Result<()>;

/// A deterministic bench workload (`kibitz bench`): what it counts and the workload, which
/// returns the count (the signature).
#[derive(Clone, Copy, Debug)]
pub struct Bench {
    /// What the count counts (`nodes`, `playouts`, `decisions`, `rolls`).
    pub unit: &'static str,
    /// Runs the fixed workload and returns its count.
    pub run: fn() -> u64,
}

/// One game as the commands see it: what each command needs, or `None` where a command does
/// not support the game.
pub struct GameEntry {
    /// Command-line name (`kibitz match NAME`), also the `"game"` of records.
    pub name: &'static str,
    /// Other names accepted on the command line (`c4` for `connect4`).
    pub aliases: &'static [&'static str],
    /// One line for help texts: the contest and what it is.
    pub description: &'static str,
    /// Seats at one table (2, or 4 for Koehandel).
    pub seats: usize,
    /// The arena adapter (`kibitz match`, `replay`, `serve`), if the game has one.
    pub adapter: Option<fn() -> Box<dyn Arena>>,
    /// The engine's tunables (`kibitz <game> params`), if it has any.
    pub params: Option<fn() -> Vec<ParamSpec>>,
    /// The human `play` driver, if a person can play the game in the terminal.
    pub play: Option<PlayDriver>,
    /// The deterministic bench workload (`kibitz bench`): the unit it counts and the workload.
    pub bench: Option<Bench>,
    /// The name of a seat as the contest calls it (`RED`, `first`, `seat 2`), for `score`.
    pub seat_label: fn(usize) -> String,
    /// Whether `kibitz match --openings FILE` means something (a start position per line).
    pub takes_openings: bool,
}

impl GameEntry {
    /// Whether `name` is this game's name or one of its aliases.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}

impl std::fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameEntry")
            .field("name", &self.name)
            .field("aliases", &self.aliases)
            .field("seats", &self.seats)
            .finish_non_exhaustive()
    }
}

/// `seat N`: the label of games whose contest has no seat names of its own.
fn seat_number(seat: usize) -> String {
    format!("seat {seat}")
}

/// Every game of the workspace, in the order commands list them.
pub static GAMES: &[GameEntry] = &[
    GameEntry {
        name: "connect4",
        aliases: &["c4"],
        description: "Connect Four (any board size): solver, opening book, alpha-beta",
        seats: 2,
        adapter: Some(|| Box::new(arena::connect4::Connect4)),
        params: Some(kibitz_connect4::param_specs),
        play: Some(crate::play::connect4),
        bench: Some(Bench {
            unit: "nodes",
            run: kibitz_connect4::bench,
        }),
        seat_label: |s| match s {
            0 => "first".into(),
            1 => "second".into(),
            s => seat_number(s),
        },
        takes_openings: true,
    },
    GameEntry {
        name: "piranhas",
        aliases: &[],
        description: "Piranhas (Software-Challenge 2019): swarm the fish, avoid the Kraken",
        seats: 2,
        adapter: Some(|| Box::new(arena::piranhas::Piranhas)),
        params: Some(kibitz_piranhas::param_specs),
        play: Some(crate::play::piranhas),
        bench: Some(Bench {
            unit: "nodes",
            run: kibitz_piranhas::bench,
        }),
        seat_label: |s| match s {
            0 => "RED".into(),
            1 => "BLUE".into(),
            s => seat_number(s),
        },
        takes_openings: true,
    },
    GameEntry {
        name: "maumau",
        aliases: &[],
        description: "Mau-Mau (Free-Hack 2017): hidden hands, ISMCTS",
        seats: 2,
        adapter: Some(|| Box::new(arena::maumau::Maumau::default())),
        params: Some(kibitz_maumau::param_specs),
        play: Some(crate::play::maumau),
        bench: Some(Bench {
            unit: "playouts",
            run: kibitz_maumau::mcts::bench,
        }),
        seat_label: seat_number,
        takes_openings: false,
    },
    GameEntry {
        name: "koehandel",
        aliases: &[],
        description: "Koehandel (Kuhhandel / You're Bluffing): auctions and cow trades",
        seats: 4,
        adapter: Some(|| Box::new(arena::koehandel::Koehandel)),
        params: Some(kibitz_koehandel::param_specs),
        play: Some(crate::play::koehandel),
        bench: Some(Bench {
            unit: "decisions",
            run: kibitz_koehandel::bench,
        }),
        seat_label: seat_number,
        takes_openings: false,
    },
    GameEntry {
        name: "madn",
        aliases: &[],
        description: "Würfelglück (BwInf 2021): Mensch ärgere dich nicht dice tournaments \
                      (`kibitz wuerfel`)",
        seats: 4,
        adapter: None,
        params: None,
        play: None,
        bench: Some(Bench {
            unit: "rolls",
            run: kibitz_madn::bench,
        }),
        seat_label: seat_number,
        takes_openings: false,
    },
];

/// A game name no entry answers to (for the command at hand).
#[derive(Debug)]
pub struct UnknownGame {
    /// The name asked for.
    pub name: String,
    /// The command or flag that asked (`kibitz play`, `bench --only`).
    pub command: String,
    /// The names the command accepts, comma-separated.
    pub known: String,
}

impl std::fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown game {:?} for {} (known: {})",
            self.name, self.command, self.known
        )
    }
}

impl std::error::Error for UnknownGame {}

/// The entry named `name` (or aliased so), whatever commands it supports.
pub fn find(name: &str) -> Result<&'static GameEntry, UnknownGame> {
    lookup(name, "kibitz", Some)
}

/// What `get` takes from the entry named `name`, among the games it takes something from;
/// the error names `command` and lists exactly those games, so "unknown game" always says
/// what would have worked.
pub fn lookup<T>(
    name: &str,
    command: &str,
    get: fn(&'static GameEntry) -> Option<T>,
) -> Result<T, UnknownGame> {
    GAMES
        .iter()
        .filter(|g| g.answers_to(name))
        .find_map(get)
        .ok_or_else(|| UnknownGame {
            name: name.to_string(),
            command: command.to_string(),
            known: names(get).join(", "),
        })
}

/// The names of the games `get` takes something from, in registry order.
pub fn names<T>(get: fn(&'static GameEntry) -> Option<T>) -> Vec<&'static str> {
    GAMES
        .iter()
        .filter(|g| get(g).is_some())
        .map(|g| g.name)
        .collect()
}

/// `The game: connect4, piranhas, maumau or koehandel.` for a command's help text.
pub fn help<T>(get: fn(&'static GameEntry) -> Option<T>) -> String {
    let names = names(get);
    let list = match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    format!("The game: {list}.")
}

/// The help text above, then one line per game: name, aliases, seats, whether it takes
/// openings, and its description.
pub fn long_help<T>(get: fn(&'static GameEntry) -> Option<T>) -> String {
    let mut text = help(get);
    for g in GAMES.iter().filter(|g| get(g).is_some()) {
        let aliases = if g.aliases.is_empty() {
            String::new()
        } else {
            format!(" (also {})", g.aliases.join(", "))
        };
        let openings = if g.takes_openings { ", --openings" } else { "" };
        text.push_str(&format!(
            "\n  {}{aliases}: {}; {} seats{openings}",
            g.name, g.description, g.seats
        ));
    }
    text
}

/// The game's tunables listing, if any (for [`lookup`], [`help`]).
pub fn params_of(g: &'static GameEntry) -> Option<fn() -> Vec<ParamSpec>> {
    g.params
}

/// The game's arena adapter maker, if any (for [`lookup`], [`help`]).
pub fn adapter_of(g: &'static GameEntry) -> Option<fn() -> Box<dyn Arena>> {
    g.adapter
}

/// The game's human `play` driver, if any (for [`lookup`], [`help`]).
pub fn play_of(g: &'static GameEntry) -> Option<PlayDriver> {
    g.play
}

/// The game's bench unit and workload, if any (for [`lookup`], [`help`]).
pub fn bench_of(g: &'static GameEntry) -> Option<Bench> {
    g.bench
}

/// The arena adapter of game `name` (`kibitz match`, `replay`, `serve`).
pub fn adapter(name: &str) -> anyhow::Result<Box<dyn Arena>> {
    Ok(lookup(name, "kibitz match", adapter_of)?())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique() {
        let mut all: Vec<&str> = GAMES
            .iter()
            .flat_map(|g| std::iter::once(g.name).chain(g.aliases.iter().copied()))
            .collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "a name or alias appears twice: {all:?}");
    }

    #[test]
    fn every_name_and_alias_finds_its_entry_and_adapter() {
        for g in GAMES {
            for n in std::iter::once(g.name).chain(g.aliases.iter().copied()) {
                assert_eq!(find(n).unwrap().name, g.name, "{n}");
                if let Some(make) = g.adapter {
                    let a = adapter(n).unwrap();
                    assert_eq!(a.name(), g.name, "{n}: the adapter's own name");
                    assert_eq!(make().name(), g.name);
                    assert_eq!(a.takes_openings(), g.takes_openings, "{n}");
                }
            }
            assert!(g.seats >= 2, "{}", g.name);
            assert!(!g.description.is_empty(), "{}", g.name);
            assert_ne!((g.seat_label)(0), (g.seat_label)(1), "{}", g.name);
        }
    }

    #[test]
    fn unknown_names_list_what_the_command_accepts() {
        let e = lookup("chess", "kibitz play", play_of)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("\"chess\"") && e.contains("kibitz play"), "{e}");
        for g in GAMES {
            assert_eq!(e.contains(g.name), g.play.is_some(), "{e}");
        }
        let e = adapter("madn").err().unwrap().to_string();
        assert!(e.contains("connect4, piranhas, maumau, koehandel"), "{e}");
        assert!(!e.contains("madn)"), "madn has no adapter: {e}");
    }

    #[test]
    fn help_lists_the_games() {
        assert_eq!(
            help(play_of),
            "The game: connect4, piranhas, maumau or koehandel."
        );
        let long = long_help(bench_of);
        assert_eq!(long.lines().count(), 1 + GAMES.len(), "{long}");
        assert!(
            long.contains("\n  connect4 (also c4): Connect Four") && long.contains("--openings"),
            "{long}"
        );
        assert!(long.contains("\n  madn: Würfelglück"), "{long}");
    }
}
