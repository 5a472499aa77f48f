//! The tournament entry point plays real games over HTTP and reports consistent standings.

#[test]
fn tournament_plays_games_and_every_entrant_gets_a_row() {
    let rows = kibitz_bots_koehandel::tournament::run(&kibitz_net::tournament::Options {
        games: 4,
        seed: 1,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(rows.len(), 4);
    let games = rows[0].games;
    assert_eq!(games, 4, "a fixed number of games");
    assert!(rows.iter().any(|r| r.player == "kibitz"));
    let mut points = 0.0;
    for r in &rows {
        assert_eq!(r.games, games, "{}", r.player);
        assert_eq!(r.wins + r.draws + r.losses, r.games);
        assert!(r.note.contains("avg score"));
        points += r.points;
    }
    assert!(
        (points - f64::from(games)).abs() < 1e-9,
        "one point per game"
    );
}
