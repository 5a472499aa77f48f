//! `tournament::run` over real TCP with short matches: every bot gets a row, the books balance,
//! and our bot takes no penalty cards.

#[test]
fn tournament_reports_every_bot() {
    let rows = kibitz_bots_maumau::tournament::run(&kibitz_net::tournament::Options {
        games: 1,
        seed: 7,
        ..Default::default()
    })
    .expect("tournament");
    for r in &rows {
        println!(
            "{:<14} {:>2} games {:>2} wins  {}",
            r.player, r.games, r.wins, r.note
        );
    }
    assert_eq!(rows.len(), 4);
    let wins: u32 = rows.iter().map(|r| r.wins).sum();
    let losses: u32 = rows.iter().map(|r| r.losses).sum();
    assert_eq!(wins, losses, "every game has one winner and one loser");
    assert!(wins >= 1, "at least one game was played");
    assert!(rows[0].note.starts_with("champion"));
    let ours = rows.iter().find(|r| r.player == "kibitz").expect("our bot");
    assert!(ours.note.contains("penalties 0"), "{}", ours.note);
}
