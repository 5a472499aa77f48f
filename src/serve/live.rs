//! Live updates: a task polls the record folders and bumps a generation number when anything
//! changed; `/events` streams that number as server-sent events (`event: records`), first the
//! current one, then each new one. Pages remember the generation they were drawn at and fetch
//! fresh data when the stream says otherwise, so a change between page load and connect is
//! not lost.

use super::routes::AppState;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::Stream;
use std::convert::Infallible;
use std::time::Duration;

/// Polls the folders every `every` and announces changes; runs until the server stops.
pub async fn watch(state: AppState, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let st = state.clone();
        let changed = tokio::task::spawn_blocking(move || st.store().refresh())
            .await
            .unwrap_or(false);
        if changed {
            state.generation.send_modify(|g| *g += 1);
            tracing::debug!("records changed: generation {}", *state.generation.borrow());
        }
    }
}

/// `GET /events`: the generation now, then every change.
pub async fn events(
    State(state): State<AppState>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let mut rx = state.generation.subscribe();
    rx.mark_changed();
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.changed().await.ok()?;
        let g = *rx.borrow_and_update();
        Some((
            Ok(Event::default().event("records").data(g.to_string())),
            rx,
        ))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}
