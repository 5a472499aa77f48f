//! The rules of [`super::play`] against spec cases, and [`super::packed`] against the rules.

use super::packed::*;
use super::*;

/// A random side: up to four pieces on distinct squares, the rest on B.
fn random_side(rng: &mut Rng) -> Side {
    let pieces = rng.below(5);
    let mut board = 0u64;
    while board.count_ones() < pieces {
        board |= 1 << rng.below(44);
    }
    Side {
        board,
        home: (4 - pieces) as u8,
    }
}

fn pos(a: &[u32], a_home: u8, b: &[u32], b_home: u8) -> Position {
    let board = |ps: &[u32]| ps.iter().fold(0u64, |m, &p| m | 1 << p);
    Position {
        sides: [
            Side {
                board: board(a),
                home: a_home,
            },
            Side {
                board: board(b),
                home: b_home,
            },
        ],
    }
}

#[test]
fn six_brings_a_piece_in_and_captures_on_a() {
    // Side 1's piece stands on side 0's A square (its progress 20).
    let mut p = pos(&[5], 3, &[20], 3);
    assert!(p.apply(0, 6, Variant::Default));
    assert_eq!(p, pos(&[0, 5], 2, &[], 4));
}

#[test]
fn start_square_must_be_cleared_while_pieces_wait() {
    // Piece on A and a piece further on: A moves, not the front-most.
    let mut p = pos(&[0, 30], 2, &[], 4);
    assert!(p.apply(0, 3, Variant::Default));
    assert_eq!(p, pos(&[3, 30], 2, &[], 4));
    // A 6 with A occupied and the A piece blocked by its own piece on 6: front-most moves.
    let mut p = pos(&[0, 6, 30], 1, &[], 4);
    assert!(p.apply(0, 6, Variant::Default));
    assert_eq!(p, pos(&[0, 6, 36], 1, &[], 4));
}

#[test]
fn front_most_jumps_and_enters_goal_exactly() {
    // Front-most at 39 enters a with a 1; with a 5 it would pass d, so the next one moves.
    let mut p = pos(&[39, 10], 2, &[], 4);
    assert!(p.apply(0, 5, Variant::Default));
    assert_eq!(p, pos(&[39, 15], 2, &[], 4));
    assert!(p.apply(0, 4, Variant::Default));
    assert_eq!(p, pos(&[43, 15], 2, &[], 4));
    // Own piece on the target blocks; pieces in the way are jumped.
    let mut p = pos(&[12, 10], 2, &[], 4);
    assert!(p.apply(0, 2, Variant::Default));
    assert_eq!(p, pos(&[14, 10], 2, &[], 4));
}

#[test]
fn goal_moves_differ_by_variant() {
    // Pieces on 40 (a) and 20; roll 2: default moves the track piece, goal-first the goal one.
    let start = pos(&[40, 20], 2, &[], 4);
    let mut d = start;
    assert!(d.apply(0, 2, Variant::Default));
    assert_eq!(d, pos(&[40, 22], 2, &[], 4));
    let mut g = start;
    assert!(g.apply(0, 2, Variant::GoalFirst));
    assert_eq!(g, pos(&[42, 20], 2, &[], 4));
    // Only goal pieces can move: default moves them, frozen-goal cannot.
    let only_goal = pos(&[40, 43, 42], 1, &[], 4);
    let mut d = only_goal;
    assert!(d.apply(0, 1, Variant::Default));
    assert_eq!(d, pos(&[41, 43, 42], 1, &[], 4));
    let mut f = only_goal;
    assert!(!f.apply(0, 1, Variant::FrozenGoal));
}

#[test]
fn capture_maps_squares_between_sides() {
    // Side 1 at its progress 5 = track 25 = side 0's progress 25.
    let mut p = pos(&[22], 3, &[5, 0], 2);
    assert!(p.apply(0, 3, Variant::Default));
    assert_eq!(p, pos(&[25], 3, &[0], 3));
}

#[test]
fn zero_and_huge_faces_do_nothing_and_deadlock_is_exact() {
    let mut p = Position::default();
    assert!(!p.apply(0, 0, Variant::Default));
    assert!(!p.apply(0, 44, Variant::Default));
    // Pieces at 39, 41, 42, 43 with only faces 3 and 4: 39 cannot move (42, 43 own or beyond)...
    let stuck = pos(&[38, 41, 42, 43], 0, &[38, 41, 42, 43], 0);
    assert!(stuck.deadlocked([&[4, 6], &[4, 6]], Variant::Default));
    assert!(!stuck.deadlocked([&[4, 6], &[2]], Variant::Default));
}

#[test]
fn progress_lists_front_most_first() {
    assert_eq!(pos(&[3, 40], 2, &[], 4).progress(0), [40, 3, -1, -1]);
}

#[test]
fn mask_deadlock_test_equals_trying_every_face() {
    let mut rng = Rng::seeded(38);
    let face_sets: [&[u32]; 6] = [
        &[1, 2, 3, 4, 5, 6],
        &[4, 6],
        &[2],
        &[0, 44, 50],
        &[1, 3, 7, 40, 43],
        &[6, 0, 99],
    ];
    for i in 0..200_000u32 {
        let mut side = || random_side(&mut rng);
        let p = Position {
            sides: [side(), side()],
        };
        let fa = face_sets[i as usize % 6];
        let fb = face_sets[(i / 6) as usize % 6];
        let masks = [
            FastDie::new(&Die::new(fa.to_vec()).unwrap()).mask,
            FastDie::new(&Die::new(fb.to_vec()).unwrap()).mask,
        ];
        for v in [Variant::Default, Variant::GoalFirst, Variant::FrozenGoal] {
            let fast = !can_change(p.sides[0], masks[0], v) && !can_change(p.sides[1], masks[1], v);
            assert_eq!(fast, p.deadlocked([fa, fb], v), "{p:?} {fa:?} {fb:?} {v:?}");
        }
    }
}

#[test]
fn mirrored_step_and_deadlock_test_equal_the_plain_ones() {
    let mut rng = Rng::seeded(44);
    let masks = [0b111_1110u64, 1 << 6, 0xfff_ffff_fffe, 1 << 2 | 1 << 43, 0];
    for i in 0..300_000u32 {
        let mut side = || random_side(&mut rng);
        let (a, b) = (side(), side());
        assert_eq!(unmirror(mirror(a)), a);
        let r = i % 44;
        for v in [Variant::Default, Variant::GoalFirst, Variant::FrozenGoal] {
            let (mut pa, mut pb) = (a, b);
            let changed = step_in_range(&mut pa, &mut pb, r, v);
            let (mut ma, mut mb) = (mirror(a), mirror(b));
            let step = match v {
                Variant::Default => step_packed::<0>(&mut ma, &mut mb, r),
                Variant::GoalFirst => step_packed::<1>(&mut ma, &mut mb, r),
                Variant::FrozenGoal => step_packed::<2>(&mut ma, &mut mb, r),
            };
            assert_eq!(
                (unmirror(ma), unmirror(mb)),
                (pa, pb),
                "{a:?} {b:?} {r} {v:?}"
            );
            let won = pa.board & GOAL == GOAL;
            let expected = match (changed, won) {
                (false, _) => Step::Nothing,
                (true, false) => Step::Moved,
                (true, true) => Step::Won,
            };
            assert!(step == expected, "{a:?} {b:?} {r} {v:?}");
            let mask = masks[i as usize % masks.len()];
            assert_eq!(
                can_change_packed(mirror(a), mask.reverse_bits(), v),
                can_change(a, mask, v),
                "{a:?} {mask:b} {v:?}"
            );
        }
    }
}

#[test]
fn a_draw_is_decided_at_once_unless_it_might_be_rejected() {
    let run = FastDie::new(&Die::new((1..=6).collect()).unwrap());
    let table = FastDie::new(&Die::new(vec![1, 1, 6, 44, 0]).unwrap());
    let (Ok(run), Err(table)) = (run.roller(), table.roller()) else {
        panic!("kinds");
    };
    let mut rng = Rng::seeded(3);
    // Random draws, and draws whose low product is below n (the only ones `below` may
    // reject: 2^32 mod 6 = 4 and 2^32 mod 5 = 1).
    let mut draws: Vec<u32> = (0..100_000).map(|_| rng.next_u32()).collect();
    draws.extend([0, 1, 2, u32::MAX, u32::MAX / 6 + 1, u32::MAX / 5 + 1]);
    for d in draws {
        let mut a = Rng::seeded(9);
        let b = a;
        let fast = run.roll_draw(d);
        assert_eq!(fast.is_none(), ((u64::from(d) * 6) as u32) < 6, "{d}");
        let slow = run.roll_from(d, &mut a);
        if let Some(fast) = fast {
            assert_eq!(fast, slow, "{d}");
            assert_eq!(a, b, "a decided draw takes nothing more from the stream");
        }
        let mut a = Rng::seeded(9);
        let fast = table.roll_draw(d);
        assert_eq!(fast.is_none(), ((u64::from(d) * 5) as u32) < 5, "{d}");
        if let Some(fast) = fast {
            assert_eq!(fast, table.roll_from(d, &mut a), "{d}");
        }
    }
    // The slow path rejects exactly as `below` does: draw 0 (low product 0 < 4) is
    // rejected, and the roll is decided by the stream's next draw.
    let mut a = Rng::seeded(9);
    let mut b = a;
    assert_eq!(run.roll_from(0, &mut a).0, 1 + b.below(6));
    assert_eq!(a, b);
}

#[test]
fn runs_of_faces_roll_without_the_table_and_draw_the_same() {
    let run_from = |faces: &[u32]| FastDie::new(&Die::new(faces.to_vec()).unwrap()).run_from;
    assert_eq!(run_from(&[1, 2, 3, 4, 5, 6]), Some(1));
    assert_eq!(run_from(&[0, 1, 2]), Some(0));
    assert_eq!(run_from(&[7]), Some(7));
    assert_eq!(run_from(&[40, 41, 42, 43]), Some(40));
    // Not a run, or a face that is not its own move.
    assert_eq!(run_from(&[1, 1, 1, 6, 6, 6]), None);
    assert_eq!(run_from(&[2, 1]), None);
    assert_eq!(run_from(&[42, 43, 44]), None);
    // Same draws, same (face, move) as the table.
    for faces in [
        &[1u32, 2, 3, 4, 5, 6][..],
        &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        &[40, 41],
    ] {
        let d = FastDie::new(&Die::new(faces.to_vec()).unwrap());
        assert!(d.run_from.is_some());
        let (mut a, mut b) = (Rng::seeded(5), Rng::seeded(5));
        for _ in 0..10_000 {
            let fm = d.face_moves[b.below(d.n) as usize];
            assert_eq!(d.roll_move(&mut a), ((fm >> 32) as u32, fm as u32));
        }
    }
}

#[test]
fn moves_of_out_of_range_faces_are_zero_and_change_nothing() {
    let d = FastDie::new(&Die::new(vec![0, 6, 44, 100]).unwrap());
    let moves: Vec<u32> = d.face_moves.iter().map(|&fm| fm as u32).collect();
    assert_eq!(moves, vec![0, 6, 0, 0]);
    assert_eq!(d.mask, 1 << 6);
    let mut p = pos(&[0, 5], 2, &[7], 3);
    let before = p;
    let [a, b] = &mut p.sides;
    assert!(!step_in_range(a, b, 0, Variant::Default));
    assert_eq!(p, before);
}
