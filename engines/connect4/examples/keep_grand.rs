//! Research (issue 39): what each proof that could keep a position's value costs, from a
//! fresh table, down to the opponent's replies.
//!
//! For every position given: the nodes of the root null windows "at least a draw" and "a
//! win" and of the weak solve; then for every root move, the null window "the move scores at
//! least T" split into one test per opponent reply (`ok`: we score at least T after that
//! reply, `NO`: the reply refutes the move), with the nodes each test took. A move is proven
//! when every reply is `ok` (the sum of the row is roughly what the solver spends on it) and
//! refuted by its cheapest `NO` (what a test ordering that reply first would spend).
//!
//! `cargo run --release -p kibitz-connect4 --example keep_grand -- T MOVES...`
//! (T: 0 "at least a draw", 1 "a win"; MOVES: 1-based columns, e.g. `6621166225`).
//!
//! Findings at 800,000 nodes (the audit's budget, `keep_audit`; `T = 0` for the draws,
//! `1` for the wins): `6621166225` (a draw only by column 5): proving 5 costs about 3.7 M
//! nodes on one reply alone, while reply 5 refutes columns 1, 2, 4, 6 and 7 for 9k–114k each
//! (the solver's own order tries replies 4 and 3 first and spends 342k–948k per move);
//! `7321565577` (a win by 2 or 3): both proofs about 310k–380k, every other move's
//! refutation 200k–1.8M.
use kibitz_connect4::{Board, Geometry, Solver, SolverConfig, TimeControl};

/// A fresh solver configured like the engine's (48 MiB of a 64 MiB engine, no growth).
fn fresh(geo: Geometry<u64>) -> Solver<u64> {
    Solver::new(geo, SolverConfig::for_engine(64))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((t, positions)) = args.split_first() else {
        return Err("usage: keep_grand T MOVES... (T: 0 or 1)".into());
    };
    let t: i32 = t.parse().map_err(|e| format!("T {t:?}: {e}"))?;
    if !(0..=1).contains(&t) {
        return Err(format!("T {t}: want 0 (at least a draw) or 1 (a win)"));
    }
    let inf = TimeControl::infinite();
    let geo = Geometry::<u64>::new(7, 6, 4).map_err(|e| e.to_string())?;
    for moves in positions {
        let b = Board::<u64>::from_digits(7, 6, 4, moves).map_err(|e| format!("{moves}: {e}"))?;
        let mut line = format!("{moves}:");
        for target in [0, 1] {
            let mut s = fresh(geo);
            let r = s.at_least(&b, target, &inf);
            line += &format!(" root >={target} {r:?} {}k", s.nodes() / 1000);
        }
        let mut s = fresh(geo);
        let r = s.solve_window(&b, -1, 1, &inf);
        line += &format!(" · weak {r:?} {}k", s.nodes() / 1000);
        println!("{line}");
        for c in b.legal_moves() {
            let mut child = b;
            if child.play(c).is_err() {
                continue;
            }
            let mut row = format!("  col {} >={t}:", c + 1);
            if child.is_over() {
                row += " ends the game";
            }
            let mut sum = 0;
            for r in child.legal_moves().into_iter().filter(|_| !child.is_over()) {
                let mut gc = child;
                if gc.play(r).is_err() {
                    continue;
                }
                let mut s = fresh(geo);
                let res = if gc.is_over() {
                    Some(false)
                } else {
                    s.at_least(&gc, t, &inf)
                };
                sum += s.nodes();
                let verdict = match res {
                    Some(true) => "ok",
                    Some(false) => "NO",
                    None => "?",
                };
                row += &format!(" {}:{verdict}/{}k", r + 1, s.nodes() / 1000);
            }
            println!("{row} (sum {}k)", sum / 1000);
        }
    }
    Ok(())
}
