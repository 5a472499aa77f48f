//! Thinking on the opponent's time: after our move the agent searches the position the
//! opponent now faces ([`Agent::ponder`]), so that its tables are warm when our next move is
//! asked for. The search is stopped, and waited for, before the client thinks again.

use super::Shared;
use kibitz_piranhas::game_impl::Piranhas;
use kibitz_piranhas::State;
use kibitz_search::agent::View;
use kibitz_search::time::TimeControl;
use std::sync::Arc;
use std::time::Duration;

/// Longest a ponder search runs if nothing stops it: past the server's 10 s hard limit, so
/// only a silent server ends it this way.
pub const PONDER_CAP: Duration = Duration::from_secs(12);

/// Longest the client waits for a stopped ponder search to let go of the agent (the search
/// polls its clock every few hundred nodes, about a millisecond). Counts against the move's
/// own clock; should the search not have let go by then, the move falls back as for an
/// agent still busy.
pub const STOP_WAIT: Duration = Duration::from_millis(100);

/// The ponder search under way, if any.
#[derive(Default)]
pub struct Ponder {
    running: Option<(TimeControl, tokio::task::JoinHandle<()>)>,
}

impl Ponder {
    /// Starts pondering `next` (the position after our move) for `seat`, unless the game
    /// is over there or the agent is busy (an overrunning search still holds it).
    pub fn start(&mut self, agent: &Shared, next: State, seat: usize) {
        if next.result().is_some() {
            return;
        }
        let tc = TimeControl::new(PONDER_CAP, PONDER_CAP);
        let clock = tc.clone();
        let a = Arc::clone(agent);
        let task = tokio::task::spawn_blocking(move || {
            if let Ok(mut a) = a.try_lock() {
                let game = Piranhas(next);
                a.ponder(&View::new(&game, seat), &clock);
            }
        });
        self.running = Some((tc, task));
    }

    /// Stops the ponder search and waits (at most [`STOP_WAIT`]) until it has let go of the
    /// agent. Returns whether it has (true when nothing was running).
    pub async fn stop(&mut self) -> bool {
        let Some((tc, task)) = self.running.take() else {
            return true;
        };
        tc.stop();
        match tokio::time::timeout(STOP_WAIT, task).await {
            Ok(Ok(())) => true,
            Ok(Err(e)) => {
                tracing::error!("the ponder search crashed: {e}");
                true
            }
            Err(_) => {
                tracing::warn!(
                    "the ponder search did not stop within {} ms",
                    STOP_WAIT.as_millis()
                );
                false
            }
        }
    }
}
