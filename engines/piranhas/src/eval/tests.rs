//! Tests of `eval`.

use super::*;

#[test]
fn rim_has_36_squares_and_params_set_by_name() {
    assert_eq!(RIM.count_ones(), 36);
    let mut p = EvalParams::V1;
    for name in EvalParams::NAMES {
        assert!(p.set(name, 7), "{name}");
        assert_eq!(p.get(name), Some(7));
    }
    assert!(!p.set("nope", 1));
}

#[test]
fn start_position_is_symmetric_up_to_tempo() {
    let s = State::start([(3, 3), (6, 7)]);
    let p = EvalParams::V1;
    // Both colours have the same shape (rotated), so only the tempo bonus remains,
    // up to the Kraken's effect on mobility.
    let e = evaluate(&s, &p);
    assert!((e - p.tempo).abs() <= 10 * p.mobility.abs() + 2, "{e}");
}

/// The features straight from their definitions: swarms from [`crate::swarm::swarms`]
/// (largest first, ties in order of their lowest square), distances square by square.
fn reference_features(fish: Bitboard) -> Features {
    let n = fish.count();
    let mut f = Features {
        fish: n,
        rim: (fish.0 & RIM).count_ones(),
        ..Features::default()
    };
    if n == 0 {
        return f;
    }
    let swarms = crate::swarm::swarms(fish);
    f.groups = swarms.len() as u32;
    f.biggest = swarms[0].count();
    let cheb = |a: usize, b: usize| {
        let (ax, ay, bx, by) = (a % 10, a / 10, b % 10, b / 10);
        ax.abs_diff(bx).max(ay.abs_diff(by)) as u32
    };
    let dists: Vec<u32> = (fish & !swarms[0])
        .iter()
        .map(|s| swarms[0].iter().map(|m| cheb(s, m)).min().unwrap_or(0) - 1)
        .collect();
    f.join = dists.iter().sum();
    f.gap = dists.iter().copied().min().unwrap_or(0);
    f.isolated = swarms.iter().filter(|s| s.count() == 1).count() as u32;
    f.second = swarms.get(1).map_or(0, |s| s.count());
    let (sx, sy) = fish
        .iter()
        .fold((0, 0), |a, q| (a.0 + q % 10, a.1 + q / 10));
    let n = n as i64;
    for q in fish.iter() {
        let dx = (n * (q % 10) as i64 - sx as i64).abs();
        let dy = (n * (q / 10) as i64 - sy as i64).abs();
        f.spread += dx.max(dy) as u32;
    }
    f
}

#[test]
fn features_match_their_definitions_on_random_fish() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for i in 0..20_000 {
        let count = i % 17;
        // Dense corners now and then, so that big swarms and ties occur.
        let span = if i % 3 == 0 { 30 } else { 100 };
        let mut fish = Bitboard::EMPTY;
        while fish.count() < count.min(span) as u32 {
            fish |= Bitboard::square(rng.random_range(0..span));
        }
        let want = reference_features(fish);
        assert_eq!(features(fish), want, "{fish:?}");
        // Without `join`: the same but that (gap included, which stops early).
        let sums = fish
            .iter()
            .fold((0, 0), |a, q| (a.0 + q as u32 % 10, a.1 + q as u32 / 10));
        let lean = Features { join: 0, ..want };
        assert_eq!(features_without_join(fish, sums), lean, "{fish:?}");
        // Through the cache: a lean entry does not answer a request for `join`.
        let (first, second) = if i % 2 == 0 {
            (false, true)
        } else {
            (true, false)
        };
        let a = cached_features_with(fish, sums, first);
        let b = cached_features_with(fish, sums, second);
        for (f, join) in [(a, first), (b, second)] {
            if join {
                assert_eq!(f, want, "{fish:?}");
            } else {
                assert_eq!(Features { join: 0, ..f }, lean, "{fish:?}");
            }
        }
    }
}

/// The cached result equals the official one along random games (to turn 60 and
/// connections), including positions whose features were cached before.
#[test]
fn cached_result_matches_the_official_result() {
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let mut ended = 0;
    for _ in 0..200 {
        let mut s = State::start(crate::kraken::random_pair(&mut rng));
        loop {
            assert_eq!(cached_result(&s), s.result(), "{s}");
            if s.result().is_some() {
                ended += 1;
                break;
            }
            let Some(&m) = s.legal_moves().choose(&mut rng) else {
                break;
            };
            s = s.apply(m).expect("legal");
        }
    }
    assert!(ended > 150, "{ended}");
}

#[test]
fn small_division_matches_integer_division() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
    for den in 1..=256i64 {
        // Every numerator near the fast path's edges and multiples of den, then random.
        let edges = [0, 1, 1 << 24, den, 256 * 256 * 300];
        for e in edges {
            for v in e - 600..e + 600 {
                for num in [v, -v] {
                    assert_eq!(div_small(num, den), num / den, "{num} / {den}");
                }
            }
        }
        for _ in 0..20_000 {
            let num = rng.random_range(-(1i64 << 25)..(1i64 << 25));
            assert_eq!(div_small(num, den), num / den, "{num} / {den}");
        }
    }
    // Outside the fast path: the plain division.
    assert_eq!(div_small(i64::MAX, 7), i64::MAX / 7);
    assert_eq!(div_small(-1_000, 1_000), -1);
}

#[test]
fn concentration_rewards_compact_fish() {
    let compact = Bitboard::at(4, 4) | Bitboard::at(5, 4) | Bitboard::at(4, 5);
    let spread = Bitboard::at(0, 0) | Bitboard::at(9, 9) | Bitboard::at(0, 9);
    assert!(features(compact).spread < features(spread).spread);
    assert_eq!(features(compact).groups, 1);
    assert_eq!(features(spread).groups, 3);
    assert_eq!(features(compact).join, 0);
    // Biggest swarm {(4,4),(5,4)}; (7,4) is 2 steps away (1 gap), (9,9) is 5 away (4).
    let two = Bitboard::at(4, 4) | Bitboard::at(5, 4) | Bitboard::at(7, 4) | Bitboard::at(9, 9);
    assert_eq!(features(two).join, 1 + 4);
    assert_eq!(features(two).gap, 1);
    assert_eq!(features(two).isolated, 2);
    assert_eq!(features(two).second, 1);
    assert_eq!(features(compact).second, 0);
    assert_eq!(features(spread).second, 1);
    assert_eq!(features(compact).gap, 0);
    let far = Bitboard::at(0, 0) | Bitboard::at(1, 0) | Bitboard::at(9, 9);
    assert_eq!(features(far).gap, 8);
}

/// Issue 38's turn-50 position (RED to move; Krakens (2,3) and (5,7)), as the data files
/// write boards: main played 2,6,UP_RIGHT there with +269, yet the position is lost.
const ISSUE_38: &str =
    "--------B---------------B-------O-BR-------RRBR------B-B---B--R-R----------O-----B------------B-----";

#[test]
fn moves_left_count_blues_last_move() {
    for (turn, red, blue) in [(0, 30, 30), (1, 29, 30), (50, 5, 5), (51, 4, 5), (58, 1, 1)] {
        assert_eq!(moves_left(turn, Color::Red), red, "turn {turn}");
        assert_eq!(moves_left(turn, Color::Blue), blue, "turn {turn}");
    }
    assert_eq!(moves_left(59, Color::Red), 0);
    assert_eq!(moves_left(59, Color::Blue), 1);
    assert_eq!(moves_left(60, Color::Red), 0);
    assert_eq!(moves_left(60, Color::Blue), 0);
    assert_eq!(moves_left(200, Color::Blue), 0);
}

#[test]
fn the_issue_position_projects_blue_ahead_at_the_round_limit() {
    let s = State::from_letters(ISSUE_38, 50).unwrap();
    let hits = [captures(&s, Color::Red).0, captures(&s, Color::Blue).0];
    let [red, blue] = limit_sides(&s, hits);
    // RED: 6 fish, biggest {(3,4),(4,4),(5,3),(6,4)}; at most all 6 by turn 60.
    assert_eq!((red.moves_left, red.biggest, red.projected), (5, 4, 6));
    // BLUE: 9 fish, biggest {(5,5),(5,4),(4,3),(4,2)}; five moves could make it 9.
    assert_eq!((blue.moves_left, blue.biggest, blue.projected), (5, 4, 9));
    // Each side's exposure is its biggest swarm's fish among the opponent's targets.
    let red_main = biggest_swarm_set(s.board().fish_of(Color::Red));
    assert_eq!(red.exposed, (red_main.0 & hits[1]).count_ones());
    assert_eq!(
        limit_terms(&s, hits),
        [-3, -1, red.exposed as i64 - blue.exposed as i64]
    );
    // v5 sees it worse for RED than v4 by the ramped terms (turn 50: 20 of 30 turns).
    let (v4, v5) = (evaluate(&s, &EvalParams::V4), evaluate(&s, &EvalParams::V5));
    let p = EvalParams::V5;
    let exposed = red.exposed as i64 - blue.exposed as i64;
    let expected = (p.proj as i64 * -3 - p.outcome as i64 - p.exposed as i64 * exposed) * 20 / 30;
    assert_eq!((v5 - v4) as i64, expected, "v4 {v4} v5 {v5}");
    assert!(v5 < v4);
}

#[test]
fn the_round_limit_terms_start_at_turn_30() {
    let early = State::from_letters(ISSUE_38, 28).unwrap();
    assert_eq!(
        evaluate(&early, &EvalParams::V5),
        evaluate(&early, &EvalParams::V4)
    );
    let at = State::from_letters(ISSUE_38, 30).unwrap();
    assert_eq!(
        evaluate(&at, &EvalParams::V5),
        evaluate(&at, &EvalParams::V4)
    );
    let after = State::from_letters(ISSUE_38, 32).unwrap();
    assert!(evaluate(&after, &EvalParams::V5) < evaluate(&after, &EvalParams::V4));
    // From BLUE's view one turn later the same terms count the other way round.
    let s = State::from_letters(ISSUE_38, 51).unwrap();
    let hits = [captures(&s, Color::Red).0, captures(&s, Color::Blue).0];
    let [d, sign, _] = limit_terms(&s, hits);
    // BLUE to move (5 moves left, RED 4), both projected with 4 moves:
    // RED 4 + min(4, 2) = 6, BLUE 4 + min(4, 5) = 8.
    assert_eq!((d, sign), (2, 1));
    let [red, blue] = limit_sides(&s, hits);
    assert_eq!((red.moves_left, blue.moves_left), (4, 5));
    assert_eq!((red.projected, blue.projected), (6, 8));
}

#[test]
fn biggest_swarm_set_takes_the_largest_and_is_empty_without_fish() {
    assert_eq!(biggest_swarm_set(Bitboard::EMPTY), Bitboard::EMPTY);
    let two = Bitboard::at(0, 0) | Bitboard::at(5, 5) | Bitboard::at(6, 6);
    assert_eq!(
        biggest_swarm_set(two),
        Bitboard::at(5, 5) | Bitboard::at(6, 6)
    );
    let s = State::from_letters(ISSUE_38, 50).unwrap();
    let blue = biggest_swarm_set(s.board().fish_of(Color::Blue));
    let want = Bitboard::at(5, 5) | Bitboard::at(5, 4) | Bitboard::at(4, 3) | Bitboard::at(4, 2);
    assert_eq!(blue, want);
}

/// The `join` term counts although the default weights (0) skip computing it: along
/// random games, the evaluation with `join` = 7 differs from the one with 0 by exactly
/// 7 × the difference of the full features' `join`, whatever the cache holds.
#[test]
fn the_join_term_counts_when_weighted() {
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
    let (zero, seven) = (
        EvalParams::V4,
        EvalParams {
            join: 7,
            ..EvalParams::V4
        },
    );
    assert_eq!(zero.join, 0);
    let mut nonzero = 0;
    for _ in 0..20 {
        let mut s = State::start(crate::kraken::random_pair(&mut rng));
        for _ in 0..40 {
            let Some(&m) = s.legal_moves().choose(&mut rng) else {
                break;
            };
            s = s.apply(m).unwrap();
            let me = s.current();
            let j = |c: Color| features(s.board().fish_of(c)).join as i32;
            let want = -7 * (j(me) - j(me.other()));
            // Lean entries first, then the weighted evaluation must not take them.
            let base = evaluate(&s, &zero);
            assert_eq!(evaluate(&s, &seven) - base, want, "{s}");
            nonzero += i32::from(want != 0);
        }
    }
    assert!(nonzero > 100, "{nonzero}");
}
