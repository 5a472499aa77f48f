//! Interprets the lines of scenarios.txt: each line names a setup (S1..S8 of the spec's
//! table), optionally a turn and a move, and the official outcome, which is checked.

use kibitz_piranhas::{Board, Color, Direction, Field, Move, State};
use libtest_mimic::{Failed, Trial};

fn fish(b: &mut Board, f: Field, sq: &[(usize, usize)]) {
    for &(x, y) in sq {
        b.set(x, y, f);
    }
}

/// The setup board of a case; `line` picks the S4 variant.
fn setup(case: &str, line: &str) -> Board {
    let mut b = Board::empty();
    match case {
        "S1" => {
            fish(&mut b, Field::Red, &[(0, 4), (1, 4)]);
            fish(&mut b, Field::Blue, &[(5, 4), (9, 4)]);
            fish(&mut b, Field::Obstructed, &[(3, 4)]);
        }
        "S2" => {
            fish(&mut b, Field::Red, &[(0, 4), (9, 4)]);
            fish(&mut b, Field::Blue, &[(2, 4)]);
        }
        "S3" => {
            fish(&mut b, Field::Red, &[(3, 3), (4, 4), (5, 5)]);
            fish(&mut b, Field::Blue, &[(4, 2), (8, 8), (0, 9)]);
        }
        "S4" => {
            fish(&mut b, Field::Red, &[(0, 0), (1, 0)]);
            if line.contains("3 vs 2") {
                fish(&mut b, Field::Red, &[(2, 0)]);
            }
            fish(&mut b, Field::Blue, &[(8, 9), (9, 9)]);
        }
        "S5" => {
            fish(&mut b, Field::Red, &[(0, 0), (1, 0), (3, 0)]);
            fish(
                &mut b,
                Field::Blue,
                &[(0, 8), (2, 8), (1, 9), (7, 9), (9, 9)],
            );
        }
        "S6" => fish(&mut b, Field::Blue, &[(0, 9), (2, 9)]),
        "S7" => {
            let mut red: Vec<_> = (1..=8).map(|y| (9, y)).collect();
            red.extend([(8, 5), (4, 6), (6, 7)]);
            fish(&mut b, Field::Red, &red);
            let mut blue: Vec<_> = (1..=8).map(|x| (x, 0)).collect();
            blue.extend((1..=5).map(|y| (4, y)));
            blue.extend([(5, 2), (6, 2), (7, 5)]);
            fish(&mut b, Field::Blue, &blue);
            fish(&mut b, Field::Obstructed, &[(5, 4), (6, 6)]);
        }
        "S8" => b = Board::start([(3, 3), (6, 7)]),
        _ => {}
    }
    b
}

/// The number after `key` in `s`, e.g. `num_after("turn=1 x", "turn=") == Some(1)`.
fn num_after(s: &str, key: &str) -> Option<u32> {
    let i = s.find(key)? + key.len();
    let digits: String = s[i..].chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

fn bool_after(s: &str, key: &str) -> Option<bool> {
    let i = s.find(key)? + key.len();
    Some(s[i..].starts_with("true"))
}

/// A move written `(x,y) DIRECTION`.
fn parse_move(s: &str) -> Option<Move> {
    let open = s.find('(')?;
    let close = s[open..].find(')')? + open;
    let (x, y) = s[open + 1..close].split_once(',')?;
    let dir_str: String = s[close + 1..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_uppercase() || *c == '_')
        .collect();
    let dir: Direction = dir_str.parse().ok()?;
    Some(Move::new(x.parse().ok()?, y.parse().ok()?, dir))
}

fn expect(cond: bool, line: &str, what: &str) -> Result<(), Failed> {
    if cond {
        Ok(())
    } else {
        Err(format!("{what} does not match: {line}").into())
    }
}

/// Checks swarm / connected / win / moves claims in `claims` against `s`; returns how many.
fn check_claims(s: &State, claims: &str, line: &str) -> Result<usize, Failed> {
    let mut n = 0;
    if let (Some(r), Some(b)) = (num_after(claims, "swarm R="), num_after(claims, " B=")) {
        expect(s.biggest_swarm(Color::Red) == r, line, "red swarm")?;
        expect(s.biggest_swarm(Color::Blue) == b, line, "blue swarm")?;
        n += 1;
    }
    if let Some(i) = claims.find("connected R=") {
        let c = &claims[i..];
        expect(
            bool_after(c, "R=") == Some(s.is_connected(Color::Red)),
            line,
            "red connected",
        )?;
        expect(
            bool_after(c, "B=") == Some(s.is_connected(Color::Blue)),
            line,
            "blue connected",
        )?;
        n += 1;
    }
    if let Some(t) = num_after(claims, "turn=") {
        expect(s.turn() == t, line, "turn")?;
        n += 1;
    }
    if claims.contains("null(continue)") {
        expect(s.result().is_none(), line, "continue")?;
        n += 1;
    } else if let Some(i) = claims.find("winner=") {
        let rest = &claims[i + "winner=".len()..];
        let (who, reason) = rest.split_once(" reason=").ok_or("no reason")?;
        let r = s.result();
        expect(r.is_some(), line, "game over")?;
        let r = r.unwrap();
        let winner = r.winner.map(|c| c.name()).unwrap_or("null");
        expect(winner == who, line, "winner")?;
        let text = r.reason.text().unwrap_or("").replace('\n', " ");
        expect(text == reason.trim(), line, "reason")?;
        n += 1;
    }
    for key in ["moves: ", "moves="] {
        if let Some(count) = num_after(claims, key) {
            let mut got: Vec<String> = s.legal_moves().iter().map(|m| m.to_string()).collect();
            got.sort();
            expect(got.len() as u32 == count, line, "move count")?;
            let list =
                &claims[claims.find('[').ok_or("no list")? + 1..claims.rfind(']').ok_or("no ]")?];
            let want: Vec<String> = list.split(", ").map(|m| m.replace(' ', "")).collect();
            expect(got == want, line, "move list")?;
            n += 1;
        }
    }
    Ok(n)
}

fn run_line(line: &str) -> Result<(), Failed> {
    let case = &line[..2];
    let mut checked = 0;
    // S8 distance line: `(x,y) DIR=d` pairs, no ':'.
    if let Some(pairs) = line.strip_prefix("S8 dist ") {
        let s = State::from_board(setup(case, line), 0)?;
        let toks: Vec<&str> = pairs.split_whitespace().collect();
        for pair in toks.chunks(2) {
            let xy = pair[0].trim_matches(|c| c == '(' || c == ')');
            let (x, y) = xy.split_once(',').ok_or("xy")?;
            let (dir, d) = pair.get(1).ok_or("dir")?.split_once('=').ok_or("dir=d")?;
            let dir: Direction = dir.parse()?;
            let sq = x.parse::<usize>()? + 10 * y.parse::<usize>()?;
            expect(s.distance(sq, dir) == d.parse::<u32>()?, line, "distance")?;
            checked += 1;
        }
        return expect(checked == 5, line, "five distances");
    }
    let (head, claims) = line.split_once(':').ok_or("no ':'")?;
    let board = setup(case, line);
    // Turn: explicit `turn N` / `turnN` in the head, else from the mover's colour.
    let mut turn = num_after(head, "turn ")
        .or_else(|| num_after(head, "turn"))
        .unwrap_or(0);
    let blue_mover = head.contains(" blue ");
    if blue_mover && !head.contains("turn") {
        turn = 1;
    }
    if case == "S7" && blue_mover {
        // S7's BLUE move follows RED's (9,3) UP_LEFT from the setup at turn 0.
        turn = 0;
    }
    let mut s = State::from_board(board, turn)?;
    if case == "S7" && blue_mover {
        s = s.apply(Move::new(9, 3, Direction::UpLeft))?;
    }
    if let Some(mv) = parse_move(head) {
        let after = claims.trim();
        if let Some(err) = after.strip_prefix("INVALID: ") {
            match s.apply(mv) {
                Ok(_) => return Err(format!("move accepted: {line}").into()),
                Err(e) => expect(e.to_string() == err.trim(), line, "error text")?,
            }
            checked += 1;
        } else {
            let rest = after.strip_prefix("ok ->").ok_or("expected ok ->")?;
            s = s.apply(mv)?;
            checked += 1 + check_claims(&s, rest, line)?;
        }
    } else {
        checked += check_claims(&s, &line[2..], line)?;
    }
    expect(checked > 0, line, "(no claim recognised)")
}

/// One trial per line of scenarios.txt.
pub fn trials(text: &str) -> Vec<Trial> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            let line = l.to_string();
            Trial::test(format!("scenario/{:02}/{}", i + 1, &line[..2]), move || {
                run_line(&line)
            })
        })
        .collect()
}
