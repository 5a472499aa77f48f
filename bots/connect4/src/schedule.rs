//! The round-robin schedule of a season (spec §8.4): the circle method, home and away.

/// One side of a scheduled game: a participant (index into the season's list) or the bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// The participant with this index.
    Player(usize),
    /// The bye ("CoffeeBreak"): the game is not played and counts as a win for the other side.
    Bye,
}

/// The matchdays of a season for `n` participants: `2(m − 1)` matchdays of `m/2` games, where
/// `m` is `n` rounded up to even (the bye fills the last place). Each game is `(home, away)`;
/// home moves first. The second round repeats the first with home and away swapped.
pub fn season(n: usize) -> Vec<Vec<(Slot, Slot)>> {
    if n == 0 {
        return Vec::new();
    }
    let m = n + n % 2;
    let slot = |i: usize| if i < n { Slot::Player(i) } else { Slot::Bye };
    let mut first = Vec::with_capacity(m - 1);
    for k in 0..m - 1 {
        // L0 = P0, Li = P(1 + ((k + i − 1) mod (m − 1))) for i ≥ 1.
        let list: Vec<usize> = (0..m)
            .map(|i| if i == 0 { 0 } else { 1 + (k + i - 1) % (m - 1) })
            .collect();
        first.push(
            (0..m / 2)
                .map(|j| (slot(list[j]), slot(list[m - 1 - j])))
                .collect::<Vec<_>>(),
        );
    }
    let second: Vec<Vec<(Slot, Slot)>> = first
        .iter()
        .map(|day| day.iter().map(|&(h, a)| (a, h)).collect())
        .collect();
    first.into_iter().chain(second).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn every_pair_meets_twice_once_at_home() {
        for n in 1..=9 {
            let days = season(n);
            let m = n + n % 2;
            assert_eq!(days.len(), 2 * (m - 1));
            let mut seen: HashMap<(Slot, Slot), usize> = HashMap::new();
            for day in &days {
                assert_eq!(day.len(), m / 2);
                let mut on_day = std::collections::HashSet::new();
                for &(h, a) in day {
                    assert!(
                        on_day.insert(h) && on_day.insert(a),
                        "someone plays twice on a day"
                    );
                    *seen.entry((h, a)).or_default() += 1;
                }
            }
            assert_eq!(seen.len(), m * (m - 1));
            assert!(seen.values().all(|&c| c == 1));
        }
    }

    #[test]
    fn reproduces_the_recorded_season() {
        // season3 (three players, the bye as P3) with P0 = alice, P1 = carol, P2 = bob.
        // Recorded game order: carol-bob, alice-carol, alice-bob, then the second round
        // bob-carol, carol-alice, bob-alice.
        let names = ["alice", "carol", "bob"];
        let games: Vec<(&str, &str)> = season(3)
            .into_iter()
            .flatten()
            .filter_map(|g| match g {
                (Slot::Player(h), Slot::Player(a)) => Some((names[h], names[a])),
                _ => None,
            })
            .collect();
        assert_eq!(
            games,
            vec![
                ("carol", "bob"),
                ("alice", "carol"),
                ("alice", "bob"),
                ("bob", "carol"),
                ("carol", "alice"),
                ("bob", "alice")
            ]
        );
    }
}
