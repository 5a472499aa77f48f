//! Tests of `solve.rs`.

use super::parse_line;

#[test]
fn finished_and_malformed_lines_are_errors() {
    assert!(parse_line("1212121").unwrap_err().contains("game over"));
    assert!(parse_line("1122334").unwrap_err().contains("game over"));
    assert!(parse_line("44x4").is_err());
    assert!(parse_line("4444444").is_err());
    assert!(parse_line("44 1 2").is_err());
    assert!(parse_line("44 one").is_err());
    assert!(parse_line("   ").unwrap().is_none());
    let l = parse_line("4455 -3").unwrap().unwrap();
    assert_eq!((l.moves.as_str(), l.expected), ("4455", Some(-3)));
}

#[test]
fn a_blank_solve_line_is_the_empty_board() {
    for text in ["", "   ", "\r"] {
        let l = super::solve_line(text, super::Size::STANDARD).unwrap();
        assert!(l.columns.is_empty(), "{text:?}");
        assert_eq!((l.moves.as_str(), l.expected), ("", None));
    }
    let l = super::solve_line("4455 -3", super::Size::STANDARD).unwrap();
    assert_eq!((l.moves.as_str(), l.expected), ("4455", Some(-3)));
}

fn run(size: super::Size, threads: usize, input: &str) -> anyhow::Result<String> {
    let mut solver = super::AnySolver::with_size(
        size,
        kibitz_connect4::SolverConfig {
            hash_mb: 4,
            ..Default::default()
        },
        threads,
    )?;
    let mut out = Vec::new();
    super::solve_lines(&mut solver, size, false, false, input.as_bytes(), &mut out)?;
    Ok(String::from_utf8(out).expect("utf-8"))
}

#[test]
fn other_sizes_solve_alike_at_one_and_two_threads() {
    // 9×7 and 8×8 (digits), 10×6 (comma-separated numbers, column 10 included): late
    // positions (random play) scored by the serial solver and by two threads.
    let lines = [
        (9, 7, "325288874681771854261119174817795574544"),
        (8, 8, "3252888746817718542611117667164687444826"),
        (
            10,
            6,
            "3,10,2,5,2,8,8,8,7,4,2,2,1,7,7,10,1,8,5,4,2,6,1,1,1,9,1,8,8,9,7,5,6,10,10,9",
        ),
    ];
    for (columns, rows, moves) in lines {
        let size = super::Size {
            columns,
            rows,
            connect: 4,
        };
        let one = run(size, 1, moves).unwrap();
        let two = run(size, 2, moves).unwrap();
        assert_eq!(one, two, "{columns}×{rows}");
        assert!(one.starts_with(moves), "{one}");
        // The printed score is checked when fed back as the expected one.
        run(size, 1, one.trim()).unwrap();
        let (_, score) = one.trim().rsplit_once(' ').unwrap();
        let wrong = format!("{moves} {}", score.parse::<i32>().unwrap() + 1);
        assert!(
            run(size, 1, &wrong).is_err(),
            "{columns}×{rows}: a wrong score passed"
        );
    }
}

#[test]
fn sizes_and_move_strings_are_checked() {
    let size = |columns, rows, connect| super::Size {
        columns,
        rows,
        connect,
    };
    assert!(size(20, 7, 4).checked().is_err());
    assert!(size(3, 3, 4).checked().is_err());
    assert!(size(10, 6, 4).checked().is_ok());
    let e = super::parse_sized_line("1,11 0", size(10, 6, 4)).unwrap_err();
    assert!(e.contains("no column 11"), "{e}");
    let e = super::parse_sized_line("1,,2", size(10, 6, 4)).unwrap_err();
    assert!(e.contains("move 2"), "{e}");
    let l = super::parse_sized_line("10,1,10", size(10, 6, 4))
        .unwrap()
        .unwrap();
    assert_eq!(l.columns, vec![9, 0, 9]);
    assert_eq!(
        super::parse_sized_line("414", size(7, 6, 4))
            .unwrap()
            .unwrap()
            .columns,
        super::parse_sized_line("4,1,4", size(7, 6, 4))
            .unwrap()
            .unwrap()
            .columns
    );
}
