//! The bot client drives the engine's agents exactly as the in-process runner does: a game
//! through the market with our endpoints (each agent answering from the view it builds from
//! the messages) ends as the same game played in process with the same seeds.

use kibitz_bots_koehandel::client::Bot;
use kibitz_bots_koehandel::server::{Entrant, Market, MarketConfig};
use kibitz_koehandel::runner::play_game;
use kibitz_koehandel::{make_agent, Game, KhAgent};
use kibitz_search::seed::mix;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_client_plays_as_the_engine_plays_in_process() {
    let tables = [
        ["heuristic", "random", "heuristic:rate=0.5", "random"],
        ["strong:worlds=2:particles=8", "heuristic", "random", "pass"],
    ];
    for specs in tables {
        let market = Market::new(MarketConfig {
            deadline: Duration::from_secs(5),
            ..MarketConfig::default()
        });
        let bots = specs.map(|s| Entrant::Local(Arc::new(Bot::new(s).unwrap())));
        let wire = market.play(bots.to_vec()).await.unwrap();
        // Each session's agent is seeded from the bot's base seed (1), the market and its id.
        let seeds: Vec<u64> = wire
            .ids
            .iter()
            .map(|&id| mix(mix(1, wire.market), id))
            .collect();
        let mut agents: Vec<KhAgent> = specs
            .iter()
            .zip(&seeds)
            .map(|(s, &seed)| make_agent(s, seed).unwrap())
            .collect();
        let local = play_game(Game::new(wire.seed), &mut agents, &seeds);
        assert_eq!(wire.scores, Some(local.scores), "{specs:?}");
        assert_eq!(wire.turns, local.turns, "{specs:?}");
        // Defaults count alike except a `pass` seat's: on the wire its empty reply to a bid
        // is read as a pass (no default), in process `Answer::None` counts one.
        for (s, spec) in specs.iter().enumerate().filter(|(_, s)| **s != "pass") {
            assert_eq!(wire.stats[s], local.stats[s], "{spec} at seat {s}");
        }
    }
}
