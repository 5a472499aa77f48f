//! `kibitz play <game> --bot SPEC`: a person plays a bot in the terminal with plain line input
//! (board drawn, legal moves listed, bad input explained). Works with piped input too, so it
//! is tested by feeding moves on stdin.

use crate::arena::{connect4 as c4, maumau as mm};
use anyhow::Context;
use std::io::Write;

mod koehandel;
pub use koehandel::koehandel;

/// Flags of `kibitz play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (the help lists the registry's games a person can play).
    #[arg(
        help = crate::registry::help(crate::registry::play_of),
        long_help = crate::registry::long_help(crate::registry::play_of)
    )]
    pub game: String,
    /// The bot's spec (as for `kibitz match`), e.g. `engine:time=500`, `search:time=1000`,
    /// `ismcts:time=300`, `strong`.
    #[arg(long)]
    pub bot: String,
    /// Your seat: 0 moves first (Koehandel: you are seat 0 and the bot takes seats 1-3).
    #[arg(long, default_value_t = 0)]
    pub seat: usize,
    /// Seed of the opening / deal / deck and the bot.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The person typed q: the game ends without a result, and that is not an error.
#[derive(Debug)]
struct Quit;

impl std::fmt::Display for Quit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("you quit the game")
    }
}

impl std::error::Error for Quit {}

/// Reads the person's lines; end of input ends the game.
pub struct Input;

impl Input {
    /// Prints `prompt` and reads one line; `q` quits, end of input abandons the game.
    pub fn ask(&mut self, prompt: &str) -> anyhow::Result<String> {
        print!("{prompt} ");
        std::io::stdout().flush()?;
        let mut line = String::new();
        if std::io::stdin().read_line(&mut line)? == 0 {
            anyhow::bail!("input ended; game abandoned");
        }
        let line = line.trim().to_string();
        if line == "q" || line == "quit" {
            return Err(Quit.into());
        }
        Ok(line)
    }
}

/// Runs `kibitz play`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let drive = crate::registry::lookup(&args.game, "kibitz play", crate::registry::play_of)?;
    let mut input = Input;
    println!("(type q to quit)");
    let played = drive(&args, &mut input);
    match played {
        Err(e) if e.is::<Quit>() => {
            println!("\nyou quit; the game ends without a result");
            Ok(())
        }
        other => other,
    }
}

/// The card of `legal` that a person's typing names: `8♣` as printed, or with a letter or
/// word for the suit in any case (`8c`, `8C`, `8 clubs`, `10h`, `Jd`, `as`, `q karo`):
/// c/clubs/kreuz ♣, h/hearts/herz ♥, d/diamonds/karo/k ♦, s/spades/pik/p ♠.
fn typed_card(
    typed: &str,
    legal: &[kibitz_maumau::cards::Card],
) -> Option<kibitz_maumau::cards::Card> {
    let t: String = typed.split_whitespace().collect::<String>().to_lowercase();
    let suits = [
        ('♣', ["clubs", "kreuz", "c"].as_slice()),
        ('♥', ["hearts", "herz", "h"].as_slice()),
        ('♦', ["diamonds", "karo", "d", "k"].as_slice()),
        ('♠', ["spades", "pik", "s", "p"].as_slice()),
    ];
    let norm = suits
        .iter()
        .find_map(|(sym, names)| {
            names
                .iter()
                .find_map(|n| t.strip_suffix(n))
                .filter(|rank| !rank.is_empty())
                .map(|rank| format!("{rank}{sym}"))
        })
        .unwrap_or(t);
    legal
        .iter()
        .copied()
        .find(|c| c.to_string().to_lowercase() == norm)
}

/// The human driver of connect4 (its line in the registry): the bot is the spec's agent,
/// told every move of the game (the person's and its own).
pub fn connect4(args: &Args, input: &mut Input) -> anyhow::Result<()> {
    use kibitz_connect4::game_impl::ConnectFour;
    use kibitz_connect4::{Player, Position, TimeControl};
    use kibitz_search::agent::{Played, View};
    use kibitz_search::game::Turn;
    let mut bot = c4::agent(&args.bot, None)?;
    let mut state = ConnectFour(Position::new(7, 6, 4)?);
    let me = if args.seat == 0 {
        Player::First
    } else {
        Player::Second
    };
    let bot_seat = usize::from(me == Player::First);
    bot.new_game(bot_seat, args.seed);
    while !state.0.is_over() {
        let board = &state.0;
        print!("\n{board}");
        let seat = usize::from(board.side_to_move() == Player::Second);
        let col = if board.side_to_move() == me {
            let legal: Vec<String> = board
                .legal_moves()
                .iter()
                .map(|c| (c + 1).to_string())
                .collect();
            loop {
                let l = input.ask(&format!("your move (column {}):", legal.join(" ")))?;
                match l.parse::<usize>() {
                    Ok(c) if legal.contains(&c.to_string()) => break c - 1,
                    Ok(c) if (1..=7).contains(&c) => println!("column {c} is full"),
                    _ => println!("{l:?} is not a column; type one of {}", legal.join(" ")),
                }
            }
        } else {
            let c = bot
                .choose(&View::new(&state, seat), &TimeControl::infinite())
                .action;
            println!("bot plays column {}", c + 1);
            c
        };
        state
            .0
            .play(col)
            .with_context(|| format!("column {} cannot be played", col + 1))?;
        bot.observe(&Played {
            actor: Turn::Seat(seat),
            action: col,
        });
    }
    print!("\n{}", state.0);
    println!(
        "{}",
        match state.0.winner() {
            Some(p) if p == me => "you win",
            Some(_) => "the bot wins",
            None => "draw",
        }
    );
    Ok(())
}

/// The human driver of piranhas (its line in the registry).
pub fn piranhas(args: &Args, input: &mut Input) -> anyhow::Result<()> {
    use kibitz_piranhas::game_impl::Piranhas;
    use kibitz_piranhas::kraken::random_pair;
    use kibitz_piranhas::{Color, Move, State};
    use kibitz_search::agent::{Played, View};
    use kibitz_search::game::Turn;
    use kibitz_search::time::TimeControl;
    use rand::SeedableRng;
    let mut bot = kibitz_piranhas::agents::agent(&args.bot)
        .map_err(|e| anyhow::anyhow!("piranhas spec {:?}: {e}", args.bot))?;
    let krakens = random_pair(&mut rand_chacha::ChaCha8Rng::seed_from_u64(args.seed));
    let mut state = State::start(krakens);
    let me = if args.seat == 0 {
        Color::Red
    } else {
        Color::Blue
    };
    bot.new_game(me.other() as usize, args.seed);
    println!("you are {me}; a move is x,y,DIRECTION as listed");
    while state.outcome().is_none() {
        println!("\n{state}");
        let legal = state.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = if state.current() == me {
            let list: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
            println!("legal moves: {}", list.join("  "));
            loop {
                let l = input.ask("your move:")?;
                match l.parse::<Move>() {
                    Ok(m) if legal.contains(&m) => break m,
                    Ok(m) => println!("{m} is not legal here: {:?}", state.apply(m).err()),
                    Err(e) => println!(
                        "cannot read {l:?}: {e} (write it as listed, e.g. {})",
                        list[0]
                    ),
                }
            }
        } else {
            let game = Piranhas(state);
            let view = View::new(&game, me.other() as usize);
            let m = bot.choose(&view, &TimeControl::infinite()).action;
            println!("bot plays {m}");
            m
        };
        let mover = state.current() as usize;
        state = state.apply(mv)?;
        bot.observe(&Played {
            actor: Turn::Seat(mover),
            action: mv,
        });
    }
    println!("\n{state}");
    match state.outcome() {
        Some(r) => println!("{r}"),
        None => println!("no legal move left"),
    }
    Ok(())
}

/// The person as a Mau-Mau player: shows the table from their knowledge and asks.
struct HumanMm<'a> {
    input: &'a mut Input,
    error: Option<anyhow::Error>,
}

impl HumanMm<'_> {
    fn choose(
        &mut self,
        know: &kibitz_maumau::knowledge::Knowledge,
        _: &kibitz_search::time::TimeControl,
    ) -> kibitz_maumau::Action {
        use kibitz_maumau::{Action, Suit};
        if self.error.is_some() {
            return Action::Draw;
        }
        let top = know.top().map_or("?".into(), |c| c.to_string());
        let wish = know
            .wish()
            .map(|s| format!(" (wish {})", s.symbol()))
            .unwrap_or_default();
        let opp = know.next_seat(know.me());
        println!(
            "\ntop {top}{wish}; talon {}; bot holds {} cards\nyour hand: {}",
            know.talon_len(),
            know.hand_size(opp),
            know.hand()
        );
        let legal: Vec<kibitz_maumau::cards::Card> = know.legal_plays().iter().collect();
        let list: Vec<String> = legal.iter().map(|c| c.to_string()).collect();
        println!("legal: {} or d (draw)", list.join(" "));
        loop {
            let l = match self.input.ask("your move (a card as listed, or d):") {
                Ok(l) => l,
                Err(e) => {
                    self.error = Some(e);
                    return Action::Draw;
                }
            };
            if l == "d" || l == "draw" {
                return Action::Draw;
            }
            let Some(card) = typed_card(&l, &legal) else {
                println!(
                    "{l:?} is not a legal card here; type one of {} or d",
                    list.join(" ")
                );
                continue;
            };
            let wish = if card.is_jack() {
                loop {
                    let w = match self.input.ask("wish a suit (p ♠, k ♦, h ♥, c ♣):") {
                        Ok(w) => w,
                        Err(e) => {
                            self.error = Some(e);
                            return Action::Draw;
                        }
                    };
                    match w.as_str() {
                        "p" | "♠" => break Suit::Pik,
                        "k" | "♦" => break Suit::Karo,
                        "h" | "♥" => break Suit::Herz,
                        "c" | "♣" => break Suit::Kreuz,
                        _ => println!("{w:?}: type p, k, h or c"),
                    }
                }
            } else {
                Suit::Pik
            };
            return Action::Play { card, wish };
        }
    }
}

/// The human driver of maumau (its line in the registry).
pub fn maumau(args: &Args, input: &mut Input) -> anyhow::Result<()> {
    use kibitz_maumau::agents::{parse_agent, AgentOptions};
    let spec = mm::parse(&args.bot, None)?;
    let me = args.seat.min(1);
    let opts = AgentOptions {
        iterations: spec.iterations,
        ..AgentOptions::default()
    };
    let mut bot = parse_agent(&spec.engine, &opts)
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .seated(1 - me, args.seed);
    let mut human = HumanMm { input, error: None };
    // A bot without its own iteration limit gets its time per move.
    // The one clock rule (`kibitz_search::clock`): half the budget soft, all of it hard.
    let budget = spec.time_ms.map(|ms| {
        let b = kibitz_search::clock::MoveBudget::in_process_ms(ms);
        kibitz_maumau::arena::MoveBudget {
            soft: b.soft,
            hard: b.hard,
        }
    });
    let end = play_mm(&mut human, &mut bot, me, args.seed, budget);
    if let Some(e) = human.error {
        return Err(e);
    }
    println!(
        "{}",
        if end.winner() == me {
            format!("you win ({end:?})")
        } else {
            format!("the bot wins ({end:?})")
        }
    );
    Ok(())
}

/// A two-seat Mau-Mau table of a person (with the tracker of their seat, for showing the
/// table) and a bot agent, as the engine's game loop drives it; prints every turn.
struct MmTable<'h, 'i> {
    human: &'h mut HumanMm<'i>,
    know: kibitz_maumau::knowledge::Knowledge,
    bot: &'h mut dyn kibitz_search::agent::Agent<kibitz_maumau::game_impl::MauMau>,
    me: usize,
}

impl kibitz_maumau::arena::Seats for MmTable<'_, '_> {
    fn tell(&mut self, seat: usize, notice: &kibitz_maumau::knowledge::Notice) {
        if seat == self.me {
            self.know.observe(notice);
        } else {
            self.bot.observe(notice);
        }
    }

    fn choose(
        &mut self,
        _: &kibitz_maumau::Game,
        view: &kibitz_search::agent::View<'_, kibitz_maumau::game_impl::MauMau>,
        tc: &kibitz_search::time::TimeControl,
    ) -> Option<kibitz_maumau::Action> {
        if view.seat() == self.me {
            let action = self.human.choose(&self.know, tc);
            self.human.error.is_none().then_some(action)
        } else {
            Some(self.bot.choose(view, tc).action)
        }
    }

    fn on_turn(&mut self, event: &kibitz_maumau::arena::TurnEvent) {
        use kibitz_maumau::arena::TurnEvent;
        use kibitz_maumau::game::Reaction;
        let me = self.me;
        match *event {
            TurnEvent::Skipped(seat) => println!(
                "{} skipped",
                if seat == me { "you are" } else { "the bot is" }
            ),
            TurnEvent::Acted { seat, reaction } => {
                let who = if seat == me { "you" } else { "bot" };
                let what = match reaction {
                    Reaction::Played { card, wish } => format!(
                        "plays {card}{}",
                        wish.map(|w| format!(", wishes {}", w.symbol()))
                            .unwrap_or_default()
                    ),
                    Reaction::Drew(Some(c)) if seat == me => format!("draws {c}"),
                    Reaction::Drew(_) => "draws a card".into(),
                    Reaction::Penalty(_) => "takes a penalty card".into(),
                    Reaction::PlayedWithPenalty { card, .. } => {
                        format!("plays {card} without a wish and takes a penalty card")
                    }
                };
                println!("{who}: {what}");
            }
        }
    }
}

/// Plays one two-seat Mau-Mau game on the deal of `seed`, the person in seat `me` and the
/// seated `bot` in the other, on the engine's game loop; prints every turn as it happens.
fn play_mm(
    human: &mut HumanMm,
    bot: &mut dyn kibitz_search::agent::Agent<kibitz_maumau::game_impl::MauMau>,
    me: usize,
    seed: u64,
    budget: Option<kibitz_maumau::arena::MoveBudget>,
) -> kibitz_maumau::GameEnd {
    use kibitz_maumau::game::Config;
    let mut table = MmTable {
        human,
        know: kibitz_maumau::knowledge::Knowledge::new(Config::default(), me),
        bot,
        me,
    };
    kibitz_maumau::arena::play_game_by(Config::default(), seed, budget, &mut table).end
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz_maumau::cards::Card;

    #[test]
    fn cards_can_be_typed_without_suit_symbols() {
        let all: Vec<Card> = kibitz_maumau::cards::CardSet(u32::MAX).iter().collect();
        let named = |s: &str| typed_card(s, &all).map(|c| c.to_string());
        for (typed, card) in [
            ("8♣", "8♣"),
            ("8c", "8♣"),
            ("8C", "8♣"),
            ("8 clubs", "8♣"),
            ("8 Kreuz", "8♣"),
            ("10h", "10♥"),
            ("10 hearts", "10♥"),
            ("jd", "J♦"),
            ("J karo", "J♦"),
            ("kk", "K♦"),
            ("as", "A♠"),
            ("A spades", "A♠"),
            ("q p", "Q♠"),
        ] {
            assert_eq!(named(typed).as_deref(), Some(card), "{typed}");
        }
        assert_eq!(named("8x"), None);
        assert_eq!(named("c"), None);
        assert_eq!(typed_card("8c", &[]), None, "only legal cards are found");
    }
}
